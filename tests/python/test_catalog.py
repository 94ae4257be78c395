"""Catalog, PMUs, formats, events, encode, decode and errors."""

import threading

import pytest

import pmucat


def test_issue_command(spr):
    events = spr.encode("cpu/event=0x3c/")
    assert len(events) == 1
    e = events[0]
    assert e.type == 4 and e.config == 0x3C and e.config3 == 0
    assert e.pmu == "cpu"
    assert e.perf_string.startswith("cpu/")
    assert "EncodedEvent" in repr(e)


def test_attr_fields(spr):
    (e,) = spr.encode("cpu/event=0x3c,umask=0x1/u")
    assert e.config == 0x13C
    assert e.exclude_kernel and e.exclude_hv and not e.exclude_user
    assert e.attr["exclude_kernel"] is True
    assert e.attr["config1"] == 0
    assert set(["sample_period", "precise_ip", "sig_data", "config3"]) <= set(e.attr)
    with pytest.raises(AttributeError):
        e.no_such_field


def test_to_bytes_sizes(spr):
    (e,) = spr.encode("cpu/event=0x3c/k")
    for size in (64, 72, 80, 96, 104, 112, 120, 128, 136):
        image = e.to_bytes(size=size)
        assert len(image) == size
        assert int.from_bytes(image[0:4], "little") == 4
        assert int.from_bytes(image[4:8], "little") == size
        assert int.from_bytes(image[8:16], "little") == 0x3C
    with pytest.raises(pmucat.Error) as info:
        e.to_bytes(size=100)
    assert info.value.id == "api-attr-size"


def test_config3_needs_ver8(fixtures):
    arm = pmucat.Catalog.open(sysfs=str(fixtures / "arm-neoverse"))
    (e,) = arm.encode("arm_spe_0/inv_event_filter=0x2/")
    assert e.config3 == 2
    assert len(e.to_bytes()) == 136
    with pytest.raises(pmucat.Error) as info:
        e.to_bytes(size=128)
    assert "config3" in str(info.value)


def test_error_is_located_and_rendered(spr):
    with pytest.raises(pmucat.Error) as info:
        spr.encode("cpu/evnt=1/")
    error = info.value
    d = error.diagnostic
    assert d["file"] == "<spec>" and d["line"] == 1 and d["column"] == 5
    assert d["severity"] == "error" and d["id"]
    text = str(error)
    assert text.startswith("<spec>:1:5: error: ")
    assert "^" in text
    assert error.id == d["id"]


def test_open_errors(fixtures):
    with pytest.raises(pmucat.Error) as info:
        pmucat.Catalog.open(sysfs=str(fixtures / "does-not-exist"))
    assert info.value.id.startswith("catalog-")
    assert "does-not-exist" in str(info.value)


def test_bad_options(spr):
    with pytest.raises(pmucat.Error) as info:
        spr.encode("cycles", semantics="nope")
    assert info.value.id == "api-invalid-argument"
    # A perf release pmucat does not follow is an error, never the nearest one's semantics.
    for unknown in ("perf-7.1", "perf-6", "perf-6.12x", "6.12"):
        with pytest.raises(pmucat.Error) as info:
            spr.encode("cycles", semantics=unknown)
        assert info.value.id == "api-invalid-argument", unknown


def test_groups(spr):
    events = spr.encode("{cycles,instructions}:u")
    assert [e.group_leader for e in events] == [0, 0]
    assert all(e.exclude_kernel for e in events)


def test_perf_semantics(spr):
    (pmucat_e,) = spr.encode("cpu/event=0x3c/")
    (perf_e,) = spr.encode("cpu/event=0x3c/", semantics="perf")
    assert pmucat_e.size == 144 and perf_e.size == 128  # pmucat builds on perf 7.3
    (perf61_e,) = spr.encode("cpu/event=0x3c/", semantics="perf-6.1")
    assert perf61_e.size == 128
    # perf 6.12: attr size 136, and `cycles` in a PMU's terms is the legacy hardware event.
    (perf612_e,) = spr.encode("cpu/cycles/", semantics="perf-6.12")
    assert perf612_e.size == 136 and perf612_e.type == 0 and perf612_e.config == 0
    with pytest.raises(pmucat.Error):
        spr.encode("cpu/cycles/", semantics="perf")


def test_value_wider_than_its_field_raises(spr):
    # `event` is config:0-7 on the fixture's cpu PMU: 0x423 does not fit, as pmuencode says.
    with pytest.raises(pmucat.Error) as caught:
        spr.encode("cpu/event=0x423/")
    assert "value-too-big" in str(caught.value)
    assert "0x423" in str(caught.value)


def test_extended_type_on_a_hybrid_tree(fixtures):
    adl = pmucat.Catalog.open(sysfs=str(fixtures / "intel-adl-hybrid"))
    both = adl.encode("cycles", semantics="perf-6.12")
    assert [e.config for e in both] == [0xA00000000, 0x400000000]
    (once,) = adl.encode("cycles", semantics="perf-6.12", extended_type="unsupported")
    assert once.type == 0 and once.config == 0
    assert len(adl.encode("cycles", semantics="perf-6.12", extended_type="probe")) in (1, 2)
    with pytest.raises(pmucat.Error):
        adl.encode("cycles", extended_type="maybe")


def test_pmus_and_parts(spr):
    names = [p.name for p in spr.pmus()]
    assert "cpu" in names and names.index("uncore_cha_2") < names.index("uncore_cha_3")
    cpu = spr.pmu("cpu")
    assert cpu.type == 4 and cpu.kind == "core"
    fmt = {f.name: f.spec for f in cpu.formats}
    assert fmt["event"] == "config:0-7"
    events = {e.name: e for e in cpu.events}
    assert events["cpu-cycles"].terms == "event=0x3c"
    assert events["cpu-cycles"].source == "sysfs"
    assert events["cpu-cycles"].to_dict()["provenance"]["file"].endswith("cpu-cycles")
    assert cpu.event("CPU-CYCLES").name == "cpu-cycles"
    assert cpu.event("no-such-event") is None
    with pytest.raises(KeyError):
        spr.pmu("no_such_pmu")


def test_decode(spr):
    d = spr.decode("cpu", config=0x13C)
    assert d.terms_string == "event=0x3c,umask=0x1"
    assert ("event", 0x3C) in d.terms
    assert d.to_dict()["residue"] == [0, 0, 0, 0, 0]
    with pytest.raises(pmucat.Error):
        spr.decode("no_such_pmu", config=1)


def test_vendor_events_have_descriptions(fixtures):
    import os
    events_dir = os.environ.get("PMUCAT_TEST_EVENTS_DIR")
    if not events_dir:
        pytest.skip("no vendor JSON tree configured (PMUCAT_TEST_EVENTS_DIR)")
    catalog = pmucat.Catalog.open(sysfs=str(fixtures / "intel-spr"), events_dir=events_dir,
                                  cpuid="GenuineIntel-6-8F-0")
    cpu = catalog.pmu("cpu")
    json_events = [e for e in cpu.events if e.source != "sysfs"]
    assert json_events
    assert any(e.description for e in json_events)
    assert all(e.provenance["line"] > 0 for e in json_events if e.source == "json")


def test_threads_encode_in_parallel(spr):
    specs = ["cpu/event=0x3c/", "cpu/event=0xc0,umask=0x0/u", "cycles:k", "instructions",
             "cpu/event=0x3c,umask=0x1/pp"]
    expected = {s: [e.to_dict() for e in spr.encode(s)] for s in specs}
    errors = []

    def work(offset: int) -> None:
        try:
            for i in range(300):
                s = specs[(i + offset) % len(specs)]
                got = [e.to_dict() for e in spr.encode(s)]
                if got != expected[s]:
                    errors.append((s, got))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_help_reads_well():
    assert pmucat.__doc__ and "Catalog.open" in pmucat.__doc__
    assert pmucat.Catalog.encode.__doc__ and "GIL" in pmucat.Catalog.encode.__doc__
    for name in pmucat.__all__:
        obj = getattr(pmucat, name)
        if callable(obj):
            assert obj.__doc__, name
