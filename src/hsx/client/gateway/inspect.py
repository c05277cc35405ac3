"""The gateway's reading commands: stack, disassembly, symbols, source, memory map,
variables and expressions (docs/protocol.md, "Debugger"), answered on the host with
hsx.debug's code over the remote task's view."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from hsx.debug import DebugError, memory, sources, stack
from hsx.debug.disasm import DEFAULT_COUNT, disasm_read
from hsx.debug.variables import DEFAULT_PAGE

from ..drive import Steps
from .core import Gateway, as_pid, command, with_host_features
from .fields import integer, text, where

_DISASM_MODES = {"around": "around", "around_pc": "around", "from": "from",
                 "from_addr": "from", "on-demand": "from", "cached": "from"}


@command("info")
def info(gw: Gateway, fields: dict[str, Any]) -> Steps:
    reply = yield ("info", fields)
    return {**_payload(reply), "info": with_host_features(reply["info"], bool(gw.hello))}


def _payload(reply: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in reply.items() if k not in ("version", "status", "id")}


@command("stack.info", "stack", "stack.list")
def stack_info(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    frames = integer(fields, "max_frames", stack.DEFAULT_FRAMES, 1, stack.MAX_FRAMES,
                     aliases=("max", "limit", "frames"))
    yield from gw.view(pid)
    return {"stack": (yield from gw.computed(pid, lambda: stack.info(gw.symbols, pid, frames)))}


@command("disasm.read", "disasm")
def disasm(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    mode = _DISASM_MODES.get(text(fields, "mode", "around"))
    if mode is None:
        raise DebugError("bad_argument", f"mode must be around or from, not {fields['mode']!r}")
    count = integer(fields, "count", DEFAULT_COUNT, 1, None)
    yield from gw.view(pid)
    marks: dict[int, list[int]] = {}
    for bp in (yield ("bp.list", {"pid": pid})).get("breakpoints", []):
        marks.setdefault(bp.get("address", bp.get("addr")), []).append(bp["id"])
    location = where(fields, required=False)
    return {"disasm": (yield from gw.computed(
        pid, lambda: disasm_read(gw.symbols, pid, location, count, mode, marks)))}


@command("symbols.list", "symbols")
def symbols_list(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    yield from gw.view(pid)
    return {"symbols": gw.symbols.list(pid, text(fields, "type", "all", aliases=("kind",)))}


@command("symbols.lookup", "sym.lookup", "sym.lookup_name", "sym.name", "sym.addr",
         "sym.lookup_addr", "sym.line", "sym.lookup_line")
def symbols_lookup(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    yield from gw.view(pid)
    if "name" in fields:
        key: int | str = text(fields, "name")
    elif "addr" in fields or "address" in fields:
        key = integer(fields, "addr", None, 0, 0xFFFFFFFF, aliases=("address",))
    elif "file" in fields:
        key = gw.symbols.line_start(pid, text(fields, "file"),
                                    integer(fields, "line", None, 1, 10_000_000))[0]
    else:
        raise DebugError("bad_argument", "symbols.lookup requires 'name', 'addr' or 'file' "
                         "and 'line'")
    return {"symbol": gw.symbols.lookup(pid, key, text(fields, "space", "code"))}


@command("symbols.info", "sym", "sym.info")
def symbols_info(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    yield from gw.view(pid)
    return {"symbols": gw.symbols.info(pid)}


@command("symbols.load", "sym.load", "sym.set")
def symbols_load(gw: Gateway, fields: dict[str, Any]) -> Steps:
    """A `.sym` on this machine for a task on the board (kept for its image)."""
    pid = as_pid(fields.get("pid"))
    entry = yield from gw.view(pid)
    path = Path(text(fields, "path")).expanduser()
    if not path.is_file():
        raise DebugError("symbol_file", f"{path}: no such file on this machine")
    info = gw.symbols.load(pid, path)
    gw.images.remember_table(entry.task.image, gw.symbols.get(pid).table, str(path))
    return {"symbols": info}


@command("source.read")
def source_read(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    entry = yield from gw.view(pid)
    if "file" not in fields:
        raise DebugError("bad_argument", "source.read requires 'file'")
    return {"source": sources.read_source(entry, text(fields, "file"))}


@command("memory.regions", "memory")
def memory_regions(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    entry = yield from gw.view(pid)
    return {"memory": {"pid": pid, "regions": memory.regions(entry.task)}}


@command("frame.variables", "locals", "variables")
def frame_variables(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    frame = _frame(fields)
    scope = text(fields, "scope", "all")
    yield from gw.view(pid)
    return {"variables": (yield from gw.computed(
        pid, lambda: gw.inspector.variables(pid, frame, scope)))}


@command("variables.expand", "expand")
def variables_expand(gw: Gateway, fields: dict[str, Any]) -> Steps:
    ref = integer(fields, "ref", None, 1, 0xFFFFFFFF)
    start = integer(fields, "start", 0, 0, 0xFFFFFFFF)
    count = integer(fields, "count", DEFAULT_PAGE, 1, 10_000)
    found = gw.inspector.refs.get(ref)
    if found is None:
        raise DebugError("bad_argument", f"no expandable value {ref} (the task has run since, "
                         "or it was never handed out): list the variables again")
    pid = found[0]
    yield from gw.view(pid)
    return {"variables": (yield from gw.computed(
        pid, lambda: gw.inspector.expand(ref, start, count)))}


@command("evaluate", "eval", "print")
def evaluate(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    frame = _frame(fields)
    expression = text(fields, "expr", aliases=("expression",))
    yield from gw.view(pid)
    return {"result": (yield from gw.computed(
        pid, lambda: gw.inspector.evaluate(pid, frame, expression)))}


@command("set", "var.set", "variables.set")
def assign(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    frame = _frame(fields)
    target = text(fields, "lvalue", aliases=("target", "name", "var"))
    value = fields.get("value")
    if value is None or isinstance(value, bool):
        raise DebugError("bad_argument", "'value' must be a C expression (a string) or a number")
    value = value if isinstance(value, str) else repr(value)
    yield from gw.view(pid)
    result = yield from gw.computed(pid, lambda: gw.inspector.assign(pid, frame, target, value))
    yield from gw.flush_writes(pid)
    return {"result": result}


def _frame(fields: dict[str, Any]) -> int:
    return integer(fields, "frame", 0, 0, stack.MAX_FRAMES - 1, aliases=("frame_id",))
