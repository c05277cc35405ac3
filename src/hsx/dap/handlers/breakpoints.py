"""setBreakpoints, setFunctionBreakpoints, setInstructionBreakpoints,
dataBreakpointInfo, setDataBreakpoints (and setExceptionBreakpoints, which has nothing
to choose: faults always stop).

Each request replaces its whole set: the executive breakpoints (or watches) made for
the previous set are cleared, the new ones set.  A breakpoint is `verified` only when
the executive set it, with the line it landed on; one that cannot be set says why.
Requests that come before a program is loaded are kept and applied at launch/attach,
each result then announced with a `breakpoint` event.
"""
from __future__ import annotations

from typing import Any

from hsx.client import ProtocolError
from hsx.client.locations import function_body
from hsx.client.sources import same_file

from ..breakpoints import DataId, Placed, parse_hit_condition
from ..errors import explain
from ..protocol import DapError, list_arg, object_arg
from ..requests import handles
from ..variables import Children, Scope, child_expression, expression_of, split_frame_id

MAX_WATCH = 4096                 # the most bytes one watch covers


@handles("setBreakpoints")
async def set_breakpoints(adapter, args: dict[str, Any]) -> dict[str, Any]:
    source = object_arg(args, "source")
    path = source.get("path") or source.get("name")
    if not isinstance(path, str) or not path:
        raise DapError("setBreakpoints needs a source with a \"path\"")
    placed = await _renew(adapter, "source", args, path)
    return {"breakpoints": await _place_source(adapter, path, placed)}


async def _renew(adapter, kind: str, args: dict[str, Any], path: str = "") -> list[Placed]:
    """The request's breakpoints in place of the set it replaces (cleared first)."""
    requests = [bp for bp in list_arg(args, "breakpoints") if isinstance(bp, dict)]
    old, new = adapter.breakpoints.renew(kind, requests, path)
    await _clear(adapter, old)
    return new


async def _place_source(adapter, path: str, placed: list[Placed]) -> list[dict[str, Any]]:
    known = await _program_files(adapter)
    out = []
    for bp in placed:
        line = bp.request.get("line")
        if isinstance(line, bool) or not isinstance(line, int):
            out.append(_unverified(bp, f"a breakpoint needs a line number, not {line!r}"))
            continue
        if known is not None and not any(same_file(f, path) for f in known):
            names = ", ".join(sorted({f.replace("\\", "/").rsplit("/", 1)[-1] for f in known}))
            out.append(_unverified(bp, f"{_base(path)} is not a source of "
                                       f"{adapter.debuggee.app_name} (its sources: {names})"))
            continue
        out.append(await _set(adapter, bp, file=path, line=adapter.from_client_line(line)))
    return out


@handles("setExceptionBreakpoints")
async def set_exception_breakpoints(adapter, args: dict[str, Any]) -> dict[str, Any]:
    """No filters to choose from: a fault always stops its task (reason `exception`)."""
    return {"breakpoints": []}


@handles("setFunctionBreakpoints")
async def set_function_breakpoints(adapter, args: dict[str, Any]) -> dict[str, Any]:
    placed = await _renew(adapter, "function", args)
    return {"breakpoints": await _place_functions(adapter, placed)}


async def _place_functions(adapter, placed: list[Placed]) -> list[dict[str, Any]]:
    out = []
    for bp in placed:
        name = bp.request.get("name")
        if not isinstance(name, str) or not name.strip():
            out.append(_unverified(bp, "a function breakpoint needs the function's name"))
            continue
        debuggee = adapter.debuggee
        if debuggee is None:
            out.append(_unverified(bp, "not set yet: no program is loaded"))
            continue
        try:
            address = await function_body(debuggee.client, debuggee.pid, name.strip())
        except ProtocolError as error:
            out.append(_unverified(bp, explain(error)))
            continue
        out.append(await _set(adapter, bp, addr=address))
    return out


@handles("setInstructionBreakpoints")
async def set_instruction_breakpoints(adapter, args: dict[str, Any]) -> dict[str, Any]:
    placed = await _renew(adapter, "instruction", args)
    return {"breakpoints": await _place_instructions(adapter, placed)}


async def _place_instructions(adapter, placed: list[Placed]) -> list[dict[str, Any]]:
    out = []
    for bp in placed:
        try:
            address = int(str(bp.request.get("instructionReference")), 0) + \
                int(bp.request.get("offset") or 0)
        except ValueError:
            out.append(_unverified(bp, "instructionReference must be an address such as "
                                       f"0x0000001c, not {bp.request.get('instructionReference')!r}"))
            continue
        out.append(await _set(adapter, bp, addr=address))
    return out


async def _set(adapter, bp: Placed, **where: Any) -> dict[str, Any]:
    """Set `bp` in the executive at `where`; its DAP Breakpoint."""
    debuggee = adapter.debuggee
    if debuggee is None:
        return _unverified(bp, "not set yet: no program is loaded")
    if bp.hit_condition:
        try:
            parse_hit_condition(bp.hit_condition)
        except DapError as error:
            return _unverified(bp, str(error))
    condition = bp.request.get("condition") or None
    if condition:
        where["condition"] = condition
    try:
        reply = await debuggee.request("bp.set", pid=debuggee.pid, **where)
    except ProtocolError as error:
        return _unverified(bp, explain(error))
    listing = reply["breakpoint"]
    bp.exec_id = listing["id"]
    return _verified(adapter, bp, listing)


def _verified(adapter, bp: Placed, listing: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": bp.id, "verified": True,
                           "instructionReference": f"0x{listing['address']:08x}"}
    if listing.get("line"):
        out["line"] = adapter.to_client_line(listing["line"])
        source = adapter.debuggee.dap_source(adapter.debuggee.pid, listing.get("file"))
        if source is not None:
            out["source"] = source
    return out


def _unverified(bp: Placed, why: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": bp.id, "verified": False, "message": why}
    if isinstance(bp.request.get("line"), int):
        out["line"] = bp.request["line"]
    return out


async def _clear(adapter, placed: list[Placed]) -> None:
    """Remove what `placed` (already out of the book) set in the executive, except what
    a breakpoint still in the book shares (two lines that landed on one statement)."""
    debuggee = adapter.debuggee
    for bp in placed:
        exec_id, bp.exec_id = bp.exec_id, None
        data = bp.kind == "data"
        if debuggee is None or exec_id is None or adapter.breakpoints.by_exec(exec_id, data):
            continue
        try:
            if data:
                await debuggee.request("watch.remove", watch_id=exec_id)
            else:
                await debuggee.request("bp.clear", breakpoint_id=exec_id)
        except ProtocolError:
            pass                                 # gone with its task, or cleared already


async def _program_files(adapter) -> set[str] | None:
    """The source files the debugged program's symbols name (None: unknown)."""
    debuggee = adapter.debuggee
    if debuggee is None:
        return None
    try:
        listing = (await debuggee.request("symbols.list", pid=debuggee.pid))["symbols"]
    except ProtocolError:
        return None
    files = {s["file"] for s in listing.get("symbols", []) if s.get("file")}
    return files or None


def _base(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


async def apply_pending(adapter) -> None:
    """Set the breakpoints asked for before there was a program; announce each."""
    results = []
    for (kind, path), placed in list(adapter.breakpoints.sets.items()):
        if kind == "source":
            results += await _place_source(adapter, path, placed)
        elif kind == "function":
            results += await _place_functions(adapter, placed)
        elif kind == "instruction":
            results += await _place_instructions(adapter, placed)
    for result in results:
        adapter.event("breakpoint", reason="changed", breakpoint=result)


# ---------------------------------------------------------------------- data breakpoints

@handles("dataBreakpointInfo")
async def data_breakpoint_info(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    name = args.get("name")
    if not isinstance(name, str) or not name:
        raise DapError("dataBreakpointInfo needs a \"name\"")
    ref = args.get("variablesReference")
    if ref:
        item = adapter.handles.get(ref)
        if isinstance(item, Scope):
            pid, frame, expression = item.pid, item.frame, expression_of(item.scope, name)
        elif isinstance(item, Children):
            pid, frame = item.pid, item.frame
            expression = child_expression(item.expression, name)
        else:
            raise DapError(f"variablesReference {ref} is not (or no longer) valid")
    else:
        pid, frame = (split_frame_id(args["frameId"]) if isinstance(args.get("frameId"), int)
                      else (debuggee.pid, 0))
        expression = name
    if expression is None:
        return {"dataId": None, "description": f"{name} cannot be named as a C expression"}
    try:
        result = await debuggee.client.evaluate(pid, expression, frame)
    except ProtocolError as error:
        return {"dataId": None, "description": explain(error)}
    if result.get("address") is None:
        where = "a register" if result.get("register") is not None else "no memory"
        return {"dataId": None, "description": f"{expression} lives in {where}: only memory "
                                               "can be watched"}
    try:
        size = int((await debuggee.client.evaluate(pid, f"sizeof({expression})", frame))
                   ["value"].split()[0], 0)
    except (ProtocolError, ValueError, IndexError):
        size = 4
    address = int(result["address"])
    return {"dataId": str(DataId(pid, address, size, frame, expression)),
            "description": f"{expression} changes ({size} bytes at 0x{address:04x})",
            "accessTypes": ["write"], "canPersist": False}


@handles("setDataBreakpoints")
async def set_data_breakpoints(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    out = []
    for bp in await _renew(adapter, "data", args):
        data_id = str(bp.request.get("dataId", ""))
        if bp.request.get("accessType", "write") != "write":
            out.append(_unverified(bp, "only writes can be watched (accessType \"write\")"))
            continue
        if bp.request.get("condition"):
            out.append(_unverified(bp, "data breakpoints take no condition here"))
            continue
        try:
            wanted = DataId.parse(data_id)
        except ValueError:
            out.append(_unverified(bp, f"not a dataId from dataBreakpointInfo: {data_id!r}"))
            continue
        try:
            watch = await _watch(debuggee, wanted)
        except ProtocolError as error:
            out.append(_unverified(bp, explain(error)))
            continue
        bp.exec_id = watch["id"]
        debuggee.controlled.add(wanted.pid)
        out.append({"id": bp.id, "verified": True,
                    "message": f"{wanted.expression}: {watch['length']} bytes at "
                               f"0x{watch['addr']:04x}"})
    return {"breakpoints": out}


async def _watch(debuggee, wanted: DataId) -> dict[str, Any]:
    """The executive's stopping watch for a data breakpoint: on the C object the
    expression names in its frame, so that a stop says which part of it changed from
    what to what; on the bytes at the address when the expression names something else
    there now (the task ran since dataBreakpointInfo: another function's frame)."""
    fields = {"pid": wanted.pid, "length": min(max(wanted.size, 1), MAX_WATCH), "stop": True}
    try:
        watch = (await debuggee.request("watch.add", expr=wanted.expression,
                                        frame=wanted.frame, **fields))["watch"]
    except ProtocolError:
        watch = None
    if watch is not None and watch["addr"] == wanted.address:
        return watch
    if watch is not None:
        await debuggee.request("watch.remove", watch_id=watch["id"])
    return (await debuggee.request("watch.add", addr=wanted.address, **fields))["watch"]
