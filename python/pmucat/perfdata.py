"""pmucat.perfdata: reading perf.data files (file and pipe mode, any attr size, either byte
order), bounds-checked.

    data = pmucat.perfdata.read("perf.data")
    for attr in data.attrs: print(attr.name, attr.attr["config"])
    for record in data.records(): ...
"""

from __future__ import annotations

import os

from . import _core
from ._types import Record, _Value


class EventAttr(_Value):
    """One event of the file: its name (EVENT_DESC), the sample ids of its fds, and the
    perf_event_attr as a dict of every field."""

    __slots__ = ("name", "ids", "attr")
    _fields = __slots__


class PerfData:
    """A perf.data file: ``mode`` ('file' or 'pipe'), ``attrs``, ``features`` (by perf's
    name: HOSTNAME, OSRELEASE, NRCPUS, CMDLINE... decoded where pmucat knows the layout,
    else bytes) and the records, one at a time from :meth:`records`."""

    def __init__(self, data: "_core._PerfData") -> None:
        self._data = data
        self.mode: str = data.mode
        self.other_endian: bool = data.other_endian
        self.attrs: list[EventAttr] = [EventAttr(**a) for a in data.attrs()]
        self.features: dict[str, Any] = data.features()

    def records(self) -> Iterator[Record]:
        """The data records in file order, each made when asked for."""
        return iter(self._data.records())

    def __iter__(self) -> Iterator[Record]:
        return self.records()

    def __len__(self) -> int:
        return int(self._data.record_count)

    def __repr__(self) -> str:
        return f"<pmucat.perfdata.PerfData {self.mode} {len(self.attrs)} attrs {len(self)} records>"


def read(path: str | os.PathLike[str]) -> PerfData:
    """Reads ``path`` (a perf.data file, file or pipe mode). Raises pmucat.Error with the
    located problem when it is not a valid perf.data."""
    return PerfData(_core._read_perf_data(os.fspath(path)))


__all__ = ["EventAttr", "PerfData", "Record", "read"]
