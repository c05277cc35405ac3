"""Flash and RAM of the native core cross-compiled for a microcontroller.

    python benchmarks/port_size.py [--cpu cortex_m3] [--json]

Compiles port/c/ with the ziglang wheel's `zig cc` for `thumb-freestanding-eabi` at -Os
in the microcontroller configuration (HSX_DECODE_AT_FETCH: instructions are decoded from
the code in flash, no decoded copy in RAM), reads the object files' sections, and prints
the core's flash, its static RAM, the per-task record (sizeof(hsx_task)) and the
compiler runtime helpers it calls (soft double on a core without an FPU, 64-bit shifts).
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


def zig() -> str:
    import ziglang
    return str(Path(ziglang.__file__).resolve().parent / "zig")


def compile_object(source: Path, out: Path, cpu: str) -> None:
    subprocess.run([zig(), "cc", "-target", "thumb-freestanding-eabi", f"-mcpu={cpu}", "-Os",
                    "-std=c99", "-ffreestanding", "-fno-unwind-tables", "-fno-asynchronous-unwind-tables",
                    "-DHSX_DECODE_AT_FETCH", "-Wall", "-Wextra",
                    "-Werror", "-I", str(PORT), "-c", str(source), "-o", str(out)],
                   check=True, capture_output=True, text=True)


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


def measure(cpu: str) -> dict:
    flash = ram = 0
    helpers: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        for name in SOURCES:
            obj = Path(tmp) / (name + ".o")
            compile_object(PORT / name, obj, cpu)
            secs, symbols = sections(obj)
            for sec in secs:
                if not sec["flags"] & SHF_ALLOC:
                    continue
                if sec["type"] == SHT_NOBITS:
                    ram += sec["size"]
                elif sec["flags"] & SHF_WRITE:
                    flash += sec["size"]
                    ram += sec["size"]
                else:
                    flash += sec["size"]
            helpers |= {n for n, shndx, _ in symbols if shndx == 0 and n.startswith("__")}
        probe = Path(tmp) / "probe.c"
        probe.write_text('#include "hsx_vm.h"\nhsx_task hsx_task_probe;\n'
                         'hsx_insn hsx_insn_probe;\n')
        compile_object(probe, Path(tmp) / "probe.o", cpu)
        _, symbols = sections(Path(tmp) / "probe.o")
        sizes = {n: size for n, _, size in symbols}
    return {"cpu": cpu, "flash_bytes": flash, "static_ram_bytes": ram,
            "task_record_bytes": sizes["hsx_task_probe"],
            "decoded_insn_bytes": sizes["hsx_insn_probe"],
            "runtime_helpers": sorted(helpers)}


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
    print(f"target thumb-freestanding-eabi -mcpu={report['cpu']} -Os, decode at fetch")
    print(f"flash (code + constants):      {report['flash_bytes']:>6,} bytes")
    print(f"static RAM of the core:        {report['static_ram_bytes']:>6,} bytes")
    print(f"RAM per task (hsx_task):       {report['task_record_bytes']:>6,} bytes "
          "+ 1 bit per code word for breakpoints")
    print(f"compiler runtime helpers used: {', '.join(report['runtime_helpers']) or 'none'}")


if __name__ == "__main__":
    main()
