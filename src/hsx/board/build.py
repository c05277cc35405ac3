"""Build a board's C executive with the ziglang wheel's `zig cc`, one per variant: the
host board (port/c/ and port/c/boards/host/) as a native program (docs/port.md, "The
host build"), and the mps2-an385 board (port/c/boards/mps2-an385/) as Cortex-M3 firmware,
an ELF that QEMU runs (docs/port.md, "The mps2-an385 board").

The program's name carries a hash of every C source and header, the linker script and
the flags, and it is built into the same cache as the native VM engine on first use, so
an edited executive is rebuilt instead of run stale; the compiling and caching are the engine's
(`hsx.vm.native.build`). The host build decodes at fetch, as boards do, and gives each
task the memory and stack of the Python executive's `development` profile (64 KiB,
8 KiB), so the same programs fit under both.
"""
from __future__ import annotations

import os
from pathlib import Path

from hsx.kernel.profiles import PROFILES
from hsx.vm.native.build import BuildError, cache_dir, source_dir, source_digest, zig_cc

# the variants of docs/variants.md, numbered as port/c/hsx_config.h's HSX_VARIANT_*
VARIANTS = {name: number for number, name in enumerate(PROFILES, 1)}
DEFAULT_VARIANT = "development"
# the executive's sources, then the link's: frames, CBOR and protocol v1 on them
EXECUTIVE = ("hsx_vm.c", "hsx_decode.c", "hsx_f16.c", "hsx_fp.c", "hsx_util.c", "hsx_tasks.c",
             "hsx_inspect.c", "hsx_hxe.c", "hsx_loader.c", "hsx_mailbox.c",
             "hsx_mailbox_calls.c", "hsx_svc.c", "hsx_registry.c", "hsx_values.c",
             "hsx_commands.c", "hsx_store.c", "hsx_debug.c")
LINK = ("hsx_frame.c", "hsx_cbor.c", "hsx_proto.c", "hsx_proto_sessions.c",
        "hsx_proto_cmds.c", "hsx_proto_values.c", "hsx_proto_debug.c", "hsx_proto_events.c",
        "hsx_proto_system.c")
HOST_BOARD = ("boards/host/host_hal.c", "boards/host/host_can.c", "boards/host/link.c",
              "boards/host/main.c", "fs/hsx_isotp.c", "fs/hsx_canfs.c")
# The FAT file system (`hsx board run --fs fat:IMAGE`): its glue, built against ChaN's
# FatFs from PyPI (hsx.thirdparty.FATFS, fetched into the cache on first use) with the
# executive's own configuration (port/c/fs/ffconf.h).
FAT = ("fs/hsx_fat.c",)
FLAGS = ("-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-DHSX_DECODE_AT_FETCH",
         "-DHSX_TASK_MEMORY=0x10000u", "-DHSX_STACK_SIZE=0x2000u")
# The mps2-an385 firmware: Cortex-M3 at -Os, the board's own startup code, vector table
# and linker script; its sizes in board_config.h. Unused functions are dropped at link
# time; the compiler's runtime (soft float, 64-bit division, memcpy) is zig's compiler_rt.
# -g keeps the symbols and debug information in the ELF (zig strips them otherwise), for
# a debugger on a real board and for the size benchmark; nothing of it is flashed.
MPS2 = "boards/mps2-an385"
MPS2_BOARD = tuple(f"{MPS2}/{name}" for name in ("startup.c", "uart.c", "semihost.c", "flash.c",
                                                 "main.c"))
MPS2_FLAGS = ("-target", "thumb-freestanding-eabi", "-mcpu=cortex_m3", "-Os", "-g", "-std=c99",
              "-ffreestanding", "-fno-unwind-tables", "-fno-asynchronous-unwind-tables",
              "-ffunction-sections", "-fdata-sections", "-Wall", "-Wextra", "-Werror",
              "-DHSX_DECODE_AT_FETCH", '-DHSX_CONFIG_FILE="board_config.h"',
              "-Wl,--gc-sections", "-Wl,-e,Reset_Handler")
FIRMWARE = EXECUTIVE + LINK + MPS2_BOARD
BOARDS = ("host", "mps2-an385")

__all__ = ["BOARDS", "BuildError", "VARIANTS", "build", "build_firmware", "executable_name",
           "find_or_build", "firmware_flags"]


def _files(port: Path, board: str = "host") -> tuple[str, ...]:
    """Every C file under port/c and the board's files: any edit means a new build."""
    patterns = ("*.[ch]", "*.inc", "fs/*.[ch]", f"boards/{board}/*.[ch]",
                f"boards/{board}/*.ld")
    names = {p.relative_to(port).as_posix() for pattern in patterns for p in port.glob(pattern)}
    return tuple(sorted(names))


def _variant_flag(variant: str) -> str:
    if variant not in VARIANTS:
        raise BuildError(f"unknown variant {variant!r} (choose {', '.join(VARIANTS)})")
    return f"-DHSX_VARIANT={VARIANTS[variant]}"


def _flags(variant: str, fat: bool = False) -> tuple[str, ...]:
    return (*FLAGS, _variant_flag(variant), *(("-DHSX_FAT",) if fat else ()))


def executable_name(port: Path, variant: str, board: str = "host", fat: bool = False) -> str:
    """The file name of a board's build: the board, the variant (with the FAT file
    system, `-fat`) and a hash of what it is built from."""
    if board == "host":
        suffix = ".exe" if os.name == "nt" else ""
        digest = source_digest(port, _files(port), _flags(variant, fat))
        return f"hsx-exec-host-{variant}{'-fat' if fat else ''}-{digest}{suffix}"
    flags = (*MPS2_FLAGS, _variant_flag(variant))
    return f"hsx-{board}-{variant}-{source_digest(port, _files(port, board), flags)}.elf"


def build(port: Path, out_dir: Path, variant: str = DEFAULT_VARIANT, fat: bool = False) -> Path:
    """Compile the host executive for `variant` (`fat`: with the FAT file system) into
    out_dir (unless it is there); its path. BuildError on failure."""
    target = out_dir / executable_name(port, variant, fat=fat)
    if target.is_file():
        return target
    sources = [str(port / name) for name in EXECUTIVE + LINK + HOST_BOARD]
    includes = ["-I", str(port), "-I", str(port / "fs")]
    if fat:
        fatfs = _fatfs(out_dir)
        includes += ["-I", str(fatfs)]
        sources += [str(port / name) for name in FAT]
        sources += [str(zig_cc(["-c", "-std=c99", "-O2", "-w", *includes, str(source)],
                               out_dir / "fatfs" / f"{source.stem}.o"))
                    for source in sorted(fatfs.glob("*.c"))]
    return zig_cc([*_flags(variant, fat), *includes, *sources], target)


def _fatfs(out_dir: Path) -> Path:
    """FatFs's sources (fetched from PyPI once), in out_dir/fatfs/src."""
    from hsx.thirdparty import FATFS, Unavailable
    into = out_dir / "fatfs" / "src"
    if not (into / "ff.c").is_file():
        into.mkdir(parents=True, exist_ok=True)
        try:
            FATFS.extract(into)
        except Unavailable as error:
            raise BuildError(f"the FAT file system is built against ChaN's FatFs, fetched "
                             f"from PyPI: {error}") from None
    return into


def build_firmware(port: Path, out_dir: Path, variant: str = DEFAULT_VARIANT) -> Path:
    """Link the mps2-an385 firmware for `variant` into out_dir (unless it is there): the
    ELF's path. BuildError on failure."""
    target = out_dir / executable_name(port, variant, "mps2-an385")
    if target.is_file():
        return target
    return zig_cc([*firmware_flags(port, variant), *(str(port / name) for name in FIRMWARE)],
                  target)


def firmware_flags(port: Path, variant: str) -> tuple[str, ...]:
    """The compiler's and linker's flags for the mps2-an385 firmware (the size benchmark
    compiles its objects with the same)."""
    board = port / MPS2
    return (*MPS2_FLAGS, _variant_flag(variant), "-I", str(port), "-I", str(board),
            "-T", str(board / "mps2.ld"))


def find_or_build(variant: str = DEFAULT_VARIANT, board: str = "host", fat: bool = False) -> Path:
    """A board's build for `variant` matching the sources (built on first use): the host
    executive's program (`fat`: with the FAT file system), or the mps2-an385 firmware's
    ELF."""
    if board not in BOARDS:
        raise BuildError(f"unknown board {board!r} (choose {', '.join(BOARDS)})")
    port = source_dir()
    if port is None:
        raise BuildError("the C executive's sources (port/c) are not available; boards "
                         "are built from a source checkout")
    out_dir = cache_dir().parent / "board"
    if board == "host":
        return build(port, out_dir, variant, fat)
    if fat:
        raise BuildError("the mps2-an385 board has no file system yet (the host board has)")
    return build_firmware(port, out_dir, variant)
