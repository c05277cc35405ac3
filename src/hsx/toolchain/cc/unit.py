"""One translation unit: a C file through clang and the back end to an object, or an
MVASM file assembled to link with C.

`compile_c_file` runs clang (frontend.py), reads the IR, narrows widened loop counters
(narrow.py), selects instructions, allocates registers, lays out frames, emits MVASM
statements and assembles them; the unit's object carries the C lines of its code with
-g, and its labels the C file and line they were declared at whenever clang says (see
sourcenames.py for how files are named).
"""
from __future__ import annotations

import bisect
import gc
import os
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Iterable

from hsx.image.hxo import LineEntry, ObjectModule
from hsx.toolchain.build import assemble_file, assemble_statements
from hsx.toolchain.diagnostics import Diagnostic, ToolchainError
from hsx.toolchain.packer import pack_module

from .consts import ConstEvaluator
from .debuginfo import DebugCollector
from .emit import Listing, ModuleEmitter
from .frame import layout_frame
from .frontend import ClangRun, Options
from .ir import CompileError
from .irtext import IRSyntaxError
from .isel import select_function
from .naming import symbol_name
from .narrow import narrow_counters
from .reader import read_module
from .regalloc import allocate
from .shrinkwrap import address_taken, copy_return_tails, place_frame
from .sourcenames import source_name


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


def clang_ir(path: str, options: Options, warnings: list[str] | None = None) -> str:
    """LLVM IR text for a C file (see `ClangRun.ir`)."""
    return ClangRun(path, options).ir(warnings)


def compile_ir(ir: str, source: str, debug: bool, filename: str,
               pieces: list[tuple[str, list]] | None = None,
               hard_float: bool = True, local_prefix: str | None = None,
               from_clang: bool = False, far_addresses: bool = False
               ) -> tuple[Listing, dict, frozenset[str]]:
    """MVASM statements (with the C location of each), debug facts (always the file and
    line of each function and variable, when the IR has them) and weak references for
    one IR module; `filename` names the MVASM.  With `pieces`, also append (symbol,
    statements) for each function and variable, module-local ones renamed with
    `local_prefix` (see `read_module`, also for `from_clang`); `far_addresses`: see
    `Options`."""
    module = read_module(ir, source, local_prefix, from_clang)
    evaluator = ConstEvaluator(module.layout, module.aliases, module.functions)
    emitter = ModuleEmitter(module, evaluator, filename, far_addresses)
    emitter.header(source)
    collector = DebugCollector(module) if debug else None
    declarations: dict[str, tuple[str, int]] = {}      # function -> its file and opening line
    taken = address_taken(module)
    for fn in module.functions:
        if fn.is_declaration:
            continue
        narrow_counters(fn)
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


def compile_c_file(path: str, options: Options, split: bool = False,
                   clang: ClangRun | None = None) -> CompiledUnit:
    """Compile one C file (`clang`: its clang, started already).  `split` (used for the
    library) also assembles each function and variable into its own object
    (`CompiledUnit.pieces`)."""
    warnings: list[str] = []
    ir = (clang or ClangRun(path, options)).ir(warnings)
    source = os.path.relpath(path) if not os.path.isabs(path) else path
    stem = os.path.splitext(os.path.basename(path))[0]
    filename = f"{stem}.mvasm"
    pieces: list[tuple[str, list]] | None = [] if split else None
    prefix = f"__hsx.{symbol_name(stem)}." if split else None
    with _collector_paused():
        try:
            listing, facts, weak = compile_ir(ir, source, options.debug, filename, pieces,
                                              not options.soft_float, prefix, from_clang=True,
                                              far_addresses=options.far_addresses)
        except CompileError as exc:
            where = exc.where if _names_a_line(exc.where) else _locate(path, options, exc)
            raise ToolchainError([Diagnostic(exc.message, where or exc.where or source)]) \
                from None
        except IRSyntaxError as exc:    # IR the back end cannot handle: an error, not wrong code
            raise ToolchainError([Diagnostic(f"unsupported construct: {exc}", source)]) \
                from None
        module = _assemble_listing(listing.statements, filename, source)
        if options.packs:
            pack_module(module, _c_line_starts(module, listing.locs)
                        if options.debug and options.keep_lines_apart else None)
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
        if options.packs:
            pack_module(obj)
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
                   "locate.mvasm", from_clang=True)
    except CompileError as again:
        if again.message == error.message and _names_a_line(again.where):
            return again.where
    except (ToolchainError, IRSyntaxError):
        pass
    return None


def _c_line_starts(module: ObjectModule, locs: list):
    """Whether the code word at an index begins other C source than the word before it
    (the packer keeps such words apart under -g: a step never runs half a line)."""
    where: dict[int, tuple] = {}
    for entry in module.lines:
        loc = locs[entry.line - 1] if 0 < entry.line <= len(locs) else None
        where[entry.index] = (loc.file, loc.line) if loc is not None and loc.line else None
    return lambda index: where.get(index) != where.get(index - 1)


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


