"""The executive's side of a debug session: the connection, the session holding the
debugged task's PID lock, and what was started for a launch.

Launching builds and loads through `hsx.client.launch` (which starts an `hsx execd`
when none listens); attaching finds a running task by PID or app name.  Either way the
adapter then owns the task's lock and one event subscription (events.py reads it).
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hsx.client import AsyncClient, ProtocolError
from hsx.client.commands.cache import CompletionCache
from hsx.client.launch import Launch
from hsx.client.sources import SourceFinder

from .protocol import DapError

CLIENT_NAME = "hsx dap"
HEARTBEAT_S = 10.0
OUTPUT_COALESCE_MS = 20
# Stops and ends (output is added by `stdio`); mailbox traffic (two events per printed
# line) is left out.
EVENT_CATEGORIES = ["task_state", "fault", "debug_break", "watch_update"]
ENDED = ("returned", "faulted", "killed")


class Debuggee:
    def __init__(self, client: AsyncClient, host: str, port: int, pid: int,
                 launched: Launch | None) -> None:
        self.client = client
        self.host, self.port = host, port
        self.pid = pid
        self.launch = launched
        self.app_name = ""
        self.features: frozenset[str] = frozenset()
        self.names: dict[int, str] = {}          # app names by pid (output prefixes)
        self.programs: dict[int, str] = {}
        self.symbol_files: dict[int, str] = {}   # "" when a task has none
        self.sources = SourceFinder()
        self.completions = CompletionCache(client)   # for the console's `!` commands
        self.recent: list[tuple[str, str]] = []  # (stream, text) it wrote before we came
        self.remote_sources: list[tuple[int, str]] = []   # sourceReference - 1 -> (pid, file)
        self._source_refs: dict[tuple[int, str], int] = {}
        self.ended = False                       # the debugged task is over
        self.exit_reported = False               # `exited` sent
        self.configured = False                  # configurationDone came
        self.stop_on_entry = False
        self.recording = False                   # history.on: it can go back
        self.entry_breakpoint: int | None = None # run.to main's, for stopOnEntry
        self.controlled: set[int] = {pid}        # tasks whose stops are ours to show
        self.resuming: set[int] = set()          # resumed by us: no `continued` event

    @property
    def launched(self) -> bool:
        return self.launch is not None

    @property
    def address(self) -> str:
        return self.host if "://" in self.host else f"{self.host}:{self.port}"

    @classmethod
    async def connect(cls, host: str, port: int, *, pid: int | None = None,
                      app: str | None = None, launched: Launch | None = None,
                      token: str | None = None) -> Debuggee:
        try:
            client = await AsyncClient.connect(host, port, timeout=10.0, token=token)
        except (OSError, asyncio.TimeoutError) as error:
            if "://" in host:
                raise DapError(f"cannot connect to the executive at {host} ({error}); is "
                               "the board running HSX?") from None
            raise DapError(f"cannot connect to an executive at {host}:{port} ({error}); "
                           "start one with `hsx execd`") from None
        try:
            tasks = (await client.request("ps"))["tasks"]["tasks"]
            row = _choose(tasks, pid, app, host if "://" in host else f"{host}:{port}")
            debuggee = cls(client, host, port, row["pid"], launched)
            session = await client.open_session(CLIENT_NAME, pid_lock=row["pid"],
                                                heartbeat_s=HEARTBEAT_S)
            debuggee.features = frozenset(session.get("features", ()))
            try:
                _check_debugger(session, f"{host}:{port}")
            except DapError:
                if launched is not None:             # loaded for nothing: take it away
                    await client.request("kill", pid=row["pid"])
                raise
            await client.subscribe(EVENT_CATEGORIES, coalesce_ms=OUTPUT_COALESCE_MS)
            # the task's output so far and from now on, with no gap and no repeat; then
            # every other task's from now on
            reply = await client.request("stdio", pid=row["pid"], recent=True)
            debuggee.recent = [(chunk["stream"], chunk["text"])
                               for task in reply.get("recent", [])
                               for chunk in task.get("output", [])]
            await client.request("stdio")
            for task in tasks:
                debuggee.remember(task)
            debuggee.app_name = row.get("app_name", "")
            await debuggee.refresh_symbols(row["pid"])
            return debuggee
        except BaseException:
            await client.close()
            raise

    def remember(self, row: dict[str, Any]) -> None:
        pid = row["pid"]
        self.names[pid] = row.get("app_name") or str(pid)
        if row.get("program"):
            self.programs[pid] = row["program"]

    async def refresh_symbols(self, pid: int) -> None:
        """Learn where task `pid`'s symbol file is (its `sources` map finds files), once."""
        if pid in self.symbol_files:
            return
        try:
            info = (await self.client.request("symbols.info", pid=pid))["symbols"]
            if pid not in self.programs:
                await self.task(pid)
        except ProtocolError:
            info = {}
        self.symbol_files[pid] = info.get("path") or ""

    def source_path(self, pid: int, file: str | None) -> Path | None:
        """The file on this machine that the symbols' name `file` stands for."""
        if not file:
            return None
        return self.sources.find(file, self.programs.get(pid),
                                 self.symbol_files.get(pid) or None)

    def dap_source(self, pid: int, file: str | None) -> dict[str, Any] | None:
        """A DAP Source for a file the symbols name.  A file not on this machine gets a
        `sourceReference`: the editor asks for its text (`source`), which the executive
        reads on its machine (`source.read`)."""
        if not file:
            return None
        path = self.source_path(pid, file)
        if path is None:
            key = (pid, file)
            if key not in self._source_refs:
                self._source_refs[key] = len(self.remote_sources) + 1
                self.remote_sources.append(key)
            return {"name": file.replace("\\", "/").rsplit("/", 1)[-1],
                    "sourceReference": self._source_refs[key],
                    "origin": "from the executive's machine"}
        return {"name": path.name, "path": str(path)}

    def restarted(self, reload: dict[str, Any]) -> None:
        """The executive loaded the program again as task `new_pid` (`restart`): debug
        that one from the start."""
        old, new = reload["old_pid"], reload["new_pid"]
        self.pid = new
        self.controlled = (self.controlled - {old}) | {new}
        self.resuming.discard(old)
        self.names[new] = self.app_name
        self.ended = self.exit_reported = False
        self.entry_breakpoint = None

    async def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        return await self.client.request(cmd, **fields)

    async def run(self, pid: int, action: Any) -> Any:
        """Await `action` (a request that sets task `pid` moving); its stops are ours to
        show, and the resume it causes is no news (`continued` is for others' resumes)."""
        self.controlled.add(pid)
        self.resuming.add(pid)
        try:
            return await action
        except BaseException:
            self.resuming.discard(pid)
            raise

    async def tasks(self) -> list[dict[str, Any]]:
        rows = (await self.request("ps"))["tasks"]["tasks"]
        for row in rows:
            self.remember(row)
        return rows

    async def task(self, pid: int) -> dict[str, Any]:
        row = (await self.request("ps", pid=pid))["tasks"]["tasks"][0]
        self.remember(row)
        return row

    async def close(self, terminate: bool) -> None:
        """Release the task (and its lock); with `terminate`, end it and whatever the
        launch started (the executive, the build)."""
        try:
            if terminate and not self.ended:
                await self._quietly("kill", pid=self.pid)
            # what we stopped runs on, as it would without us (closing the session also
            # clears our breakpoints and watches)
            for pid in sorted(self.controlled - ({self.pid} if terminate else set())):
                try:
                    if (await self.task(pid))["state"] == "paused":
                        await self._quietly("resume", pid=pid)
                except ProtocolError:
                    pass                                  # gone meanwhile
            try:
                await self.client.close_session()
            except (ProtocolError, ConnectionError, TimeoutError):
                pass
        except (ConnectionError, TimeoutError):
            pass
        finally:
            await self.client.close()
            if self.launch is not None and terminate:
                await asyncio.to_thread(self.launch.close)

    async def _quietly(self, cmd: str, **fields: Any) -> None:
        """A request whose refusal changes nothing (the task went meanwhile)."""
        try:
            await self.request(cmd, **fields)
        except ProtocolError:
            pass


def _check_debugger(session: dict[str, Any], address: str) -> None:
    """A debugger needs the executive's debugger and its events: the minimal variant has
    neither (docs/variants.md)."""
    lacking = [f for f in ("debug", "events") if f not in session.get("features", ())]
    if lacking:
        variant = session.get("variant", "another")
        raise DapError(f"the executive at {address} runs the {variant} variant, which has no "
                       f"{' and no '.join(_WORDS[f] for f in lacking)}: a debugger cannot "
                       "stop or step the task there; debug it on an executive of the "
                       "development or full variant (hsx execd --profile development)")


_WORDS = {"debug": "debugger (breakpoints, stepping by line, the stack)",
          "events": "events (stops and output as they happen)"}


def _choose(tasks: list[dict[str, Any]], pid: int | None, app: str | None,
            address: str) -> dict[str, Any]:
    """The task attach means: by PID, or the newest live task called `app`."""
    listing = ", ".join(f"{t['pid']} {t.get('app_name', '?')} ({t['state']})" for t in tasks
                        ) or "none"
    if pid is not None:
        for task in tasks:
            if task["pid"] == pid:
                return task
        raise DapError(f"there is no task with PID {pid} on the executive at {address} "
                       f"(tasks: {listing})")
    named = [t for t in tasks if app in (t.get("app_name"), t.get("app_name_base"))]
    live = [t for t in named if t["state"] not in ENDED]
    if not (live or named):
        raise DapError(f"no task called {app!r} runs on the executive at {address} "
                       f"(tasks: {listing})")
    return max(live or named, key=lambda t: t["pid"])
