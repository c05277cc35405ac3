"""Build the host board's C executive (port/c/ and port/c/boards/host/) into a native
program, one per variant, with the ziglang wheel's `zig cc` (docs/port.md, "The host
build").

The program's name carries a hash of every C source and header and of the flags, and
it is built into the same cache as the native VM engine on first use, so an edited
executive is rebuilt instead of run stale; the compiling and caching are the engine's
(`hsx.vm.native.build`). The host build decodes at fetch, as boards do, and gives each
task the memory and stack of the Python executive's `development` profile (64 KiB,
8 KiB), so the same programs fit under both.
"""
from __future__ import annotations

import os
from pathlib import Path

from hsx.vm.native.build import BuildError, cache_dir, source_dir, source_digest, zig_cc

VARIANTS = {"minimal": 1, "development": 2, "full": 3}
DEFAULT_VARIANT = "development"
# the executive's sources, then the link's: frames, CBOR and protocol v1 on them
EXECUTIVE = ("hsx_vm.c", "hsx_f16.c", "hsx_fp.c", "hsx_util.c", "hsx_tasks.c", "hsx_inspect.c",
             "hsx_hxe.c", "hsx_loader.c", "hsx_mailbox.c", "hsx_mailbox_calls.c", "hsx_svc.c",
             "hsx_registry.c", "hsx_values.c", "hsx_commands.c", "hsx_store.c", "hsx_debug.c")
LINK = ("hsx_frame.c", "hsx_cbor.c", "hsx_proto.c", "hsx_proto_args.c", "hsx_proto_cmds.c",
        "hsx_proto_values.c", "hsx_proto_debug.c", "hsx_proto_events.c")
HOST_BOARD = ("boards/host/host_hal.c", "boards/host/link.c", "boards/host/main.c")
FLAGS = ("-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-DHSX_DECODE_AT_FETCH",
         "-DHSX_TASK_MEMORY=0x10000u", "-DHSX_STACK_SIZE=0x2000u")

__all__ = ["BuildError", "VARIANTS", "build", "executable_name", "find_or_build"]


def _files(port: Path) -> tuple[str, ...]:
    """Every C file under port/c and the host board: any edit means a new build."""
    names = [p.relative_to(port).as_posix() for pattern in ("*.[ch]", "*.inc", "boards/host/*.[ch]")
             for p in port.glob(pattern)]
    return tuple(sorted(names))


def _flags(variant: str) -> tuple[str, ...]:
    if variant not in VARIANTS:
        raise BuildError(f"unknown variant {variant!r} (choose {', '.join(VARIANTS)})")
    return (*FLAGS, f"-DHSX_VARIANT={VARIANTS[variant]}")


def executable_name(port: Path, variant: str) -> str:
    suffix = ".exe" if os.name == "nt" else ""
    return f"hsx-exec-host-{variant}-{source_digest(port, _files(port), _flags(variant))}{suffix}"


def build(port: Path, out_dir: Path, variant: str = DEFAULT_VARIANT) -> Path:
    """Compile the host executive for `variant` into out_dir (unless it is there);
    its path. BuildError on failure."""
    target = out_dir / executable_name(port, variant)
    if target.is_file():
        return target
    return zig_cc([*_flags(variant), "-I", str(port),
                   *(str(port / name) for name in EXECUTIVE + LINK + HOST_BOARD)], target)


def find_or_build(variant: str = DEFAULT_VARIANT) -> Path:
    """The host executive for `variant` matching the sources (built on first use)."""
    port = source_dir()
    if port is None:
        raise BuildError("the C executive's sources (port/c) are not available; the host "
                         "board runs from a source checkout")
    return build(port, cache_dir().parent / "board", variant)
