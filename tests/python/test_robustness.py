"""Bad input to the module raises pmucat.Error (naming the argument), never another exception or
a crash; bytes that are not UTF-8 come back as surrogate escapes; paths with a NUL are refused;
Catalog.open reads the tables the tools read (issue 40)."""

import json
import os
import pickle
import struct
import subprocess
import threading

import pytest

import pmucat
from pmucat import _core

PMUENCODE = os.environ.get("PMUCAT_PMUENCODE")
BUILT_INDEX = os.environ.get("PMUCAT_BUILT_EVENTS_INDEX")
SPR_CPUID = "GenuineIntel-6-8F-8"


def _invalid_argument(call, *names):
    """Runs `call`, which must raise pmucat.Error api-invalid-argument naming each of `names`."""
    with pytest.raises(pmucat.Error) as info:
        call()
    assert info.value.id == "api-invalid-argument", str(info.value)
    for name in names:
        assert name in str(info.value)
    return info.value


# --- paths: a NUL is refused, naming the argument ---------------------------------------------

def test_nul_in_a_path_is_refused(fixtures, spr, tmp_path):
    tree = str(fixtures / "intel-spr")
    error = _invalid_argument(lambda: pmucat.Catalog.open(sysfs=tree + "\0junk"), "'sysfs'", "NUL")
    assert tree in str(error)  # what the system would have read instead
    _invalid_argument(lambda: pmucat.Catalog.open(sysfs=os.fsencode(tree) + b"\0"), "'sysfs'")
    _invalid_argument(lambda: pmucat.Catalog.open(sysfs=tree, events_dir=tree + "\0"),
                      "'events_dir'")
    _invalid_argument(lambda: spr.encode("cycles", tracefs="/sys/kernel/tracing\0x"), "'tracefs'")
    _invalid_argument(lambda: pmucat.check(tree + "\0junk"), "'tree'")
    _invalid_argument(lambda: pmucat.perfdata.read(str(tmp_path / "perf.data") + "\0x"), "'path'")
    _invalid_argument(lambda: _core._read_perf_data_whole("perf.data\0x"), "'path'")


def test_paths_take_str_bytes_and_pathlike(fixtures):
    for tree in (fixtures / "intel-spr", str(fixtures / "intel-spr"),
                 os.fsencode(fixtures / "intel-spr")):
        assert pmucat.Catalog.open(sysfs=tree).pmu("cpu").type == 4
    _invalid_argument(lambda: pmucat.Catalog.open(sysfs=5), "'sysfs'", "int")
    _invalid_argument(lambda: pmucat.perfdata.read(None), "'path'", "NoneType")


# --- wrong types and values: pmucat.Error naming the argument ---------------------------------

def test_wrong_types_and_ranges_raise_pmucat_error(spr):
    _invalid_argument(lambda: spr.encode(5), "'spec'", "int")
    _invalid_argument(lambda: spr.encode(None), "'spec'")
    _invalid_argument(lambda: spr.encode("cycles", semantics=None), "'semantics'")
    _invalid_argument(lambda: spr.encode("cycles", tool=1), "'tool'")
    _invalid_argument(lambda: spr.encode("cycles", extended_type=[]), "'extended_type'")
    _invalid_argument(lambda: spr.encode("cycles", default_pmu=3), "'default_pmu'")
    _invalid_argument(lambda: spr.pmu(4), "'name'")
    _invalid_argument(lambda: spr.pmu("cpu").event(4.5), "'name'")
    _invalid_argument(lambda: pmucat.Catalog.open(sysfs=None, cpuid=7), "'cpuid'")
    for bad in (-1, 2 ** 64, 2 ** 200):
        _invalid_argument(lambda: spr.decode("cpu", config=bad), "'config'", str(bad))
    _invalid_argument(lambda: spr.decode("cpu", config3=1.5), "'config3'", "float")
    _invalid_argument(lambda: spr.decode(None), "'pmu'")
    assert spr.decode("cpu", config=2 ** 64 - 1).terms  # the top of the range is taken
    (e,) = spr.encode("cpu/event=0x3c/")
    _invalid_argument(lambda: e.to_bytes(size=-8), "'size'")
    _invalid_argument(lambda: e.to_bytes(size="136"), "'size'", "str")
    with pytest.raises(pmucat.Error) as info:
        e.to_bytes(size=2 ** 40)
    assert info.value.id == "api-attr-size"
    with pytest.raises(AttributeError):
        getattr(e, "no_such_field\udcff")


def test_check_arguments(spr):
    _invalid_argument(lambda: pmucat.check(spr, pmus="cpu"), "'pmus'", "['cpu']")
    _invalid_argument(lambda: pmucat.check(spr, pmus=[1]), "'pmus[0]'")
    _invalid_argument(lambda: pmucat.check(spr, enable=5), "'enable'")
    _invalid_argument(lambda: pmucat.check(spr, disable=b"x"), "'disable'")
    _invalid_argument(lambda: pmucat.check(spr, werror="yes"), "'werror'")
    for jobs in (-1, 257, 2 ** 70, 1.0):
        _invalid_argument(lambda: pmucat.check(spr, jobs=jobs), "'jobs'")
    _invalid_argument(lambda: pmucat.check(3.5), "'tree'")
    # A Catalog keeps its own tables: events_dir or cpuid beside one would be ignored.
    _invalid_argument(lambda: pmucat.check(spr, cpuid=SPR_CPUID), "'cpuid'", "Catalog")
    _invalid_argument(lambda: pmucat.check(spr, events_dir=""), "'events_dir'")
    assert pmucat.check(spr, pmus=("cpu",), jobs=256).findings is not None
    report = pmucat.check(spr, pmus=["cpu"])
    _invalid_argument(lambda: report.render_kcidb(origin=5), "'origin'")


def test_nul_in_a_spec_is_refused(spr):
    # The parser would stop at the NUL and encode "cpu/event=0x3c/" alone.
    _invalid_argument(lambda: spr.encode("cpu/event=0x3c/\0,junk"), "'spec'", "offset 15")


def test_spec_length_is_capped(spr):
    error = _invalid_argument(lambda: spr.encode("x" * 131073), "'spec'", "131072")
    assert len(str(error)) < 1000  # the spec is not repeated in the message
    with pytest.raises(pmucat.Error) as info:  # at the cap: the parser's own error
        spr.encode("x" * 131072)
    assert info.value.id != "api-invalid-argument"


def test_lone_surrogates_that_are_not_escaped_bytes_are_refused(spr):
    _invalid_argument(lambda: spr.encode("cpu/event=0x3c/\ud800"), "'spec'", "surrogate")
    _invalid_argument(lambda: spr.pmu("\udfff"), "'name'")


# --- bytes that are not UTF-8 ------------------------------------------------------------------

def _tree_with_bad_names(root):
    """A devices folder whose PMU and event names are not UTF-8 (b'\\xff', b'\\xfe')."""
    devices = os.fsencode(root / "devices")
    pmu = os.path.join(devices, b"cpu\xff")
    os.makedirs(os.path.join(pmu, b"format"))
    os.makedirs(os.path.join(pmu, b"events"))
    with open(os.path.join(pmu, b"type"), "w") as f:
        f.write("4\n")
    with open(os.path.join(pmu, b"format", b"event"), "w") as f:
        f.write("config:0-7\n")
    with open(os.path.join(pmu, b"events", b"cycles\xfe"), "w") as f:
        f.write("event=0x3c\n")
    with open(os.path.join(pmu, b"events", b"broken\xfd"), "wb") as f:
        f.write(b"evnt=0x\xfc\n")
    return devices


def test_non_utf8_names_in_a_tree_come_back_escaped(tmp_path):
    devices = _tree_with_bad_names(tmp_path)
    catalog = pmucat.Catalog.open(sysfs=devices)
    (pmu,) = catalog.pmus()
    assert pmu.name == "cpu\udcff"
    assert os.fsencode(pmu.name) == b"cpu\xff"
    assert os.fsencode(pmu.path).endswith(b"/cpu\xff")
    assert "cpu\udcff" in repr(pmu)
    assert catalog.pmu("cpu\udcff").name == pmu.name   # the escaped str finds it again
    assert catalog.pmu(b"cpu\xff").name == pmu.name    # and so do the bytes
    with pytest.raises(KeyError):
        catalog.pmu("cpu\udcfe")
    names = sorted(e.name for e in pmu.events)
    assert names == ["broken\udcfd", "cycles\udcfe"]
    assert pmu.event(b"cycles\xfe").terms == "event=0x3c"
    broken = pmu.event("broken\udcfd")
    assert broken.terms == "evnt=0x\udcfc"
    assert broken.diagnostics and all(isinstance(d["message"], str) for d in broken.diagnostics)
    json.dumps([e.to_dict() for e in pmu.events])  # serialisable (escapes as \\udcxx)
    # perf's lexer takes no such byte in a PMU name: a located error, its line escaped.
    with pytest.raises(pmucat.Error) as info:
        catalog.encode("cpu\udcff/event=0x3c/")
    assert info.value.id == "spec-bad-pmu-name"
    assert "0xff" in str(info.value)
    assert catalog.decode(b"cpu\xff", config=0x3C).events == ["cycles\udcfe"]


def test_non_utf8_names_in_a_check_report(tmp_path):
    devices = _tree_with_bad_names(tmp_path)
    report = pmucat.check(devices)
    assert report.findings
    assert any("\udcff" in f.pmu or "\udcfd" in f.file for f in report.findings)
    for finding in report.findings:
        str(finding)
        json.dumps(finding.to_dict())
    for text in (report.render_text(), report.render_ktap(), report.render_junit()):
        assert isinstance(text, str)
    # The JSON renderers either escape the bytes or fail as pmucat.Error, never otherwise.
    for render in (report.render_json, lambda: report.render_kcidb(run_id="r1")):
        try:
            assert isinstance(render(), str)
        except pmucat.Error:
            pass


def _perf_data_with_hostname(tmp_path, fixtures):
    if not PMUENCODE:
        pytest.skip("PMUCAT_PMUENCODE not set")
    path = tmp_path / "perf.data"
    subprocess.run([PMUENCODE, "--sysfs", str(fixtures / "intel-spr"), "-o", str(path),
                    "cpu/event=0x3c/u"], check=True, capture_output=True)
    return path


def _feature_section(data, feature):
    """(offset, size) of feature bit `feature`'s section in a file-mode perf.data."""
    data_offset, data_size = struct.unpack_from("<QQ", data, 40)
    bitmap = int.from_bytes(data[72:104], "little")
    assert bitmap >> feature & 1, "no such feature in the file"
    index = bin(bitmap & ((1 << feature) - 1)).count("1")
    return struct.unpack_from("<QQ", data, data_offset + data_size + 16 * index)


def test_non_utf8_hostname_in_perf_data_comes_back_escaped(tmp_path, fixtures):
    path = _perf_data_with_hostname(tmp_path, fixtures)
    data = bytearray(path.read_bytes())
    offset, size = _feature_section(data, 3)  # HOSTNAME: u32 length, then the padded string
    length = struct.unpack_from("<I", data, offset)[0]
    assert 0 < length <= size - 4
    data[offset + 4] = 0xFF
    data[offset + 5] = 0xC3  # a truncated two-byte sequence: 0xc3 then not a continuation
    path.write_bytes(bytes(data))
    read = pmucat.perfdata.read(path)
    hostname = read.features["HOSTNAME"]
    assert isinstance(hostname, str)
    raw = os.fsencode(hostname)
    assert raw[:2] == b"\xff\xc3"
    assert hostname.startswith("\udcff\udcc3")
    assert sum(1 for _ in read.records()) == len(read)


# --- errors the library throws reach Python as pmucat.Error -----------------------------------

def test_every_error_is_a_pmucat_error(spr):
    for call in (lambda: spr.encode("{{{{{{"),
                 lambda: spr.encode(""),
                 lambda: spr.decode("cpu\0", config=1),
                 lambda: pmucat.perfdata.read("/nonexistent/perf.data"),
                 lambda: pmucat.Catalog.open(sysfs="")):
        with pytest.raises(pmucat.Error):
            call()


# --- Catalog.open reads the tables the tools read ----------------------------------------------

@pytest.fixture
def no_vendor_env(monkeypatch):
    monkeypatch.delenv("PMUCAT_EVENTS_DIR", raising=False)
    monkeypatch.delenv("PMUCAT_CPUID", raising=False)


def test_open_with_a_cpuid_uses_the_installed_tables(fixtures, no_vendor_env):
    if not BUILT_INDEX:
        pytest.skip("this build has no vendor tables")
    catalog = pmucat.Catalog.open(sysfs=str(fixtures / "intel-spr"), cpuid=SPR_CPUID)
    event = catalog.pmu("cpu").event("mem_load_retired.l3_miss")
    assert event is not None and event.source == "json"
    (encoded,) = catalog.encode("mem_load_retired.l3_miss")
    if PMUENCODE:
        cli = subprocess.run([PMUENCODE, "--sysfs", str(fixtures / "intel-spr"), "--cpuid",
                              SPR_CPUID, "--json", "mem_load_retired.l3_miss"],
                             check=True, capture_output=True, text=True)
        assert json.loads(cli.stdout)[0] == encoded.to_dict()
    # '' is sysfs only, as --events-dir '' is.
    sysfs_only = pmucat.Catalog.open(sysfs=str(fixtures / "intel-spr"), events_dir="")
    assert sysfs_only.pmu("cpu").event("mem_load_retired.l3_miss") is None


def test_a_cpuid_without_tables_is_an_error(fixtures, no_vendor_env, monkeypatch):
    tree = str(fixtures / "intel-spr")
    error = _invalid_argument(lambda: pmucat.Catalog.open(sysfs=tree, events_dir="",
                                                          cpuid=SPR_CPUID), "cpuid", "events_dir")
    assert SPR_CPUID in str(error)
    monkeypatch.setenv("PMUCAT_EVENTS_DIR", "")
    _invalid_argument(lambda: pmucat.Catalog.open(sysfs=tree, cpuid=SPR_CPUID),
                      "$PMUCAT_EVENTS_DIR")
    assert pmucat.Catalog.open(sysfs=tree).pmu("cpu").event("mem_load_retired.l3_miss") is None


def test_an_events_dir_that_is_no_directory_is_an_error(fixtures, no_vendor_env, monkeypatch):
    tree = str(fixtures / "intel-spr")
    for events_dir in ("/nonexistent", tree + "/bus/event_source/devices/cpu/type"):
        _invalid_argument(lambda: pmucat.Catalog.open(sysfs=tree, events_dir=events_dir),
                          "events_dir", events_dir, "not a directory")
    monkeypatch.setenv("PMUCAT_EVENTS_DIR", "/nonexistent")
    _invalid_argument(lambda: pmucat.Catalog.open(sysfs=tree), "$PMUCAT_EVENTS_DIR")


# --- misuse that crashed or lost the error ----------------------------------------------------

def test_error_pickles(spr):
    with pytest.raises(pmucat.Error) as info:
        spr.encode("cpu/evnt=1/")
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is pmucat.Error
    assert str(again) == str(info.value) and again.diagnostic == info.value.diagnostic


def test_threads_sharing_one_record_iterator(tmp_path, fixtures):
    gen = os.environ.get("PMUCAT_GEN_PERFDATA")
    if gen:
        path = tmp_path / "shared.data"
        subprocess.run([gen, str(path), "2M"], check=True, capture_output=True)
    else:
        path = _perf_data_with_hostname(tmp_path, fixtures)
    data = pmucat.perfdata.read(path)
    expected = len(data)
    iterator = data.records()
    counts = []
    errors = []

    def consume():
        n = 0
        try:
            for _ in iterator:
                n += 1
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        counts.append(n)

    threads = [threading.Thread(target=consume) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sum(counts) == expected
