"""pmucat: the Linux sysfs PMU event catalog, exact against perf 6.1.

Open a catalog, list its PMUs, formats and events, encode perf event specs into
perf_event_attr values and decode config words back, validate a tree, read perf.data::

    import pmucat
    catalog = pmucat.Catalog.open(sysfs="fixtures/sysfs/intel-spr")
    for event in catalog.encode("cpu/event=0x3c,umask=0x1/u"):
        print(event.type, hex(event.config), event.exclude_kernel, event.perf_string)
    catalog.decode("cpu", config=0x13c).terms_string       # 'event=0x3c,umask=0x1'
    report = pmucat.check("fixtures/sysfs/broken")
    print(report.render_ktap())
    data = pmucat.perfdata.read("perf.data")
    session = pmucat.Catalog.open().count("page-faults", command=["true"])
    session.start(); session.wait(); print(session.read())  # values with their trust grades

Errors raise :class:`pmucat.Error`; ``str(error)`` is the clang-style rendering and
``error.diagnostic`` the diagnostic as a dict. docs/python.md is the guide.
"""

from . import _core
from ._check import CheckReport, check
from ._core import Catalog, CountSession, EncodedEvent, Pmu
from ._error import Error
from ._types import Decoded, Event, Finding, Format, Record
from . import perfdata

__version__: str = _core.__version__

__all__ = [
    "Catalog", "CheckReport", "CountSession", "Decoded", "EncodedEvent", "Error", "Event", "Finding", "Format",
    "Pmu", "Record", "check", "perfdata", "__version__",
]
