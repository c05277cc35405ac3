"""The gateway's changing commands: breakpoints, watches and run-to by symbol or source
line (resolved here, set on the board by address), loading a program by path (built and
read here, sent as an image), and the breakpoint listings the board gives, with names."""
from __future__ import annotations

import base64
from typing import Any

from hsx.debug import DebugError, parse_condition
from hsx.debug.stepping import jump_target
from hsx.image.errors import ImageError
from hsx.image.hxe import read_hxe, write_hxe
from hsx.image.sym import SymbolFileError, load_sym

from ..drive import Steps
from ..errors import ProtocolError
from .core import Gateway, as_pid, command
from .fields import flag, integer, session_of, text, where

MAX_WATCH = 4096


def breakpoint_listing(gw: Gateway, bp: dict[str, Any]) -> Steps:
    """A board's breakpoint as `hsx execd` lists it: with its place by name and line."""
    pid, addr = bp.get("pid"), bp.get("address", bp.get("addr"))
    where_: dict[str, Any] = {}
    if isinstance(pid, int) and isinstance(addr, int):
        try:
            yield from gw.attached(pid)
            where_ = gw.symbols.describe(pid, addr)
        except (DebugError, ProtocolError):
            where_ = {}
    symbol = where_.get("symbol")
    out = {"id": bp.get("id"), "pid": pid, "address": addr, "kind": bp.get("kind", "breakpoint"),
           "symbol": symbol, "offset": where_.get("offset"),
           "location": f"{symbol}+0x{where_['offset']:X}" if symbol else f"0x{addr or 0:04X}",
           "file": where_.get("file"), "line": where_.get("line"),
           "hits": bp.get("hits", 0) - gw.unseen.get(bp.get("id"), 0),
           "enabled": bp.get("enabled", True), "temporary": bool(bp.get("temporary", False)),
           "condition": gw.condition_text(bp.get("id")), "owner": bp.get("owner"),
           "remembered": bool(bp.get("remembered", False))}
    if "code" in bp:
        out["code"] = bp["code"]
    return out


def _listings(gw: Gateway, bps: list[dict[str, Any]]) -> Steps:
    out = []
    for bp in bps:
        out.append((yield from breakpoint_listing(gw, bp)))
    return out


@command("bp.set", "bp.add")
def bp_set(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    yield from gw.view(pid)
    addr = gw.symbols.resolve_code(pid, where(fields), past_prologue=True)
    condition = fields.get("condition")
    parsed = parse_condition(condition) if condition is not None else None
    request = {"pid": pid, "addr": addr}
    if flag(fields, "temporary"):
        request["temporary"] = True
    reply = yield ("bp.set", {**session_of(fields), **request})
    bp_id = reply["breakpoint_id"]
    if parsed is not None:
        gw.conditions[bp_id] = parsed
    listing = yield from breakpoint_listing(gw, reply["breakpoint"])
    return {"breakpoint_id": bp_id, "breakpoint": listing}


@command("bp.clear", "bp.remove", "bp.rm", "bp.del", "bp.delete")
def bp_clear(gw: Gateway, fields: dict[str, Any]) -> Steps:
    if "breakpoint_id" in fields or "pid" not in fields:
        reply = yield ("bp.clear", fields)
        cleared = reply.get("cleared", [])
    else:                                     # the older form: every one at a place
        pid = as_pid(fields["pid"])
        yield from gw.view(pid)
        addr = gw.symbols.resolve_code(pid, where(fields), past_prologue=True)
        listed = (yield ("bp.list", {"pid": pid})).get("breakpoints", [])
        cleared = []
        for bp in listed:
            if bp.get("address", bp.get("addr")) == addr and bp.get("kind", "breakpoint") != "brk":
                cleared += (yield ("bp.clear", {**session_of(fields), "breakpoint_id": bp["id"]})
                            ).get("cleared", [])
    for bp in cleared:
        gw.conditions.pop(bp.get("id"), None)
    return {"cleared": (yield from _listings(gw, cleared))}


@command("bp.clear_all", "bp.clearall", "bp.reset")
def bp_clear_all(gw: Gateway, fields: dict[str, Any]) -> Steps:
    reply = yield ("bp.clear_all", fields)
    return {"cleared": (yield from _listings(gw, reply.get("cleared", [])))}


@command("bp.enable")
def bp_enable(gw: Gateway, fields: dict[str, Any]) -> Steps:
    return (yield from _enable(gw, "bp.enable", fields))


@command("bp.disable")
def bp_disable(gw: Gateway, fields: dict[str, Any]) -> Steps:
    return (yield from _enable(gw, "bp.disable", fields))


def _enable(gw: Gateway, cmd: str, fields: dict[str, Any]) -> Steps:
    reply = yield (cmd, fields)
    return {"breakpoint": (yield from breakpoint_listing(gw, reply["breakpoint"]))}


@command("bp.list", "bp", "bp.ls")
def bp_list(gw: Gateway, fields: dict[str, Any]) -> Steps:
    reply = yield ("bp.list", fields)
    return {"breakpoints": (yield from _listings(gw, reply.get("breakpoints", [])))}


@command("run.to")
def run_to(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    yield from gw.view(pid)
    addr = gw.symbols.resolve_code(pid, where(fields), past_prologue=True)
    yield from gw.cancel_step(pid)
    reply = yield ("run.to", {**session_of(fields), "pid": pid, "addr": addr})
    gw.changed(pid)
    return {k: v for k, v in reply.items() if k not in ("version", "status", "id")}


@command("jump")
def jump(gw: Gateway, fields: dict[str, Any]) -> Steps:
    """Checked and resolved here as hsx execd does (within the function the task is
    stopped in); the board moves the pc."""
    pid = as_pid(fields.get("pid"))
    entry = yield from gw.view(pid)
    addr, there = jump_target(gw.symbols, pid, entry.task.ctx, where(fields))
    yield from gw.cancel_step(pid)
    reply = yield ("jump", {**session_of(fields), "pid": pid, "addr": addr})
    gw.changed(pid)
    return {"result": {**reply["result"], **there}}


@command("watch.add", "watch.create")
def watch_add(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    yield from gw.view(pid)
    place = fields.get("expr", fields.get("addr", fields.get("address", fields.get("symbol"))))
    if place is None:
        raise DebugError("bad_argument", "watch.add requires 'addr', 'symbol' or 'expr'")
    if isinstance(place, str) and "symbol" not in fields:
        watched = yield from gw.computed(pid, lambda: gw.inspector.watched(pid, 0, place))
    else:
        watched = None
    if watched is not None:
        addr, size, name = watched.address, watched.size, place
    elif isinstance(place, str):
        addr, size, name = gw.symbols.resolve_data(pid, place)
    else:
        addr, size, name = integer(fields, "addr", None, 0, 0xFFFFFFFF,
                                   aliases=("address", "expr")), None, None
    if "length" in fields or "size" in fields:
        length = integer(fields, "length", None, 1, MAX_WATCH, aliases=("size",))
    else:
        length = min(size or 4, MAX_WATCH)
    request = {**session_of(fields), "pid": pid, "addr": addr, "length": length}
    if flag(fields, "stop"):
        request["stop"] = True
    reply = yield ("watch.add", request)
    watch = dict(reply["watch"])
    gw.watch_names[watch["id"]] = name
    if watched is not None and length == watched.size:   # says what changed in C terms
        gw.watch_changes[watch["id"]] = watched.describe
    watch["symbol"] = name
    return {"watch": watch}


@command("watch.list", "watch", "watch.ls")
def watch_list(gw: Gateway, fields: dict[str, Any]) -> Steps:
    reply = yield ("watch.list", fields)
    return {"watches": [_watch(gw, w) for w in reply.get("watches", [])]}


@command("watch.remove", "watch.rm", "watch.del", "watch.delete")
def watch_remove(gw: Gateway, fields: dict[str, Any]) -> Steps:
    reply = yield ("watch.remove", fields)
    watch = _watch(gw, reply["watch"])
    gw.watch_names.pop(watch.get("id"), None)
    gw.watch_changes.pop(watch.get("id"), None)
    return {"watch": watch}


def _watch(gw: Gateway, watch: dict[str, Any]) -> dict[str, Any]:
    return {**watch, "symbol": gw.watch_names.get(watch.get("id"), watch.get("symbol"))}


# What a load by path keeps when it is sent as an image (`program`, argv[0], is the path).
_LOAD_FIELDS = ("name", "paused", "session", "stack_size", "memory", "args", "env")


@command("load", "exec")
def load(gw: Gateway, fields: dict[str, Any]) -> Steps:
    """`load {path}`: the program is read (or built) on this machine and sent as an
    image; its symbols stay here, kept for that image."""
    if "path" not in fields:
        reply = yield ("load", fields)
        _remember_image(gw, fields.get("image"), reply)
        return _payload(reply)
    from hsx.server.errors import RequestError
    from hsx.server.images import cc_flags, read_program
    path = text(fields, "path")
    try:
        program = read_program(path, cc_flags(fields.get("cc")))
    except RequestError as error:
        raise DebugError(error.code, error.message) from None
    table = None
    if program.symbols is not None:
        try:
            table = load_sym(program.symbols)
        except SymbolFileError:
            table = None
    data = write_hxe(program.image)
    request = {k: v for k, v in fields.items() if k in _LOAD_FIELDS}
    reply = yield ("load", {**request, "program": path,
                            "image": base64.b64encode(data).decode()})
    known = gw.images.remember(data, program.image, table,
                               str(program.symbols) if program.symbols else None, path)
    gw.loaded[reply["pid"]] = known
    payload = _payload(reply)
    if isinstance(payload.get("image"), dict):
        payload["image"] = {**payload["image"], "program": path,
                            "symbols": str(program.symbols) if program.symbols else None}
    return payload


@command("restart", "reload")
def restart(gw: Gateway, fields: dict[str, Any]) -> Steps:
    """Load a task's program again as a new task (from its file when this host loaded it
    from one, so a rebuilt program is picked up), ending the old one; its breakpoints
    are set again in the new task (by line, else by name, else by address)."""
    if "pid" not in fields:
        raise DebugError("unsupported", "restart needs 'pid': the executive itself is "
                         "restarted by whatever supervises it")
    pid = as_pid(fields["pid"])
    known = gw.loaded.get(pid)
    if known is None:
        raise DebugError("unsupported", f"task {pid} was not loaded by this host: its program "
                         "is not here to load again")
    row = yield from gw.task_row(pid)
    listed = (yield ("bp.list", {"pid": pid})).get("breakpoints", []) if gw.debugs else []
    old = yield from _listings(gw, [bp for bp in listed if not bp.get("temporary")
                                    and bp.get("kind", "breakpoint") == "breakpoint"])
    load_fields = {**session_of(fields), "name": row.get("app_name_base") or row["app_name"]}
    if "paused" in fields:
        load_fields["paused"] = fields["paused"]
    if known.source is not None:
        program_fields = {**load_fields, "path": known.source}
    else:
        program_fields = {**load_fields,
                          "image": base64.b64encode(write_hxe(known.image)).decode()}
    if row.get("state") not in ("returned", "faulted", "killed"):
        yield ("kill", {**session_of(fields), "pid": pid})
    reply = yield from load(gw, program_fields)
    new = reply["pid"]
    warnings = []
    for bp in old:
        place = (f"{bp['file']}:{bp['line']}" if bp.get("file") and bp.get("line")
                 else bp["location"] if bp.get("symbol") else bp["address"])
        try:
            yield from bp_set(gw, {**session_of(fields), "pid": new, "addr": place,
                                   **({"condition": bp["condition"]} if bp["condition"] else {})})
        except (DebugError, ProtocolError) as error:
            warnings.append(f"breakpoint at {bp['location']} not carried over: {error}")
    reply["reload"] = {"old_pid": pid, "new_pid": new, "program": known.source,
                       "image": reply.get("image"), "task": reply.get("task")}
    if warnings:
        reply["warnings"] = warnings
    return reply


def _remember_image(gw: Gateway, text: Any, reply: dict[str, Any]) -> None:
    """The image a `load {image}` sent is the task's: its entry, rodata and metadata are
    known without reading the code back (it has no symbols)."""
    try:
        data = base64.b64decode(text, validate=True)
        program = read_hxe(data)
    except (TypeError, ValueError, ImageError):
        return
    known = gw.images.find(program.code)          # loaded before with its symbols?
    gw.loaded[reply["pid"]] = known or gw.images.remember(data, program, None, None, None)


def _payload(reply: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in reply.items() if k not in ("version", "status", "id")}
