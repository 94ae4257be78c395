"""The module and pmuencode --json give the same JSON for the same specs (a property test over
generated specs, plus fixed ones)."""

import json
import os
import random
import subprocess

import pytest

import pmucat

PMUENCODE = os.environ.get("PMUCAT_PMUENCODE")

FIXED = [
    "cpu/event=0x3c/",
    "cpu/event=0x3c,umask=0x1/u",
    "cycles:k",
    "{cycles,instructions}:u",
    "cpu/event=0xd1,umask=0x8/pp",
    "cpu/event=0x3c,name=foo,period=1000/",
    "cpu-cycles",
    "uncore_cha/event=0x1/",
    "msr/tsc/",
]

MODIFIERS = ["", ":u", ":k", ":uk", ":p", ":pp", ":H", ":G", ":S", ":D"]


def generated_specs(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        event = rng.randrange(0, 256)
        umask = rng.randrange(0, 256)
        terms = [f"event={event:#x}"]
        if rng.random() < 0.6:
            terms.append(f"umask={umask:#x}")
        if rng.random() < 0.3:
            terms.append(f"cmask={rng.randrange(0, 16)}")
        if rng.random() < 0.2:
            terms.append("inv")
        if rng.random() < 0.2:
            terms.append(f"period={rng.randrange(1, 100000)}")
        yield "cpu/" + ",".join(terms) + "/" + rng.choice(MODIFIERS)


def cli_json(sysfs: str, spec: str):
    run = subprocess.run([PMUENCODE, "--sysfs", sysfs, "--json", spec], capture_output=True,
                         text=True, check=False)
    return run.returncode, run.stdout


@pytest.mark.skipif(not PMUENCODE, reason="PMUCAT_PMUENCODE (the built pmuencode) not set")
@pytest.mark.parametrize("spec", FIXED + list(generated_specs(18, 40)))
def test_module_equals_cli(spr, fixtures, spec):
    sysfs = str(fixtures / "intel-spr")
    status, out = cli_json(sysfs, spec)
    try:
        module = [e.to_dict() for e in spr.encode(spec)]
    except pmucat.Error:
        assert status != 0, f"the CLI encodes {spec!r} but the module fails"
        return
    assert status == 0, f"the module encodes {spec!r} but the CLI fails"
    assert module == json.loads(out)
    # Same key order too: the JSON text is identical.
    assert json.dumps(module, indent=2) == json.dumps(json.loads(out), indent=2)
