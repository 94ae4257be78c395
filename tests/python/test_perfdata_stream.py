"""pmucat.perfdata streaming: records through a bounded queue from a worker thread."""

import gc
import os
import struct
import subprocess
import sys
import textwrap

import pytest

import pmucat
from pmucat import _core

GEN = os.environ.get("PMUCAT_GEN_PERFDATA")


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _generate(path, size, pipe=False):
    if not GEN:
        pytest.skip("PMUCAT_GEN_PERFDATA not set (bench target pmucat_gen_perfdata not built)")
    args = [GEN, str(path), size] + (["pipe"] if pipe else [])
    subprocess.run(args, check=True, capture_output=True)
    return path


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A 2 MiB generated file (about 30000 records: many times the queue's 256)."""
    return _generate(tmp_path_factory.mktemp("stream") / "small.data", "2M")


@pytest.fixture(scope="module")
def small_pipe(tmp_path_factory):
    return _generate(tmp_path_factory.mktemp("stream") / "small-pipe.data", "2M", pipe=True)


@pytest.mark.parametrize("which", ["small", "small_pipe"])
def test_stream_equals_whole_read(which, request):
    path = request.getfixturevalue(which)
    data = pmucat.perfdata.read(path)
    assert data.mode == ("pipe" if which == "small_pipe" else "file")
    assert len(data.attrs) == 2
    streamed = list(data.records())
    whole = _core._read_perf_data_whole(str(path))
    assert len(streamed) > 1000
    assert streamed == whole
    assert [r.offset for r in streamed] == [r.offset for r in whole]
    assert len(data) == len(whole)
    # A second records() walks the file again.
    again = data.records()
    assert next(again) == whole[0]
    assert sum(1 for _ in again) == len(whole) - 1


def test_pmuencode_file_streams(fixtures, tmp_path):
    pmuencode = os.environ.get("PMUCAT_PMUENCODE")
    if not pmuencode:
        pytest.skip("PMUCAT_PMUENCODE not set")
    path = tmp_path / "perf.data"
    subprocess.run([pmuencode, "--sysfs", str(fixtures / "intel-spr"), "-o", str(path),
                    "cpu/event=0x3c/u,cycles"], check=True, capture_output=True)
    data = pmucat.perfdata.read(path)
    assert list(data) == _core._read_perf_data_whole(str(path))


def test_early_break_stops_worker(small):
    before = _threads()
    for _ in range(5):
        data = pmucat.perfdata.read(small)
        for i, _record in enumerate(data.records()):
            if i == 10:
                break
        del data
    # An unused reader and an explicitly closed iterator stop too.
    unused = pmucat.perfdata.read(small)
    it = pmucat.perfdata.read(small).records()
    next(it)
    it.close()
    with pytest.raises(StopIteration):
        next(it)
    del unused, it
    gc.collect()
    assert _threads() == before


@pytest.mark.parametrize("which", ["small", "small_pipe"])
def test_bad_record_raises_after_good_records(which, request, tmp_path):
    path = request.getfixturevalue(which)
    whole = _core._read_perf_data_whole(str(path))
    half = len(whole) // 2
    cut = whole[half]
    image = bytearray(path.read_bytes())
    # The middle record's header claims 4 bytes: every record before it is good.
    image[cut.offset + 6 : cut.offset + 8] = struct.pack("<H", 4)
    bad = tmp_path / "bad-record.data"
    bad.write_bytes(bytes(image))
    data = pmucat.perfdata.read(bad)
    got = []
    with pytest.raises(pmucat.Error) as info:
        for record in data.records():
            got.append(record)
    assert got == whole[:half]
    assert info.value.id == "perfdata-malformed"
    assert info.value.diagnostic["file"].endswith("bad-record.data")
    assert f"at byte offset {cut.offset + 6} " in str(info.value)


def test_truncated(small, small_pipe, tmp_path):
    whole = _core._read_perf_data_whole(str(small_pipe))
    cut = whole[len(whole) // 2]
    # File mode: the header's data section does not fit the file, refused by read() itself.
    truncated = tmp_path / "truncated.data"
    truncated.write_bytes(small.read_bytes()[: cut.offset + 5])
    with pytest.raises(pmucat.Error) as info:
        pmucat.perfdata.read(truncated)
    assert "data section" in str(info.value)
    # Pipe mode: a record cut by the end of the input ends the stream, as in the whole read.
    truncated.write_bytes(small_pipe.read_bytes()[: cut.offset + 5])
    assert list(pmucat.perfdata.read(truncated).records()) == whole[: len(whole) // 2]


def test_header_error_raises_in_read(tmp_path):
    bad = tmp_path / "bad.data"
    bad.write_bytes(b"PERFILE2" + b"\0" * 20)
    with pytest.raises(pmucat.Error):
        pmucat.perfdata.read(bad)


_MEMORY_SCRIPT = textwrap.dedent(
    """
    import resource, sys
    import pmucat
    from pmucat import _core
    small, big, mode = sys.argv[1:4]
    sum(1 for _ in pmucat.perfdata.read(small).records())  # threads, arenas, imports warmed up
    with open("/proc/self/status") as f:
        vm = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
    limit = vm + (64 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if mode == "stream":
        print(sum(1 for _ in pmucat.perfdata.read(big).records()))
    else:
        print(len(_core._read_perf_data_whole(big)))
    """
)


def test_memory_bounded(small, tmp_path):
    big = _generate(tmp_path / "big.data", "100M")
    assert big.stat().st_size >= 100 << 20

    def run(mode):
        return subprocess.run([sys.executable, "-c", _MEMORY_SCRIPT, str(small), str(big), mode],
                              capture_output=True, text=True, timeout=600)

    streamed = run("stream")
    assert streamed.returncode == 0, streamed.stderr
    assert int(streamed.stdout) > 100000
    # The limit is meaningful: the whole-file reader cannot read the file under it.
    whole = run("whole")
    assert whole.returncode != 0


def test_interpreter_exit_with_open_readers(small):
    # Readers left open (one mid-iteration, one never iterated, one in a cycle) are closed at
    # exit: the interpreter ends normally instead of hanging or aborting on a joinable thread.
    script = textwrap.dedent(
        """
        import sys
        import pmucat
        data = pmucat.perfdata.read(sys.argv[1])
        it = data.records()
        next(it)
        unused = pmucat.perfdata.read(sys.argv[1])
        cycle = [pmucat.perfdata.read(sys.argv[1]).records()]
        cycle.append(cycle)
        next(cycle[0])
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", script, str(small)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"
