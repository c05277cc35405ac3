"""threads, stackTrace, scopes, variables, setVariable, evaluate, setExpression,
exceptionInfo."""
from __future__ import annotations

from typing import Any

from hsx.client import ProtocolError
from hsx.client.render import plain, render

from ..debuggee import ENDED
from ..protocol import DapError
from ..repl import completions as complete_console, evaluate_repl
from ..requests import handles
from ..variables import (SCOPES, Children, Scope, child_expression, expression_of,
                         expression_result, frame_id, split_frame_id, to_dap)
from .running import thread_of

MAX_FRAMES = 256


@handles("threads")
async def threads(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.debuggee
    if debuggee is None:
        return {"threads": []}
    rows = await debuggee.tasks()
    return {"threads": [{"id": row["pid"], "name": f"{row.get('app_name', '?')} "
                                                   f"(PID {row['pid']})"}
                        for row in rows
                        if row["state"] not in ENDED or row["pid"] == debuggee.pid]}


@handles("stackTrace")
async def stack_trace(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    pid = thread_of(adapter, args)
    start, levels = _count(args, "startFrame"), _count(args, "levels")
    wanted = min(MAX_FRAMES, start + levels) if levels > 0 else 64
    try:
        stack = (await debuggee.request("stack.info", pid=pid, max_frames=wanted))["stack"]
    except ProtocolError as error:
        if error.code in ("unknown_pid", "task_ended"):
            return {"stackFrames": [], "totalFrames": 0}
        raise
    await debuggee.refresh_symbols(pid)
    frames = stack["frames"]
    total = len(frames) + (1 if stack.get("truncated") else 0)
    return {"stackFrames": [_frame(adapter, debuggee, pid, f) for f in frames[start:]],
            "totalFrames": total}


def _frame(adapter, debuggee, pid: int, frame: dict[str, Any]) -> dict[str, Any]:
    pc = frame["pc"]
    name = frame.get("function") or f"0x{pc:04x}"
    line = frame.get("line")
    out: dict[str, Any] = {"id": frame_id(pid, frame["index"]), "name": name,
                           "line": adapter.to_client_line(line),
                           "column": adapter.column_base if line else 0,
                           "instructionPointerReference": f"0x{pc:08x}"}
    source = debuggee.dap_source(pid, frame.get("file"))
    if source is not None:
        out["source"] = source
    if not line:
        out["presentationHint"] = "subtle"
    return out


@handles("scopes")
async def scopes(adapter, args: dict[str, Any]) -> dict[str, Any]:
    adapter.need_debuggee()
    pid, frame = split_frame_id(_int(args, "frameId"))
    out = []
    for title, scope, hint in SCOPES:
        item = {"name": title, "variablesReference": adapter.handles.add(Scope(pid, frame, scope)),
                "expensive": scope == "registers"}
        if hint:
            item["presentationHint"] = hint
        out.append(item)
    return {"scopes": out}


@handles("variables")
async def variables(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    item = _container(adapter, args)
    client = debuggee.client
    if isinstance(item, Scope):
        listing = await client.frame_variables(item.pid, item.frame, item.scope)
        records = listing.get(item.scope) or []
        return {"variables": [to_dap(r, adapter.handles, item.pid, item.frame,
                                     expression_of(item.scope, r.get("name", "")))
                              for r in records]}
    start, count = _count(args, "start"), _count(args, "count") or None
    listing = await client.expand(item.ref, start, count)
    return {"variables": [to_dap(r, adapter.handles, item.pid, item.frame,
                                 child_expression(item.expression, r.get("name", "")))
                          for r in listing.get("variables", [])]}


@handles("setVariable")
async def set_variable(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    item = _container(adapter, args)
    name, value = args.get("name"), args.get("value")
    if not isinstance(name, str) or not isinstance(value, str):
        raise DapError("setVariable needs \"name\" and \"value\" (strings)")
    if isinstance(item, Scope):
        lvalue = expression_of(item.scope, name)
    else:
        lvalue = child_expression(item.expression, name)
        if lvalue is None:
            raise DapError(f"{name} cannot be named as a C expression, so it cannot be set")
    result = await debuggee.client.set_variable(item.pid, lvalue, value, item.frame)
    return _assigned(to_dap(result, adapter.handles, item.pid, item.frame, lvalue))


@handles("evaluate")
async def evaluate(adapter, args: dict[str, Any]) -> dict[str, Any]:
    expression = args.get("expression")
    if not isinstance(expression, str) or not expression.strip():
        raise DapError("evaluate needs an \"expression\"")
    pid, frame = _frame_of(adapter, args)
    if args.get("context") == "repl":
        return await evaluate_repl(adapter, expression, pid, frame)
    debuggee = adapter.need_debuggee()
    result = await debuggee.client.evaluate(pid, expression, frame)
    return expression_result(adapter.handles, result, pid, frame, expression)


@handles("setExpression")
async def set_expression(adapter, args: dict[str, Any]) -> dict[str, Any]:
    """A watch expression's value changed in the editor: any C lvalue the executive's
    `set` accepts (a variable, `p->f`, `a[i]`, `$r3`)."""
    expression, value = args.get("expression"), args.get("value")
    if not isinstance(expression, str) or not expression.strip() or not isinstance(value, str):
        raise DapError("setExpression needs an \"expression\" and a \"value\" (strings)")
    pid, frame = _frame_of(adapter, args)
    debuggee = adapter.need_debuggee()
    result = await debuggee.client.set_variable(pid, expression, value, frame)
    return _assigned(to_dap(result, adapter.handles, pid, frame, expression))


def _assigned(variable: dict[str, Any]) -> dict[str, Any]:
    """The fields of a DAP variable that setVariable/setExpression responses carry."""
    return {key: variable[key] for key in ("value", "type", "variablesReference",
                                           "namedVariables", "indexedVariables",
                                           "memoryReference")
            if key in variable}


@handles("exceptionInfo")
async def exception_info(adapter, args: dict[str, Any]) -> dict[str, Any]:
    """The fault a task stopped on, as the executive recorded it, with the stack it left:
    what VS Code shows in its box at the faulting line."""
    debuggee = adapter.need_debuggee()
    pid = thread_of(adapter, args)
    fault = (await debuggee.task(pid)).get("fault")
    if not fault:
        raise DapError(f"PID {pid} has not stopped on a fault")
    kind = fault.get("kind", "unknown")
    message = fault.get("message") or f"{kind} fault at 0x{fault.get('pc', 0):04x}"
    stack = await debuggee.request("stack.info", pid=pid, max_frames=32)
    return {"exceptionId": kind, "description": message, "breakMode": "always",
            "details": {"message": message, "typeName": f"{kind} fault",
                        "stackTrace": plain(render("stack", stack))}}   # as `bt` shows it


@handles("completions")
async def completions(adapter, args: dict[str, Any]) -> dict[str, Any]:
    text = args.get("text")
    if not isinstance(text, str):
        raise DapError("completions needs the console's \"text\"")
    cursor = _int(args, "column") - adapter.column_base if "column" in args else len(text)
    pid, frame = _frame_of(adapter, args)
    return {"targets": await complete_console(adapter, text, max(0, min(len(text), cursor)),
                                              pid, frame)}


def _frame_of(adapter, args: dict[str, Any]) -> tuple[int | None, int]:
    """(pid, frame) of the request's `frameId`, else the debugged task's innermost."""
    if args.get("frameId") is not None:
        return split_frame_id(_int(args, "frameId"))
    return (adapter.debuggee.pid if adapter.debuggee else None), 0


def _container(adapter, args: dict[str, Any]) -> Scope | Children:
    ref = _int(args, "variablesReference")
    item = adapter.handles.get(ref)
    if not isinstance(item, (Scope, Children)):
        raise DapError(f"variablesReference {ref} is not (or no longer) valid: the task ran "
                       "since it was given")
    return item


def _count(args: dict[str, Any], name: str) -> int:
    """An optional non-negative integer argument (0 when absent)."""
    value = args.get(name) or 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DapError(f"\"{name}\" must be a number of at least 0, not {value!r}")
    return value


def _int(args: dict[str, Any], name: str) -> int:
    value = args.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DapError(f"\"{name}\" must be an integer, not {value!r}")
    return value
