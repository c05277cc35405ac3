"""C-level inspection over protocol v1: `frame.variables`, `variables.expand`,
`evaluate` and `set` (docs/protocol.md, "Variables and expressions").

Thin translations to `hsx.debug.Debugger`; reading needs no lock, `set` needs control
of the PID like any other write.
"""
from __future__ import annotations

from typing import Any

from hsx.debug.inspector import SCOPES
from hsx.debug.variables import DEFAULT_PAGE

from ..dispatch import Call, Group
from ..errors import bad_argument
from ..schema import MAX_TEXT, MAX_U32, PID, Int, Num, OneOf, Str
from .debug import FRAME, controlled_pid, debugger, frame_of

group = Group("variables", feature="variables")


@group.command("frame.variables", "locals", "variables",
               args={"pid": PID, **FRAME, "scope": Str(choices=tuple(SCOPES))})
def frame_variables(call: Call) -> dict[str, Any]:
    """Arguments, locals, globals and registers of a frame (`scope` picks one)."""
    pid = call.task().pid
    scope = call.str("scope", "all")
    return {"variables": debugger(call).frame_variables(pid, frame_of(call), scope)}


@group.command("variables.expand", "expand", args={
    "ref": Int(1, MAX_U32), "start": Int(0, MAX_U32), "count": Int(1, 10_000)})
def variables_expand(call: Call) -> dict[str, Any]:
    """The children of an expandable value (`ref` from a listing): fields, a page of
    array elements (`start`, `count`), or what a pointer points to."""
    return {"variables": debugger(call).expand(call.int("ref", min=1),
                                               call.int("start", 0, min=0),
                                               call.int("count", DEFAULT_PAGE, min=1,
                                                        max=10_000))}


@group.command("evaluate", "eval", "print", feature="expressions",
               args={"pid": PID, **FRAME, "expr|expression": Str(MAX_TEXT, empty=False)})
def evaluate(call: Call) -> dict[str, Any]:
    """A C expression in a frame: its value, type and (for aggregates) a `ref`."""
    pid = call.task().pid
    return {"result": debugger(call).evaluate(pid, frame_of(call),
                                              call.str("expr", aliases=("expression",)))}


@group.command("set", "var.set", "variables.set", writes=True, feature="expressions", args={
    "pid": PID, **FRAME, "lvalue|target|name|var": Str(MAX_TEXT, empty=False),
    "value": OneOf((Str(MAX_TEXT), Int(-2 ** 64, 2 ** 64), Num(-1e308, 1e308)))})
def set_variable(call: Call) -> dict[str, Any]:
    """Store `value` (a C expression) into `lvalue` (a variable, field, element or
    register) in a frame; the PID lock is needed."""
    pid = controlled_pid(call)
    target = call.str("lvalue", aliases=("target", "name", "var"))
    value = call.field("value")
    if value is None:
        raise bad_argument("'value' must be a C expression (a string) or a number")
    return {"result": debugger(call).assign(pid, frame_of(call), target,
                                            value if isinstance(value, str) else repr(value))}
