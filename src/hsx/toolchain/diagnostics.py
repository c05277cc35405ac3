"""Where a problem is and what it is: the one error type the toolchain raises.

Every assembler and linker problem becomes a `Diagnostic`; a run collects several
(up to `MAX_ERRORS`) before giving up, so a user fixes many mistakes per edit.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_ERRORS = 20


@dataclass(frozen=True)
class SourceLocation:
    """A 1-based line and column in a named source file."""

    file: str
    line: int
    col: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem.  `where` is a source location, a module name or empty."""

    message: str
    where: str = ""

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class ToolchainError(Exception):
    """Assembly or linking failed; `diagnostics` lists every problem found."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = list(diagnostics)

    def __reduce__(self):
        """Pickled whole (a compile in a worker process fails with it): by its
        diagnostics, not by the joined text."""
        return type(self), (self.diagnostics,)


class TooManyErrors(Exception):
    """Raised inside a tool when the error limit is reached, to stop early."""


class DiagnosticSink:
    """Collects diagnostics; `check()` raises ToolchainError if any were reported."""

    def __init__(self, limit: int = MAX_ERRORS) -> None:
        self.items: list[Diagnostic] = []
        self.limit = limit

    def error(self, message: str, where: object = "") -> None:
        self.items.append(Diagnostic(message, str(where) if where else ""))
        if len(self.items) >= self.limit:
            raise TooManyErrors

    def check(self) -> None:
        if self.items:
            items = list(self.items)
            if len(items) >= self.limit:
                items.append(Diagnostic(f"too many errors ({self.limit}), stopping"))
            raise ToolchainError(items)
