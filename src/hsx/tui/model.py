"""What the panels show, as small immutable values built from protocol replies.

The app keeps these in reactive attributes; a panel re-renders when the value it is bound
to is replaced, and compares old and new to highlight what changed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ENDED_STATES = frozenset({"returned", "faulted", "killed"})
FLAG_BITS = (("Z", 1), ("C", 2), ("N", 4), ("V", 8))


def counted(count: int, noun: str) -> str:
    """`1 instruction`, `2 instructions`."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@dataclass(frozen=True)
class TaskInfo:
    """The attached task: its `ps` row, reduced to what the status bar and title need."""

    pid: int
    app_name: str
    state: str
    pc: int = 0
    program: str | None = None
    exit_status: int | None = None
    fault: str | None = None          # "kind at 0xPC: message"
    stop_reason: str | None = None    # why it is paused, in words (the status line)

    @property
    def ended(self) -> bool:
        return self.state in ENDED_STATES

    @property
    def stopped(self) -> bool:
        """Its registers hold still: paused by the debugger, or ended."""
        return self.state == "paused" or self.ended

    @property
    def ending(self) -> str:
        """How an ended task ended, in words."""
        if self.state == "faulted":
            return f"faulted: {self.fault}" if self.fault else "faulted"
        if self.state == "returned":
            return f"exited with status {self.exit_status}"
        return "killed"

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> TaskInfo:
        fault = row.get("fault")
        return cls(pid=row["pid"], app_name=row.get("app_name", "?"), state=row["state"],
                   pc=row.get("pc", 0), program=row.get("program"),
                   exit_status=row.get("exit_status"),
                   fault=(f"{fault.get('kind')} at {fault.get('pc', 0):#06x}: "
                          f"{fault.get('message', '')}" if fault else None))


@dataclass
class StopReason:
    """Why the task is paused, as the event that paused it said (`text`; None for a
    pause, which has no stop event: the status line then says where it is).  True of
    that stop only: it goes when the task runs again, and when its pc moves without
    running (a jump, a write to PC) -- `pc` is pinned at the first refresh after it."""

    text: str | None = None
    pc: int | None = None


@dataclass(frozen=True)
class History:
    """The task's recording for reverse execution (`history.status`): on or off, and
    where in it the task is (`position` < `end`: in its past)."""

    recording: bool = False
    position: int = 0
    end: int = 0

    @property
    def in_past(self) -> bool:
        return self.recording and self.position < self.end

    @classmethod
    def from_reply(cls, reply: dict[str, Any]) -> History:
        return cls(recording=bool(reply.get("recording")), position=reply.get("position") or 0,
                   end=reply.get("end") or 0)


@dataclass(frozen=True)
class Registers:
    """R0..R15, PC and PSW of one frame; `changed` names the registers that differ from
    the previous stop (what the last step did)."""

    regs: tuple[int, ...]
    pc: int
    psw: int
    steps: int = 0
    changed: frozenset[str] = frozenset()
    frame: int = 0                    # >0: an outer frame (only PC, SP and FP are its own)

    @property
    def flags(self) -> str:
        return "".join(name if self.psw & bit else "-" for name, bit in FLAG_BITS)

    @classmethod
    def from_reply(cls, reply: dict[str, Any], previous: Registers | None = None) -> Registers:
        regs = tuple(reply["regs"])
        registers = cls(regs=regs, pc=reply["pc"], psw=reply["psw"], steps=reply.get("steps", 0))
        if previous is None:
            return registers
        if (previous.regs, previous.pc, previous.psw, previous.steps) == (
                regs, registers.pc, registers.psw, registers.steps):
            return previous                 # the same stop read again: keep its changes
        changed = {f"R{n}" for n, (a, b) in enumerate(zip(previous.regs, regs)) if a != b}
        if previous.pc != registers.pc:
            changed.add("PC")
        if previous.psw != registers.psw:
            changed.add("PSW")
        return cls(regs=regs, pc=registers.pc, psw=registers.psw, steps=registers.steps,
                   changed=frozenset(changed))

    def value_of(self, name: str) -> int:
        """A register by name: R0..R15, SP (R15), FP (R14), PC, PSW."""
        named = {"SP": self.regs[15], "FP": self.regs[14], "PC": self.pc, "PSW": self.psw}
        return named[name] if name in named else self.regs[int(name[1:])]

    def for_frame(self, frame: Frame) -> Registers:
        """This frame's view: its PC, SP and FP; the rest as in frame 0."""
        if frame.index == 0:
            return self
        regs = list(self.regs)
        regs[14], regs[15] = frame.fp, frame.sp
        return Registers(regs=tuple(regs), pc=frame.pc, psw=self.psw, steps=self.steps,
                         frame=frame.index)


@dataclass(frozen=True)
class Frame:
    index: int
    pc: int
    sp: int
    fp: int
    function: str | None = None
    offset: int = 0
    file: str | None = None
    line: int | None = None

    @classmethod
    def from_reply(cls, frame: dict[str, Any]) -> Frame:
        return cls(index=frame["index"], pc=frame["pc"], sp=frame.get("sp", 0),
                   fp=frame.get("fp", 0), function=frame.get("function"),
                   offset=frame.get("offset", 0), file=frame.get("file"),
                   line=frame.get("line"))

    @property
    def where(self) -> str:
        name = f"{self.function}+{self.offset:#x}" if self.function else f"{self.pc:#06x}"
        return f"{name} {self.file.rsplit('/', 1)[-1]}:{self.line}" if self.file else name


@dataclass(frozen=True)
class Location:
    """Where the selected frame is: what the source and disassembly panels centre on.
    `current` is False for outer frames (their pc is a return address)."""

    pc: int
    file: str | None = None
    line: int | None = None
    function: str | None = None
    current: bool = True

    @classmethod
    def of(cls, frame: Frame) -> Location:
        return cls(pc=frame.pc, file=frame.file, line=frame.line, function=frame.function,
                   current=frame.index == 0)


@dataclass(frozen=True)
class Breakpoint:
    id: int
    address: int
    kind: str = "breakpoint"
    location: str = ""
    file: str | None = None
    line: int | None = None
    hits: int = 0
    enabled: bool = True
    temporary: bool = False
    condition: str | None = None

    @classmethod
    def from_listing(cls, bp: dict[str, Any]) -> Breakpoint:
        return cls(id=bp["id"], address=bp["address"], kind=bp.get("kind", "breakpoint"),
                   location=bp.get("location") or f"{bp['address']:#06x}",
                   file=bp.get("file"), line=bp.get("line"), hits=bp.get("hits", 0),
                   enabled=bp.get("enabled", True), temporary=bp.get("temporary", False),
                   condition=bp.get("condition"))


@dataclass(frozen=True)
class Variable:
    """One row of the locals or watch panel, as `frame.variables`, `evaluate` and
    `variables.expand` describe a value.  `ref` (non-zero when `children` > 0) reads its
    fields or elements; `key` names the row across stops, so a changed value shows."""

    key: str
    name: str
    value: str
    type: str = ""
    ref: int = 0
    children: int = 0
    available: bool = True
    error: bool = False
    expr: str = ""                    # a C expression for it (what `set` writes to)

    @classmethod
    def from_reply(cls, item: dict[str, Any], parent: Variable | None = None, *,
                   scope: str = "") -> Variable:
        """A value of a listing; `parent` for fields, elements and pointer targets."""
        name = str(item.get("name", "?"))
        expr = name if parent is None else child_expr(parent.expr, name)
        key = f"{parent.key if parent else scope}/{name}"
        return cls(key=key, name=name, value=str(item.get("value", "")),
                   type=str(item.get("type") or ""), ref=int(item.get("ref") or 0),
                   children=int(item.get("children") or 0),
                   available=bool(item.get("available", True)), expr=expr)


def child_expr(parent: str, name: str) -> str:
    """The C expression of a child as `variables.expand` names it: a field `x`, an
    element `[3]`, or the target `*p` of a pointer."""
    if name.startswith("["):
        return f"({parent}){name}" if parent.startswith("*") else f"{parent}{name}"
    if name.startswith("*"):
        return f"*{parent}" if parent.isidentifier() else f"*({parent})"
    return f"({parent}).{name}" if parent.startswith("*") else f"{parent}.{name}"


@dataclass(frozen=True)
class Scope:
    """The values a variables panel shows at one stop (`stop` tells stops apart: values
    are compared with the previous stop's to highlight changes), or why there are none."""

    stop: int = -1
    items: tuple[Variable, ...] = ()
    note: str | None = None
    globals: tuple[Variable, ...] = ()    # the program's global variables (a branch of their own)
