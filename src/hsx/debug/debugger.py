"""The debugger of one kernel: the API the protocol handlers (`bp.*`, `stack.info`,
`disasm.read`, `watch.*`, `trace.*`, …) call.

It wraps a `Kernel` without changing how the kernel runs: it follows task loads and
ends through `task_state` events, and the kernel consults it (`Kernel.debug_hook`) at
the only moments it matters — when a task traps on a breakpoint, a BRK or a fault.
There it decides whether the task really stops (a false condition, a recursive call
that is not the frame a step waits for, a disabled BRK: it runs on) and enriches the
`debug_break` event with the breakpoint, symbol and source line.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hsx.image.sym import SymbolTable
from hsx.kernel.events import Event
from hsx.kernel.executive import Kernel
from hsx.kernel.task import Task
from hsx.vm import Stop, StopReason

from . import memory, sources, stack
from .breakpoints import BreakpointTable, MachineBreakpoints
from .disasm import DEFAULT_COUNT, disassemble
from .errors import BAD_ARGUMENT, TASK_ENDED, DebugError
from .inspector import Inspector
from .reverse import ReverseControl
from .stepping import RunControl
from .store import DebugStore
from .symbols import SymbolService, Where
from .tap import Taps
from .timeline import Recorder
from .trace import TraceBuffers, TraceFile, parse_trace
from .watches import WatchTable

STORE_FILE = "debug.sqlite3"


class Debugger:
    def __init__(self, kernel: Kernel, *, state_dir: str | os.PathLike | None = None) -> None:
        """`state_dir` holds the breakpoint store; by default the kernel's own state
        directory (where its value store lives), and no persistence without one."""
        self.kernel = kernel
        if state_dir is None and kernel.store is not None:
            state_dir = Path(kernel.store.path).parent
        self.store = DebugStore(Path(state_dir) / STORE_FILE) if state_dir is not None else None
        self.symbols = SymbolService(kernel, self.store)
        self._machine = MachineBreakpoints(kernel.machine)
        self.inspector = Inspector(self.symbols, lambda task: self._host_wrote(task))
        self.breakpoints = BreakpointTable(self.symbols, self._machine, self.store,
                                           lambda task: self.inspector.frame0(task.pid))
        taps = Taps()
        self._watches = WatchTable(self.symbols, taps, self._machine, kernel.events.emit)
        self._traces = TraceBuffers(taps, kernel.profile.trace_records, kernel.events)
        self._control = RunControl(kernel, self.symbols, self._machine, self.breakpoints,
                                   self._watches, self._announce)
        self._reverse = ReverseControl(kernel, self.symbols, self.breakpoints,
                                       lambda task: self.inspector.frame0(task.pid),
                                       self._announce)
        self.timeline = Recorder(kernel)       # the timeline (not recording until started)
        kernel.debug_hook = self._on_stop
        self._listener = self._on_task_state       # one bound method: unsubscribe matches by identity
        kernel.events.subscribe(self._listener, {"task_state"})
        for task in kernel.live_tasks():
            self._attach(task)

    def close(self) -> None:
        """Detach from the kernel: the breakpoints, watches, traces and pending steps of
        live tasks are taken out (remembered breakpoints stay in the store)."""
        self.kernel.events.unsubscribe(self._listener)
        if self.kernel.debug_hook == self._on_stop:
            self.kernel.debug_hook = None
        for task in self.kernel.live_tasks():
            self._forget(task)
        if self.store is not None:
            self.store.close()

    # -- run control ----------------------------------------------------------------------

    def pause(self, pid: int | None = None) -> list[int]:
        return self._control.pause(pid)

    def resume(self, pid: int | None = None) -> list[int]:
        return self._control.resume(pid)

    def step(self, pid: int, count: int = 1) -> dict[str, Any]:
        return self._control.step(pid, count)

    def step_over(self, pid: int) -> dict[str, Any]:
        return self._control.step_over(pid)

    def step_out(self, pid: int) -> dict[str, Any]:
        return self._control.step_out(pid)

    def step_line(self, pid: int, mode: str = "over") -> dict[str, Any]:
        return self._control.step_line(pid, mode)

    def run_to(self, pid: int, where: Where, owner: str | None = None) -> dict[str, Any]:
        return self._control.run_to(pid, where, owner)

    def jump(self, pid: int, where: Where) -> dict[str, Any]:
        result = self._control.jump(pid, where)
        self._host_wrote(self.symbols.get(pid).task)
        return result

    def release_owner(self, owner: str) -> dict[str, list[int]]:
        """A session closed: drop its breakpoints and watches."""
        return {"breakpoints": self.breakpoints.release_owner(owner),
                "watches": self._watches.release_owner(owner)}

    # -- inspection -----------------------------------------------------------------------

    def stack_info(self, pid: int, max_frames: int = stack.DEFAULT_FRAMES) -> dict[str, Any]:
        if not isinstance(max_frames, int) or isinstance(max_frames, bool) or not (
                1 <= max_frames <= stack.MAX_FRAMES):
            raise DebugError(BAD_ARGUMENT, f"max_frames must be 1..{stack.MAX_FRAMES}")
        entry = self.symbols.get(pid)
        ctx = entry.task.ctx
        walked = stack.walk(ctx, entry.code, lambda pc: self.symbols.describe(pid, pc), max_frames)
        return {"pid": pid, **walked, "sp": ctx.regs[15], "stack_base": ctx.layout.stack_base,
                "stack_top": ctx.layout.stack_top, "warnings": list(entry.warnings)}

    def disasm(self, pid: int, where: Where | None = None, count: int = DEFAULT_COUNT,
               mode: str = "around") -> dict[str, Any]:
        """`disasm.read`: `count` instructions from the code space around (or from) an
        address or symbol, by default the task's PC."""
        entry = self.symbols.get(pid)
        task = entry.task
        if where is None:
            addr = task.ctx.pc
        elif isinstance(where, int) and not isinstance(where, bool):
            addr = where
        else:
            addr = self.symbols.resolve_code(pid, where)
        marks: dict[int, list[int]] = {}
        for bp in self.breakpoints.list(pid):
            marks.setdefault(bp["address"], []).append(bp["id"])
        lines = disassemble(task.ctx, entry.code, entry.table,
                            lambda pc: self.symbols.describe(pid, pc), addr, count, mode, marks,
                            live=not task.ended)
        return {"pid": pid, "address": addr, "mode": mode, "pc": task.ctx.pc,
                "count": len(lines), "instructions": lines, "warnings": list(entry.warnings)}

    # -- variables and expressions --------------------------------------------------------

    def frame_variables(self, pid: int, frame: int = 0, scope: str = "all") -> dict[str, Any]:
        """Arguments, locals, globals and registers of frame `frame` (0 = innermost)."""
        return self.inspector.variables(pid, frame, scope)

    def expand(self, ref: int, start: int = 0, count: int | None = None) -> dict[str, Any]:
        """The fields, elements (a page of them) or pointee of an expandable value."""
        return self.inspector.expand(ref, start, count or 100)

    def evaluate(self, pid: int, frame: int, expression: str) -> dict[str, Any]:
        return self.inspector.evaluate(pid, frame, expression)

    def assign(self, pid: int, frame: int, target: str, value: str) -> dict[str, Any]:
        return self.inspector.assign(pid, frame, target, value)

    # -- symbols --------------------------------------------------------------------------

    def load_symbols(self, pid: int, source: str | os.PathLike | SymbolTable) -> dict[str, Any]:
        """Load a `.sym` (or a table) for a task; remembered breakpoints that needed
        symbols are restored now."""
        info = self.symbols.load(pid, source)
        task = self.symbols.get(pid).task
        if not task.ended:
            self.symbols.get(pid).warnings.extend(self.breakpoints.restore(task))
        return {**info, "warnings": list(self.symbols.get(pid).warnings)}

    def symbols_list(self, pid: int, type: str = "all") -> dict[str, Any]:
        return self.symbols.list(pid, type)

    def symbols_lookup(self, pid: int, key: int | str, space: str = "code") -> dict[str, Any]:
        return self.symbols.lookup(pid, key, space)

    def source_read(self, pid: int, file: str) -> dict[str, Any]:
        return sources.read_source(self.symbols.get(pid), file)

    # -- memory ---------------------------------------------------------------------------

    def memory_regions(self, pid: int) -> dict[str, Any]:
        task = self.symbols.get(pid).task
        return {"pid": pid, "regions": memory.regions(task)}

    def mem_read(self, pid: int, addr: int, length: int, space: str = "data") -> bytes:
        return memory.read(self.symbols.get(pid).task, addr, length, space)

    def mem_write(self, pid: int, addr: int, data: bytes) -> None:
        """Write data memory (registers included); watches report what changed, pc None."""
        task = self.symbols.get(pid).task
        memory.write(task, addr, data)
        self._host_wrote(task)

    def _host_wrote(self, task: Task) -> None:
        """Memory or registers changed from outside the task (a `set`, a write)."""
        self._watches.host_wrote(task)
        self._reverse.changed(task)

    # -- reverse execution ----------------------------------------------------------------

    def history_on(self, pid: int, budget: int | None = None) -> dict[str, Any]:
        """Record the task from now on so it can go back (budget: bytes of history)."""
        return self._reverse.on(pid, budget)

    def history_off(self, pid: int) -> dict[str, Any]:
        return self._reverse.off(pid)

    def history_status(self, pid: int) -> dict[str, Any]:
        return self._reverse.status(pid)

    def step_back(self, pid: int, unit: str = "instruction") -> dict[str, Any]:
        """Go back one instruction, or to where the previous source line began."""
        return self._reverse.step_back(pid, unit)

    def continue_back(self, pid: int) -> dict[str, Any]:
        """Go back to the latest breakpoint hit, or to the start of the history."""
        return self._reverse.continue_back(pid)

    # -- watches --------------------------------------------------------------------------

    def watch_add(self, pid: int, where: int | str, length: int | None = None, *,
                  stop: bool = False, owner: str | None = None,
                  frame: int = 0) -> dict[str, Any]:
        """Watch `length` bytes (default: the symbol's size, else 4) at an address or data
        symbol, or the object a C expression names in `frame` (`list->head->value`: its
        address is resolved now, its size is its type's; its changes are then described
        in C terms, `change`); `stop` also pauses the task after the instruction that
        changes them."""
        if isinstance(where, str):
            place = self.inspector.watched(pid, frame, where)
            if place is not None:
                whole = length in (None, place.size)
                return self._watches.add(pid, place.address, length or place.size, stop=stop,
                                         owner=owner, label=where,
                                         describe=place.describe if whole else None)
        return self._watches.add(pid, where, length, stop=stop, owner=owner)

    def carry_over(self, old_pid: int, pid: int) -> list[str]:
        """`restart`: the new task gets the old one's breakpoints and watches; warnings
        for those that no longer resolve."""
        return (self.breakpoints.carry_over(old_pid, pid)
                + self._watches.carry_over(old_pid, pid))

    def watch_remove(self, watch_id: int) -> dict[str, Any]:
        return self._watches.remove(watch_id)

    def watch_list(self, pid: int | None = None) -> list[dict[str, Any]]:
        return self._watches.list(pid)

    # -- trace ----------------------------------------------------------------------------

    def trace_on(self, pid: int, size: int | None = None) -> dict[str, Any]:
        task = self.symbols.get(pid).task
        if task.ended:
            raise DebugError(TASK_ENDED, f"task {pid} has ended ({task.state.value})")
        return self._traces.on(task, size)

    def trace_off(self, pid: int) -> dict[str, Any]:
        return self._traces.off(self.symbols.get(pid).task)

    def trace_status(self, pid: int) -> dict[str, Any]:
        self.symbols.get(pid)
        return self._traces.status(pid)

    def trace_records(self, pid: int, limit: int | None = None) -> list[dict[str, Any]]:
        self.symbols.get(pid)
        return self._traces.records(pid, limit)

    def trace_export(self, pid: int, path: str | os.PathLike, limit: int | None = None) -> int:
        """Write the trace as JSON lines to `path` and keep it in the debug store (when
        there is one) so it can be read back after the file is gone; returns the count."""
        task = self.symbols.get(pid).task
        lines = self._traces.export_lines(task, limit)
        with open(path, "w", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))
        if self.store is not None:
            self.store.save_trace(task.app_name, pid, os.fspath(path), lines)
        return len(lines) - 1

    def trace_history(self) -> list[dict[str, Any]]:
        """Traces exported so far (also by earlier runs of the executive)."""
        return self.store.traces() if self.store is not None else []

    def stored_trace(self, trace_id: int) -> TraceFile:
        lines = self.store.trace_lines(trace_id) if self.store is not None else None
        if lines is None:
            raise DebugError(BAD_ARGUMENT, f"no stored trace with id {trace_id}")
        return parse_trace(lines, f"stored trace {trace_id}")

    # -- the kernel's side ----------------------------------------------------------------

    def _attach(self, task: Task) -> None:
        entry = self.symbols.attach(task)
        entry.warnings.extend(self.breakpoints.attach(task))

    def _on_task_state(self, event: Event) -> None:
        data, pid = event.data, event.pid
        if data.get("reason") == "loaded":
            self._attach(self.kernel.tasks[pid])
        elif data.get("reason") == "user_pause":
            self._control.cancel(pid)
        elif data.get("new_state") in ("returned", "faulted", "killed"):
            self._forget(self.kernel.tasks[pid])

    def _forget(self, task: Task) -> None:
        """Take everything this debugger put into the task out of it (its trace ring
        stays readable)."""
        self._control.cancel(task.pid)
        self._watches.detach(task)
        self._traces.off(task)
        self._reverse.forget(task)
        self.breakpoints.detach(task)

    def _on_stop(self, task: Task, stop: Stop) -> dict[str, Any] | None:
        """Kernel hook at a breakpoint, BRK, fault or counted-step stop.  Except for
        faults: None lets the task run on, a dict is merged into the `debug_break` event."""
        pc = stop.pc
        if stop.reason is StopReason.FAULT:
            fault = stop.fault
            self._control.stopped(task)
            self._announce(task, "fault", pc=pc, kind=fault.kind.value, addr=fault.addr,
                           message=fault.message)
            return None
        if stop.reason is StopReason.BUDGET:           # a counted step reached its count
            executed = self._control.counted(task)
            self._control.stopped(task)
            return self._details(task, pc, "step", executed=executed)
        if stop.reason is StopReason.BRK:
            bp = self.breakpoints.brk(task, pc)
            if bp is not None and not bp.enabled:
                return None                          # a disabled BRK: run on
            self._control.stopped(task)
            return self._details(task, pc, "brk", **({"breakpoint_id": bp.id} if bp else {}))
        if not self._machine.installed(task.pid, pc):
            self._control.stopped(task)              # not ours: stop as the kernel would
            return self._details(task, pc, "breakpoint")
        watch = self._watches.take_stop(task.pid, pc)
        stepped = self._control.reached(task, pc)
        hit = self.breakpoints.hit(task, pc)
        if watch is None and not stepped and hit is None:
            return None
        self._control.stopped(task)
        extra: dict[str, Any] = dict(watch or {})
        if stepped is not None and stepped.leaving is not None:
            returned = self.inspector.returned(task.pid, stepped.leaving)
            if returned is not None:
                extra["returned"] = returned
        if hit is not None:
            bp, error = hit
            extra["breakpoint_id"] = bp.id
            if bp.temporary:
                extra["temporary"] = True
            if error is not None:
                extra["condition_error"] = error
        reason = "watch" if watch else "breakpoint" if hit else "step"
        return self._details(task, pc, reason, **extra)

    def _details(self, task: Task, pc: int, reason: str, **extra: Any) -> dict[str, Any]:
        return {"pid": task.pid, "pc": pc, "reason": reason,
                **self.symbols.description(task.pid, pc), **extra}

    def _announce(self, task: Task, reason: str, pc: int | None = None, **extra: Any) -> None:
        """Emit a `debug_break` the kernel does not emit itself (step ends, faults)."""
        data = self._details(task, task.ctx.pc if pc is None else pc, reason, **extra)
        self.kernel.events.emit("debug_break", task.pid, data)
