"""Flash and RAM of the mps2-an385 firmware per variant, measured from the linked ELF
(docs/port.md, "The mps2-an385 board"; benchmarks/README.md).

    python benchmarks/firmware_size.py [--json]

Builds (or finds) the firmware of each variant with `hsx.board.build`, as `hsx board
run --board mps2-an385` runs it, and reads what the linker kept: unused functions are
gone (-ffunction-sections, --gc-sections) and string constants merged, unlike the sum of
object files that port_size.py measures. Every symbol is put in its part:

- the VM, the executive and the control plane (the files hsx.board.build compiles for
  them), against issue 24's budgets (development 28 KiB of flash, minimal 16 KiB);
- the board: its HAL and startup code (port/c/boards/mps2-an385/), listed apart;
- the compiler's runtime (zig's compiler_rt: soft float, 64-bit division, memcpy);
- flash no symbol covers (merged string literals, alignment).

A local symbol belongs to the file named before it in the symbol table; a global one to
the object file that defines it (each source is compiled once more to find out). RAM is
the static data and bss: the tasks' memory (their address spaces, the code arena, the
mailboxes' message pool) and the stack are listed apart, as the budget is "besides task
memory".
"""
from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from port_size import FLASH_BUDGET, MERGED, RAM_BUDGET, ROOT, TASK_MEMORY, VARIANTS, \
    group_sources, sections, zig

sys.path.insert(0, str(ROOT / "src"))
from hsx.board.build import FIRMWARE, MPS2_BOARD, find_or_build, firmware_flags  # noqa: E402

PORT = ROOT / "port" / "c"
SHF_WRITE, SHF_ALLOC, SHT_NOBITS, SHT_SYMTAB = 0x1, 0x2, 8, 2
STT_OBJECT, STT_FUNC, STT_FILE, STB_LOCAL = 1, 2, 4, 0
PARTS = ("vm", "executive", "control plane", "board", "runtime")


def symbols(path: Path) -> tuple[list[dict], list[dict]]:
    """The ELF's sections, and its symbols in table order (name, value, size, type,
    binding, section index)."""
    data = path.read_bytes()
    secs, _ = sections(path)
    table = []
    for sec in secs:
        if sec["type"] != SHT_SYMTAB:
            continue
        strtab = secs[sec["link"]]["offset"]
        for k in range(sec["size"] // 16):
            name, value, size, info, _, shndx = struct.unpack_from(
                "<IIIBBH", data, sec["offset"] + 16 * k)
            end = data.index(b"\0", strtab + name)
            table.append({"name": data[strtab + name:end].decode(), "value": value, "size": size,
                          "type": info & 15, "bind": info >> 4, "shndx": shndx})
    return secs, table


def part_of_file(name: str) -> str:
    """Which part a source file (as the symbol table or the build names it) is in."""
    base = Path(name).name
    for part, files in group_sources().items():
        if base in files:
            return part
    if base in {Path(f).name for f in MPS2_BOARD}:
        return "board"
    return "runtime"


def global_owners(variant: str, tmp: Path) -> dict[str, str]:
    """Global symbol -> the part whose object file defines it."""
    flags = [f for f in firmware_flags(PORT, variant) if not f.startswith("-Wl,")]
    flags = [f for i, f in enumerate(flags) if f != "-T" and (i == 0 or flags[i - 1] != "-T")]
    owners = {}
    for name in FIRMWARE:
        obj = tmp / f"{variant}-{Path(name).stem}.o"
        done = subprocess.run([zig(), "cc", *flags, "-c", str(PORT / name), "-o", str(obj)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"firmware_size: {name} does not compile:\n{done.stderr}")
        for symbol in symbols(obj)[1]:
            if symbol["bind"] != STB_LOCAL and symbol["shndx"] != 0:
                owners[symbol["name"]] = part_of_file(name)
    return owners


def measure_variant(variant: str, tmp: Path) -> dict:
    elf = find_or_build(variant, "mps2-an385")
    secs, table = symbols(elf)
    owners = global_owners(variant, tmp)
    flash = {part: 0 for part in PARTS}
    ram = {part: 0 for part in PARTS}
    task_memory: dict[str, int] = {}
    current_file = ""
    seen: set[tuple[int, int]] = set()
    for symbol in table:
        if symbol["type"] == STT_FILE:
            current_file = symbol["name"]
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
        part = part_of_file(current_file) if symbol["bind"] == STB_LOCAL else \
            owners.get(symbol["name"], "runtime")
        if symbol["name"] in TASK_MEMORY:
            task_memory[symbol["name"]] = symbol["size"]
        elif sec["flags"] & SHF_WRITE:
            ram[part] += symbol["size"]
            if sec["type"] != SHT_NOBITS:
                flash[part] += symbol["size"]      # initial values, copied from flash
        else:
            flash[part] += symbol["size"]
    total_flash = sum(s["size"] for s in secs if s["flags"] & SHF_ALLOC
                      and s["type"] != SHT_NOBITS)
    stack = sum(s["size"] for s in secs if s["name"] == ".stack")
    total_ram = sum(s["size"] for s in secs if s["flags"] & SHF_ALLOC and s["flags"] & SHF_WRITE)
    core = flash["vm"] + flash["executive"] + flash["control plane"]
    core_ram = ram["vm"] + ram["executive"] + ram["control plane"]
    return {"elf": str(elf), "flash": flash, "ram": ram, "task_memory": task_memory,
            "stack_bytes": stack, "unattributed_flash": total_flash - sum(flash.values()),
            "total_flash": total_flash, "total_ram": total_ram,
            "executive_flash": core, "executive_ram": core_ram,
            "flash_budget": FLASH_BUDGET.get(variant), "ram_budget": RAM_BUDGET.get(variant)}


def measure() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        return {variant: measure_variant(variant, Path(tmp)) for variant in VARIANTS}


def print_report(report: dict) -> None:
    print("mps2-an385 firmware (thumb, -mcpu=cortex_m3, -Os, linked with --gc-sections)")
    print(f"{'variant':12} {'part':24} {'flash':>9} {'static RAM':>11}")
    for variant, v in report.items():
        for part in PARTS:
            print(f"{variant:12} {part:24} {v['flash'][part]:>9,} {v['ram'][part]:>11,}")
        print(f"{variant:12} {'strings, alignment':24} {v['unattributed_flash']:>9,}")
        print(f"{variant:12} {'total':24} {v['total_flash']:>9,} {v['total_ram']:>11,}"
              "   (RAM: everything, task memory and stack included)")
        verdict = []
        if v["flash_budget"]:
            verdict.append(f"flash budget {v['flash_budget']:,}: "
                           f"{'within' if v['executive_flash'] <= v['flash_budget'] else 'OVER'}")
        if v["ram_budget"]:
            verdict.append(f"RAM budget {v['ram_budget']:,}: "
                           f"{'within' if v['executive_ram'] <= v['ram_budget'] else 'OVER'}")
        print(f"{variant:12} {'VM+executive+control':24} {v['executive_flash']:>9,} "
              f"{v['executive_ram']:>11,}   {'; '.join(verdict)}")
        memory = ", ".join(f"{TASK_MEMORY[k]} {n:,}" for k, n in sorted(v["task_memory"].items()))
        print(f"{'':12} {'apart':24} {memory}; the stack {v['stack_bytes']:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = measure()
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
        return
    print_report(report)


if __name__ == "__main__":
    main()
