"""A task's memory and registers: peek, poke, regs.

Reads work on any task, ended ones included (a faulted task's registers are the
evidence); writes need control of the PID.
"""
from __future__ import annotations

from typing import Any

from ..dispatch import Call, Group
from ..errors import bad_argument
from ..views import registers

group = Group("memory", features=("memory",))
MAX_PEEK = 0x10000


@group.command("peek", "mem.read", "read_mem")
def peek(call: Call) -> dict[str, Any]:
    task = call.task()
    addr = call.int("addr", min=0, aliases=("address",))
    length = call.int("length", 16, min=0, max=MAX_PEEK, aliases=("size",))
    data = call.kernel.machine.read_memory(task.ctx, addr, length)
    return {"pid": task.pid, "addr": addr, "length": length, "data": data.hex()}


@group.command("poke", "mem.write", "write_mem", writes=True)
def poke(call: Call) -> dict[str, Any]:
    task = call.task()
    call.control(task.pid)
    addr = call.int("addr", min=0, aliases=("address",))
    text = call.str("data")
    try:
        data = bytes.fromhex(text)
    except ValueError:
        raise bad_argument("'data' must be hex bytes, e.g. \"01ff\"") from None
    call.kernel.machine.write_memory(task.ctx, addr, data)
    return {"pid": task.pid, "addr": addr, "length": len(data)}


@group.command("regs", "dumpregs", "read_regs")
def regs(call: Call) -> dict[str, Any]:
    return {"registers": registers(call.task())}
