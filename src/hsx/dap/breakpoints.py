"""DAP breakpoints and the executive's: what each DAP breakpoint became, hit
conditions, and logpoints.

The executive holds the breakpoints (`bp.set`, conditions evaluated there) and the
watches of data breakpoints (`watch.add {stop: true}`).  A DAP breakpoint is reported
`verified` only once the executive has set it, at the line it actually landed on.
Hit conditions and log messages are the adapter's: at each stop it counts the hit and
decides whether the user sees it (`Decision`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .protocol import DapError

_HIT = re.compile(r"^\s*(==|=|>=|>|<=|<|%)?\s*(\d+)\s*$")
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


@dataclass
class Placed:
    """One DAP breakpoint."""

    id: int
    kind: str                     # source, function, instruction, data
    exec_id: int | None = None    # the executive's breakpoint (or watch) id
    hit_condition: str | None = None
    log_message: str | None = None
    hits: int = 0
    request: dict[str, Any] = field(default_factory=dict)   # as the client asked

    def counts(self) -> bool:
        """Count a hit; does the hit condition let it stop?"""
        self.hits += 1
        if not self.hit_condition:
            return True
        op, number = parse_hit_condition(self.hit_condition)
        return {"==": self.hits == number, ">=": self.hits >= number,
                ">": self.hits > number, "<=": self.hits <= number,
                "<": self.hits < number,
                "%": number > 0 and self.hits % number == 0}[op]


@dataclass(frozen=True)
class DataId:
    """A data breakpoint's `dataId`, from dataBreakpointInfo to setDataBreakpoints: the
    object a C expression named in a frame when the user chose it (`pid:address:size:
    frame:expression`).  VS Code sends it back whenever any data breakpoint changes,
    when the frame may be another function's: the address is what stays true."""

    pid: int
    address: int
    size: int
    frame: int
    expression: str

    def __str__(self) -> str:
        return f"{self.pid}:{self.address}:{self.size}:{self.frame}:{self.expression}"

    @classmethod
    def parse(cls, text: str) -> DataId:
        """ValueError when `text` is not one."""
        pid, address, size, frame, expression = text.split(":", 4)
        return cls(int(pid), int(address), int(size), int(frame), expression)


def parse_hit_condition(text: str) -> tuple[str, int]:
    """"5" (the 5th hit), "== 5", ">= 5", "> 5", "< 5", "<= 5", "% 5" (every 5th)."""
    match = _HIT.match(text)
    if match is None:
        raise DapError(f"hit condition {text!r} is not a count: use N, >= N, > N, < N, "
                       "<= N, == N or % N")
    op = match.group(1) or "=="
    return ("==" if op == "=" else op), int(match.group(2))


def log_parts(message: str) -> list[tuple[str, bool]]:
    """A logpoint message as (text, is_expression) pieces: "x = {x}"."""
    parts: list[tuple[str, bool]] = []
    last = 0
    for match in _PLACEHOLDER.finditer(message):
        parts.append((message[last:match.start()], False))
        parts.append((match.group(1), True))
        last = match.end()
    parts.append((message[last:], False))
    return [p for p in parts if p[0]]


class BreakpointBook:
    """The DAP breakpoints in sets as the requests replace them: one set per source
    path (`source`, path), and one each of `function`, `instruction` and `data`."""

    def __init__(self) -> None:
        self._next = 1
        self.sets: dict[tuple[str, str], list[Placed]] = {}

    def renew(self, kind: str, requests: list[dict[str, Any]], path: str = ""
              ) -> tuple[list[Placed], list[Placed]]:
        """Replace a set: (the old breakpoints, the new ones)."""
        old = self.sets.pop((kind, path), [])
        new = []
        for request in requests:
            new.append(Placed(self._next, kind, request=request,
                              hit_condition=request.get("hitCondition") or None,
                              log_message=request.get("logMessage") or None))
            self._next += 1
        self.sets[(kind, path)] = new
        return old, new

    def all(self) -> list[Placed]:
        return [p for group in self.sets.values() for p in group]

    def by_exec(self, exec_id: int | None, data: bool) -> Placed | None:
        """The DAP breakpoint that became executive breakpoint (`data`: watch) `exec_id`."""
        if exec_id is None:
            return None
        return next((p for p in self.all()
                     if p.exec_id == exec_id and (p.kind == "data") == data), None)
