"""A task's memory as a debugger sees it: the region map, reads and writes.

Two address spaces: `code` (the image's instruction words, read-only) and `data` (the
task's private memory, registers and stack included).  The debugger may read and write
all of data memory, the null page too; what a guest may touch is the VM's business.
"""
from __future__ import annotations

from typing import Any


from . import errors as E
from .code import SP
from .errors import DebugError
from .view import TaskView

MAX_READ = 0x10000
SPACES = ("data", "code")
_PERMISSIONS = {"null": "", "stack_guard_low": "", "stack_guard_high": ""}
_REGION_NOTES = {
    "null": "guest loads and stores fault here",
    "stack_guard_low": "SP can never enter it (stack overflow below)",
    "stack_guard_high": "SP can never enter it (stack underflow above)",
    "registers": "R0..R15, little-endian",
}


def regions(task: TaskView) -> list[dict[str, Any]]:
    """`memory.regions`: the code space, then every range of data memory in order."""
    ctx = task.ctx
    layout = ctx.layout
    out: list[dict[str, Any]] = [{
        "name": "code", "space": "code", "start": 0, "end": ctx.code_len,
        "size": ctx.code_len, "permissions": "rx", "details": {"entry": task.image.entry}}]
    for region in layout.regions():
        item: dict[str, Any] = {"name": region.name, "space": "data", "start": region.start,
                                "end": region.end, "size": region.size,
                                "permissions": _PERMISSIONS.get(region.name, "rw")}
        details: dict[str, Any] = {}
        if region.name in _REGION_NOTES:
            details["note"] = _REGION_NOTES[region.name]
        if region.name == "stack":
            sp = ctx.regs[SP]
            details.update(sp=sp, used=max(0, layout.stack_top - sp))
        if region.name == "registers":
            details["reg_base"] = layout.reg_base
        if details:
            item["details"] = details
        out.append(item)
    return out


def read(task: TaskView, addr: int, length: int, space: str = "data") -> bytes:
    if space not in SPACES:
        raise DebugError(E.BAD_ARGUMENT, f"space must be data or code, not {space!r}")
    if not _is_int(length) or not 0 <= length <= MAX_READ:
        raise DebugError(E.BAD_ARGUMENT, f"length must be 0..{MAX_READ}, not {length!r}")
    source = task.image.code if space == "code" else task.ctx.mem
    _check(addr, length, len(source), space)
    return bytes(source[addr:addr + length])


def write(task: TaskView, addr: int, data: bytes) -> None:
    if not isinstance(data, (bytes, bytearray)):
        raise DebugError(E.BAD_ARGUMENT, "data must be bytes")
    mem = task.ctx.mem
    _check(addr, len(data), len(mem), "data")
    mem[addr:addr + len(data)] = data


def _check(addr: int, length: int, size: int, space: str) -> None:
    if not _is_int(addr) or addr < 0 or addr + length > size:
        shown = f"0x{addr:X}+{length}" if _is_int(addr) else repr(addr)
        raise DebugError(E.OUT_OF_RANGE, f"{shown} is outside the {space} space (0x0..0x{size:X})")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
