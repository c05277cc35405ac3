"""Flash and RAM of the native core and of the C executive, linked for a microcontroller
(docs/port.md, "Size on a Cortex-M3" and "Variants and sizes").

    python benchmarks/port_size.py [--cpu cortex_m3] [--json] [--functions N] [--files]

Builds with the ziglang wheel's `zig cc` for `thumb-freestanding-eabi` at -Os in the
microcontroller configuration (HSX_DECODE_AT_FETCH: instructions are decoded from the
code in flash, no decoded copy in RAM), and prints:

- the VM core alone: its object files' flash and static RAM, the per-task record
  (sizeof(hsx_task)) and the compiler runtime helpers it calls;
- per variant (minimal, development, full): a real linked image. Every file is compiled
  with -ffunction-sections -fdata-sections and linked with --gc-sections from the entry
  points a board uses (hsx_exec_init, hsx_exec_poll, hsx_exec_idle_ms,
  hsx_link_received), called by the smallest board there is (port_size_board.c: a reset
  handler with the main loop, a polled UART, a tick, a flash store). What the linker
  kept is put in its part: the VM, the executive (port/c/hsx_*.c but the link's files),
  the control plane (frames, CBOR, protocol v1), the compiler's runtime (zig's
  compiler_rt: soft float, 64-bit division, memcpy), the merged string constants and
  alignment no symbol covers, and the board's HAL and startup, listed apart. The budget
  of issue 24 counts everything but the board: VM, executive, control plane, runtime
  and strings. Task memory -- the tasks' address spaces, the code arena for images
  loaded over the link and the mailboxes' message pool -- is listed apart, as the RAM
  budget is "besides task memory".

--functions N lists the N largest functions and objects of each variant's image with
their part and file, and its N largest objects in RAM; --files gives each file's share.
"""
from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PORT = ROOT / "port" / "c"
BOARD = Path(__file__).resolve().parent / "port_size_board.c"
SOURCES = ("hsx_vm.c", "hsx_decode.c", "hsx_f16.c", "hsx_fp.c")
SHF_WRITE, SHF_ALLOC, SHT_NOBITS, SHT_SYMTAB = 0x1, 0x2, 8, 2
STT_OBJECT, STT_FUNC, STT_FILE, STB_LOCAL = 1, 2, 4, 0
VARIANTS = {"minimal": 1, "development": 2, "full": 3}
# Budgets (issue 24): VM + executive + control plane (+ the runtime and strings they
# bring), Cortex-M3 -Os, from the linked image.
FLASH_BUDGET = {"minimal": 16 * 1024, "development": 28 * 1024}
RAM_BUDGET = {"development": 4 * 1024}
# Static arrays that are the tasks' memory, not the executive's (by symbol name).
TASK_MEMORY = {"task_memory": "the tasks' address spaces", "arena": "the code arena",
               "hsx_mb_pool": "the mailboxes' message pool"}
PARTS = ("vm", "executive", "control plane", "runtime", "strings, alignment", "board")
COUNTED = PARTS[:-1]                     # what the budget counts: all but the board
FLAGS = ("-Os", "-std=c99", "-ffreestanding", "-fno-unwind-tables",
         "-fno-asynchronous-unwind-tables", "-DHSX_DECODE_AT_FETCH", "-Wall", "-Wextra",
         "-Werror")
LINKED = ("-g", "-ffunction-sections", "-fdata-sections")
ENTRY = "Reset_Handler"
# LLVM's global merge puts a file's globals in one block (one base address for all): its
# symbol spans the globals' own symbols, which are counted instead.
MERGED = ".L_MergedGlobals"


def zig() -> str:
    import ziglang
    return str(Path(ziglang.__file__).resolve().parent / "zig")


def target(cpu: str) -> tuple[str, ...]:
    return ("-target", "thumb-freestanding-eabi", f"-mcpu={cpu}")


def compile_object(source: Path, out: Path, cpu: str, *defines: str) -> None:
    done = subprocess.run([zig(), "cc", *target(cpu), *FLAGS, *defines, "-I", str(PORT), "-c",
                           str(source), "-o", str(out)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"port_size: {source.name} does not compile:\n{done.stderr}")


def sections(path: Path) -> tuple[list[dict], list[tuple[str, int, int]]]:
    """ELF32 little-endian: the sections and the symbols (name, section index, size)."""
    secs, table = symbol_table(path)
    return secs, [(s["name"], s["shndx"], s["size"]) for s in table]


def symbol_table(path: Path) -> tuple[list[dict], list[dict]]:
    """ELF32 little-endian: the sections, and the symbols in table order (name, value,
    size, type, binding, section index)."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError(f"{path} is not a 32-bit little-endian ELF file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    raw = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    names = raw[shstrndx][4]

    def name_at(table_offset: int, index: int) -> str:
        end = data.index(b"\0", table_offset + index)
        return data[table_offset + index:end].decode()

    secs = [{"name": name_at(names, s[0]), "type": s[1], "flags": s[2], "offset": s[4],
             "size": s[5], "link": s[6], "entsize": s[9]} for s in raw]
    table = []
    for sec in secs:
        if sec["type"] != SHT_SYMTAB:
            continue
        strtab = secs[sec["link"]]["offset"]
        for k in range(sec["size"] // 16):
            st_name, value, size, info, _, shndx = struct.unpack_from(
                "<IIIBBH", data, sec["offset"] + 16 * k)
            table.append({"name": name_at(strtab, st_name) if st_name else "", "value": value,
                          "size": size, "type": info & 15, "bind": info >> 4, "shndx": shndx})
    return secs, table


def object_sizes(objects: list[Path]) -> dict:
    """Flash and static RAM of unlinked object files, and the runtime helpers they call."""
    flash = ram = 0
    helpers: set[str] = set()
    for obj in objects:
        secs, symbols = sections(obj)
        for sec in secs:
            if not sec["flags"] & SHF_ALLOC or sec["name"].startswith(".ARM.exidx"):
                continue
            if sec["type"] == SHT_NOBITS:
                ram += sec["size"]
            elif sec["flags"] & SHF_WRITE:
                flash += sec["size"]
                ram += sec["size"]
            else:
                flash += sec["size"]
        helpers |= {n for n, shndx, _ in symbols if shndx == 0 and n.startswith("__")}
    return {"flash": flash, "ram": ram, "helpers": helpers}


def group_sources() -> dict[str, tuple[str, ...]]:
    """The VM, the executive and the control plane, as the host build compiles them."""
    sys.path.insert(0, str(ROOT / "src"))
    from hsx.board.build import EXECUTIVE, LINK
    return {"vm": SOURCES, "executive": tuple(s for s in EXECUTIVE if s not in SOURCES),
            "control plane": LINK}


def link_variant(variant: str, cpu: str, tmp: Path) -> tuple[Path, dict[str, str]]:
    """The linked image of a variant, and which part each source file is in."""
    defines = (f"-DHSX_VARIANT={VARIANTS[variant]}",)
    part_of = {"port_size_board.c": "board"}
    objects = []
    for part, names in group_sources().items():
        for name in names:
            part_of[name] = part
            obj = tmp / f"{variant}-{name}.o"
            compile_object(PORT / name, obj, cpu, *LINKED, *defines)
            objects.append(obj)
    board = tmp / f"{variant}-board.o"
    compile_object(BOARD, board, cpu, *LINKED, *defines)
    elf = tmp / f"{variant}.elf"
    done = subprocess.run([zig(), "cc", *target(cpu), *FLAGS, *LINKED, "-Wl,--gc-sections",
                           f"-Wl,-e,{ENTRY}", *map(str, objects), str(board), "-o", str(elf)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"port_size: the {variant} image does not link:\n{done.stderr}")
    return elf, part_of


def global_owners(objects: list[Path]) -> dict[str, str]:
    """Global symbol -> the source file whose object defines it."""
    owners = {}
    for obj in objects:
        for symbol in symbol_table(obj)[1]:
            if symbol["bind"] != STB_LOCAL and symbol["shndx"] != 0 and symbol["name"]:
                owners[symbol["name"]] = obj.name.split("-", 1)[1][:-2]
    return owners


def measure_variant(variant: str, cpu: str, tmp: Path) -> dict:
    elf, part_of = link_variant(variant, cpu, tmp)
    owners = global_owners(sorted(tmp.glob(f"{variant}-*.o")))
    owners = {name: ("port_size_board.c" if source == "board" else source)
              for name, source in owners.items()}
    secs, table = symbol_table(elf)
    flash = {part: 0 for part in PARTS}
    ram = {part: 0 for part in PARTS}
    files: dict[str, list[int]] = {}
    task_memory: dict[str, int] = {}
    listing, ram_listing = [], []
    seen: set[tuple[int, int]] = set()
    current_file = ""
    for symbol in table:
        if symbol["type"] == STT_FILE:
            current_file = Path(symbol["name"]).name
            continue
        if symbol["type"] not in (STT_OBJECT, STT_FUNC) or not symbol["size"] \
                or not 0 < symbol["shndx"] < len(secs) or symbol["name"].startswith(MERGED):
            continue
        sec = secs[symbol["shndx"]]
        address = symbol["value"] & ~1 if symbol["type"] == STT_FUNC else symbol["value"]
        where = (symbol["shndx"], address)    # (a function's odd address is its Thumb bit)
        if not sec["flags"] & SHF_ALLOC or where in seen:      # an alias of one already seen
            continue
        seen.add(where)
        source = current_file if symbol["bind"] == STB_LOCAL else owners.get(symbol["name"], "")
        part = part_of.get(source, "runtime")
        source = source if source in part_of else "compiler_rt"
        entry = files.setdefault(source, [0, 0])
        if symbol["name"] in TASK_MEMORY:
            task_memory[symbol["name"]] = symbol["size"]
            continue
        if sec["flags"] & SHF_WRITE:
            ram[part] += symbol["size"]
            entry[1] += symbol["size"]
            ram_listing.append((symbol["size"], symbol["name"], part, source))
            if sec["type"] == SHT_NOBITS:
                continue
        flash[part] += symbol["size"]
        entry[0] += symbol["size"]
        listing.append((symbol["size"], symbol["name"], part, source))
    total_flash = sum(s["size"] for s in secs if s["flags"] & SHF_ALLOC and s["type"] != SHT_NOBITS)
    flash["strings, alignment"] = total_flash - sum(flash.values())
    counted_flash = sum(flash[p] for p in COUNTED)
    counted_ram = sum(ram[p] for p in COUNTED)
    listing.sort(key=lambda row: (-row[0], row[1]))
    ram_listing.sort(key=lambda row: (-row[0], row[1]))
    return {"parts": {p: {"flash": flash[p], "ram": ram[p]} for p in PARTS},
            "flash_bytes": counted_flash, "static_ram_bytes": counted_ram,
            "total_flash": total_flash, "task_memory": task_memory,
            "flash_budget": FLASH_BUDGET.get(variant), "ram_budget": RAM_BUDGET.get(variant),
            "files": {name: {"flash": f, "ram": r} for name, (f, r) in
                      sorted(files.items(), key=lambda item: -item[1][0])},
            "functions": [{"size": s, "name": n, "part": p, "file": f} for s, n, p, f in listing],
            "ram_objects": [{"size": s, "name": n, "part": p, "file": f}
                            for s, n, p, f in ram_listing]}


def measure(cpu: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        objects = []
        for name in SOURCES:
            obj = Path(tmp) / (name + ".o")
            compile_object(PORT / name, obj, cpu)
            objects.append(obj)
        core = object_sizes(objects)
        probe = Path(tmp) / "probe.c"
        probe.write_text('#include "hsx_vm.h"\nhsx_task hsx_task_probe;\n'
                         'hsx_insn hsx_insn_probe;\n')
        compile_object(probe, Path(tmp) / "probe.o", cpu)
        _, symbols = sections(Path(tmp) / "probe.o")
        sizes = {n: size for n, _, size in symbols}
        variants = {}
        for variant in VARIANTS:
            build = Path(tmp) / variant
            build.mkdir()
            variants[variant] = measure_variant(variant, cpu, build)
    return {"cpu": cpu, "flash_bytes": core["flash"], "static_ram_bytes": core["ram"],
            "task_record_bytes": sizes["hsx_task_probe"],
            "decoded_insn_bytes": sizes["hsx_insn_probe"],
            "runtime_helpers": sorted(core["helpers"]), "variants": variants}


def kib(n: int) -> str:
    return f"{n / 1024:.1f} KiB"


def verdict(v: dict) -> str:
    said = []
    if v["flash_budget"]:
        said.append(f"flash budget {kib(v['flash_budget'])}: "
                    f"{'within' if v['flash_bytes'] <= v['flash_budget'] else 'OVER'}")
    if v["ram_budget"]:
        said.append(f"RAM budget {kib(v['ram_budget'])}: "
                    f"{'within' if v['static_ram_bytes'] <= v['ram_budget'] else 'OVER'}")
    return "; ".join(said)


def print_report(report: dict, functions: int, files: bool) -> None:
    print(f"target thumb-freestanding-eabi -mcpu={report['cpu']} -Os, decode at fetch")
    print("the VM core (object files):")
    print(f"  flash (code + constants):      {report['flash_bytes']:>6,} bytes")
    print(f"  static RAM of the core:        {report['static_ram_bytes']:>6,} bytes")
    print(f"  RAM per task (hsx_task):       {report['task_record_bytes']:>6,} bytes "
          "+ 1 bit per code word for breakpoints")
    print(f"  compiler runtime helpers used: {', '.join(report['runtime_helpers']) or 'none'}")
    print()
    print("each variant linked (--gc-sections) from a board's entry points:")
    print(f"{'variant':12} {'part':20} {'flash':>9} {'static RAM':>11}")
    for variant, v in report["variants"].items():
        for part, sizes in v["parts"].items():
            shown = "(apart) " + part if part == "board" else part
            ram = f"{sizes['ram']:>11,}" if part != "strings, alignment" else ""
            print(f"{variant:12} {shown:20} {sizes['flash']:>9,} {ram}")
        print(f"{variant:12} {'counted':20} {v['flash_bytes']:>9,} {v['static_ram_bytes']:>11,}"
              f"   {verdict(v)}")
        memory = ", ".join(f"{TASK_MEMORY[k]} {n:,}" for k, n in sorted(v["task_memory"].items()))
        print(f"{'':12} {'task memory':20} {memory}")
        if files:
            for name, sizes in v["files"].items():
                print(f"{'':12}   {name:26} {sizes['flash']:>7,} {sizes['ram']:>9,}")
        for row in v["functions"][:functions]:
            print(f"{'':12}   {row['size']:>6,}  {row['name']:36} {row['part']:14} {row['file']}")
        if functions:
            print(f"{'':12}   static RAM:")
        for row in v["ram_objects"][:functions]:
            print(f"{'':12}   {row['size']:>6,}  {row['name']:36} {row['part']:14} {row['file']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", default="cortex_m3")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--functions", type=int, default=0, metavar="N",
                        help="list the N largest functions and objects of each image")
    parser.add_argument("--files", action="store_true", help="each file's flash and RAM")
    args = parser.parse_args()
    report = measure(args.cpu)
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
        return
    print_report(report, args.functions, args.files)


if __name__ == "__main__":
    main()
