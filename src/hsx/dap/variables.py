"""Variables as DAP shows them: references that stand for a scope or an expandable
value, and the executive's variable records turned into DAP `Variable`s.

References live until the debuggee runs again (`Handles.reset` at every resume), as
DAP allows.  Each variable carries an `evaluateName` (the C expression naming it), so
`setVariable`, watches and data breakpoints can name it again.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OPTIMISED_OUT = "<optimised out>"
SCOPES = (("Arguments", "arguments", "arguments"), ("Locals", "locals", "locals"),
          ("Globals", "globals", None), ("Registers", "registers", "registers"))


@dataclass(frozen=True)
class Scope:
    pid: int
    frame: int
    scope: str                    # arguments, locals, globals, registers


@dataclass(frozen=True)
class Children:
    pid: int
    frame: int
    ref: int                      # the executive's reference
    expression: str | None        # the C expression of the parent
    indexed: bool


class Handles:
    def __init__(self) -> None:
        self._items: dict[int, Any] = {}
        self._next = 1

    def add(self, item: Any) -> int:
        ref = self._next
        self._next += 1
        self._items[ref] = item
        return ref

    def get(self, ref: int) -> Any:
        return self._items.get(ref)

    def reset(self) -> None:
        self._items.clear()


def frame_id(pid: int, index: int) -> int:
    """Frame ids name (task, frame index) for as long as the task stays stopped."""
    return (pid << 8) | index


def split_frame_id(ident: int) -> tuple[int, int]:
    return ident >> 8, ident & 0xFF


def child_expression(parent: str | None, name: str) -> str | None:
    if parent is None:
        return None
    if name.startswith("["):
        return f"({parent}){name}" if _compound(parent) else f"{parent}{name}"
    if name.startswith("*"):
        return f"*({parent})"
    return f"({parent}).{name}" if _compound(parent) else f"{parent}.{name}"


def _compound(expression: str) -> bool:
    return any(c in expression for c in " +-*/&|<>=!?:()")


def expression_of(scope: str, name: str) -> str:
    """The C expression of a variable listed in a scope (registers are `$r3`)."""
    return f"${name.lower()}" if scope == "registers" else name


def to_dap(record: dict[str, Any], handles: Handles, pid: int, frame: int,
           expression: str | None) -> dict[str, Any]:
    """One executive variable record as a DAP Variable."""
    available = record.get("available", True)
    value = record.get("value", "") if available else OPTIMISED_OUT
    out: dict[str, Any] = {"name": record.get("name", "?"), "value": value,
                           "type": record.get("type", ""), "variablesReference": 0}
    if expression is not None:
        out["evaluateName"] = expression
    children = record.get("children") or 0
    if available and record.get("ref") and children:
        indexed = record.get("type", "").rstrip().endswith("]")
        out["variablesReference"] = handles.add(
            Children(pid, frame, record["ref"], expression, indexed))
        out["indexedVariables" if indexed else "namedVariables"] = children
    if record.get("address") is not None:
        out["memoryReference"] = hex(record["address"])
    if not available:
        out["presentationHint"] = {"attributes": ["readOnly"]}
    return out


def expression_result(handles: Handles, result: dict[str, Any], pid: int, frame: int,
                      expression: str) -> dict[str, Any]:
    out = to_dap(result, handles, pid, frame, expression)
    body = {"result": out["value"], "type": out["type"],
            "variablesReference": out["variablesReference"]}
    for key in ("namedVariables", "indexedVariables", "memoryReference"):
        if key in out:
            body[key] = out[key]
    return body
