"""pmucat.check: pmucheck's rules as a function."""

from __future__ import annotations

import os

from . import _core
from ._types import Finding


class CheckReport:
    """The result of :func:`check`: ``findings`` and the renderers pmucheck uses."""

    def __init__(self, report: "_core._CheckReport") -> None:
        self._report = report
        self.findings: list[Finding] = [Finding(**f) for f in report.findings()]

    @property
    def exit_status(self) -> int:
        """pmucheck's exit status for this report (0: nothing fails the run)."""
        return int(self._report.exit_status())

    @property
    def ok(self) -> bool:
        """True when no finding fails the run."""
        return self.exit_status == 0

    def render_text(self) -> str:
        """Clang-style text with a summary line, as ``pmucheck`` prints."""
        return str(self._report.render_text())

    def render_ktap(self) -> str:
        """KTAP (the kernel's test output format)."""
        return str(self._report.render_ktap())

    def render_json(self) -> str:
        """``pmucheck --json``'s document."""
        return str(self._report.render_json())

    def render_junit(self) -> str:
        """JUnit XML."""
        return str(self._report.render_junit())

    def render_kcidb(self, *, origin: str = "pmucheck", build_id: str = "",
                     run_id: str = "") -> str:
        """KCIDB I/O JSON (``run_id`` empty: a fresh one)."""
        return str(self._report.render_kcidb(origin, build_id, run_id))

    def __repr__(self) -> str:
        return f"<pmucat.CheckReport {len(self.findings)} findings, exit {self.exit_status}>"


def check(tree: str | bytes | os.PathLike[str] | _core.Catalog | None = None, *,
          pmus: Iterable[str] = (), enable: Iterable[str] = (), disable: Iterable[str] = (),
          werror: bool = False, jobs: int = 1, events_dir: str | None = None,
          cpuid: str | None = None) -> CheckReport:
    """Validates a PMU tree with pmucheck's rules.

    ``tree``: a path (/sys, a devices folder, a capture or a pmusnap ``.tar.gz``), a
    :class:`Catalog`, or None for the running machine's (``events_dir`` and ``cpuid`` as
    :meth:`Catalog.open` takes them). ``pmus``: PMU name patterns to check (all when empty);
    ``enable``/``disable``: rule ids; ``werror``: warnings fail too; ``jobs``: PMUs checked in
    parallel, 1 to 256. A wrong argument raises :class:`pmucat.Error` naming it."""
    report = _core._check(tree, events_dir, cpuid, pmus, enable, disable, werror, jobs)
    return CheckReport(report)
