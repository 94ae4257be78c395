"""Plain value types of pmucat: small immutable records with ``to_dict()``, equality and a
readable repr, like frozen dataclasses (written out by hand: importing ``dataclasses`` and
``typing`` would cost more start-up than the rest of the package)."""

from __future__ import annotations


class _Value:
    """Base of the value types: keyword construction, read-only fields, ``to_dict()``."""

    __slots__ = ()
    _fields: tuple = ()
    _defaults: dict = {}

    def __init__(self, **values):
        for name in self._fields:
            if name in values:
                value = values.pop(name)
            elif name in self._defaults:
                value = self._defaults[name]
            else:
                raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
            object.__setattr__(self, name, value)
        if values:
            raise TypeError(f"{type(self).__name__}() got unexpected {sorted(values)}")

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def to_dict(self) -> dict:
        """The fields as a dict (JSON-serialisable: lists, dicts, str, int, float, bool, None;
        ``bytes`` for a record's payload)."""
        return {name: _plain(getattr(self, name)) for name in self._fields}

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._fields)

    def __hash__(self):
        return hash(tuple(repr(getattr(self, n)) for n in self._fields))

    def __repr__(self) -> str:
        shown = getattr(self, "_repr_fields", self._fields)
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
        return f"{type(self).__name__}({inner})"


def _plain(value):
    if isinstance(value, _Value):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class Format(_Value):
    """A ``format/`` file of a PMU: ``name`` is the term users write, ``spec`` its bits
    (``config:0-7``), ``path`` the file."""

    __slots__ = ("name", "spec", "path")
    _fields = __slots__


class Event(_Value):
    """An event of a PMU: a sysfs ``events/`` file and/or a vendor JSON event.

    ``terms`` is what it encodes to (``event=0x3c``); ``source`` is the provenance:
    ``sysfs``, ``json`` or ``both``, and ``provenance`` says where (the events/ file, or the
    JSON file, line and column of the event's object). ``description``/``long_description``,
    ``topic``, ``scale_unit``, ``deprecated`` come from the JSON; ``unit``, ``scale``,
    ``per_pkg``, ``snapshot`` from the sysfs metadata files (None/False when absent)."""

    __slots__ = ("name", "terms", "path", "source", "unit", "scale", "per_pkg", "snapshot",
                 "description", "long_description", "topic", "scale_unit", "deprecated",
                 "provenance", "diagnostics")
    _fields = __slots__
    _defaults = {"diagnostics": []}
    _repr_fields = ("name", "terms", "source", "description")


class Decoded(_Value):
    """Config words decoded on a PMU: ``terms`` as (format name, value) pairs, ``events`` whose
    encoding matches, ``residue`` bits no format covers (per word), ``terms_string`` that
    re-encodes to the same words."""

    __slots__ = ("terms", "events", "residue", "terms_string")
    _fields = __slots__


class Record(_Value):
    """One perf.data record: header type (and its perf name), misc, size, file offset and the
    payload after the 8-byte header."""

    __slots__ = ("type", "type_name", "misc", "size", "offset", "payload")
    _fields = __slots__
    _repr_fields = ("type_name", "misc", "size", "offset")


class Finding(_Value):
    """One pmucheck finding: ``rule`` (its id, docs/rules.md), ``group``, the ``pmu`` and
    ``file`` (relative to the devices folder), ``severity``, ``message``, whether a baseline
    covered it and whether it ``fails`` the run, the full ``diagnostic`` dict; ``str()`` is the
    clang-style rendering."""

    __slots__ = ("rule", "group", "pmu", "file", "severity", "message", "baselined", "fails",
                 "diagnostic", "rendered")
    _fields = __slots__
    _defaults = {"rendered": ""}
    _repr_fields = ("rule", "pmu", "file", "severity", "message")

    def to_dict(self) -> dict:
        out = super().to_dict()
        del out["rendered"]
        return out

    def __str__(self) -> str:
        return self.rendered.rstrip("\n")
