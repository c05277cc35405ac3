"""The console's engine, the same at the prompt, for a script and for one command:
parse a line, ask before writes, run it, show the result; and show live events.

Exit codes of a line: 0 ok, 1 the executive said no (or a refused confirmation, or a
wait that timed out), 2 a bad command line.  The connection going away raises
`ConnectionClosed` to the caller (exit code 2 there).
"""
from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from hsx.client.errors import ConnectionClosed, ProtocolError
from hsx.client.commands import (Invocation, UsageError, drive_async, help_text, parse,
                                 run_async, task_pid)
from hsx.client.render import Context, EventFilter, event_lines, render
from hsx.client.sources import SourceFinder

from .output import Printer, refusal

if TYPE_CHECKING:
    import asyncio

    from hsx.client.aio import AsyncClient

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
QUIT = -1
WAIT_S = 30.0
POLL_S = 0.05                  # how often `wait` looks at a task without events (minimal)
ENDED = ("returned", "faulted", "killed")
# commands after which a task runs again (an earlier stop no longer counts for `wait`)
RUNS = {"resume", "step", "next", "into", "nexti", "finish", "until", "back", "back continue"}

Confirm = Callable[[str], Awaitable[bool]]


class Shell:
    def __init__(self, client: AsyncClient, out: Printer, *, interactive: bool,
                 force: bool = False, confirm: Confirm | None = None) -> None:
        self.client = client
        self.out = out
        self.interactive = interactive
        self.force = force
        self.confirm = confirm
        self.ctx = Context(sources=SourceFinder())
        self.filter = EventFilter()
        self.pid: int | None = None              # the current task (`use PID`)
        self.lost: BaseException | None = None
        self._stops: dict[int, dict[str, Any]] = {}
        self._waiters: list[tuple[int, asyncio.Future]] = []
        self._pump: asyncio.Task | None = None
        # Events that come while a command runs are shown after its result: a run
        # command's reply ("running") always before the stop it causes, whichever of the
        # two the console happens to read first.
        self._held: list[dict[str, Any]] | None = None
        self.variant: str | None = None          # the executive's (info)
        self.missing: dict[str, str] = {}        # features it lacks -> the variant with them

    # ------------------------------------------------------------------ life

    async def start(self, events: bool = True) -> None:
        """Learn the executive's variant and the tasks' names; with `events`, subscribe
        and show them as they come (a variant without events says so instead)."""
        with contextlib.suppress(ProtocolError):
            info = (await self.client.request("info"))["info"]
            self.variant = info.get("variant") or info.get("profile")
            self.missing = dict(info.get("variant_required") or {})
            if "events" not in info.get("features", ["events"]):
                self.missing.setdefault("events", "development")
            for row in info.get("tasks", ()):
                self.ctx.names[row["pid"]] = row["app_name"]
                if row.get("program"):
                    self.ctx.programs[row["pid"]] = row["program"]
        if events and "events" in self.missing:
            if self.interactive:
                self.out.text(f"this executive runs the {self.variant} variant: no live "
                              "events (a task's output: `output PID`; stops: `wait PID` "
                              "looks); `help` marks the commands it lacks", "warn")
        elif events:
            import asyncio          # (a command that shows no events runs without it)
            await self._subscribe()
            self._pump = asyncio.create_task(self._pump_events())

    async def stop(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(BaseException):
                await self._pump

    # ------------------------------------------------------------------ a line

    async def execute(self, line: str) -> int:
        try:
            invocation = parse(line, self.pid)
        except UsageError as error:
            self.out.error(str(error))
            return EXIT_USAGE
        command = invocation.command
        if command.local:
            return await self._local(invocation)
        refused = await self._refused(invocation)
        if refused is not None:
            return refused
        self._held = []
        try:
            return await self._carry_out(invocation)
        finally:
            held, self._held = self._held, None
            for event in held:
                self._print_event(event)

    async def _carry_out(self, invocation: Invocation) -> int:
        """Run a command and show its result (or why not)."""
        try:
            result = await self._run(invocation)
        except UsageError as error:
            self.out.error(str(error))
            return EXIT_USAGE
        except ProtocolError as error:
            if self.out.as_json:
                self.out.json(error.reply or {"status": "error", "error": error.code,
                                              "message": error.message})
            self.out.error(refusal(invocation.command.name, error))
            return EXIT_ERROR
        self._after(invocation, result)
        if self.out.as_json:
            self.out.json(result)
        else:
            self.out.lines(render(invocation.command.view, result, self.ctx))
        return EXIT_OK

    async def _refused(self, invocation: Invocation) -> int | None:
        """None to go ahead; else the exit code of not doing it."""
        kind = invocation.command.confirm
        if kind is None or invocation.force or self.force:
            return None
        if not self.interactive:
            if kind == "write":
                self.out.error(f"{invocation.command.name} changes the task: add --force "
                               "(or -y) to do it without asking")
                return EXIT_USAGE
            return None
        if self.confirm is not None and await self.confirm(f"really {invocation.line}?"):
            return None
        self.out.text("not done", "warn")
        return EXIT_ERROR

    async def _run(self, invocation: Invocation) -> dict[str, Any]:
        name, client = invocation.command.name, self.client
        if name in RUNS and invocation.pid is not None:
            self._stops.pop(invocation.pid, None)
        elif name in RUNS:
            self._stops.clear()
        if name == "session open":
            fields = invocation.fields()
            session = await client.open_session(
                fields.pop("client", "hsx-shell"), **{k: v for k, v in fields.items()
                                                      if k in ("pid_lock", "observer",
                                                               "heartbeat_s", "auth")})
            await self._resubscribe()
            return {"session": session}
        if name == "session close":
            if client.session_id is None:
                raise ProtocolError("session_required", "no session is open")
            await client.close_session()
            await self._resubscribe()
            return {"closed": True}
        return await run_async(client, invocation)

    def _after(self, invocation: Invocation, result: dict[str, Any]) -> None:
        """What a result changes in the console: the tasks shown by `stdio`."""
        if invocation.command.name == "stdio":
            for cat in ("stdout", "stderr"):
                self.filter.set(True, cat, invocation.pid)

    async def _resubscribe(self) -> None:
        if self._pump is not None:
            await self._subscribe()

    async def _subscribe(self) -> None:
        """Ask the executive for what the filter may show (nothing: no subscription)."""
        categories = self.filter.subscription()
        if categories:            # a task's output in one event per 20 ms, not per write
            await self.client.subscribe(categories, coalesce_ms=20)
        else:
            await self.client.request("events.unsubscribe")

    # ------------------------------------------------------------------ local commands

    async def _local(self, invocation: Invocation) -> int:
        name, values = invocation.command.name, invocation.values
        try:
            if isinstance(values.get("pid"), str):            # a task by its app name
                values["pid"] = await drive_async(self.client, task_pid(values["pid"]))
            if name == "quit":
                return QUIT
            if name == "help":
                text = help_text(values.get("command", ""), self.missing, self.variant)
                self.out.json({"help": text}) if self.out.as_json else self.out.text(text)
            elif name == "use":
                await self._use(values.get("pid"))
            elif name == "events":
                await self._events(values)
            elif name == "wait":
                return await self._wait(values["pid"], values.get("seconds", WAIT_S))
        except UsageError as error:
            self.out.error(str(error))
            return EXIT_USAGE
        except ProtocolError as error:
            self.out.error(refusal(name, error))
            return EXIT_ERROR
        return EXIT_OK

    async def _use(self, pid: int | None) -> None:
        if pid is not None:
            row = (await self.client.request("ps", pid=pid))["tasks"]["tasks"][0]
            self.ctx.names[pid] = row["app_name"]
        self.pid = pid
        if self.out.as_json:
            self.out.json({"pid": pid})
        else:
            self.out.text(f"current task: {self.ctx.task(pid)}" if pid is not None
                          else "no current task")

    async def _events(self, values: dict[str, Any]) -> None:
        switch = values.get("switch")
        if switch is not None:
            if "category" not in values:
                raise UsageError("events on|off needs a CATEGORY", "events on|off CATEGORY [PID]")
            try:
                self.filter.set(switch == "on", values["category"], values.get("pid"))
            except ValueError as error:
                raise UsageError(str(error)) from None
            await self._resubscribe()
        if self.out.as_json:
            self.out.json({"shown": sorted(self.filter.shown),
                           "per_pid": [{"category": c, "pid": p, "on": on}
                                       for (c, p), on in sorted(self.filter.per_pid.items())]})
        else:
            self.out.lines(self.filter.describe())

    async def _wait(self, pid: int, seconds: float) -> int:
        """Until task `pid` stops (a debug_break, or its end); a task that is paused or
        ended already, or stopped since the last run command, has."""
        import asyncio
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiters.append((pid, future))
        try:
            if pid not in self._stops and not await self._stopped_now(pid):
                await asyncio.wait_for(future if self._pump is not None
                                       else self._poll_stop(pid), seconds)
        except asyncio.TimeoutError:
            self.out.error(f"pid {pid} did not stop within {seconds:g} s")
            return EXIT_ERROR
        finally:
            self._waiters = [w for w in self._waiters if w[1] is not future]
        event = self._stops[pid]
        if self.out.as_json:
            self.out.json(event)
        elif self._pump is None or not self.filter.wants(event):
            self.out.lines(event_lines(event, self.ctx))
        return EXIT_OK

    async def _stopped_now(self, pid: int) -> bool:
        """Whether task `pid` is paused or ended now (noted as its stop)."""
        row = (await self.client.request("ps", pid=pid))["tasks"]["tasks"][0]
        if row["state"] in (*ENDED, "paused"):
            self._stops[pid] = {"type": "task_state", "pid": pid,
                                "data": {"new_state": row["state"],
                                         "exit_status": row.get("exit_status")}}
        return pid in self._stops

    async def _poll_stop(self, pid: int) -> None:
        """Without events (the minimal variant): look until the task has stopped."""
        import asyncio
        while not await self._stopped_now(pid):
            await asyncio.sleep(POLL_S)

    # ------------------------------------------------------------------ events

    async def _pump_events(self) -> None:
        try:
            while True:
                event = await self.client.next_event()
                if event is None:
                    continue
                self.show_event(event)
        except ConnectionClosed as error:
            self.lost = error
            self.out.error("the executive closed the connection")

    def show_event(self, event: dict[str, Any]) -> None:
        self._note_stop(event)
        if self._held is not None:
            self._held.append(event)
        else:
            self._print_event(event)

    def _print_event(self, event: dict[str, Any]) -> None:
        if self.filter.wants(event):
            if self.out.as_json:
                self.out.json(event)
            else:
                self.out.lines(event_lines(event, self.ctx))

    def _note_stop(self, event: dict[str, Any]) -> None:
        pid = event.get("pid")
        data = event.get("data") or {}
        if not isinstance(pid, int):
            return
        if event.get("type") == "debug_break" or (
                event.get("type") == "task_state" and data.get("new_state") in ENDED):
            self._stops[pid] = event
            for waiting, future in self._waiters:
                if waiting == pid and not future.done():
                    future.set_result(event)
