"""Which clang turns C into LLVM IR.

The default is the clang inside the `ziglang` wheel (a pinned dependency), so `pip install`
is all a machine needs.  It is run as `zig clang …`, the plain clang driver: unlike
`zig cc` it adds no flags of its own (CPU features, unwind tables, frame pointers) and
writes IR to standard output.  A system clang stays selectable with `--clang PATH` or
`$HSX_CLANG` (a path or a command name on `PATH`).
"""
from __future__ import annotations

import os
import re
import shutil
from functools import lru_cache

from hsx.toolchain.diagnostics import Diagnostic, ToolchainError

ENV_VAR = "HSX_CLANG"


def _error(message: str) -> ToolchainError:
    return ToolchainError([Diagnostic(message, "hsx cc")])


@lru_cache(maxsize=None)
def _bundled() -> tuple[str, ...] | None:
    """`zig clang` from the ziglang wheel, or None when the wheel is not installed."""
    try:
        import ziglang
    except ImportError:
        return None
    exe = "zig.exe" if os.name == "nt" else "zig"
    path = os.path.join(os.path.dirname(ziglang.__file__), exe)
    return (path, "clang") if os.path.isfile(path) else None


def clang_command(explicit: str | None = None) -> tuple[str, ...]:
    """The argv prefix that runs clang: `explicit`, else $HSX_CLANG, else the bundled one."""
    chosen = explicit or os.environ.get(ENV_VAR)
    if chosen:
        path = chosen if os.sep in chosen else shutil.which(chosen)
        if not path or not os.path.isfile(path):
            source = "--clang" if explicit else f"${ENV_VAR}"
            raise _error(f"clang not found: {chosen!r} (from {source}); give the path of a "
                         f"clang executable, or unset it to use the bundled clang")
        return (path,)
    bundled = _bundled()
    if bundled is None:
        raise _error("no C front end: the 'ziglang' package is missing (reinstall hsx with "
                     f"pip), or set ${ENV_VAR} to a clang executable")
    return bundled


_HEADER = re.compile(r"^(?:.*?:\d+:\d+: |[\w.+-]+: )?(fatal error|error|warning|note|remark): ")
_SUMMARY = re.compile(r"^\d+ (?:warnings?|errors?)(?: and \d+ (?:warnings?|errors?))? generated\.$")


def diagnostics(stderr: str) -> list[tuple[str, str]]:
    """clang's diagnostics as (severity, text), each text whole: the `file:line:col:`
    line, the source line and caret, fix-its, its notes and the `In file included
    from` lines before it.  The closing "N errors generated." is left out."""
    blocks: list[list[str]] = []
    severities: list[str] = []
    pending: list[str] = []                     # "In file included from" lines
    for line in stderr.splitlines():
        if not line.strip() or _SUMMARY.match(line):
            continue
        if line.startswith("In file included from") or line.startswith("                 from"):
            pending.append(line)
            continue
        header = _HEADER.match(line)
        if header is not None and header.group(1) != "note" or not blocks:
            blocks.append(pending + [line])
            severities.append(header.group(1) if header else "error")
            pending = []
        else:
            blocks[-1].extend(pending + [line])
            pending = []
    return [("error" if s == "fatal error" else s, "\n".join(b))
            for s, b in zip(severities, blocks)]
