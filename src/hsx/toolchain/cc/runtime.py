"""The C runtime: crt0, the C library in `lib/` and crtend, and linking programs with it.

The library is compiled once per back-end/library version and cached as `.hxo` files,
one per function or variable (like `-ffunction-sections` archive members), so a program
links only the library code it refers to, directly or through other library code.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import platformdirs

from hsx.image.hxo import ObjectModule, load_hxo, write_hxo
from hsx.image.sym import SymbolTable
from hsx.toolchain.linker import LinkOptions, LinkResult, link

from .frontend import clang_command
from .sourcenames import lib_dir
from .frontend import Options
from .unit import assemble_unit

RUNTIME_OPT = "s"       # the library is built for size, like newlib-nano or picolibc


def _runtime_sources() -> list[Path]:
    root = lib_dir()
    return sorted(list((root / "src").glob("*.c")) + list((root / "src").glob("*.mvasm")))


def _fingerprint(soft_float: bool, compact: bool, far_addresses: bool) -> str:
    """What the cached library depends on: its sources, the back end and assembler that
    build it, the object format, clang, the float mode, packing and how addresses load
    (hashed once per process)."""
    return _hash_inputs(str(lib_dir()), " ".join(clang_command()), soft_float, compact,
                        far_addresses)


@functools.lru_cache(maxsize=8)
def _hash_inputs(library: str, clang: str, soft_float: bool, compact: bool,
                 far_addresses: bool) -> str:
    h = hashlib.sha256()
    package = Path(__file__).resolve().parents[2]           # src/hsx
    root = Path(library)
    for path in sorted((package / "toolchain").rglob("*.py")) + \
            sorted((package / "isa").glob("*.py")) + [package / "image" / "hxo.py"] + \
            _runtime_sources() + sorted((root / "include").glob("*.h")) + \
            [root / "crt0.mvasm", root / "crtend.mvasm"]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(clang.encode())
    h.update(b"soft-float" if soft_float else b"hard-float")
    h.update(b"compact" if compact else b"one-per-word")
    h.update(b"far-addresses" if far_addresses else b"near-addresses")
    return h.hexdigest()[:24]


def _cache_dir() -> Path:
    """$HSX_CACHE_DIR, else the user's cache directory: the library is built once per
    installed version and kept across reboots."""
    base = os.environ.get("HSX_CACHE_DIR")
    if base:
        return Path(base)
    return Path(platformdirs.user_cache_dir("hsx", appauthor=False)) / "cc"


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
    """An MVASM file of the library, with its lines: a debugger steps through crt0."""
    module = assemble_unit(str(lib_dir() / name)).module
    module.name = f"lib/{name}"
    return module


def _build_library(soft_float: bool, compact: bool, far_addresses: bool) -> list[Member]:
    """Every library source, C files split into one member per function and variable
    (their statics renamed `__hsx.<file>.<name>` and exported; each function labelled
    with its C file and line), MVASM files whole."""
    options = Options(opt=RUNTIME_OPT, include_dirs=(str(lib_dir() / "src"),),
                      soft_float=soft_float, line_tables=True, compact=compact,
                      far_addresses=far_addresses)
    from .parallel import compile_units     # (here: multiprocessing is slow to import)
    members: list[Member] = []
    sources = _runtime_sources()
    c_files = [str(p) for p in sources if p.suffix == ".c"]
    with closing(compile_units(c_files, options, split=True)) as units:
        for done, path in enumerate(sources):
            _progress(done, len(sources), path.name)
            if path.suffix == ".c":
                unit = next(units)
                for obj in unit.pieces:
                    obj.name = "lib/" + path.name + obj.name[len(unit.source):]
                    members.append(Member(obj, frozenset(
                        unit.weak & {r.symbol for r in obj.relocs})))
            else:
                members.append(Member(_assemble_lib(f"src/{path.name}")))
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


def runtime_objects(soft_float: bool = False, compact: bool = True,
                    far_addresses: bool = False) -> Runtime:
    """crt0, the library members (compiled at -O2, cached on disk by content), crtend."""
    key = _fingerprint(soft_float, compact, far_addresses)
    cached = _RUNTIME.get(key)
    if cached is not None:
        return cached
    folder = _cache_dir() / key
    members = _load_library(folder)
    if members is None:
        members = _build_library(soft_float, compact, far_addresses)
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
                 weak: Sequence[frozenset[str]] = (), soft_float: bool = False,
                 gc_sections: bool = True, compact: bool = True,
                 far_addresses: bool = False) -> LinkResult:
    """Link `units` (with `weak[i]` the weak references of `units[i]`) with crt0, the
    library members they need and crtend; `gc_sections` leaves out the functions and
    data nothing reachable from `_start` uses (hsx.toolchain.gc); `compact`: the
    library with compact pairs (hsx.toolchain.packer) or without; `far_addresses`: the
    library's addresses in LDI32 (Options.far_addresses)."""
    runtime = runtime_objects(soft_float, compact, far_addresses)
    user = [Member(runtime.crt0)] + [
        Member(m, weak[i] if i < len(weak) else frozenset()) for i, m in enumerate(units)]
    chosen = select_runtime(user, runtime.library)
    modules = [m.module for m in user + chosen] + [runtime.crtend]
    weak_names = frozenset().union(*(m.weak for m in user + chosen))
    result = link(modules, LinkOptions(entry="_start", app_name=app_name, weak=weak_names,
                                       gc_sections=gc_sections))
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
    return replace(table, functions=sized)
