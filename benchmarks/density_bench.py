"""Code density: `python benchmarks/density_bench.py [--quick] [--breakdown]`.

What HSX code costs in flash, next to clang's Thumb-2 (Cortex-M3) and wasm32 builds of
the same C, all at -Os (benchmarks/README.md has the figures).  Two tables:

1. Libraries, per object, as a compiler leaves each C file before linking: the sum
   over the library's .c files of code and initialised data.
   HSX: the object's code and rodata (`hsx cc -Os -c`).
   Thumb-2: `zig cc -target thumb-freestanding-eabi -mcpu=cortex_m3 -Os -c`, the ELF
   object's allocated .text*, .rodata* and .data* sections (not the unwind tables).
   wasm32: `zig cc -target wasm32-freestanding -Os -c`, the Code and Data sections.
2. Programs, linked, as they go into flash.
   HSX: the .hxe's code and rodata (`hsx cc -Os`: crt0, the program, the members of
   the C library it uses).
   Thumb-2 and wasm32: the program and this repository's C library built for that
   target (its SVCs as `svc #0`, or as nothing on wasm32), with a small crt0
   (density/start.c), linked with --gc-sections; Thumb-2 with compiler-rt for what a
   Cortex-M3 lacks (double arithmetic, 64-bit division).  The same sections as above.

Libraries: this repository's C library (lib/src/*.c), lz4 (lz4, lz4hc, lz4frame,
xxhash), yyjson and the Lua 5.4 interpreter (about 30,000 lines); the last three come
from PyPI source distributions fetched once into hsx's cache (hsx.thirdparty),
never kept in this repository.  Programs: examples/c/hello.c and wc.c, the CoreMark-like
mix of benchmarks/peers, a JSON program on yyjson and a compression program on lz4
(density/), and the Lua interpreter.  --quick leaves Lua out (its HSX build takes a few
minutes).  --breakdown adds where the HSX bytes of the libraries go, by kind of
instruction.
"""
from __future__ import annotations

import argparse
import shutil
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hsx.isa import decode_code
from hsx.isa.opcodes import Group
from hsx.toolchain.cc.driver import Options, build_c, compile_c_file

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent / "density"

from hsx import thirdparty  # noqa: E402

ZIG_CC = [sys.executable, "-m", "ziglang", "cc"]
FOREIGN = ["-Os", "-ffreestanding", "-fno-builtin", "-nostdinc", "-fno-exceptions",
           "-fno-asynchronous-unwind-tables", "-ffunction-sections", "-fdata-sections",
           "-D__STDC_NO_THREADS__=1", "-U__SIZEOF_INT128__"]
TARGETS = {
    "Thumb-2": ["-target", "thumb-freestanding-eabi", "-mcpu=cortex_m3"],
    "wasm32": ["-target", "wasm32-freestanding", "-Xclang", "-mlong-double-64"],
}
# The C library's inline assembly, and what stands for it on the other targets.
ASM = {'"SVC " __HSX_STR(mod) ", " __HSX_STR(fn)': ('"svc #0"', '""'),
       '"MOV R0, %0\\nSVC 1, 0"': ('"mov r0, %0\\n\\tsvc #0"', '""'),
       '"MOV %0, R15"': ('"mov %0, sp"', '""'),
       '"SVC 6, 8"': ('"svc #0"', '""')}


@dataclass
class Code:
    """A body of C: its sources, include directories and macros."""
    name: str
    sources: list[Path]
    include: list[Path] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)

    @property
    def lines(self) -> int:
        return sum(len(p.read_text(errors="replace").splitlines()) for p in self.sources)


# -- sizes of one build -------------------------------------------------------------------

def elf_bytes(data: bytes) -> int:
    """Allocated .text*, .rodata* and .data* of an ELF32 (little-endian) file."""
    shoff = struct.unpack_from("<I", data, 0x20)[0]
    entsize, count, names = struct.unpack_from("<HHH", data, 0x2E)
    headers = [struct.unpack_from("<10I", data, shoff + k * entsize) for k in range(count)]
    strings = headers[names][4]
    total = 0
    for name_at, kind, flags, _, _, size, *_ in headers:
        name = data[strings + name_at:data.index(b"\0", strings + name_at)].decode()
        if kind == 1 and flags & 2 and name.startswith((".text", ".rodata", ".data")):
            total += size
    return total


def wasm_bytes(data: bytes) -> int:
    """The Code and Data sections of a WebAssembly module."""
    def leb(at: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = data[at]
            value |= (byte & 0x7F) << shift
            at, shift = at + 1, shift + 7
            if byte < 0x80:
                return value, at
    at, total = 8, 0
    while at < len(data):
        kind = data[at]
        size, at = leb(at + 1)
        if kind in (10, 11):
            total += size
        at += size
    return total


def foreign_bytes(target: str, path: Path) -> int:
    data = path.read_bytes()
    return wasm_bytes(data) if target == "wasm32" else elf_bytes(data)


# -- builds -------------------------------------------------------------------------------

class Foreign:
    """Thumb-2 and wasm32 builds, with this repository's C library made for each."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.libc: dict[str, Path] = {}

    def _sources(self, target: str) -> Path:
        """The library's sources with their SVCs written for `target`."""
        where = self.work / f"lib-{target}"
        if not where.exists():
            for part in ("include", "src"):
                shutil.copytree(ROOT / "lib" / part, where / part)
            column = list(TARGETS).index(target)
            for path in [*where.glob("include/*.h"), *where.glob("src/*.[ch]")]:
                text = original = path.read_text()
                for hsx, foreign in ASM.items():
                    text = text.replace(hsx, foreign[column])
                if text != original:
                    path.write_text(text)
        return where

    def _for(self, target: str, path: Path) -> Path:
        """`path`, or its copy made for `target` when it is in lib/."""
        try:
            return self._sources(target) / path.relative_to(ROOT / "lib")
        except ValueError:
            return path

    def compile(self, target: str, code: Code, source: Path, out: Path) -> Path:
        lib = self._sources(target)
        flags = [f"-I{self._for(target, d)}" for d in code.include]
        flags += [f"-D{d}" for d in code.defines]
        subprocess.run([*ZIG_CC, *TARGETS[target], *FOREIGN, "-isystem", str(lib / "include"),
                        *flags, "-c", str(self._for(target, source)), "-o", str(out)],
                       check=True)
        return out

    def objects(self, target: str, code: Code) -> int:
        folder = self.work / target / code.name
        folder.mkdir(parents=True, exist_ok=True)
        return sum(foreign_bytes(target, self.compile(target, code, s, folder / f"{s.stem}.o"))
                   for s in code.sources)

    def _libc(self, target: str) -> Path:
        if target not in self.libc:
            code = Code("libc", sorted((ROOT / "lib" / "src").glob("*.c")),
                        [ROOT / "lib" / "src"])
            folder = self.work / target / "libc-objects"
            folder.mkdir(parents=True, exist_ok=True)
            objects = [self.compile(target, code, s, folder / f"{s.stem}.o") for s in code.sources]
            archive = self.work / target / "libc.a"
            subprocess.run([sys.executable, "-m", "ziglang", "ar", "rcs", str(archive),
                            *map(str, objects)], check=True)
            self.libc[target] = archive
        return self.libc[target]

    def program(self, target: str, code: Code, forced: set[str]) -> int:
        """Bytes of the linked program; `forced` are the names the HSX build links in
        without a reference in the code (printf's float conversions, when a program
        passes printf a double)."""
        folder = self.work / target / f"program-{code.name}"
        folder.mkdir(parents=True, exist_ok=True)
        objects = [self.compile(target, code, s, folder / f"{s.stem}.o")
                   for s in [HERE / "start.c", *code.sources]]
        out = folder / ("program.wasm" if target == "wasm32" else "program.elf")
        link = ["-Wl,--gc-sections", "-Wl,--entry=_start"]
        link += [f"-Wl,-u,{name}" for name in sorted(forced)]
        subprocess.run([*ZIG_CC, *TARGETS[target], "-Os", *link, *map(str, objects),
                        str(self._libc(target)), "-o", str(out)], check=True)
        return foreign_bytes(target, out)


def hsx_objects(code: Code, breakdown: dict[str, int] | None) -> int:
    options = Options(opt="s", include_dirs=tuple(map(str, code.include)),
                      defines=tuple(code.defines))
    total = 0
    for source in code.sources:
        module = compile_c_file(str(source), options).module
        total += 4 * len(module.code) + len(module.rodata)
        if breakdown is not None:
            classify(module.code, breakdown)
            breakdown["rodata"] = breakdown.get("rodata", 0) + len(module.rodata)
    return total


def hsx_program(code: Code) -> tuple[int, set[str]]:
    """Bytes of the linked image, and the names its units import without a reference
    (see Foreign.program)."""
    options = Options(opt="s", include_dirs=tuple(map(str, code.include)),
                      defines=tuple(code.defines))
    result, units = build_c([str(s) for s in code.sources], options)
    forced = set().union(*(u.module.imports for u in units))
    return len(result.image.code) + len(result.image.rodata), forced


FRAME_REGISTERS = (14, 15)


def classify(words: list[int], into: dict[str, int]) -> None:
    """Add the bytes of each kind of instruction in `words` to `into`."""
    k = 0
    while k < len(words):
        ins = decode_code(words, k)
        size = ins.size if ins is not None else 4
        name = ins.op.mnemonic if ins is not None else "?"
        group = ins.op.group if ins is not None else None
        if name in ("PUSH", "POP"):
            kind = "push/pop"
        elif group is Group.MEMORY and ins.rs1 in FRAME_REGISTERS:
            kind = "frame load/store (spills, locals)"
        elif group is Group.MEMORY:
            kind = "other load/store"
        elif name == "LDI32":
            kind = "LDI32 (two words)"
        elif name in ("LDI", "MOV"):
            kind = "LDI/MOV"
        elif name in ("CMP", "CMPI"):
            kind = "compare"
        elif group is Group.BRANCH:
            kind = "branch/call/return"
        else:
            kind = "arithmetic and the rest"
        into[kind] = into.get(kind, 0) + size
        k += size // 4


# -- what is measured ---------------------------------------------------------------------

def third_party(work: Path, quick: bool) -> tuple[dict[str, Code], str | None]:
    """The fetched sources (name -> Code), and why some are missing, if they are."""
    found, missing = {}, []
    wanted = [("lz4", thirdparty.LZ4), ("yyjson", thirdparty.YYJSON)]
    if not quick:
        wanted.append(("lua", thirdparty.LUA))
    for name, sdist in wanted:
        folder = work / "sources" / name
        folder.mkdir(parents=True)
        try:
            found[name] = Code(name, sdist.extract(folder), [folder])
        except (thirdparty.Unavailable, OSError) as error:
            missing.append(f"{name}: {error}")
    return found, "; ".join(missing) or None


def libraries(fetched: dict[str, Code]) -> list[Code]:
    libc = Code("libc (lib/src)", sorted((ROOT / "lib" / "src").glob("*.c")),
                [ROOT / "lib" / "src"])
    return [libc, *fetched.values()]


def programs(fetched: dict[str, Code]) -> list[Code]:
    found = [Code("hello (examples/c)", [ROOT / "examples" / "c" / "hello.c"]),
             Code("wc (examples/c)", [ROOT / "examples" / "c" / "wc.c"]),
             Code("coremark (peers)", [ROOT / "benchmarks" / "peers" / "coremark.c"])]
    if "yyjson" in fetched:
        lib = fetched["yyjson"]
        found.append(Code("json (yyjson)", [HERE / "json_demo.c", *lib.sources], lib.include))
    if "lz4" in fetched:
        lib = fetched["lz4"]
        found.append(Code("lz4 (lz4)", [HERE / "lz4_demo.c", *lib.sources], lib.include))
    if "lua" in fetched:
        found.append(Code("lua", fetched["lua"].sources, fetched["lua"].include))
    return found


def row(name: str, lines: int, hsx: int, foreign: dict[str, int]) -> str:
    ratios = "  ".join(f"{hsx / foreign[t]:>11.2f}" for t in TARGETS)
    sizes = "  ".join(f"{foreign[t]:>12,}" for t in TARGETS)
    return f"{name:<20} {lines:>8,} {hsx:>12,}  {sizes}  {ratios}"


def header(first: str) -> str:
    names = "  ".join(f"{t + ' bytes':>12}" for t in TARGETS)
    ratios = "  ".join(f"{'HSX/' + t:>11}" for t in TARGETS)
    return f"{first:<20} {'C lines':>8} {'HSX bytes':>12}  {names}  {ratios}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="leave the Lua interpreter out")
    parser.add_argument("--breakdown", action="store_true",
                        help="where the libraries' HSX bytes go, by kind of instruction")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hsx-density-") as temp:
        work = Path(temp)
        fetched, missing = third_party(work, args.quick)
        if missing:
            print(f"left out: {missing}")
        foreign = Foreign(work)
        breakdown: dict[str, int] | None = {} if args.breakdown else None
        print("Libraries, per object (code + initialised data, -Os)")
        print(header("library"))
        totals = {"lines": 0, "HSX": 0, **{t: 0 for t in TARGETS}}
        for code in libraries(fetched):
            hsx = hsx_objects(code, breakdown)
            sizes = {t: foreign.objects(t, code) for t in TARGETS}
            print(row(code.name, code.lines, hsx, sizes), flush=True)
            totals["lines"] += code.lines
            totals["HSX"] += hsx
            for t in TARGETS:
                totals[t] += sizes[t]
        print(row("all", totals["lines"], totals["HSX"], totals))
        print()
        print("Programs, linked (the image's code + rodata; ELF/wasm code + data, "
              "--gc-sections)")
        print(header("program"))
        for code in programs(fetched):
            hsx, forced = hsx_program(code)
            sizes = {t: foreign.program(t, code, forced) for t in TARGETS}
            print(row(code.name, code.lines, hsx, sizes), flush=True)
        if breakdown is not None:
            print()
            print("Where the libraries' HSX bytes go")
            whole = sum(breakdown.values())
            for kind, size in sorted(breakdown.items(), key=lambda item: -item[1]):
                print(f"  {kind:<36} {size:>10,}  {100 * size / whole:5.1f}%")


if __name__ == "__main__":
    main()
