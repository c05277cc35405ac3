"""A task's memory and registers: peek (`mem.read`), poke (`mem.write`), regs.

Reads work on any task, ended ones included (a faulted task's registers are the
evidence); writes need control of the PID.  Both go through the debugger, which also
reads the code space and tells watches about host writes.  A range outside the task is
`bad_argument`, as protocol v1 has always reported it.
"""
from __future__ import annotations

import base64
import binascii
from contextlib import contextmanager
from typing import Any, Iterator

from hsx.debug import DebugError
from hsx.debug.errors import OUT_OF_RANGE

from ..dispatch import Call, Group
from ..errors import bad_argument
from ..schema import ADDR, PID, Encoded, Int, Str
from ..views import registers

group = Group("memory", feature="memory")
MAX_PEEK = 0x10000
SPACES = ("data", "code")


@contextmanager
def _range_checked() -> Iterator[None]:
    try:
        yield
    except DebugError as error:
        if error.code == OUT_OF_RANGE:
            raise bad_argument(error.message) from None
        raise


@group.command("peek", "mem.read", "read_mem", args={
    "pid": PID, "addr|address": ADDR, "length|size": Int(0, MAX_PEEK), "space": Str(choices=SPACES)})
def peek(call: Call) -> dict[str, Any]:
    task = call.task()
    addr = call.int("addr", min=0, aliases=("address",))
    length = call.int("length", 16, min=0, max=MAX_PEEK, aliases=("size",))
    space = call.str("space", "data")
    with _range_checked():
        data = call.server.debugger.mem_read(task.pid, addr, length, space)
    return {"pid": task.pid, "addr": addr, "length": length, "space": space, "data": data.hex()}


@group.command("poke", "mem.write", "write_mem", writes=True, args={
    "pid": PID, "addr|address": ADDR, "data|data_hex": Encoded("hex", MAX_PEEK),
    "data_b64": Encoded("base64", MAX_PEEK)})
def poke(call: Call) -> dict[str, Any]:
    task = call.task()
    call.control(task.pid)
    addr = call.int("addr", min=0, aliases=("address",))
    data = _bytes(call)
    with _range_checked():
        call.server.debugger.mem_write(task.pid, addr, data)
    return {"pid": task.pid, "addr": addr, "length": len(data)}


def _bytes(call: Call) -> bytes:
    """`data` (or `data_hex`) as hex, or `data_b64` as base64."""
    if call.has("data_b64"):
        try:
            return base64.b64decode(call.str("data_b64"), validate=True)
        except (binascii.Error, ValueError):
            raise bad_argument("'data_b64' must be base64") from None
    try:
        return bytes.fromhex(call.str("data", aliases=("data_hex",)))
    except ValueError:
        raise bad_argument("'data' must be hex bytes, e.g. \"01ff\"") from None


@group.command("regs", "dumpregs", "read_regs", args={"pid": PID})
def regs(call: Call) -> dict[str, Any]:
    return {"registers": registers(call.task())}
