"""Plain value types of pmucat: dataclasses with ``to_dict()``."""

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple


class _ToDict:
    def to_dict(self) -> Dict[str, Any]:
        """The fields as a dict (JSON-serialisable)."""
        return dataclasses.asdict(self)  # type: ignore[call-overload]


@dataclass(frozen=True)
class Format(_ToDict):
    """A ``format/`` file of a PMU: ``name`` is the term users write, ``spec`` its bits
    (``config:0-7``), ``path`` the file."""

    name: str
    spec: str
    path: str


@dataclass(frozen=True)
class Event(_ToDict):
    """An event of a PMU: a sysfs ``events/`` file and/or a vendor JSON event.

    ``source`` is the provenance: ``sysfs``, ``json`` or ``both``; ``provenance`` says where
    (the events/ file, or the JSON file, line and column of the event's object)."""

    name: str
    terms: str
    path: str
    source: str
    unit: Optional[str]
    scale: Optional[float]
    per_pkg: bool
    snapshot: bool
    description: str
    long_description: str
    topic: str
    scale_unit: str
    deprecated: bool
    provenance: Dict[str, Any]
    diagnostics: List[Dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Decoded(_ToDict):
    """Config words decoded on a PMU: ``terms`` as (format name, value) pairs, ``events`` whose
    encoding matches, ``residue`` bits no format covers (per word), ``terms_string`` that
    re-encodes to the same words."""

    terms: List[Tuple[str, int]]
    events: List[str]
    residue: List[int]
    terms_string: str


@dataclass(frozen=True)
class Record(_ToDict):
    """One perf.data record: header type (and its perf name), misc, size, file offset and the
    payload after the 8-byte header."""

    type: int
    type_name: str
    misc: int
    size: int
    offset: int
    payload: bytes


@dataclass(frozen=True)
class Finding(_ToDict):
    """One pmucheck finding: ``rule`` (its id, docs/rules.md), ``group``, the ``pmu`` and
    ``file`` (relative to the devices folder), ``severity``, ``message``, the full
    ``diagnostic`` dict, whether a baseline covered it and whether it ``fails`` the run."""

    rule: str
    group: str
    pmu: str
    file: str
    severity: str
    message: str
    baselined: bool
    fails: bool
    diagnostic: Dict[str, Any]
    rendered: str = field(repr=False, default="")

    def __str__(self) -> str:
        return self.rendered.rstrip("\n")
