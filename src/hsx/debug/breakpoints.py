"""Breakpoints: ids, enable/disable, hit counts, temporaries, conditions and owners,
plus the BRK instructions compiled into the code, listed as static breakpoints.

A breakpoint is a machine breakpoint on one task's context (docs/machine.md): the task
stops *before* the instruction, nothing else is slowed down, and resuming executes the
instruction without hitting it again.  Conditions are checked only when the task gets
there; a false one lets it run on as if nothing happened.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from hsx.isa import Instruction
from hsx.kernel.task import Task
from hsx.vm import Machine

from . import errors as E
from .conditions import Condition, ConditionError, parse_condition
from .cvalue import Scope
from .errors import DebugError, quoted
from .store import DebugStore, StoredBreakpoint
from .symbols import SymbolService, Where

KEEP_DEPARTED = 64              # ended tasks whose breakpoints a restart may bring back
MAX_PER_TASK = 1024             # breakpoints a client may set on one task (memory, the store)


class MachineBreakpoints:
    """Reference-counted machine breakpoints: a user's breakpoint, a step's internal stop
    and a watch's stop may share an address; the trampoline stays while any of them does."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self._counts: dict[int, dict[int, int]] = {}      # pid -> address -> users

    def acquire(self, task: Task, addr: int) -> None:
        counts = self._counts.setdefault(task.pid, {})
        if not counts.get(addr):
            self.machine.add_breakpoint(task.ctx, addr)
        counts[addr] = counts.get(addr, 0) + 1

    def release(self, task: Task, addr: int) -> None:
        counts = self._counts.get(task.pid, {})
        users = counts.get(addr, 0)
        if users > 1:
            counts[addr] = users - 1
        elif users == 1:
            del counts[addr]
            self.machine.remove_breakpoint(task.ctx, addr)

    def installed(self, pid: int, addr: int) -> bool:
        return bool(self._counts.get(pid, {}).get(addr))

    def clear(self, task: Task) -> None:
        """Take every breakpoint of the task out of the machine."""
        for addr in self._counts.pop(task.pid, {}):
            self.machine.remove_breakpoint(task.ctx, addr)


@dataclass
class Breakpoint:
    id: int
    task: Task
    address: int
    kind: str = "breakpoint"                 # or "brk": a BRK instruction in the code
    temporary: bool = False
    condition: Condition | None = None
    owner: str | None = None
    enabled: bool = True
    hits: int = 0
    code: int | None = None                  # a BRK's 8-bit code
    stored: StoredBreakpoint | None = None   # its row in the store, when remembered

    @property
    def pid(self) -> int:
        return self.task.pid


class BreakpointTable:
    def __init__(self, symbols: SymbolService, machine: MachineBreakpoints,
                 store: DebugStore | None, scope_of: Callable[[Task], Scope]) -> None:
        """`scope_of(task)` is what a condition sees: the stopped task's frame 0."""
        self.symbols = symbols
        self.machine = machine
        self.store = store
        self.scope_of = scope_of
        self._by_id: dict[int, Breakpoint] = {}
        self._next_id = 1
        self._departed: dict[int, list[dict[str, Any]]] = {}   # pid -> rows, ended tasks

    # -- tasks coming and going -----------------------------------------------------------

    def attach(self, task: Task) -> list[str]:
        """A new task: list its BRK instructions, restore its app's remembered breakpoints.
        Returns warnings for remembered ones that no longer resolve."""
        code = self.symbols.get(task.pid).code
        for addr in code.starts:
            ins = code.instruction(addr)
            if type(ins) is Instruction and ins.op.mnemonic == "BRK":
                self._add(task, addr, kind="brk", code=ins.imm)
        return self.restore(task)

    def restore(self, task: Task) -> list[str]:
        """(Re)create the app's remembered breakpoints that this task does not have yet."""
        if self.store is None:
            return []
        have = {bp.stored.key for bp in self._by_id.values() if bp.task is task and bp.stored}
        warnings = []
        for row in self.store.entries(task.base_name):
            if row.key in have:
                continue
            try:
                addr = self._resolve_stored(task, row)
                condition = parse_condition(row.condition) if row.condition else None
            except DebugError as error:
                warnings.append(f"remembered breakpoint {row.key} not restored: {error}")
                continue
            self._add(task, addr, condition=condition, stored=row, enabled=row.enabled)
        return warnings

    def _resolve_stored(self, task: Task, row: StoredBreakpoint) -> int:
        if row.file is not None and row.line is not None:
            return self.symbols.resolve_code(task.pid, (row.file, row.line), past_prologue=True)
        if row.symbol is not None:
            return self.symbols.resolve_code(task.pid, f"{row.symbol}+{row.offset}")
        return self.symbols.resolve_code(task.pid, row.address)

    def detach(self, task: Task) -> None:
        """The task ended (or the debugger detaches): its breakpoints go, from the machine
        too; remembered ones stay in the store, the others are kept aside a while for a
        `restart` of the task (`carry_over`)."""
        gone = [bp for bp in self._by_id.values() if bp.task is task]
        if gone:
            self._departed[task.pid] = [self.describe(bp) for bp in gone]
            while len(self._departed) > KEEP_DEPARTED:
                self._departed.pop(next(iter(self._departed)))
        for bp in gone:
            del self._by_id[bp.id]
        self.machine.clear(task)

    # -- the user's operations ------------------------------------------------------------

    def set(self, pid: int, where: Where, *, temporary: bool = False,
            condition: str | None = None, owner: str | None = None) -> int:
        """A breakpoint at an address, symbol or (file, line); returns its id.  Setting an
        identical one again (same place and condition) returns the existing id."""
        task = self._live(pid)
        addr = self.symbols.resolve_code(pid, where, past_prologue=True)
        parsed = parse_condition(condition) if condition is not None else None
        if parsed is not None:
            self._check_names(pid, parsed, addr)
        if not temporary:
            for bp in self.at(pid, addr):
                if not bp.temporary and bp.kind == "breakpoint" and _text(bp.condition) == _text(parsed):
                    bp.owner = bp.owner or owner
                    return bp.id
        if sum(b.pid == pid and b.kind == "breakpoint" for b in self._by_id.values()) >= MAX_PER_TASK:
            raise DebugError(E.TOO_MANY_BREAKPOINTS, f"task {pid} has {MAX_PER_TASK} breakpoints, "
                             "the most it can have: clear some first")
        bp = self._add(task, addr, temporary=temporary, condition=parsed, owner=owner)
        if not temporary and self.store is not None:
            bp.stored = self._stored_form(pid, where, addr, parsed)
            self.store.save(task.base_name, bp.stored)
        return bp.id

    def clear(self, bp_id: int) -> dict[str, Any]:
        bp = self.get(bp_id)
        if bp.kind == "brk":
            raise DebugError(E.STATIC_BREAKPOINT, f"breakpoint {bp_id} is a BRK instruction in the "
                             "code: disable it instead")
        self._remove(bp)
        if bp.stored is not None and self.store is not None:
            self.store.delete(bp.task.base_name, bp.stored)
        return self.describe(bp)

    def enable(self, bp_id: int, enabled: bool = True) -> dict[str, Any]:
        bp = self.get(bp_id)
        if bp.enabled != enabled:
            bp.enabled = enabled
            if bp.kind == "breakpoint" and not bp.task.ended:
                (self.machine.acquire if enabled else self.machine.release)(bp.task, bp.address)
            if bp.stored is not None and self.store is not None:
                bp.stored = replace(bp.stored, enabled=enabled)
                self.store.save(bp.task.base_name, bp.stored)
        return self.describe(bp)

    def disable(self, bp_id: int) -> dict[str, Any]:
        return self.enable(bp_id, False)

    def list(self, pid: int | None = None) -> list[dict[str, Any]]:
        if pid is not None:
            self.symbols.get(pid)                  # unknown pid is an error, not []
        return [self.describe(bp) for bp in sorted(self._by_id.values(), key=lambda b: b.id)
                if pid is None or bp.pid == pid]

    def carry_over(self, old_pid: int, pid: int) -> list[str]:
        """Set again on task `pid` the breakpoints task `old_pid` had (`restart`: the same
        app, perhaps rebuilt), found by source line, else label, else address; remembered
        ones come back through the store.  Returns warnings for those that do not resolve."""
        rows = self._departed.pop(old_pid, None)
        if rows is None:
            rows = [self.describe(bp) for bp in self._by_id.values() if bp.pid == old_pid]
        warnings = []
        for row in rows:
            if row["kind"] != "breakpoint" or row["temporary"] or row["remembered"]:
                continue
            where: Where = ((row["file"], row["line"]) if row["file"] and row["line"]
                            else f"{row['symbol']}+{row['offset']}" if row["symbol"]
                            else row["address"])
            try:
                bp_id = self.set(pid, where, condition=row["condition"], owner=row["owner"])
            except DebugError as error:
                warnings.append(f"breakpoint at {row['location']} not carried over: {error}")
                continue
            self.enable(bp_id, row["enabled"])
        return warnings

    def release_owner(self, owner: str) -> list[int]:
        """A session closed: its breakpoints stop affecting tasks (remembered ones come
        back when the app is loaded again)."""
        released = [bp for bp in self._by_id.values() if owner is not None and bp.owner == owner]
        for bp in released:
            self._remove(bp)
        return sorted(bp.id for bp in released)

    def get(self, bp_id: int) -> Breakpoint:
        bp = self._by_id.get(bp_id) if isinstance(bp_id, int) else None
        if bp is None:
            raise DebugError(E.UNKNOWN_BREAKPOINT, f"no breakpoint {bp_id!r}")
        return bp

    def at(self, pid: int, addr: int) -> list[Breakpoint]:
        return sorted((bp for bp in self._by_id.values() if bp.pid == pid and bp.address == addr),
                      key=lambda b: b.id)

    def describe(self, bp: Breakpoint) -> dict[str, Any]:
        where = self.symbols.describe(bp.pid, bp.address)
        symbol = where.get("symbol")
        out: dict[str, Any] = {
            "id": bp.id, "pid": bp.pid, "address": bp.address, "kind": bp.kind,
            "symbol": symbol, "offset": where.get("offset"),
            "location": f"{symbol}+0x{where['offset']:X}" if symbol else f"0x{bp.address:04X}",
            "file": where.get("file"), "line": where.get("line"), "hits": bp.hits,
            "enabled": bp.enabled, "temporary": bp.temporary,
            "condition": _text(bp.condition), "owner": bp.owner,
            "remembered": bp.stored is not None}
        if bp.code is not None:
            out["code"] = bp.code
        return out

    # -- at a stop ------------------------------------------------------------------------

    def hit(self, task: Task, addr: int) -> tuple[Breakpoint, str | None] | None:
        """The task reached a machine breakpoint at `addr`: the first enabled breakpoint
        whose condition holds (a condition that cannot be evaluated counts as holding,
        with its error), or None.  Counts hits and removes hit temporaries."""
        hits: list[tuple[Breakpoint, str | None]] = []
        for bp in self.at(task.pid, addr):
            if not bp.enabled or bp.kind != "breakpoint":
                continue
            error = None
            if bp.condition is not None:
                try:
                    if not bp.condition.holds(self.scope_of(task)):
                        continue
                except ConditionError as exc:
                    error = f"condition {quoted(bp.condition.text)} failed: {exc}"
            bp.hits += 1
            if bp.temporary:
                self._remove(bp)
            hits.append((bp, error))
        return hits[0] if hits else None

    def brk(self, task: Task, pc: int) -> Breakpoint | None:
        """A BRK at `pc` trapped: its static breakpoint (None when the code map did not
        list one there), with the hit counted unless it is disabled."""
        for bp in self.at(task.pid, pc):
            if bp.kind == "brk":
                if bp.enabled:
                    bp.hits += 1
                return bp
        return None

    # -- internals ------------------------------------------------------------------------

    def _add(self, task: Task, addr: int, *, kind: str = "breakpoint", temporary: bool = False,
             condition: Condition | None = None, owner: str | None = None, code: int | None = None,
             stored: StoredBreakpoint | None = None, enabled: bool = True) -> Breakpoint:
        bp = Breakpoint(self._next_id, task, addr, kind, temporary, condition, owner, enabled,
                        code=code, stored=stored)
        self._next_id += 1
        self._by_id[bp.id] = bp
        if kind == "breakpoint" and enabled:
            self.machine.acquire(task, addr)
        return bp

    def _remove(self, bp: Breakpoint) -> None:
        del self._by_id[bp.id]
        if bp.kind == "breakpoint" and bp.enabled and not bp.task.ended:
            self.machine.release(bp.task, bp.address)

    def _live(self, pid: int) -> Task:
        task = self.symbols.get(pid).task
        if task.ended:
            raise DebugError(E.TASK_ENDED, f"task {pid} has ended ({task.state.value})")
        return task

    def _check_names(self, pid: int, condition: Condition, addr: int) -> None:
        """Every name must be a symbol, a C global, or a local in scope at `addr`."""
        table = self.symbols.get(pid).table
        if table is None:
            return                                   # checked when evaluated
        in_scope = {v.name for v in table.locals_at(addr)}
        unknown = sorted(n for n in condition.symbols if table.symbol(n) is None
                         and table.global_variable(n) is None and n not in in_scope)
        if unknown:
            raise DebugError(E.BAD_CONDITION, f"condition {quoted(condition.text)}: unknown symbol "
                             f"{unknown[0]!r}")

    def _stored_form(self, pid: int, where: Where, addr: int,
                     condition: Condition | None) -> StoredBreakpoint:
        """How to find this place again after a rebuild: its source line when it was set
        by line or is a function's body (set by its name: the body's place depends on
        the prologue, which a rebuild may change), else the label holding it plus an
        offset, else the bare address."""
        text = _text(condition)
        table = self.symbols.get(pid).table
        info = table.line_for(addr) if table is not None else None
        by_line = isinstance(where, tuple) or (isinstance(where, str) and ":" in where)
        if info is not None and (by_line or addr != self.symbols.resolve_code(pid, where)):
            return StoredBreakpoint(file=info.file, line=info.line, address=addr, condition=text)
        label = table.lookup_address(addr, "code") if table is not None else None
        if label is not None:
            return StoredBreakpoint(symbol=label[0], offset=label[1], address=addr, condition=text)
        return StoredBreakpoint(address=addr, condition=text)


def _text(condition: Condition | None) -> str | None:
    return condition.text if condition is not None else None

