"""The C build driver: clang -> LLVM IR -> back end -> MVASM -> objects -> image.

`compile_c_file` turns one C file into an `ObjectModule` (and its MVASM), `build_c`
links C files with the C runtime from `lib/` (crt0, libc, soft-float), and
`build_c_file` is the one-call entry point `hsx run prog.c` uses.  The runtime is
compiled once per back-end/library version and cached as `.hxo` files, one per
function or variable (like `-ffunction-sections` archive members), so a program links
only the library code it refers to, directly or through other library code.
"""
from __future__ import annotations

import bisect
import gc
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Sequence

from hsx.image.hxe import normalize_app_name
from hsx.image.hxo import LineEntry, ObjectModule, load_hxo, write_hxo
from hsx.image.model import HxeImage
from hsx.image.sym import GlobalVariable, LocalVariable, SymbolTable
from hsx.toolchain.build import assemble_file, assemble_source, assemble_statements
from hsx.toolchain.diagnostics import Diagnostic, ToolchainError
from hsx.toolchain.linker import LinkOptions, LinkResult, link

from .consts import ConstEvaluator
from .debuginfo import DebugCollector
from .emit import Listing, ModuleEmitter
from .frame import layout_frame
from .frontend import clang_command, diagnostics as clang_diagnostics
from .irtext import IRSyntaxError
from .isel import select_function
from .naming import symbol_name
from .reader import read_module
from .ir import CompileError
from .regalloc import allocate

TARGET_FLAGS = ("--target=wasm32-unknown-unknown", "-ffreestanding", "-fno-builtin",
                "-nostdinc", "-fno-exceptions", "-fno-asynchronous-unwind-tables",
                "-Xclang", "-mlong-double-64")   # long double = double, as on ARM EABI
RUNTIME_OPT = "s"       # the library is built for size, like newlib-nano or picolibc


@dataclass
class Options:
    opt: int | str = 0              # clang's -O level: 0, 1, 2 or "s"
    debug: bool = False
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    clang: str | None = None        # a system clang instead of the bundled one
    soft_float: bool = False        # float/double/i64 division through the library (fpu.py)


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


def lib_dir() -> Path:
    """The C runtime sources: $HSX_LIB_DIR, else `lib/` of the source tree."""
    env = os.environ.get("HSX_LIB_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[4] / "lib"


def _fail(message: str, where: str = "") -> ToolchainError:
    return ToolchainError([Diagnostic(message, where)])


# ---------------------------------------------------------------------------------------
# one translation unit

def clang_ir(path: str, options: Options, warnings: list[str] | None = None,
             line_tables: bool = False) -> str:
    """LLVM IR text for a C file.  clang's errors become the ToolchainError's
    diagnostics, each whole (location, source line, caret, notes); its warnings are
    appended to `warnings`.  `line_tables` asks for source lines even without -g."""
    cmd = [*clang_command(options.clang), *TARGET_FLAGS, "-isystem", str(lib_dir() / "include"),
           "-S", "-emit-llvm", f"-O{options.opt}", "-o", "-"]
    if options.debug:
        cmd.append("-g")
    elif line_tables:
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
    """MVASM statements (with the C location of each), debug facts and weak references
    for one IR module; `filename` names the MVASM.  With `pieces`, also append (symbol,
    statements) for each function and variable, module-local ones renamed with
    `local_prefix` (see `read_module`)."""
    module = read_module(ir, source, local_prefix)
    evaluator = ConstEvaluator(module.layout, module.aliases, module.functions)
    emitter = ModuleEmitter(module, evaluator, filename)
    emitter.header(source)
    collector = DebugCollector(module) if debug else None
    for fn in module.functions:
        if fn.is_declaration:
            continue
        mf = select_function(module, fn, evaluator, hard_float)
        allocate(mf)
        layout_frame(mf)
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
    return emitter.out, facts, module.weak


@contextmanager
def _collector_paused():
    """The back end builds about a million small objects for 1,000 lines of C, nearly
    all alive until the unit is assembled: Python's cycle collector would walk them
    over and over (a third of the compile time) and free nothing.  It is paused for
    one unit and catches up afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
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
        module = assemble_statements(listing.statements, filename)
    module.name = source
    if options.debug:
        _code_ranges(module, facts.get("locals", ()))
        _use_c_lines(module, listing.locs, facts)
    else:
        module.files, module.lines = (), []
    objects = []
    for name, piece in pieces or ():
        obj = assemble_statements(piece, filename)
        obj.files, obj.lines = (), []
        obj.name = f"{source}:{name}" if name else source
        objects.append(obj)
    return CompiledUnit(source, listing, module, facts, weak, objects, warnings)


def assemble_unit(path: str) -> CompiledUnit:
    """An MVASM source to link with C ones."""
    module = assemble_file(path)
    source = os.path.relpath(path) if not os.path.isabs(path) else path
    module.name = source
    return CompiledUnit(source, None, module)


def _names_a_line(where: str | None) -> bool:
    return bool(where) and where.rsplit(":", 1)[-1].isdigit()


def _locate(path: str, options: Options, error: CompileError) -> str | None:
    """`file:line` of a construct the back end refused in a build without -g (whose IR
    has no source lines): compile again with line tables and find the same error."""
    try:
        compile_ir(clang_ir(path, options, line_tables=True), path, False, "locate.mvasm")
    except CompileError as again:
        if again.message == error.message and _names_a_line(again.where):
            return again.where
    except (ToolchainError, IRSyntaxError):
        pass
    return None


def _code_ranges(module: ObjectModule, locals_: Iterable[dict]) -> None:
    """Turn the listing `lines` of value-tracked locals into a `range` of code offsets
    from their function's start (the MVASM line table still maps lines to code here)."""
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


def _use_c_lines(module: ObjectModule, locs: list, facts: dict) -> None:
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
    decls = facts.get("declarations", {})
    for name, symbol in list(module.symbols.items()):
        decl = decls.get(name)
        module.symbols[name] = replace(symbol, file=decl[0], line=decl[1]) if decl else \
            replace(symbol, file=None, line=None)


# ---------------------------------------------------------------------------------------
# the runtime library

def _runtime_sources() -> list[Path]:
    root = lib_dir()
    return sorted(list((root / "src").glob("*.c")) + list((root / "src").glob("*.mvasm")))


def _fingerprint(soft_float: bool) -> str:
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for path in sorted(here.rglob("*.py")) + _runtime_sources() + \
            sorted((lib_dir() / "include").glob("*.h")) + \
            [lib_dir() / "crt0.mvasm", lib_dir() / "crtend.mvasm"]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(" ".join(clang_command()).encode())
    h.update(b"soft-float" if soft_float else b"hard-float")
    return h.hexdigest()[:24]


def _cache_dir() -> Path:
    base = os.environ.get("HSX_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), f"hsx-cc-{os.getuid() if hasattr(os, 'getuid') else 0}")
    return Path(base)


@dataclass
class Member:
    """One archive member: an object and the names it refers to weakly."""
    module: ObjectModule
    weak: frozenset[str] = frozenset()


@dataclass
class Runtime:
    crt0: ObjectModule              # first: the entry point
    library: list[Member]           # linked as needed, like an archive
    crtend: ObjectModule            # last: marks the end of bss (the heap's start)


_RUNTIME: dict[str, Runtime] = {}
_MANIFEST = "members.json"


def _assemble_lib(name: str) -> ObjectModule:
    module = assemble_source((lib_dir() / name).read_text(), name)
    module.name = f"lib/{name}"
    module.files, module.lines = (), []
    return module


def _build_library(soft_float: bool) -> list[Member]:
    """Every library source, C files split into one member per function and variable
    (their statics renamed `__hsx.<file>.<name>` and exported), MVASM files whole."""
    options = Options(opt=RUNTIME_OPT, include_dirs=(str(lib_dir() / "src"),),
                      soft_float=soft_float)
    members: list[Member] = []
    sources = _runtime_sources()
    for done, path in enumerate(sources):
        _progress(done, len(sources), path.name)
        if path.suffix == ".c":
            unit = compile_c_file(str(path), options, split=True)
            for obj in unit.pieces:
                obj.name = "lib/" + path.name + obj.name[len(unit.source):]
                members.append(Member(obj, frozenset(
                    unit.weak & {r.symbol for r in obj.relocs})))
        else:
            module = assemble_source(path.read_text(), path.name)
            module.files, module.lines = (), []
            module.name = f"lib/{path.name}"
            members.append(Member(module))
    _progress(len(sources), len(sources), "")
    return members


def _progress(done: int, total: int, name: str) -> None:
    """The library's first build takes a while (once per library and compiler version;
    then it is cached): on a terminal, say what is going on."""
    if not sys.stderr.isatty():
        return
    what = f"{done}/{total} {name}" if done < total else f"{total}/{total} done"
    sys.stderr.write(f"\rhsx cc: building the C library (first use, then cached): "
                     f"{what:<28}" + ("\n" if done == total else ""))
    sys.stderr.flush()


def runtime_objects(soft_float: bool = False) -> Runtime:
    """crt0, the library members (compiled at -O2, cached on disk by content), crtend."""
    key = _fingerprint(soft_float)
    cached = _RUNTIME.get(key)
    if cached is not None:
        return cached
    folder = _cache_dir() / key
    members = _load_library(folder)
    if members is None:
        members = _build_library(soft_float)
        _store_library(folder, members)
    runtime = Runtime(_assemble_lib("crt0.mvasm"), members, _assemble_lib("crtend.mvasm"))
    _RUNTIME[key] = runtime
    return runtime


def _store_library(folder: Path, members: list[Member]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for k, member in enumerate(members):
        name = f"m{k:04d}.hxo"
        _write_atomic(folder / name, write_hxo(member.module))
        entries.append({"file": name, "name": member.module.name,
                        "weak": sorted(member.weak)})
    doc = json.dumps({"members": entries}, indent=1, sort_keys=True) + "\n"
    _write_atomic(folder / _MANIFEST, doc.encode())      # last: marks the cache complete


def _load_library(folder: Path) -> list[Member] | None:
    try:
        entries = json.loads((folder / _MANIFEST).read_text())["members"]
        members = []
        for entry in entries:
            module = load_hxo(folder / entry["file"])
            module.name = entry["name"]
            members.append(Member(module, frozenset(entry["weak"])))
        return members
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _undefined(module: ObjectModule) -> set[str]:
    names = {r.symbol for r in module.relocs} | set(module.imports)
    for kind in ("commands",):
        for record in module.metadata.get(kind, []):
            if isinstance(record.get("handler"), str):
                names.add(record["handler"])
    return {n for n in names if n not in module.symbols}


def select_runtime(user: Sequence[Member], library: Sequence[Member]) -> list[Member]:
    """The library members the program needs, in library order (archive semantics:
    a member is linked when it defines a symbol that a linked module refers to and
    nothing defines yet; weak references do not pull members in)."""
    providers: dict[str, int] = {}
    for k, member in enumerate(library):
        for name in member.module.exports:
            providers.setdefault(name, k)
    defined = {n for m in user for n in m.module.exports}
    pending = sorted(set().union(*(_undefined(m.module) - m.weak for m in user)) - defined,
                     reverse=True)
    chosen: set[int] = set()
    while pending:
        name = pending.pop()
        k = providers.get(name)
        if k is None or k in chosen or name in defined:
            continue
        chosen.add(k)
        member = library[k]
        defined |= member.module.exports
        pending.extend(sorted(_undefined(member.module) - member.weak - defined,
                              reverse=True))
    return [library[k] for k in sorted(chosen)]


# ---------------------------------------------------------------------------------------
# programs

def link_program(units: Sequence[ObjectModule], app_name: str | None = None,
                 weak: Sequence[frozenset[str]] = (), soft_float: bool = False) -> LinkResult:
    """Link `units` (with `weak[i]` the weak references of `units[i]`) with crt0, the
    library members they need and crtend."""
    runtime = runtime_objects(soft_float)
    user = [Member(runtime.crt0)] + [
        Member(m, weak[i] if i < len(weak) else frozenset()) for i, m in enumerate(units)]
    chosen = select_runtime(user, runtime.library)
    modules = [m.module for m in user + chosen] + [runtime.crtend]
    weak_names = frozenset().union(*(m.weak for m in user + chosen))
    result = link(modules, LinkOptions(entry="_start", app_name=app_name, weak=weak_names))
    result.symbols = _without_local_labels(result.symbols)
    return result


def _without_local_labels(table: SymbolTable) -> SymbolTable:
    """Drop the back end's `.L…` block labels from the symbol table, so a code address
    maps to its function (whose size then runs to the next function)."""
    functions = sorted((f for f in table.functions if not f.name.startswith(".L")),
                       key=lambda f: f.address)
    code_end = max((r.end + 1 for r in table.regions if r.name == "code"), default=0)
    starts = sorted({f.address for f in functions} | {code_end})
    sized = []
    for f in functions:
        following = next((a for a in starts if a > f.address), f.address)
        sized.append(replace(f, size=following - f.address))
    return SymbolTable(sized, list(table.variables), list(table.lines), list(table.regions),
                       table.hxe_crc, list(table.types), list(table.globals),
                       list(table.locals))


def attach_debug_variables(table: SymbolTable, units: Sequence[CompiledUnit]) -> SymbolTable:
    """`table` with the C types, globals and locals of the -g `units` (addresses from the
    linked labels: a global or function that is not in the image is left out)."""
    types, globals_, locals_ = list(table.types), list(table.globals), list(table.locals)
    for unit in units:
        facts = unit.debug
        if not facts.get("types") and not facts.get("globals") and not facts.get("locals"):
            continue
        base = len(types)

        def ref(index: int | None) -> int | None:
            return None if index is None else index + base
        for t in facts.get("types", ()):
            t = dict(t)
            for key in ("pointee", "type", "element", "base"):
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
    return replace(table, types=types, globals=globals_, locals=locals_)


def _linked(symbols, name: str, static: bool, file: str | None):
    """The linked label `name`: the exported one, or a module-local one from `file`."""
    found = [s for s in symbols if s.name == name]
    exported = [s for s in found if s.scope == "global"]
    if exported and not static:
        return exported[0]
    local = [s for s in found if s.scope != "global" and (s.file == file or len(found) == 1)]
    return local[0] if len(local) == 1 else None


def build_c(sources: Iterable[str], options: Options | None = None,
            app_name: str | None = None) -> tuple[LinkResult, list[CompiledUnit]]:
    """Compile the C files and assemble the MVASM files among `sources`, and link them
    with the runtime."""
    options = options or Options()
    units = [assemble_unit(s) if s.lower().endswith(".mvasm") else compile_c_file(s, options)
             for s in sources]
    result = link_program([u.module for u in units], app_name, [u.weak for u in units],
                          options.soft_float)
    if options.debug:
        result.symbols = attach_debug_variables(result.symbols, units)
    return result, units


def build_c_file(path: str | os.PathLike, opt: int = 2, debug: bool = False) -> HxeImage:
    """Compile and link one C file in memory (what `hsx run prog.c` uses)."""
    path = os.fspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    result, _ = build_c([path], Options(opt=opt, debug=debug), normalize_app_name(stem))
    return result.image


def sources_json(units: Sequence[CompiledUnit]) -> bytes:
    """`sources.json`: the C files of a debug build, for debuggers to find the text."""
    files = sorted({f for u in units for f in u.module.files} | {u.source for u in units})
    doc = {"version": 1, "project_root": os.getcwd().replace(os.sep, "/"),
           "sources": [{"file": f.replace(os.sep, "/"),
                        "path": os.path.abspath(f).replace(os.sep, "/")} for f in files]}
    return (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode()
