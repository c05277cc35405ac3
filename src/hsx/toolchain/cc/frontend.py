"""Which clang turns C into LLVM IR, with which options, and running it.

The default is the clang inside the `ziglang` wheel (a pinned dependency), so `pip install`
is all a machine needs.  It is run as `zig clang …`, the plain clang driver: unlike
`zig cc` it adds no flags of its own (CPU features, unwind tables, frame pointers) and
writes IR to standard output.  A system clang stays selectable with `--clang PATH` or
`$HSX_CLANG` (a path or a command name on `PATH`).

This module loads nothing of the back end: `start_clang` runs clang in the
background, and the driver starts it before it imports the back end, so that clang
works while Python loads the compiler's ~60 modules (at -O2 clang takes longer than
that; the wait is then hidden entirely).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache

from hsx.toolchain.diagnostics import Diagnostic, ToolchainError

from .sourcenames import lib_dir

ENV_VAR = "HSX_CLANG"
TARGET_FLAGS = ("--target=wasm32-unknown-unknown", "-ffreestanding", "-fno-builtin",
                "-nostdinc", "-fno-exceptions", "-fno-asynchronous-unwind-tables",
                "-Xclang", "-mlong-double-64",   # long double = double, as on ARM EABI
                "-D__STDC_NO_THREADS__=1",       # C11 7.26 is optional: no <threads.h>
                "-U__SIZEOF_INT128__")           # no __int128 (as on 32-bit ARM): code
                                                 # that checks falls back to 64-bit words
# No runtime loop unrolling (a loop whose trip count is known only at run time copied
# 4-8 times plus a remainder loop): it grows code in a 64 KB code space and saved no
# instruction in benchmarks/peer_bench.py, while it made clang's -O2 and the back end
# each ~40% slower on benchmarks/cc_bench.py's file.  Loops of known small trip
# counts are still unrolled fully (that halves the CoreMark-like mix's instructions).
# The VM has no vector registers: the vectorizers would only look (same IR, less time).
TUNING = ("-mllvm", "-unroll-runtime=false", "-fno-vectorize", "-fno-slp-vectorize")


@dataclass
class Options:
    opt: int | str = 0              # clang's -O level: 0, 1, 2 or "s"
    debug: bool = False
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    clang: str | None = None        # a system clang instead of the bundled one
    soft_float: bool = False        # float/double/i64 division through the library (fpu.py)
    line_tables: bool = False       # source lines without -g (the library: its labels' lines)
    gc_sections: bool | None = None  # link only the functions and data that are used
                                     # (None: unless -g, which keeps all for the debugger)
    jobs: int | None = None          # C files compiled at once (None: one per CPU; parallel.py)
    compact: bool | None = None      # pack compact instruction pairs (hsx.toolchain.packer);
                                     # None: at -Os/-Oz (see `packs`)
    far_addresses: bool = False      # a symbol's address in LDI32's two words (reaching the
                                     # whole address space), not LDI20's one (below 512 KiB)
    keep_lines_apart: bool = True    # -g: no pair holds code of two C lines (for stepping);
                                     # False: pairs as without -g (the same code, with lines)

    @property
    def packs(self) -> bool:
        """Whether code is packed into compact pairs: asked for, else when optimising
        for size.  Packed code runs up to 18 % slower than unpaired code at -O2 today
        (sieve; the native engine fuses more around unpaired instructions:
        benchmarks/README.md), so speed builds keep one instruction a word."""
        return self.compact if self.compact is not None else self.opt in ("s", "z")

    @property
    def collect_garbage(self) -> bool:
        return not self.debug if self.gc_sections is None else self.gc_sections


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


def _fail(message: str, where: str = "") -> ToolchainError:
    return ToolchainError([Diagnostic(message, where)])


class ClangRun:
    """clang turning one C file into LLVM IR, in the background; `ir()` waits for it."""

    def __init__(self, path: str, options: Options) -> None:
        self.path = path
        cmd = [*clang_command(options.clang), *TARGET_FLAGS, "-isystem",
               str(lib_dir() / "include"), "-S", "-emit-llvm", f"-O{options.opt}", "-o", "-",
               *TUNING]
        if options.debug:
            cmd.append("-g")
        elif options.line_tables:
            cmd.append("-gline-tables-only")
        for d in options.include_dirs:
            cmd += ["-I", d]
        for d in options.defines:
            cmd += ["-D", d]
        cmd.append(path)
        try:
            self._process = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, text=True)
        except OSError as exc:
            raise _fail(f"cannot run clang: {exc}", "hsx cc") from None

    def ir(self, warnings: list[str] | None = None) -> str:
        """The IR text.  clang's errors become the ToolchainError's diagnostics, each
        whole (location, source line, caret, notes); its warnings are appended to
        `warnings`."""
        stdout, stderr = self._process.communicate()
        found = diagnostics(stderr)
        if self._process.returncode != 0:
            errors = [Diagnostic(text) for severity, text in found if severity != "remark"]
            raise ToolchainError(errors or [Diagnostic(
                stderr.strip() or f"clang failed with status {self._process.returncode}",
                self.path)])
        if warnings is not None:
            warnings.extend(text for severity, text in found if severity == "warning")
        return stdout

    def cancel(self) -> None:
        """Stop clang if it still runs (its output is not wanted)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.communicate()
