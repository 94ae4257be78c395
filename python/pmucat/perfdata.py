"""pmucat.perfdata: reading perf.data files (file and pipe mode, any attr size, either byte
order), bounds-checked and streamed: memory stays bounded whatever the file's size.

    data = pmucat.perfdata.read("perf.data")
    for attr in data.attrs: print(attr.name, attr.attr["config"])
    for record in data.records(): ...
"""

from __future__ import annotations

import atexit
import os
import weakref

from . import _core
from ._types import Record, _Value


# Every open reader (a walk on a worker thread), closed at interpreter exit so no thread outlives it.
_open: "weakref.WeakSet[Any]" = weakref.WeakSet()


def _close_all() -> None:
    for reader in list(_open):
        reader.close()


atexit.register(_close_all)


class EventAttr(_Value):
    """One event of the file: its name (EVENT_DESC), the sample ids of its fds, and the
    perf_event_attr as a dict of every field."""

    __slots__ = ("name", "ids", "attr")
    _fields = __slots__


class PerfData:
    """A perf.data file: ``mode`` ('file' or 'pipe'), ``attrs``, ``features`` (by perf's
    name: HOSTNAME, OSRELEASE, NRCPUS, CMDLINE... decoded where pmucat knows the layout,
    else bytes) and the records, one at a time from :meth:`records`.

    The file is streamed: a worker thread walks it and hands records over through a bounded
    queue (256 records or 8 MiB), so memory does not grow with the file. ``attrs`` and
    ``features`` are the header's (pipe mode: the attr and feature records before the first
    data record, where perf writes them)."""

    def __init__(self, data: "_core._PerfData") -> None:
        self._data = data
        _open.add(data)
        self.mode: str = data.mode
        self.other_endian: bool = data.other_endian
        self.attrs: list[EventAttr] = [EventAttr(**a) for a in data.attrs()]
        self.features: dict[str, Any] = data.features()

    def records(self) -> Iterator[Record]:
        """The data records in file order, each made when asked for. The first call continues
        the walk read() started; each later call walks the file again. A problem in the file
        raises pmucat.Error when the iteration reaches it, after every good record. Dropping
        the iterator (or calling its ``close()``) stops the walk."""
        it = self._data.records()
        _open.add(it)
        return it

    def close(self) -> None:
        """Stops the walk read() started if records() has not taken it over."""
        self._data.close()

    def __iter__(self) -> Iterator[Record]:
        return self.records()

    def __len__(self) -> int:
        """The number of records: a separate walk of the file (counted, not kept), cached."""
        return int(self._data.record_count)

    def __repr__(self) -> str:
        return f"<pmucat.perfdata.PerfData {self.mode} {len(self.attrs)} attrs {len(self)} records>"


def read(path: str | os.PathLike[str]) -> PerfData:
    """Opens ``path`` (a perf.data file, file or pipe mode; str, bytes or os.PathLike) for
    streaming: returns once the header (attrs, features) is read. Raises pmucat.Error with the
    located problem when the header is not a valid perf.data (or ``path`` is not a path);
    later problems are raised by the records() iteration."""
    return PerfData(_core._read_perf_data(path))


__all__ = ["EventAttr", "PerfData", "Record", "read"]
