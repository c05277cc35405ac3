"""The C build driver: C (and MVASM) files to a linked image and its symbols.

`build_c` compiles each C file (unit.py) and assembles each MVASM file, links them with
crt0, the parts of the C library they use and crtend (runtime.py), and finishes the
symbols: C variables and types with -g, functions' lines, the sources map.
`build_c_file` is the one-call form.  The names below are the compiler's Python API.

This module imports the back end when it first compiles: `compile_sources` starts
every C file's clang before, so clang works while Python loads the back end.
"""
from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from hsx.lazy import lazy_exports

from .frontend import ClangRun, Options
from .sourcenames import lib_dir, source_paths

if TYPE_CHECKING:
    from hsx.image.model import HxeImage
    from hsx.image.sym import SymbolTable
    from hsx.toolchain.linker import LinkResult

    from .unit import CompiledUnit

__getattr__, __dir__, _ = lazy_exports(__name__, {
    "hsx.toolchain.cc.runtime": ("link_program", "runtime_objects"),
    "hsx.toolchain.cc.unit": ("CompiledUnit", "assemble_unit", "clang_ir", "compile_c_file"),
})
__all__ = ["CompiledUnit", "Options", "assemble_unit", "build_c", "build_c_file", "clang_ir",
           "compile_c_file", "compile_sources", "lib_dir", "link_program", "runtime_objects"]


def attach_debug_variables(table: SymbolTable, units: Sequence[CompiledUnit]) -> SymbolTable:
    """`table` with the C types, globals and locals of the -g `units`, where each of
    their functions' body begins, and each function's type (addresses from the linked
    labels: a global or function that is not in the image is left out)."""
    from hsx.image.sym import GlobalVariable, LocalVariable
    types, globals_, locals_ = list(table.types), list(table.globals), list(table.locals)
    bodies: dict[int, int] = {}                  # function address -> its body's
    function_types: dict[int, int | None] = {}   # function address -> its type
    for unit in units:
        for b in unit.debug.get("bodies", ()):
            fn = _linked(table.functions, b["function"], b["static"], b["file"])
            if fn is not None and "range" in b:
                bodies[fn.address] = fn.address + b["range"][0]
        facts = unit.debug
        if not any(facts.get(key) for key in ("types", "globals", "locals", "functions")):
            continue
        base = len(types)

        def ref(index: int | None) -> int | None:
            return None if index is None else index + base
        for t in facts.get("types", ()):
            t = dict(t)
            for key in ("pointee", "type", "element", "base", "returns"):
                if key in t:
                    t[key] = ref(t[key])
            if "fields" in t:
                t["fields"] = [{**m, "type": ref(m["type"])} for m in t["fields"]]
            types.append(t)
        for g in facts.get("globals", ()):
            symbol = _linked(table.variables, g["symbol"], g["static"], g["file"])
            if symbol is not None:
                globals_.append(GlobalVariable(
                    g["name"], symbol.address, ref(g["type"]), g["file"], g["line"],
                    g["symbol"] if g["symbol"] != g["name"] else None, g["static"]))
        for v in facts.get("locals", ()):
            fn = _linked(table.functions, v["function"], False, v["file"])
            location = dict(v["location"])
            if "symbol" in location:        # a global's address: the linked label's
                label = _linked(table.functions + table.variables, location.pop("symbol"),
                                False, v["file"])
                location = {"kind": "value", "value": label.address} if label else None
            if fn is not None and location is not None:
                low, high = v.get("range") or (0, fn.size)
                if low < high:
                    locals_.append(LocalVariable(
                        v["function"], v["name"], ref(v["type"]), location,
                        fn.address + low, fn.address + high, v["file"], v["line"],
                        v.get("arg")))
        for f in facts.get("functions", ()):
            fn = _linked(table.functions, f["symbol"], False, f["file"])
            if fn is not None:
                function_types[fn.address] = ref(f["type"])
    functions = [replace(f, body=bodies.get(f.address, f.body),
                         type=function_types.get(f.address, f.type))
                 for f in table.functions]
    return replace(table, functions=functions, types=types, globals=globals_, locals=locals_)


def _linked(symbols, name: str, static: bool, file: str | None):
    """The linked label `name`: the exported one, or a module-local one from `file`."""
    found = [s for s in symbols if s.name == name]
    exported = [s for s in found if s.scope == "global"]
    if exported and not static:
        return exported[0]
    local = [s for s in found if s.scope != "global" and (s.file == file or len(found) == 1)]
    return local[0] if len(local) == 1 else None


def _is_mvasm(source: str) -> bool:
    return source.lower().endswith(".mvasm")


def compile_sources(sources: Iterable[str], options: Options) -> Iterator[CompiledUnit]:
    """Each of `sources` compiled (C) or assembled (MVASM), yielded in order.  Several
    C files are compiled at once where the machine has the CPUs (parallel.py).
    Otherwise one at a time, every C file's clang started first: they run while the
    back end loads; those not used yet when the caller stops (a failure) are stopped."""
    sources = list(sources)
    c_files = [s for s in sources if not _is_mvasm(s)]
    if len(c_files) > 1:
        from .parallel import compile_units, jobs_for
        if jobs_for(options, len(c_files)) > 1:
            from .unit import assemble_unit
            compiled = compile_units(c_files, options)
            try:
                for source in sources:
                    yield assemble_unit(source) if _is_mvasm(source) else next(compiled)
            finally:
                compiled.close()
            return
    runs: dict[int, ClangRun] = {}
    try:
        for index, source in enumerate(sources):
            if not _is_mvasm(source):
                runs[index] = ClangRun(source, options)
        from .unit import assemble_unit, compile_c_file
        for index, source in enumerate(sources):
            if index in runs:
                yield compile_c_file(source, options, clang=runs.pop(index))
            else:
                yield assemble_unit(source)
    finally:
        for run in runs.values():
            run.cancel()


def build_c(sources: Iterable[str], options: Options | None = None,
            app_name: str | None = None) -> tuple[LinkResult, list[CompiledUnit]]:
    """Compile the C files and assemble the MVASM files among `sources`, and link them
    with the runtime."""
    options = options or Options()
    sources = list(sources)
    units = list(compile_sources(sources, options))
    from ..diagnostics import ToolchainError
    from ..fixups import FAR_ADDRESSES
    from .runtime import link_program
    try:
        result = link_program([u.module for u in units], app_name, [u.weak for u in units],
                              options.soft_float, options.collect_garbage, options.packs,
                              options.far_addresses)
    except ToolchainError as error:
        if options.far_addresses or not any(FAR_ADDRESSES in d.message
                                             for d in error.diagnostics):
            raise
        # More than 512 KiB of code or data lies before a symbol whose address the
        # program loads: every address takes LDI32's two words then.
        return build_c(sources, replace(options, far_addresses=True), app_name)
    if options.debug:
        result.symbols = attach_debug_variables(result.symbols, units)
    result.symbols = finish_symbols(result.symbols)
    return result, units


def finish_symbols(table: SymbolTable) -> SymbolTable:
    """The `.sym` as debuggers want it: a function's line is the line of its first
    instruction, where a breakpoint on the function stops (the prologue's: the line of
    the function's opening brace), and `sources` maps every file named to its absolute
    path (sourcenames.py)."""
    first = {}
    for entry in table.lines:
        first.setdefault(entry.pc, entry)
    functions = [replace(f, file=first[f.address].file, line=first[f.address].line)
                 if f.address in first else f for f in table.functions]
    names = [f.file for f in functions + table.variables] + [e.file for e in table.lines] \
        + [g.file for g in table.globals] + [v.file for v in table.locals]
    return replace(table, functions=functions, sources=source_paths(names))


def build_c_file(path: str | os.PathLike, opt: int = 2, debug: bool = False) -> HxeImage:
    """Compile and link one C file in memory (what `hsx run prog.c` uses)."""
    from hsx.image.hxe import normalize_app_name
    path = os.fspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    result, _ = build_c([path], Options(opt=opt, debug=debug), normalize_app_name(stem))
    return result.image
