"""pmucat.Error: every failure of the library, with its located diagnostic."""

from __future__ import annotations


class Error(Exception):
    """A pmucat failure. ``str(error)`` is the clang-style rendering the tools print
    (``<spec>:1:5: error: ... [id]``, the source line, a caret, a hint); ``error.diagnostic``
    is the same diagnostic as a dict in the JSON encoding every tool's ``--json`` uses:
    severity, id, file, line, column, length, message, and source_line, hint, fixit when
    present."""

    def __init__(self, rendered: str, diagnostic: dict) -> None:
        super().__init__(rendered)
        self.rendered = rendered
        self.diagnostic = diagnostic

    @property
    def id(self) -> str:
        """The stable diagnostic id (``spec-unknown-pmu``, ``term-unknown``, ...)."""
        return str(self.diagnostic.get("id", ""))

    def __str__(self) -> str:
        return self.rendered.rstrip("\n")

    def __reduce__(self):
        # Both arguments, so that pickle (multiprocessing, concurrent.futures) rebuilds it.
        return (type(self), (self.rendered, self.diagnostic))
