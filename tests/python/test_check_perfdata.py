"""pmucat.check (pmucheck's rules and renderers) and pmucat.perfdata."""

import json
import os
import subprocess
import tempfile

import pytest

import pmucat


def test_check_broken_tree(fixtures):
    report = pmucat.check(str(fixtures / "broken" / "format-grammar" / "devices"))
    assert report.findings
    f = report.findings[0]
    assert isinstance(f, pmucat.Finding)
    d = f.to_dict()
    assert set(["rule", "group", "pmu", "file", "severity", "message", "diagnostic"]) <= set(d)
    assert d["diagnostic"]["id"] == f.rule
    assert not report.ok and report.exit_status != 0
    assert report.render_ktap().startswith("KTAP version 1")
    doc = json.loads(report.render_json())
    assert doc
    assert report.render_junit().lstrip().startswith("<?xml")
    kcidb = json.loads(report.render_kcidb(origin="pmucheck", build_id="b1", run_id="r1"))
    assert "version" in kcidb
    assert "error" in report.render_text() or "warning" in report.render_text()


def test_check_clean_tree_and_options(spr):
    report = pmucat.check(spr, pmus=["cpu"])
    assert all(f.pmu in ("", "cpu") for f in report.findings)
    with pytest.raises(pmucat.Error):
        pmucat.check(spr, enable=["no-such-rule"])


def test_perfdata_roundtrip(fixtures):
    pmuencode = os.environ.get("PMUCAT_PMUENCODE")
    if not pmuencode:
        pytest.skip("PMUCAT_PMUENCODE not set")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "perf.data")
        subprocess.run([pmuencode, "--sysfs", str(fixtures / "intel-spr"), "-o", path,
                        "cpu/event=0x3c/u,cycles"], check=True, capture_output=True)
        data = pmucat.perfdata.read(path)
        assert data.mode == "file"
        assert len(data.attrs) == 2
        assert data.attrs[0].attr["config"] == 0x3C
        assert data.attrs[0].attr["exclude_kernel"] is True
        assert isinstance(data.features, dict)
        records = data.records()
        count = sum(1 for _ in records)
        assert count == len(data)
        assert all(isinstance(r, pmucat.Record) for r in data)


def test_perfdata_error(tmp_path):
    bad = tmp_path / "bad.data"
    bad.write_bytes(b"not a perf.data file at all, just text")
    with pytest.raises(pmucat.Error) as info:
        pmucat.perfdata.read(bad)
    assert info.value.diagnostic["file"].endswith("bad.data")
