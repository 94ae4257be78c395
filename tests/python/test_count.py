"""Counting from Python: a command's execs and page faults, each value graded (skipped where this
kernel does not let the user open perf events), and the arguments refused."""

import pytest

import pmucat


def _live():
    return pmucat.Catalog.open(sysfs="/sys/bus/event_source/devices", events_dir="")


def _session(catalog, spec, **target):
    try:
        return catalog.count(spec, **target)
    except pmucat.Error as error:
        # A chroot whose /sys is a bind mount of the host's has no tracefs under it.
        if error.diagnostic["id"] in ("count-open-denied", "count-nothing-opened",
                                      "tracepoint-no-tracefs"):
            pytest.skip(f"cannot count here: {error}")
        raise


def test_counts_a_command():
    session = _session(_live(), "page-faults,task-clock", command=["sh", "-c", "exit 3"])
    session.start()
    assert session.wait() == 3
    values = session.read()
    assert [v["event"] for v in values] == ["page-faults", "task-clock"]
    assert values[0]["value"] > 0 and values[0]["running_ns"] > 0
    assert values[1]["value"] > 0


def test_counts_the_tracepoints_of_a_command():
    session = _session(_live(), "sched:sched_process_exec,page-faults",
                       command=["sh", "-c", "exit 3"])
    session.start()
    assert session.wait() == 3
    values = session.read()
    assert [v["event"] for v in values] == ["sched:sched_process_exec", "page-faults"]
    assert values[0]["value"] == 1
    assert values[0]["grades"] == [("exact", "")]
    assert values[1]["value"] > 0 and values[1]["running_ns"] > 0


def test_wait_before_start_is_refused():
    session = _session(_live(), "page-faults", command=["true"])
    with pytest.raises(pmucat.Error):
        session.wait()
    session.start()
    assert session.wait() == 0


def test_command_not_found_raises_after_the_wait():
    session = _session(_live(), "page-faults", command=["pmucat-no-such-command"])
    session.start()
    with pytest.raises(pmucat.Error) as raised:
        session.wait()
    assert raised.value.diagnostic["id"] == "count-command-failed"


def test_arguments():
    catalog = pmucat.Catalog.open(sysfs="fixtures/sysfs/intel-spr")
    with pytest.raises(pmucat.Error):
        catalog.count("cpu/event=0x3c/")  # no target
    with pytest.raises(pmucat.Error) as raised:
        catalog.count("cpu/event=0x3c/", cpus="0-x")
    assert raised.value.diagnostic["id"] == "cpulist-syntax"
    with pytest.raises(pmucat.Error) as missing:
        catalog.count("cpu/event=0x3c/", pid=2147483600)
    assert missing.value.diagnostic["id"] == "count-target-invalid"
