"""Watches: report when a range of a task's data memory changes, and who changed it.

A watched task runs through the machine's recording interpreter (see `tap`), so after
every instruction its watched bytes are compared with their last value; tasks without
watches are not touched.  A change is reported as a `watch_update` event whose `pc` is
the instruction that made it (a store, a push, or an SVC writing guest memory), or None
when the bytes changed while the task was not executing (a message delivered into a
blocked receive, a host write); a watch set on a C object adds a `change` saying which
element or field went from what to what (changes.py).  A stopping watch (a data
breakpoint) also parks the task right after that instruction, through a machine
breakpoint on the next PC.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from hsx.kernel.task import Task
from hsx.vm import ContextState, TraceRecord

from . import errors as E
from .breakpoints import MachineBreakpoints
from .errors import DebugError
from .symbols import SymbolService
from .tap import Taps

DEFAULT_LENGTH = 4
MAX_LENGTH = 4096
MAX_PER_TASK = 256               # watches on one task (each is compared after every instruction)
KEEP_DEPARTED = 64              # ended tasks whose watches a restart may bring back
SVC_OPCODE = 0x30
_KEY = "watch"

Emit = Callable[[str, int, dict[str, Any]], None]
Describe = Callable[[bytes, bytes], dict[str, Any] | None]    # (old, new) -> change


@dataclass
class Watch:
    id: int
    task: Task
    address: int
    length: int
    stop: bool
    owner: str | None
    symbol: str | None
    value: bytes
    describe: Describe | None = None      # set on a C object: says what changed


class WatchTable:
    def __init__(self, symbols: SymbolService, taps: Taps, machine: MachineBreakpoints,
                 emit: Emit) -> None:
        self.symbols = symbols
        self.taps = taps
        self.machine = machine
        self.emit = emit
        self._by_id: dict[int, Watch] = {}
        self._by_pid: dict[int, list[Watch]] = {}
        self._stops: dict[int, dict[str, Any]] = {}     # pid -> a stop waiting at its next PC
        self._departed: dict[int, list[dict[str, Any]]] = {}   # pid -> rows, ended tasks
        self._next_id = 1

    def add(self, pid: int, where: int | str, length: int | None = None, *, stop: bool = False,
            owner: str | None = None, label: str | None = None,
            describe: Describe | None = None) -> dict[str, Any]:
        """`label` names what is watched when `where` is an address resolved elsewhere
        (a C expression); `describe(old, new)` then says what changed in it."""
        task = self.symbols.get(pid).task
        if task.ended:
            raise DebugError(E.TASK_ENDED, f"task {pid} has ended ({task.state.value})")
        addr, size, name = self.symbols.resolve_data(pid, where)
        name = label or name
        length = length if length is not None else min(size or DEFAULT_LENGTH, MAX_LENGTH)
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
            raise DebugError(E.BAD_ARGUMENT, f"watch length must be 1..{MAX_LENGTH}, not {length!r}")
        if addr < 0 or addr + length > task.ctx.layout.mem_size:
            raise DebugError(E.OUT_OF_RANGE, f"0x{addr:X}+{length} is outside task {pid}'s memory")
        if len(self._by_pid.get(pid, ())) >= MAX_PER_TASK:
            raise DebugError(E.TOO_MANY_WATCHES, f"task {pid} has {MAX_PER_TASK} watches, the "
                             "most it can have: remove some first")
        watch = Watch(self._next_id, task, addr, length, bool(stop), owner, name,
                      bytes(task.ctx.mem[addr:addr + length]), describe)
        self._next_id += 1
        self._by_id[watch.id] = watch
        watches = self._by_pid.setdefault(pid, [])
        watches.append(watch)
        if len(watches) == 1:
            self.taps.add(task, _KEY, self._observer(task, watches))
        return self.describe(watch)

    def remove(self, watch_id: int) -> dict[str, Any]:
        watch = self._by_id.get(watch_id) if isinstance(watch_id, int) else None
        if watch is None:
            raise DebugError(E.UNKNOWN_WATCH, f"no watch {watch_id!r}")
        self._drop(watch)
        return self.describe(watch)

    def list(self, pid: int | None = None) -> list[dict[str, Any]]:
        if pid is not None:
            self.symbols.get(pid)
        return [self.describe(w) for w in sorted(self._by_id.values(), key=lambda w: w.id)
                if pid is None or w.task.pid == pid]

    def release_owner(self, owner: str) -> list[int]:
        released = [w for w in self._by_id.values() if owner is not None and w.owner == owner]
        for watch in released:
            self._drop(watch)
        return sorted(w.id for w in released)

    def detach(self, task: Task) -> None:
        """The task ended (or the debugger detaches): its watches and any pending watch
        stop go (remembered a while for `carry_over`)."""
        watches = list(self._by_pid.get(task.pid, ()))
        if watches:
            self._departed[task.pid] = [self.describe(w) for w in watches]
            while len(self._departed) > KEEP_DEPARTED:
                self._departed.pop(next(iter(self._departed)))
        for watch in watches:
            self._drop(watch)

    def carry_over(self, old_pid: int, pid: int) -> list[str]:
        """Watch again on task `pid` what task `old_pid` watched (`restart`): by symbol
        when it still resolves, else at the same address.  Returns warnings."""
        warnings = []
        for row in self._departed.pop(old_pid, []):
            try:
                try:
                    self.add(pid, row["symbol"], row["length"], stop=row["stop"],
                             owner=row["owner"])
                except DebugError:              # no such symbol now (or an expression)
                    self.add(pid, row["addr"], row["length"], stop=row["stop"],
                             owner=row["owner"], label=row["symbol"])
            except DebugError as error:
                warnings.append(f"watch {row['symbol'] or hex(row['addr'])} not carried "
                                f"over: {error}")
        return warnings

    def _drop(self, watch: Watch) -> None:
        task = watch.task
        del self._by_id[watch.id]
        watches = self._by_pid[task.pid]
        watches.remove(watch)
        pending = self._stops.get(task.pid)
        if pending is not None and pending["watch_id"] == watch.id:
            self.take_stop(task.pid)
        if not watches:
            del self._by_pid[task.pid]
            self.taps.remove(task, _KEY)

    def describe(self, watch: Watch) -> dict[str, Any]:
        return {"id": watch.id, "pid": watch.task.pid, "addr": watch.address,
                "length": watch.length, "symbol": watch.symbol, "stop": watch.stop,
                "owner": watch.owner, "value": watch.value.hex()}

    # -- changes --------------------------------------------------------------------------

    def host_wrote(self, task: Task) -> None:
        """The host wrote the task's memory (a debugger poke): report what changed."""
        for watch in self._by_pid.get(task.pid, ()):
            self._compare(watch, None)

    def take_stop(self, pid: int, addr: int | None = None) -> dict[str, Any] | None:
        """The watch stop waiting for this task, if it is due at `addr` (any when None):
        the fields for its `debug_break` event."""
        pending = self._stops.get(pid)
        if pending is None or (addr is not None and pending["pc"] != addr):
            return None
        del self._stops[pid]
        task = self.symbols.get(pid).task
        if not task.ended:
            self.machine.release(task, pending["pc"])
        return {k: v for k, v in pending.items() if k != "pc"}

    def _observer(self, task: Task, watches: list[Watch]) -> Callable[[TraceRecord], None]:
        mem = task.ctx.mem

        def observe(record: TraceRecord) -> None:
            for watch in tuple(watches):
                if mem[watch.address:watch.address + watch.length] != watch.value:
                    self._compare(watch, record)
        return observe

    def _compare(self, watch: Watch, record: TraceRecord | None) -> None:
        task = watch.task
        now = bytes(task.ctx.mem[watch.address:watch.address + watch.length])
        if now == watch.value:
            return
        old, watch.value = watch.value, now
        pc = record.pc if record is not None and _wrote(record, watch) else None
        change = watch.describe(old, now) if watch.describe is not None else None
        described = {"change": change} if change is not None else {}
        self.emit("watch_update", task.pid, {
            "id": watch.id, "pid": task.pid, "addr": watch.address, "length": watch.length,
            "symbol": watch.symbol, "old": old.hex(), "new": now.hex(), "pc": pc,
            **described})
        if watch.stop and record is not None:
            self._request_stop(task, watch, old, now, pc, described)

    def _request_stop(self, task: Task, watch: Watch, old: bytes, new: bytes,
                      pc: int | None, described: dict[str, Any]) -> None:
        ctx = task.ctx
        if task.pid in self._stops or ctx.state is not ContextState.READY:
            return
        if not self.symbols.get(task.pid).code.is_instruction(ctx.pc):
            return                           # running off the code: the machine faults next
        self.machine.acquire(task, ctx.pc)
        self._stops[task.pid] = {"pc": ctx.pc, "watch_id": watch.id, "addr": watch.address,
                                 "old": old.hex(), "new": new.hex(), "changed_by": pc,
                                 **described}


def _wrote(record: TraceRecord, watch: Watch) -> bool:
    """Whether the instruction of `record` (both operations of a pair) can have written
    the watched bytes."""
    if record.word >> 24 == SVC_OPCODE:
        return True
    return any(access is not None and access.op == "write"
               and access.addr < watch.address + watch.length
               and watch.address < access.addr + access.width
               for access in (record.memory, record.memory2))
