"""Flash and RAM of the native core and of the C executive cross-compiled for a
microcontroller (docs/port.md, "Size on a Cortex-M3" and "Variants and sizes").

    python benchmarks/port_size.py [--cpu cortex_m3] [--json]

Compiles port/c/ with the ziglang wheel's `zig cc` for `thumb-freestanding-eabi` at -Os
in the microcontroller configuration (HSX_DECODE_AT_FETCH: instructions are decoded from
the code in flash, no decoded copy in RAM), reads the object files' sections, and prints:

- the VM core alone: its flash, its static RAM, the per-task record (sizeof(hsx_task))
  and the compiler runtime helpers it calls (soft double on a core without an FPU);
- per variant (minimal, development, full): the flash and static RAM of the VM, the
  executive (port/c/hsx_*.c but the link's files) and the control plane (frames, CBOR,
  protocol v1), against the budgets of issue 24. Task memory -- the tasks' address
  spaces, the code arena for images loaded over the link and the mailboxes' message
  pool -- is listed apart, as the budget is "besides task memory". A board's HAL is not
  in these figures (it is the board's: UART, tick, flash driver).
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
SOURCES = ("hsx_vm.c", "hsx_f16.c", "hsx_fp.c")
SHF_WRITE, SHF_ALLOC, SHT_NOBITS, SHT_SYMTAB = 0x1, 0x2, 8, 2
VARIANTS = {"minimal": 1, "development": 2, "full": 3}
# Budgets (issue 24): VM + executive + control plane, Cortex-M3 -Os.
FLASH_BUDGET = {"minimal": 16 * 1024, "development": 28 * 1024}
RAM_BUDGET = {"development": 4 * 1024}
# Static arrays that are the tasks' memory, not the executive's (by symbol name).
TASK_MEMORY = {"task_memory": "the tasks' address spaces", "arena": "the code arena",
               "hsx_mb_pool": "the mailboxes' message pool"}


def zig() -> str:
    import ziglang
    return str(Path(ziglang.__file__).resolve().parent / "zig")


def compile_object(source: Path, out: Path, cpu: str, *defines: str) -> None:
    done = subprocess.run([zig(), "cc", "-target", "thumb-freestanding-eabi", f"-mcpu={cpu}", "-Os",
                           "-std=c99", "-ffreestanding", "-fno-unwind-tables",
                           "-fno-asynchronous-unwind-tables", "-DHSX_DECODE_AT_FETCH", *defines,
                           "-Wall", "-Wextra", "-Werror", "-I", str(PORT), "-c", str(source),
                           "-o", str(out)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"port_size: {source.name} does not compile:\n{done.stderr}")


def sections(path: Path) -> tuple[list[dict], list[tuple[str, int, int]]]:
    """ELF32 little-endian: the sections and the symbols (name, section index, size)."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError(f"{path} is not a 32-bit little-endian ELF object")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    raw = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    names = raw[shstrndx][4]

    def name_at(table_offset: int, index: int) -> str:
        end = data.index(b"\0", table_offset + index)
        return data[table_offset + index:end].decode()

    result = [{"name": name_at(names, s[0]), "type": s[1], "flags": s[2], "offset": s[4],
               "size": s[5], "link": s[6], "entsize": s[9]} for s in raw]
    symbols = []
    for sec in result:
        if sec["type"] != SHT_SYMTAB:
            continue
        strtab = result[sec["link"]]["offset"]
        for k in range(sec["size"] // 16):
            st_name, _, st_size, _, _, st_shndx = struct.unpack_from(
                "<IIIBBH", data, sec["offset"] + 16 * k)
            if st_name:
                symbols.append((name_at(strtab, st_name), st_shndx, st_size))
    return result, symbols


def flash_and_ram(objects: list[Path]) -> dict:
    """Flash (code, constants, initialised data), static RAM (data + bss) besides task
    memory, task memory by name, and the runtime helpers the objects call."""
    flash = ram = 0
    task_memory: dict[str, int] = {}
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
        for name, shndx, size in symbols:
            if name in TASK_MEMORY and 0 < shndx < len(secs) and size:
                task_memory[name] = task_memory.get(name, 0) + size
                ram -= size
        helpers |= {n for n, shndx, _ in symbols if shndx == 0 and n.startswith("__")}
    return {"flash": flash, "ram": ram, "task_memory": task_memory, "helpers": helpers}


def group_sources() -> dict[str, tuple[str, ...]]:
    """The VM, the executive and the control plane, as the host build compiles them."""
    sys.path.insert(0, str(ROOT / "src"))
    from hsx.board.build import EXECUTIVE, LINK
    return {"vm": SOURCES, "executive": tuple(s for s in EXECUTIVE if s not in SOURCES),
            "control plane": LINK}


def measure_variant(variant: str, cpu: str, tmp: Path) -> dict:
    groups = {}
    helpers: set[str] = set()
    task_memory: dict[str, int] = {}
    for group, names in group_sources().items():
        objects = []
        for name in names:
            obj = tmp / f"{variant}-{name}.o"
            compile_object(PORT / name, obj, cpu, f"-DHSX_VARIANT={VARIANTS[variant]}")
            objects.append(obj)
        sizes = flash_and_ram(objects)
        helpers |= sizes.pop("helpers")
        for name, size in sizes.pop("task_memory").items():
            task_memory[name] = task_memory.get(name, 0) + size
        groups[group] = sizes
    flash = sum(g["flash"] for g in groups.values())
    ram = sum(g["ram"] for g in groups.values())
    return {"groups": groups, "flash_bytes": flash, "static_ram_bytes": ram,
            "task_memory": task_memory,
            "flash_budget": FLASH_BUDGET.get(variant), "ram_budget": RAM_BUDGET.get(variant),
            "runtime_helpers": sorted(helpers)}


def measure(cpu: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        objects = []
        for name in SOURCES:
            obj = Path(tmp) / (name + ".o")
            compile_object(PORT / name, obj, cpu)
            objects.append(obj)
        core = flash_and_ram(objects)
        probe = Path(tmp) / "probe.c"
        probe.write_text('#include "hsx_vm.h"\nhsx_task hsx_task_probe;\n'
                         'hsx_insn hsx_insn_probe;\n')
        compile_object(probe, Path(tmp) / "probe.o", cpu)
        _, symbols = sections(Path(tmp) / "probe.o")
        sizes = {n: size for n, _, size in symbols}
        variants = {v: measure_variant(v, cpu, Path(tmp)) for v in VARIANTS}
    return {"cpu": cpu, "flash_bytes": core["flash"], "static_ram_bytes": core["ram"],
            "task_record_bytes": sizes["hsx_task_probe"],
            "decoded_insn_bytes": sizes["hsx_insn_probe"],
            "runtime_helpers": sorted(core["helpers"]), "variants": variants}


def kib(n: int) -> str:
    return f"{n / 1024:.1f} KiB"


def print_report(report: dict) -> None:
    print(f"target thumb-freestanding-eabi -mcpu={report['cpu']} -Os, decode at fetch")
    print("the VM core:")
    print(f"  flash (code + constants):      {report['flash_bytes']:>6,} bytes")
    print(f"  static RAM of the core:        {report['static_ram_bytes']:>6,} bytes")
    print(f"  RAM per task (hsx_task):       {report['task_record_bytes']:>6,} bytes "
          "+ 1 bit per code word for breakpoints")
    print(f"  compiler runtime helpers used: {', '.join(report['runtime_helpers']) or 'none'}")
    print()
    print(f"{'variant':12} {'part':14} {'flash':>10} {'static RAM':>11}")
    for variant, v in report["variants"].items():
        for group, g in v["groups"].items():
            print(f"{variant:12} {group:14} {g['flash']:>10,} {g['ram']:>11,}")
        budget = v["flash_budget"]
        ram_budget = v["ram_budget"]
        verdict = []
        if budget:
            verdict.append(f"flash budget {kib(budget)}: {'within' if v['flash_bytes'] <= budget else 'OVER'}")
        if ram_budget:
            verdict.append(f"RAM budget {kib(ram_budget)}: "
                           f"{'within' if v['static_ram_bytes'] <= ram_budget else 'OVER'}")
        print(f"{variant:12} {'total':14} {v['flash_bytes']:>10,} {v['static_ram_bytes']:>11,}"
              f"   {'; '.join(verdict)}")
        memory = ", ".join(f"{TASK_MEMORY[k]} {n:,}" for k, n in sorted(v["task_memory"].items()))
        print(f"{'':12} {'task memory':14} {memory}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", default="cortex_m3")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = measure(args.cpu)
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
        return
    print_report(report)


if __name__ == "__main__":
    main()
