"""The auto clock: runs the kernel on the server's event loop between requests.

Each batch is sized from the measured instruction rate so that it takes about
`SLICE_S`; after a batch the loop gets control back and answers whatever arrived, so a
request waits at most one slice however busy the tasks are.  With nothing runnable the
clock sleeps until the next kernel deadline (a sleep or a receive timeout) or until
`wake()` (a request or an event changed something): it never spins.  It also waits while
an owner's critical events cannot be delivered (`EventHub.saturated`), which is how a
debugger that falls behind slows the executive down instead of losing a `debug_break`.

Everything here runs on the loop thread, the only thread that touches the kernel.
"""
from __future__ import annotations

import asyncio
import threading
import time
from operator import attrgetter
from typing import Any, Callable

from hsx.kernel.executive import Kernel

SLICE_S = 0.001                  # target duration of one batch (worst added latency)
MIN_BATCH, MAX_BATCH = 64, 4_000_000
OVERRUN = 3                      # a batch stops starting turns after this many slices
RATE_BURST_S = 0.05              # a rate-limited clock catches up at most this much
_THROTTLED = frozenset({"rate", "backpressure", "sleep"})
_IDLE = frozenset({"stopped", "blocked", "idle"})     # asleep until something changes
_STATE = attrgetter("state")


class AutoClock:
    def __init__(self, kernel: Kernel, saturated: Callable[[], bool],
                 on_error: Callable[[BaseException], None]) -> None:
        self.kernel = kernel
        self._saturated = saturated
        self._on_error = on_error
        self.running = True
        self.rate_hz = 0.0           # instructions per second; 0 = as fast as possible
        self.mode = "idle"
        self.batch = 1000
        self.auto_batches = 0
        self.auto_instructions = 0
        self.manual_steps = 0
        self.manual_instructions = 0
        self.last_batch_ms = 0.0
        self.ips = 0.0
        self._shown: tuple[float, int] = (0.0, 0)     # both as status() reports them
        self._credit = 0.0
        self._credit_at = time.monotonic()
        self._wake = asyncio.Event()
        self._closing = False
        self._parked: tuple | None = None   # what the clock saw when it went to sleep
        # Embedded in a program (the loop is not on the main thread), other threads of
        # the process want the GIL between batches; a daemon of its own has none, and
        # handing the CPU away there only costs a scheduler tick per batch on a busy host.
        self._share_gil = threading.current_thread() is not threading.main_thread()

    # ------------------------------------------------------------------ control

    def start(self) -> None:
        self.running = True
        self._credit_at = time.monotonic()
        self.wake()

    def stop(self) -> None:
        self.running = False
        self.wake()

    def set_rate(self, hz: float) -> None:
        self.rate_hz = hz
        self._credit, self._credit_at = 0.0, time.monotonic()
        self.wake()

    def wake(self) -> None:
        """Something changed (a request, a drained queue): look again now.

        Every request calls this.  When the clock sleeps and nothing it decides on
        has changed (a `step` of a paused task, a `ps`), waking it would only cost a
        task switch and a pass of `run` that goes back to sleep (a tenth of a `step`
        round trip), so it sleeps on."""
        if self._wake.is_set() or (self._parked is not None
                                   and self._parked == self._situation()):
            return
        self._wake.set()

    def idle(self) -> bool:
        """Asleep with nothing to run, no deadline and no events held back by a full
        subscriber: the loop has nothing to do until a request comes."""
        return self._parked is not None and self.mode in _IDLE and not self._wake.is_set()

    def _situation(self) -> tuple:
        """Everything `run` decides what to do next on (but time: a sleep until a
        deadline or a rate's next credit ends by its own timer)."""
        kernel = self.kernel
        return (self._closing, self.running, self.rate_hz, self._saturated(),
                kernel.runnable(), kernel.next_deadline(),
                [*map(_STATE, kernel.tasks.values())])     # tasks and their states: whether
                                                           # any is live ("blocked"/"idle")

    def close(self) -> None:
        self._closing = True
        self.wake()

    def note_manual(self, executed: int) -> None:
        self.manual_steps += 1
        self.manual_instructions += executed

    def status(self) -> dict[str, Any]:
        """The clock's state, in every `step` and `clock.*` reply (so kept cheap: the
        figures rounded for it are rounded once per batch, not once per reply)."""
        running = self.running
        mode = self.mode if running else "stopped"
        throttled = mode in _THROTTLED
        return {
            "state": "running" if running else "stopped", "running": running,
            "mode": mode, "throttled": throttled,
            "throttle_reason": mode if throttled else None,
            "rate_hz": self.rate_hz, "step_size": self.batch, "slice_ms": SLICE_S * 1000,
            "last_batch_ms": self._shown[0], "ips": self._shown[1],
            "auto_steps": self.auto_batches, "auto_total_steps": self.auto_instructions,
            "manual_steps": self.manual_steps, "manual_total_steps": self.manual_instructions,
        }

    # ------------------------------------------------------------------ the loop

    async def run(self) -> None:
        kernel = self.kernel
        while not self._closing:
            if not self.running:
                self.mode = "stopped"
                await self._sleep(None)
                continue
            if self._saturated():
                self.mode = "backpressure"
                await self._sleep(None)
                continue
            deadline = kernel.next_deadline()
            due = deadline is not None and deadline <= kernel.clock.now()
            if kernel.runnable() or due:
                budget = self._budget()
                if budget <= 0:
                    self.mode = "rate"
                    await self._sleep((1.0 - self._credit) / self.rate_hz)
                    continue
                try:
                    self._run_batch(budget)
                except Exception as error:      # a kernel bug: report it, do not spin on it
                    self.running = False
                    self._on_error(error)
                await _serve_io(self._share_gil)
                continue
            if deadline is not None:
                self.mode = "sleep"
                await self._sleep(max(0.0, deadline - kernel.clock.now()))
            else:
                self.mode = "blocked" if kernel.live_tasks() else "idle"
                await self._sleep(None)

    def _budget(self) -> int:
        if not self.rate_hz:
            return self.batch
        now = time.monotonic()
        self._credit = min(self._credit + (now - self._credit_at) * self.rate_hz,
                           max(1.0, self.rate_hz * RATE_BURST_S))
        self._credit_at = now
        return min(self.batch, int(self._credit))

    def _run_batch(self, budget: int) -> None:
        started = time.perf_counter()
        executed = self.kernel.run(budget, until=started + SLICE_S * OVERRUN)
        elapsed = time.perf_counter() - started
        self.mode = "rate" if self.rate_hz else "running"
        self.auto_batches += 1
        self.auto_instructions += executed
        self.last_batch_ms = elapsed * 1000
        if self.rate_hz:
            self._credit -= executed
        # Adapt only on batches that ran (nearly) their whole budget or were cut short
        # by the time limit: a short one says the tasks blocked, not how fast they run.
        # A batch far over its slice (instructions became dear: events for every switch,
        # tracing) sets the rate at once instead of smoothing it in.
        overran = elapsed >= SLICE_S * 2
        if (executed >= budget // 2 or overran) and elapsed > 0 and executed:
            rate = executed / elapsed
            self.ips = rate if not self.ips or overran else 0.7 * self.ips + 0.3 * rate
            self.batch = int(min(max(self.ips * SLICE_S, MIN_BATCH), MAX_BATCH))
        self._shown = (round(self.last_batch_ms, 3), round(self.ips))

    async def _sleep(self, timeout: float | None) -> None:
        self._wake.clear()
        self._parked = self._situation()
        try:
            if timeout is None:
                await self._wake.wait()
                return
            handle = asyncio.get_running_loop().call_later(timeout, self._wake.set)
            try:
                await self._wake.wait()
            finally:
                handle.cancel()
        finally:
            self._parked = None


async def _serve_io(share_gil: bool) -> None:
    """Let the loop handle what arrived during a batch before the next one starts.

    One yield is not enough: socket callbacks found by that loop iteration are queued
    behind this task's own wake-up, so the next batch would run first and every request
    would wait a whole extra batch.  With `share_gil`, `time.sleep(0)` first hands the
    GIL to any other thread of this process (a client or UI embedding the server) that
    is waiting for it: without it such a thread can wait out many batches (measured:
    140 ms vs 2 ms).
    """
    if share_gil:
        time.sleep(0)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
