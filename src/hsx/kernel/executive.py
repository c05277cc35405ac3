"""The executive kernel: tasks on one in-process machine, scheduled round-robin.

The kernel owns the task table, the scheduler, the timer heap and the services tasks
call (mailboxes, files, CAN, exec).  It is a plain Python API with no sockets and no
threads of its own: `run(budget)` executes instructions and returns; the daemon and
`hsx run` decide when to call it and how to wait in between (`next_deadline`).
Every state change goes through `_transition`, which checks the table in `states.py`
and emits the `task_state` event.
"""
from __future__ import annotations

import errno
import os
import queue
import weakref
from collections import deque
from pathlib import Path
from time import perf_counter
from typing import TYPE_CHECKING, Any, Callable, Protocol

from hsx.kernel.constants import MbxStatus
from hsx.vm import Machine, Stop, StopReason, SvcStop

from .calls import CommandCalls
from .clock import Clock, RealClock
from .errors import KernelError
from .events import EventBus
from .filesystems import FileSystem, SandboxError, SandboxFS, read_file
from .firstuse import FirstUse
from .inputs import InputWatch
from .loader import StreamLoad
from .loading import TaskLoading
from .mailbox import MailboxManager
from .mailwaits import MailboxWaits
from .profiles import Profile, get_profile
from .registry import Pin
from .scheduler import Scheduler
from .states import Reason, TaskState, next_state
from .stdio import OutputSink, Stdio
from .syscalls import COMMAND_WAIT, PREEMPT, Dispatcher
from .syscalls.core import CoreModule, TaskModule
from .syscalls.devmath import DevMathModule
from .syscalls.exec import SLEEP, YIELD_REASON, ExecModule
from .syscalls.fs import FileModule
from .syscalls.mailbox import MAILBOX_WAIT, MailboxModule
from .task import MailboxWait, SendWait, SleepWait, Task
from .timers import TimerHeap

if TYPE_CHECKING:
    from .bus import Bus
    from .registry import PersistenceStore


class TimelineHook(Protocol):
    """What the run loop tells a timeline recorder (hsx.debug.timeline.Recorder)."""

    def turn(self, task: Task, at: int) -> None:
        """`task` runs from instruction `at` (the executive's count) on."""

    def burst(self, pids: list[int], at: int, executed: int) -> None:
        """Tasks `pids` ran one instruction each in turn, `executed` in all, from `at`."""

_WAITING = (TaskState.WAITING_MBX, TaskState.SLEEPING, TaskState.WAITING_CMD)
_STEPPABLE = (TaskState.PAUSED, TaskState.READY)    # (a member read off the class is a
_PAUSED = TaskState.PAUSED                          # Python-level call on 3.11: step is hot)
REAL_TIME_SLICE = 2000            # instructions a lone task runs between real-time timer checks
ANNOUNCED_TURNS = 1024            # quantum-1 turns per machine call while switches are announced
PERSIST_TIMER = -1                # timer-heap key of the value store's debounced writes


class Kernel(CommandCalls, FirstUse, TaskLoading, MailboxWaits):
    def __init__(self, *, profile: Profile | None = None, clock: Clock | None = None,
                 fs_root: str | os.PathLike | None = None, fs: FileSystem | None = None,
                 can_bus: Bus | None = None, state_dir: str | os.PathLike | None = None,
                 store: PersistenceStore | None = None, pin: str | None = None,
                 translate: bool = True, output: OutputSink | None = None,
                 engine: str | None = None) -> None:
        self.profile = profile or get_profile()
        self.clock = clock or RealClock()
        self.started_at = self.clock.now()
        self._advance_clock = getattr(self.clock, "advance_instructions", None)
        self.events = EventBus(self.clock.now, history=self.profile.event_history)
        self.inputs = InputWatch(self.events.emit)
        self.mailboxes = MailboxManager.from_profile(self.profile, emit=self.events.emit,
                                                     wants=self.events.wants)
        # The backends (hsx.kernel.backends builds them from a configuration file); the
        # shorthands: fs_root, a host directory, and state_dir, SQLite in it.
        if fs is None:
            if fs_root is None:         # a sandbox of its own, removed with the kernel
                import shutil
                import tempfile
                fs_root = tempfile.mkdtemp(prefix="hsx-fs-")
                weakref.finalize(self, shutil.rmtree, fs_root, True)
            fs = SandboxFS(fs_root, max_open_per_task=self.profile.max_handles_per_task)
        self.fs: FileSystem = fs
        self.can_bus = can_bus          # (None: python-can's virtual bus, see `can`)
        self.pin = Pin(pin)
        if store is None and state_dir is not None:
            from .registry.persist import PersistStore     # (SQLite only when asked for)
            Path(state_dir).mkdir(parents=True, exist_ok=True)
            store = PersistStore(Path(state_dir) / "values.sqlite3")
        self.store: PersistenceStore | None = store
        self.machine = Machine(Dispatcher(self, [
            CoreModule(), TaskModule(self), FileModule(self), MailboxModule(self),
            ExecModule(self), DevMathModule()], on_first_call=self.first_use_syscalls()),
            translate=translate, engine=engine)
        self.stdio = Stdio(self, output)
        self.tasks: dict[int, Task] = {}
        self.scheduler = Scheduler()
        self.timers: TimerHeap[int] = TimerHeap()
        self.current: Task | None = None
        # (from pid, to pid, total instructions at the switch), newest last
        self.scheduler_trace: deque[tuple[int | None, int, int]] = deque(
            maxlen=self.profile.scheduler_trace)
        self.ready_changed = False      # set when a task became ready during a machine run
        self.total_instructions = 0
        self._next_pid = 1
        self._streams: dict[int, StreamLoad] = {}
        self._next_stream = 1
        self._blocked_senders: dict[int, Task] = {}            # pid -> task in SEND_WAIT
        self._inbox: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._last_pid: int | None = None
        self.input_sources = 0          # host feeders (e.g. a stdin pump) still attached
        # A timeline recorder (hsx.debug.timeline) while one records, else None: told
        # where each turn starts, so it knows which task ran and the instruction clock.
        self.timeline: TimelineHook | None = None
        # Set by hsx.debug.Debugger: consulted at breakpoint, BRK and fault stops.  For a
        # breakpoint or BRK it returns None to let the task run on, or fields for debug_break.
        self.debug_hook: Callable[[Task, Stop], dict[str, Any] | None] | None = None

    # ------------------------------------------------------------------ loading

    # ------------------------------------------------------------------ running

    def run(self, budget: int, until: float | None = None) -> int:
        """Execute up to `budget` instructions across ready tasks; returns how many ran.
        With `until` (a `time.perf_counter()` value) no new turn starts after it: a
        budget sized for cheap instructions stays short when they became dear (events
        to build for every switch, a task being traced).

        Returns early when nothing is ready (everyone blocked, paused or ended).  A task
        that is alone at the highest ready priority runs for the rest of the budget (up
        to the next timer) instead of one quantum at a time: nobody it would yield to is
        waiting (lower priorities only run when no higher one is ready), and if an SVC
        or a timer makes another task ready the run is cut short so fairness holds.
        """
        self._service()
        executed = 0
        tasks, scheduler, machine_run = self.tasks, self.scheduler, self.machine.run
        advance, now, timers = self._advance_clock, self.clock.now, self.timers
        deadline = timers.next_deadline()
        budget_stop = StopReason.BUDGET
        last = self._last_pid
        trace = self.scheduler_trace.append
        timeline = self.timeline
        announce = self.events.wants("scheduler")
        base = self.total_instructions
        while executed < budget:
            pid = scheduler.pick()
            if pid is None or executed and until is not None and perf_counter() >= until:
                break
            task = tasks[pid]
            if pid != last:
                task.accounting.turns += 1
                trace((last, pid, base + executed))
                if announce:
                    self.events.emit("scheduler", pid, {"event": "switch", "from": last,
                                                        "to": pid, "instructions": base + executed})
                last = pid
            n = budget - executed
            turn = 0                                # the quantum this turn may still use
            if len(scheduler.front_level()) > 1:
                if task.quantum == 1:
                    ran = self._round_robin(n, deadline, base + executed, announce)
                    if ran:
                        executed += ran
                        last = self._last_pid
                        if deadline is not None and now() >= deadline:
                            self._fire_timers()
                            deadline = timers.next_deadline()
                        continue
                turn = task.turn_left or task.quantum
                if turn < n:
                    n = turn
            elif deadline is not None:
                n = min(n, self._instructions_until(deadline))
            limit = task.step_limit
            if limit is not None:
                n = max(min(n, limit - task.ctx.steps), 0)
            self.current = task
            self.ready_changed = False
            if timeline is not None:
                timeline.turn(task, base + executed)
            stop = machine_run(task.ctx, n)
            executed += stop.executed
            if advance is not None:
                advance(stop.executed)
            if stop.reason is budget_stop and (limit is None or task.ctx.steps < limit):
                task.turn_left = turn - stop.executed if stop.executed < turn else 0
                if not task.turn_left:              # else: the budget ended, not its turn
                    scheduler.rotate(pid)
            else:
                task.turn_left = 0
                self.current = None
                self._after_stop(task, stop)
                deadline = timers.next_deadline()
            if deadline is not None and now() >= deadline:
                self._fire_timers()
                deadline = timers.next_deadline()
        self.current = None
        self._last_pid = last
        self.total_instructions += executed
        self.events.flush_deferred()            # what the tasks' writes held (`hold`)
        return executed

    def _round_robin(self, budget: int, deadline: float | None, start: int,
                     announce: bool) -> int:
        """Quantum-1 turns among the front priority level in one machine call.

        Used when every task of that level has quantum 1; stops before any instruction
        that needs the kernel (an SVC, a fault, a BRK or breakpoint), which the caller
        then runs as a normal turn.  Returns the instructions executed (0: not
        applicable, take the normal path).  `start` is the instruction count at the
        start.  With `announce` (the caller announced the first switch) the `scheduler`
        events of the switches follow the call, as one turn at a time would have emitted
        them; a timeline recording is told of the whole burst in one call.
        """
        level = self.scheduler.front_level()
        count = len(level)
        if count < 2:
            return 0
        pids = list(level)
        tasks = [self.tasks[pid] for pid in pids]
        contexts = []
        for task in tasks:
            ctx = task.ctx
            if (task.quantum != 1 or ctx.trace is not None or ctx.skip_breakpoint is not None
                    or ctx.history is not None):
                return 0
            contexts.append(ctx)
        rounds = budget // count
        if announce:                         # events to build for each: `run`'s time
            rounds = min(rounds, max(1, ANNOUNCED_TURNS // count))   # limit looks in between
        if deadline is not None:
            rounds = min(rounds, self._instructions_until(deadline) // count + 1)
        for task in tasks:                   # a counted step: not one instruction past it
            if task.step_limit is not None:
                rounds = min(rounds, task.step_limit - task.ctx.steps)
        if rounds < 1:
            return 0
        done, stopped_at = self.machine.run_interleaved(contexts, rounds)
        executed = done * count + max(stopped_at, 0)
        if announce:
            self._announce_switches(pids, executed, start)
        if self.timeline is not None and executed:
            self.timeline.burst(pids, start, executed)
        if self._advance_clock is not None:
            self._advance_clock(executed)
        if done:
            trace_start = self.total_instructions + executed - count
            for offset, task in enumerate(tasks):     # the last full round, as a sample
                task.accounting.turns += done
                self.scheduler_trace.append((pids[offset - 1], task.pid, trace_start + offset))
        if stopped_at >= 0:
            self.scheduler.bring_to_front(pids[stopped_at])
            self._last_pid = pids[stopped_at - 1] if executed else self._last_pid
        else:
            self._last_pid = pids[-1]
        return executed

    def _announce_switches(self, pids: list[int], executed: int, start: int) -> None:
        """The `scheduler` events of `executed` quantum-1 turns of `pids` in turn, from
        the second on (the first turn's switch is announced before it runs)."""
        count = len(pids)
        self.events.emit_batch("scheduler", [
            (pids[k % count], {"event": "switch", "from": pids[(k - 1) % count],
                               "to": pids[k % count], "instructions": start + k})
            for k in range(1, executed)])

    def _instructions_until(self, deadline: float) -> int:
        """How long a lone task may run before the next timer is due."""
        rate = getattr(self.clock, "instructions_per_second", None)
        if rate is None:
            return REAL_TIME_SLICE
        return max(1, int((deadline - self.clock.now()) * rate) + 1)

    def step(self, pid: int, count: int = 1) -> int:
        """Single-step one paused (or ready) task by `count` instructions; a debugger's
        step.  Breakpoints at the current PC do not stop it.  Returns instructions run."""
        task = self._live_task(pid)
        executed = 0
        while executed < count and task.state in _STEPPABLE:
            if task.state is _PAUSED and task.resume_state in _WAITING:
                break                   # it is waiting: a step cannot run it
            self.current = task
            if self.timeline is not None:
                self.timeline.turn(task, self.total_instructions + executed)
            stop = self.machine.step(task.ctx)
            self.current = None
            executed += stop.executed
            if self._advance_clock is not None:
                self._advance_clock(stop.executed)
            if stop.reason is not StopReason.BUDGET:
                self._after_stop(task, stop, stepping=task.state is TaskState.PAUSED)
        self.total_instructions += executed
        self.events.flush_deferred()
        return executed

    def next_deadline(self) -> float | None:
        return self.timers.next_deadline()

    def runnable(self) -> bool:
        return len(self.scheduler) > 0

    def live_tasks(self) -> list[Task]:
        return [t for t in self.tasks.values() if not t.ended]

    def post(self, action: Callable[[], None]) -> None:
        """Run `action` on the kernel's thread at the start of the next `run` (thread-safe:
        how other threads, such as a stdin reader, reach the kernel)."""
        self._inbox.put(action)

    def has_pending_input(self) -> bool:
        """Whether host input may still arrive to wake a blocked task: an action posted and
        not yet run, or a task blocked in a stdin read while a host feeder (`hsx run`'s
        stdin pump) is attached.  A feeder alone is not enough: its input only ever
        reaches a stdin read, so tasks waiting for anything else stay stuck (a deadlock)."""
        if not self._inbox.empty():
            return True
        return self.input_sources > 0 and any(
            isinstance(t.wait, MailboxWait) and t.wait.stdin for t in self.live_tasks())

    def _service(self) -> None:
        while True:
            try:
                action = self._inbox.get_nowait()
            except queue.Empty:
                break
            action()
        self.inputs.poll()
        self._fire_timers()

    def _after_stop(self, task: Task, stop: Stop, stepping: bool = False) -> None:
        reason = stop.reason
        if task.handler is not None and reason in (StopReason.FAULT, StopReason.EXITED,
                                                   StopReason.RETURNED):
            self.finish_handler(task, stop)      # a stopped handler returned (or failed)
            return
        if reason in (StopReason.EXITED, StopReason.RETURNED):
            task.exit_status = stop.status
            self._end(task, Reason.RETURNED, exit_status=stop.status,
                      how="exit" if reason is StopReason.EXITED else "ret")
        elif reason is StopReason.FAULT:
            fault = stop.fault
            task.fault = fault
            self.events.emit("fault", task.pid, {"kind": fault.kind.value, "pc": fault.pc,
                                                 "addr": fault.addr, "message": fault.message})
            self._end(task, Reason.FAULTED, kind=fault.kind.value, pc=fault.pc)
            if self.debug_hook is not None:
                self.debug_hook(task, stop)
        elif reason in (StopReason.BRK, StopReason.BREAKPOINT, StopReason.BUDGET):
            # (a budget stop reaches here only at a task's step_limit: a counted step ended)
            why = {StopReason.BRK: "brk", StopReason.BREAKPOINT: "breakpoint"}.get(reason, "step")
            if reason is StopReason.BUDGET:
                task.step_limit = None
            data = {"pc": stop.pc, "reason": why}
            if stop.code is not None:
                data["code"] = stop.code
            if self.debug_hook is not None:
                extra = self.debug_hook(task, stop)
                if extra is None:
                    return                  # the debugger lets the task run on
                data.update(extra)
            if task.state is not TaskState.PAUSED:
                task.resume_state = TaskState.READY
                self._transition(task, Reason.DEBUG_BREAK, pc=stop.pc, why=why)
            self.events.emit("debug_break", task.pid, data)
        elif reason is StopReason.SVC:
            self._svc_stop(task, stop.svc, stepping)

    def _svc_stop(self, task: Task, request: SvcStop, stepping: bool) -> None:
        if request.reason in (YIELD_REASON, PREEMPT):
            self.scheduler.rotate(task.pid)
            return
        if task.handler is not None and request.reason in (SLEEP, MAILBOX_WAIT, COMMAND_WAIT):
            self.finish_handler(task, None)      # a handler must not block: the call fails
            return
        if request.reason == COMMAND_WAIT:
            if stepping:
                task.resume_state = TaskState.WAITING_CMD
            else:
                self._transition(task, Reason.COMMAND_WAIT, oid=task.wait.oid)
            return
        if request.reason == SLEEP:
            ms = request.detail
            deadline = self.clock.now() + ms / 1000.0
            task.wait = SleepWait(deadline, ms)
            task.accounting.sleeps += 1
            self.timers.schedule(task.pid, deadline)
            if stepping:
                task.resume_state = TaskState.SLEEPING
            else:
                self._transition(task, Reason.SLEEP, ms=ms, deadline=deadline)
        elif request.reason == MAILBOX_WAIT:
            task.accounting.waits += 1
            if stepping:
                task.resume_state = TaskState.WAITING_MBX
            else:
                wait = task.wait
                self._transition(task, Reason.MAILBOX_WAIT, handle=wait.handle,
                                 deadline=wait.deadline)

    # ------------------------------------------------------------------ services for syscalls

    def post_stdin(self, pid: int, data: bytes) -> None:
        """Host input for a task's fd 0 (an empty write means end of input)."""
        self.stdio.post(self._live_task(pid), data)

    def _wake(self, task: Task, reason: Reason, **details: Any) -> None:
        if task.state is TaskState.PAUSED:
            task.resume_state = TaskState.READY      # applied now, runs after `resume`
        elif not task.ended:
            self._transition(task, reason, **details)

    def _fire_timers(self) -> None:
        for pid in self.timers.pop_expired(self.clock.now()):
            if pid == PERSIST_TIMER:
                self.store.flush_due(self.clock.now())
                self.schedule_persistence()
                continue
            task = self.tasks.get(pid)
            if task is None:
                continue
            if task.handler is not None:             # running a stopped handler: later
                task.handler.timer_due = True
                continue
            if isinstance(task.wait, SleepWait):
                task.wait = None
                task.accounting.wakes += 1
                self._wake(task, Reason.SLEEP_WAKE)
            elif isinstance(task.wait, MailboxWait):
                wake = self.mailboxes.expire_waiter(pid)
                if wake is not None:
                    self.deliver_wakes([wake])
            elif isinstance(task.wait, SendWait):
                self._finish_send(task, MbxStatus.TIMEOUT, 0)

    def spawn_from_sandbox(self, parent: Task, guest_path: str) -> int:
        """EXEC SPAWN: load an image from the file system; the new PID or a negative errno."""
        try:
            task = self.load(self._image_source(guest_path))
        except KernelError as error:
            self.events.emit("dmesg", parent.pid, {"level": "warning", "message": str(error)})
            return -errno.ENOEXEC
        except SandboxError:
            return -errno.EINVAL
        return task.pid

    def _image_source(self, guest_path: str) -> Path | bytes:
        """A host directory gives the image's path (so `reload` finds it again); any other
        file system gives its bytes, read through the FileSystem interface."""
        if isinstance(self.fs, SandboxFS):
            return self.fs.resolve(guest_path)
        data = read_file(self.fs, guest_path)
        if data == -errno.EINVAL:
            raise SandboxError(guest_path)
        if isinstance(data, int):
            raise KernelError("not_found", f"{guest_path}: {os.strerror(-data)} "
                              f"({self.fs.location})")
        return data

    def kill_from_guest(self, caller: Task, pid: int) -> int:
        target = self.tasks.get(pid)
        if target is None or target.ended:
            return -errno.ESRCH
        if target is caller:
            return -errno.EINVAL           # a task ends itself with EXIT
        self.kill(pid)
        return 0

    # ------------------------------------------------------------------ values and commands

    def _notify(self, pid: int, handle: int, payload: bytes) -> bool:
        """Deliver a value-change notification; False only when the handle is gone."""
        sent = self.mailboxes.send(pid, handle, payload)
        self.deliver_wakes(sent.wakes)
        return sent.status is not MbxStatus.INVALID_HANDLE

    def schedule_persistence(self) -> None:
        """Arm the timer for the value store's next debounced write."""
        due = self.store.next_due() if self.store is not None else None
        if due is not None:
            self.timers.schedule(PERSIST_TIMER, due)

    # ------------------------------------------------------------------ control

    def kill(self, pid: int) -> Task:
        """End a live task (releasing everything it holds), or forget an ended one."""
        task = self.tasks.get(pid)
        if task is None:
            raise KernelError("unknown_pid", f"no task with pid {pid}")
        if task.ended:
            del self.tasks[pid]
            return task
        self._end(task, Reason.KILLED)
        return task

    def pause(self, pid: int | None = None) -> list[Task]:
        """Pause one task, or every live task when `pid` is None."""
        targets = [self._live_task(pid)] if pid is not None else self.live_tasks()
        for task in targets:
            if task.state is TaskState.PAUSED:
                continue
            task.resume_state = task.state if task.state in _WAITING else TaskState.READY
            self._transition(task, Reason.USER_PAUSE)
        return targets

    def resume(self, pid: int | None = None) -> list[Task]:
        targets = [self._live_task(pid)] if pid is not None else self.live_tasks()
        for task in targets:
            if task.state is TaskState.PAUSED:
                self._transition(task, Reason.RESUME, target=task.resume_state or TaskState.READY)
                task.resume_state = None
        return targets

    def set_quantum(self, pid: int, quantum: int) -> None:
        if not isinstance(quantum, int) or quantum < 1:
            raise KernelError("bad_argument", f"quantum must be a positive integer, not {quantum!r}")
        self._live_task(pid).quantum = quantum

    def set_priority(self, pid: int, priority: int) -> None:
        if not isinstance(priority, int) or not 0 <= priority <= 255:
            raise KernelError("bad_argument", f"priority must be 0..255, not {priority!r}")
        task = self._live_task(pid)
        task.priority = priority
        self.scheduler.reprioritise(pid, priority)

    def ps(self) -> list[dict[str, Any]]:
        return [task.summary() for task in self.tasks.values()]

    def shutdown(self) -> None:
        """End every task and release the host resources (CAN ports, the file system's
        device, the value store)."""
        for task in self.live_tasks():
            self._end(task, Reason.KILLED)
        self.fs.shutdown()
        if self.store is not None:
            self.store.close()

    def _live_task(self, pid: int) -> Task:
        task = self.tasks.get(pid)
        if task is None:
            raise KernelError("unknown_pid", f"no task with pid {pid}")
        if task.ended:
            raise KernelError("task_ended", f"task {pid} has ended ({task.state.value})")
        return task

    # ------------------------------------------------------------------ state changes

    def _transition(self, task: Task, reason: Reason, target: TaskState | None = None,
                    **details: Any) -> None:
        previous = task.state
        task.state = next_state(previous, reason, target)
        if task.state.runnable:
            if task is not self.current:
                self.ready_changed = True
            self.scheduler.enqueue(task.pid, task.priority)
        else:
            self.scheduler.remove(task.pid)
        self.events.emit("task_state", task.pid, {
            "prev_state": previous.value if previous else None,
            "new_state": task.state.value, "reason": reason.value, **details})

    def _end(self, task: Task, reason: Reason, **details: Any) -> None:
        self._transition(task, reason, **details)
        self._release(task)

    def _release(self, task: Task) -> None:
        """Give back everything the task held so the app can be loaded again."""
        pid = task.pid
        task.wait = None
        task.resume_state = None
        self.scheduler.remove(pid)
        self.timers.cancel(pid)
        self._blocked_senders.pop(pid, None)
        self.stdio.release(pid)
        task.handler = None
        self.release_first_used(pid)
        self.deliver_wakes(self.mailboxes.release_task(pid))
        self.fs.release_task(pid)
        self.inputs.release(pid)
