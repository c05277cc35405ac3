"""One translation unit: a C file through clang and the back end to an object, or an
MVASM file assembled to link with C.

`compile_c_file` runs clang (`clang_ir`), reads the IR, selects instructions, allocates
registers, lays out frames, emits MVASM statements and assembles them; the unit's
object carries the C lines of its code with -g, and its labels the C file and line
they were declared at whenever clang says (see sourcenames.py for how files are named).
"""
from __future__ import annotations

import bisect
import gc
import os
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Iterable

from hsx.image.hxo import LineEntry, ObjectModule
from hsx.toolchain.build import assemble_file, assemble_statements
from hsx.toolchain.diagnostics import Diagnostic, ToolchainError

from .consts import ConstEvaluator
from .debuginfo import DebugCollector
from .emit import Listing, ModuleEmitter
from .frame import layout_frame
from .frontend import clang_command, diagnostics as clang_diagnostics
from .ir import CompileError
from .irtext import IRSyntaxError
from .isel import select_function
from .naming import symbol_name
from .reader import read_module
from .regalloc import allocate
from .shrinkwrap import address_taken, copy_return_tails, place_frame
from .sourcenames import lib_dir, source_name

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

    @property
    def collect_garbage(self) -> bool:
        return not self.debug if self.gc_sections is None else self.gc_sections


@dataclass
class CompiledUnit:
    source: str
    listing: Listing | None             # None for an MVASM source linked in
    module: ObjectModule
    debug: dict = field(default_factory=dict)
    weak: frozenset[str] = frozenset()   # weak references (resolve to 0 if undefined)
    pieces: list[ObjectModule] = field(default_factory=list)   # library build: per symbol
    warnings: list[str] = field(default_factory=list)          # clang's, each whole

    @property
    def mvasm(self) -> str:
        """The unit as MVASM text (`hsx cc -S`)."""
        return self.listing.text()


def _fail(message: str, where: str = "") -> ToolchainError:
    return ToolchainError([Diagnostic(message, where)])


def clang_ir(path: str, options: Options, warnings: list[str] | None = None) -> str:
    """LLVM IR text for a C file.  clang's errors become the ToolchainError's
    diagnostics, each whole (location, source line, caret, notes); its warnings are
    appended to `warnings`."""
    cmd = [*clang_command(options.clang), *TARGET_FLAGS, "-isystem", str(lib_dir() / "include"),
           "-S", "-emit-llvm", f"-O{options.opt}", "-o", "-", *TUNING]
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
        result = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as exc:
        raise _fail(f"cannot run clang: {exc}", "hsx cc") from None
    found = clang_diagnostics(result.stderr)
    if result.returncode != 0:
        errors = [Diagnostic(text) for severity, text in found if severity != "remark"]
        raise ToolchainError(errors or [Diagnostic(
            result.stderr.strip() or f"clang failed with status {result.returncode}", path)])
    if warnings is not None:
        warnings.extend(text for severity, text in found if severity == "warning")
    return result.stdout


def compile_ir(ir: str, source: str, debug: bool, filename: str,
               pieces: list[tuple[str, list]] | None = None,
               hard_float: bool = True, local_prefix: str | None = None
               ) -> tuple[Listing, dict, frozenset[str]]:
    """MVASM statements (with the C location of each), debug facts (always the file and
    line of each function and variable, when the IR has them) and weak references for
    one IR module; `filename` names the MVASM.  With `pieces`, also append (symbol,
    statements) for each function and variable, module-local ones renamed with
    `local_prefix` (see `read_module`)."""
    module = read_module(ir, source, local_prefix)
    evaluator = ConstEvaluator(module.layout, module.aliases, module.functions)
    emitter = ModuleEmitter(module, evaluator, filename)
    emitter.header(source)
    collector = DebugCollector(module) if debug else None
    declarations: dict[str, tuple[str, int]] = {}      # function -> its file and opening line
    taken = address_taken(module)
    for fn in module.functions:
        if fn.is_declaration:
            continue
        mf = select_function(module, fn, evaluator, hard_float)
        copy_return_tails(mf)
        allocate(mf)
        layout_frame(mf)
        place_frame(mf, findable=not fn.local or fn.name not in taken)
        if fn.loc is not None:
            declarations[mf.symbol] = (fn.loc.file, fn.loc.line)
        if collector is not None:
            collector.function(fn, mf)
        start = len(emitter.out.statements)
        emitter.function(mf)
        if collector is not None:
            collector.placed(mf, start, len(emitter.out.statements))
    emitter.globals()
    if pieces is not None:
        if module.asm:                      # file-scope asm: keep the unit whole
            pieces.append(("", emitter.out.statements))
        else:
            pieces.extend(emitter.piece_statements())
    facts = collector.finish() if collector is not None else {}
    facts["declarations"] = {**facts.get("declarations", {}), **declarations}  # + globals'
    return emitter.out, facts, module.weak


@contextmanager
def _collector_paused():
    """The back end builds about a million small objects for 1,000 lines of C, nearly
    all alive until the unit is assembled: Python's cycle collector would walk them
    over and over (a third of the compile time) and free nothing.  It is paused for
    one unit; then the objects made meanwhile join the oldest generation at once
    (freeze + unfreeze: no walk over them), instead of being walked by the next
    young-generation collection, and are collected with it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if enabled:
            gc.enable()


def compile_c_file(path: str, options: Options, split: bool = False) -> CompiledUnit:
    """Compile one C file.  `split` (used for the library) also assembles each
    function and variable into its own object (`CompiledUnit.pieces`)."""
    warnings: list[str] = []
    ir = clang_ir(path, options, warnings)
    source = os.path.relpath(path) if not os.path.isabs(path) else path
    stem = os.path.splitext(os.path.basename(path))[0]
    filename = f"{stem}.mvasm"
    pieces: list[tuple[str, list]] | None = [] if split else None
    prefix = f"__hsx.{symbol_name(stem)}." if split else None
    with _collector_paused():
        try:
            listing, facts, weak = compile_ir(ir, source, options.debug, filename, pieces,
                                              not options.soft_float, prefix)
        except CompileError as exc:
            where = exc.where if _names_a_line(exc.where) else _locate(path, options, exc)
            raise ToolchainError([Diagnostic(exc.message, where or exc.where or source)]) \
                from None
        except IRSyntaxError as exc:    # IR the back end cannot handle: an error, not wrong code
            raise ToolchainError([Diagnostic(f"unsupported construct: {exc}", source)]) \
                from None
        module = _assemble_listing(listing.statements, filename, source)
    module.name = source
    decls = facts["declarations"]
    if options.debug:
        _code_ranges(module, [*facts.get("locals", ()), *facts.get("bodies", ())])
        _use_c_lines(module, listing.locs)
    else:
        module.files, module.lines = (), []
    _name_symbols(module, decls)
    objects = []
    for name, piece in pieces or ():
        obj = assemble_statements(piece, filename, function_sections=True)
        obj.files, obj.lines = (), []
        _name_symbols(obj, decls)
        obj.name = f"{source}:{name}" if name else source
        objects.append(obj)
    return CompiledUnit(source, listing, module, facts, weak, objects, warnings)


def _assemble_listing(statements, filename: str, source: str):
    """The compiler's listing assembled; what fails in it is the user's own `__asm__`
    (a bad `.value` record, say), so it is reported at the C file, not the listing
    nobody sees."""
    try:
        return assemble_statements(statements, filename, function_sections=True)
    except ToolchainError as exc:
        raise ToolchainError([
            Diagnostic(f"in an __asm__ statement: {d.message}", source)
            if d.where.startswith(f"{filename}:") else d for d in exc.diagnostics]) from None


def assemble_unit(path: str) -> CompiledUnit:
    """An MVASM source to link with C ones, its files named as the compiler names them
    (the assembler names them relative to the source's own directory)."""
    module = assemble_file(path)
    here = os.path.dirname(path)
    names = {f: source_name(f, here) for f in module.files}
    module.files = tuple(names[f] for f in module.files)
    for label, symbol in list(module.symbols.items()):
        if symbol.file is not None:
            module.symbols[label] = replace(symbol, file=names.get(symbol.file, symbol.file))
    source = os.path.relpath(path) if not os.path.isabs(path) else path
    module.name = source
    return CompiledUnit(source, None, module)


def _names_a_line(where: str | None) -> bool:
    return bool(where) and where.rsplit(":", 1)[-1].isdigit()


def _locate(path: str, options: Options, error: CompileError) -> str | None:
    """`file:line` of a construct the back end refused in a build without -g (whose IR
    has no source lines): compile again with line tables and find the same error."""
    try:
        compile_ir(clang_ir(path, replace(options, line_tables=True)), path, False,
                   "locate.mvasm")
    except CompileError as again:
        if again.message == error.message and _names_a_line(again.where):
            return again.where
    except (ToolchainError, IRSyntaxError):
        pass
    return None


def _code_ranges(module: ObjectModule, locals_: Iterable[dict]) -> None:
    """Turn the listing `lines` of value-tracked locals and of function bodies into a
    `range` of code offsets from their function's start (the MVASM line table still maps
    lines to code here)."""
    table = sorted((entry.line, entry.index) for entry in module.lines)
    listing_lines = [line for line, _ in table]
    code_end = 4 * len(module.code)

    def offset(listing_index: int) -> int:        # the code at or after that listing line
        k = bisect.bisect_left(listing_lines, listing_index + 1)
        return 4 * table[k][1] if k < len(table) else code_end
    for entry in locals_:
        lines = entry.pop("lines", None)
        symbol = module.symbols.get(entry["function"])
        if lines is not None and symbol is not None:
            base = symbol.offset
            entry["range"] = [offset(lines[0]) - base, offset(lines[1]) - base]


def _use_c_lines(module: ObjectModule, locs: list) -> None:
    """Replace the MVASM line table of `module` with the C lines the code came from."""
    files: list[str] = []
    index: dict[str, int] = {}
    lines = []
    for entry in module.lines:
        loc = locs[entry.line - 1] if 0 < entry.line <= len(locs) else None
        if loc is None or not loc.line:
            continue
        k = index.get(loc.file)
        if k is None:
            k = index[loc.file] = len(files)
            files.append(loc.file)
        lines.append(LineEntry(entry.index, k, loc.line))
    module.files = tuple(files)
    module.lines = lines


def _name_symbols(module: ObjectModule, decls: dict) -> None:
    """Give each label the C file and line it was declared at, or none (the MVASM
    listing's names and lines are of no use to anyone: there is no such file)."""
    for name, symbol in list(module.symbols.items()):
        file, line = decls.get(name, (None, None))
        module.symbols[name] = replace(symbol, file=file, line=line)


