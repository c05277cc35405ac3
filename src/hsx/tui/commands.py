"""The debugger's command language, for its command line (`:`) and `hsx dbg --json CMD`.

gdb's words for the attached task -- `regs`, `bt`, `locals 1`, `print p->next`, `x SP 32`,
`disasm main 8`, `break walk.c:21 if i == 2`, `delete 3`, `continue`, `next`, `step`,
`stepi`, `nexti`, `finish`, `until 0x40`, `set total = 5`, `info`, `ps` -- and any
protocol command as `name field=value ...` (the task's `pid` filled in).  Each returns a
JSON-able result; run control waits for the stop when asked to (`--json`).
"""
from __future__ import annotations

import asyncio
import json
import shlex
from typing import Any, Awaitable, Callable

from .target import ProtocolError, Target

WAIT_S = 30.0


class CommandError(Exception):
    """A command line that is not a command (the message says why)."""


Runner = Callable[[Target, list[str]], Awaitable[Any]]


async def execute(target: Target, line: str, *, wait: bool) -> Any:
    """Run one command line; with `wait`, run control returns the stop it led to."""
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise CommandError(str(error)) from None
    if not words:
        raise CommandError("no command")
    name, args = words[0], words[1:]
    if name in RUN_CONTROL:
        return await _run_control(target, RUN_CONTROL[name], args, wait)
    if name in READERS:
        return _payload(await READERS[name](target, args))
    return await _protocol(target, name, args)


def _payload(result: Any) -> Any:
    """A reply without its envelope (version, status, id)."""
    if isinstance(result, dict) and "status" in result:
        return {k: v for k, v in result.items() if k not in ("version", "status", "id")}
    return result


async def _run_control(target: Target, start: Runner, args: list[str], wait: bool) -> Any:
    if not wait:
        await start(target, args)
        return {"started": True}
    stopped = asyncio.ensure_future(target.next_stop())
    try:
        await start(target, args)
        event = await asyncio.wait_for(stopped, WAIT_S)
        return {"stopped": {"type": event["type"], **event.get("data", {})},
                "task": (await target.request("ps", pid=target.pid))["tasks"]["tasks"][0]}
    except TimeoutError:
        raise ProtocolError("still_running", f"the task did not stop within {WAIT_S:g} s") \
            from None
    finally:
        stopped.cancel()


def _where(text: str) -> int | str:
    try:
        return int(text, 0)
    except ValueError:
        return text


async def _break(target: Target, args: list[str]) -> Any:
    if not args:
        raise CommandError("break WHERE [if CONDITION]")
    text = " ".join(args)
    where, _, condition = text.partition(" if ")
    where = where.strip()
    location = await target.function_body(where) if where.isidentifier() else _where(where)
    bp = await target.set_breakpoint(location, condition.strip() or None)
    return {"breakpoint": bp.__dict__}


async def _until(target: Target, args: list[str]) -> None:
    if not args:
        raise CommandError("until WHERE")
    await target.run_to(_where(args[0]))


async def _memory(target: Target, args: list[str]) -> Any:
    if not args:
        raise CommandError("x WHERE [LENGTH]")
    address = await target.data_address(args[0])
    length = int(args[1], 0) if len(args) > 1 else 64
    data = await target.read_memory(address, length)
    return {"address": address, "length": len(data), "data": data.hex(),
            "dump": [f"{address + i:08x}  {data[i:i + 16].hex(' ')}" for i in range(0, len(data), 16)]}


async def _set(target: Target, args: list[str]) -> Any:
    lvalue, equals, value = " ".join(args).partition("=")
    if not equals or not lvalue.strip() or not value.strip():
        raise CommandError("set LVALUE = VALUE")
    return await target.set_variable(lvalue.strip(), value.strip())


def _frame(args: list[str]) -> int:
    return int(args[0]) if args else 0


RUN_CONTROL: dict[str, Runner] = {}
for _names, _runner in (
        (("continue", "c", "cont"), lambda t, a: t.resume()),
        (("next", "n"), lambda t, a: t.next_line()),
        (("step", "s"), lambda t, a: t.step_into()),
        (("stepi", "si"), lambda t, a: t.step_instruction(int(a[0]) if a else 1)),
        (("nexti", "ni"), lambda t, a: t.next_instruction()),
        (("finish",), lambda t, a: t.step_out()),
        (("until", "advance"), _until)):
    RUN_CONTROL.update(dict.fromkeys(_names, _runner))

READERS: dict[str, Runner] = {}
for _names, _runner in (
        (("regs", "registers"), lambda t, a: t.request("regs", pid=t.pid)),
        (("bt", "backtrace", "where"), lambda t, a: t.request("stack.info", pid=t.pid)),
        (("locals",), lambda t, a: t.variables(_frame(a))),
        (("print", "p"), lambda t, a: t.evaluate(" ".join(a))),
        (("x",), _memory),
        (("disasm", "disassemble"), lambda t, a: t.disasm(
            _where(a[0]) if a else None, int(a[1], 0) if len(a) > 1 else 16)),
        (("break", "b"), _break),
        (("delete", "d"), lambda t, a: t.request("bp.clear", breakpoint_id=int(a[0], 0))),
        (("breakpoints", "breaks"), lambda t, a: t.request("bp.list", pid=t.pid)),
        (("pause", "interrupt"), lambda t, a: t.pause()),
        (("set",), _set),
        (("info",), lambda t, a: t.request("ps", pid=t.pid)),
        (("ps",), lambda t, a: t.request("ps"))):
    READERS.update(dict.fromkeys(_names, _runner))


async def _protocol(target: Target, cmd: str, args: list[str]) -> Any:
    """Any protocol command, `field=value` pairs, with the attached task's pid."""
    fields: dict[str, Any] = {}
    for arg in args:
        key, equals, value = arg.partition("=")
        if not equals or not key.isidentifier():
            raise CommandError(f"unknown command {cmd!r} (or {arg!r} is not field=value)")
        fields[key] = _value(value)
    fields.setdefault("pid", target.pid)
    return _payload(await target.request(cmd, **fields))


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def names() -> list[str]:
    """Every command word (for completion and help)."""
    return sorted({*RUN_CONTROL, *READERS})
