"""The executive and the one task the debugger is attached to, through `hsx.client`.

`Target` owns the connection (an `AsyncClient` on the app's event loop), the session that
holds the task's PID lock, and the event subscription.  Everything the panels show is
read here with protocol requests (docs/protocol.md), and every key that runs the task
becomes one here.  No Textual: the app turns these results into reactive state.
"""
from __future__ import annotations

from typing import Any

from hsx.client import AsyncClient, ConnectionClosed, ProtocolError
from hsx.client.locations import function_body
from hsx.client.sources import same_file

from .model import ENDED_STATES, Breakpoint, Frame, History, Registers, TaskInfo

CLIENT_NAME = "hsx dbg"
HEARTBEAT_S = 10.0
OUTPUT_COALESCE_MS = 20       # a task's output arrives joined, at most this late (about a frame)
# What the panels follow: every event but mailbox sends and receives, which come two per
# line a task prints (stdio is mailboxes) and by the ten thousand a second from a busy
# producer; the Mailboxes panel is re-read at stops and when mailboxes change otherwise.
NO_VARIANT = "none"             # Target.lacks: no variant of this executive offers it
EVENT_CATEGORIES = ["task_state", "fault", "debug_break", "stdout", "stderr", "dmesg",
                    "can_tx", "watch_update", "input_dropped", "value_", "cmd_",
                    "mailbox_created", "mailbox_freed", "mailbox_wait", "mailbox_wake",
                    "mailbox_timeout", "mailbox_overrun", "mailbox_backpressure",
                    "mailbox_exhausted", "mailbox_error"]

MAX_DISASM = 1024               # instructions one disasm.read returns at most
REGISTER_NAMES = frozenset({f"R{n}" for n in range(16)} | {"SP", "FP", "PC", "PSW"})

__all__ = ["Target", "ConnectionClosed", "ProtocolError"]


class Target:
    def __init__(self, host: str, port: int, token: str | None = None, *,
                 timeout: float = 10.0) -> None:
        """`host` may be a URL (`socket://…`, `serial://…`: a board; port is then unused)."""
        self.host, self.port, self.token, self.timeout = host, port, token, timeout
        self.client: AsyncClient | None = None
        self.pid: int | None = None
        self.app_name: str | None = None
        self.features: frozenset[str] = frozenset()   # what the executive offers (session)
        self.variant: str | None = None               # its variant (minimal, ...)
        self.missing: dict[str, str] = {}             # features it lacks -> a variant with them
        self.listed_missing = False                   # info listed them (variant_required)
        self._output_seen = 0                         # characters of the task's output read

    @property
    def address(self) -> str:
        return self.host if "://" in self.host else f"{self.host}:{self.port}"

    # ------------------------------------------------------------------ connection

    async def connect(self) -> None:
        await self.close()
        self.client = await AsyncClient.connect(self.host, self.port, timeout=self.timeout,
                                                token=self.token)

    async def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            await client.close()

    async def attach(self, pid: int) -> TaskInfo:
        """Own `pid` (its PID lock) and subscribe to the executive's events (of every
        task: the panels show other tasks, mailboxes and values too).  Output comes
        coalesced: a task printing 10,000 lines a second sends tens of events a second."""
        task = await self.task_info(pid)
        info = (await self.request("info"))["info"]
        session = await self._client.open_session(CLIENT_NAME, pid_lock=pid,
                                                  heartbeat_s=HEARTBEAT_S)
        self.features = frozenset(session.get("features", ()))
        self.variant = info.get("variant") or info.get("profile")
        self.missing = dict(info.get("variant_required") or {})
        self.listed_missing = isinstance(info.get("variant_required"), dict)
        if self.lacks("events") is None:
            await self._client.subscribe(EVENT_CATEGORIES, coalesce_ms=OUTPUT_COALESCE_MS)
        if pid != self.pid:
            self._output_seen = 0
        self.pid, self.app_name = pid, task.app_name
        return task

    def lacks(self, feature: str | None) -> str | None:
        """The variant that has `feature` when this executive's lacks it (None: it
        offers it, or nothing is known yet; NO_VARIANT: no variant of this executive has
        it, as reverse execution on a board)."""
        if feature is None or not self.features or feature in self.features:
            return None
        return self.missing.get(feature, NO_VARIANT if self.listed_missing else "development")

    def lacking(self, feature: str | None, what: str) -> str | None:
        """`what` needs ... (a note for a panel or key), or None when it is offered."""
        needed = self.lacks(feature)
        if needed is None:
            return None
        if needed == NO_VARIANT:
            return f"{what} is not offered by this executive ({self.variant} variant)"
        which = "the full variant" if needed == "full" else "the development or full variant"
        return f"{what} needs {which}; this executive runs {self.variant}"

    @property
    def has_events(self) -> bool:
        return self.lacks("events") is None

    async def new_output(self) -> str:
        """What the attached task wrote since the last call (for an executive without
        events, which keeps a task's recent output: `stdio op=recent`)."""
        reply = await self.request("stdio", op="recent", pid=self.pid)
        recent = reply.get("recent") or [{}]
        text = "".join(chunk.get("text", "") for chunk in recent[0].get("output", ()))
        total = recent[0].get("dropped_chars", 0) + len(text)
        fresh = text[max(0, len(text) - (total - self._output_seen)):]
        self._output_seen = total
        return fresh

    async def switch(self, pid: int) -> TaskInfo:
        """Move the session's lock from the attached task to `pid`; the session -- and the
        breakpoints it set in the task left -- stays."""
        task = await self.task_info(pid)
        await self.request("session.lock", pid=pid)
        if self.pid is not None and self.pid != pid:
            try:
                await self.request("session.unlock", pid=self.pid)
            except ProtocolError:
                pass                                  # it is gone: nothing to release
        self.pid, self.app_name = pid, task.app_name
        return task

    async def restart(self) -> tuple[TaskInfo, list[str]]:
        """Load the attached task's program again (from its file: a new build is picked
        up) as a new task, paused at its entry; the lock and the breakpoints move to it.
        The new task, and warnings for breakpoints that no longer resolve."""
        reply = await self.request("restart", pid=self.pid, paused=True)
        self.pid = reply["reload"]["new_pid"]
        return await self.task_info(self.pid), list(reply.get("warnings") or ())

    async def find_app(self, name: str) -> int:
        """The PID of the live task called `name` (the newest one)."""
        rows = [row for row in await self.tasks()
                if name in (row.get("app_name"), row.get("app_name_base"))]
        live = [row for row in rows if row["state"] not in ("returned", "faulted", "killed")]
        if not (live or rows):
            raise ProtocolError("unknown_app", f"no task called {name!r} is loaded")
        return max(live or rows, key=lambda row: row["pid"])["pid"]

    async def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        return await self._client.request(cmd, **fields)

    async def next_events(self) -> list[dict[str, Any]]:
        """The events that have arrived (at least one)."""
        return await self._client.next_events()

    async def next_stop(self) -> dict[str, Any]:
        """Wait for the attached task to stop (the event that says so); for a caller that
        is the only one reading events."""
        while True:
            for event in await self.next_events():
                if event.get("pid") == self.pid and is_stop(event):
                    return event

    @property
    def _client(self) -> AsyncClient:
        if self.client is None:
            raise ConnectionClosed("not connected to an executive")
        return self.client

    # ------------------------------------------------------------------ reading

    async def task_info(self, pid: int | None = None) -> TaskInfo:
        reply = await self.request("ps", pid=self.pid if pid is None else pid)
        return TaskInfo.from_row(reply["tasks"]["tasks"][0])

    async def tasks(self) -> list[dict[str, Any]]:
        return (await self.request("ps"))["tasks"]["tasks"]

    async def registers(self, previous: Registers | None = None) -> Registers:
        reply = await self.request("regs", pid=self.pid)
        return Registers.from_reply(reply["registers"], previous)

    async def stack(self, max_frames: int = 32) -> tuple[tuple[Frame, ...], str | None]:
        if self.lacks("stack"):
            return (), self.lacking("stack", "the stack walk")
        stack = (await self.request("stack.info", pid=self.pid, max_frames=max_frames))["stack"]
        return tuple(Frame.from_reply(f) for f in stack["frames"]), stack.get("note")

    async def breakpoints(self) -> tuple[Breakpoint, ...]:
        if self.lacks("debug"):
            return ()
        reply = await self.request("bp.list", pid=self.pid)
        return tuple(Breakpoint.from_listing(bp) for bp in reply["breakpoints"])

    async def disasm(self, addr: int | str | None = None, count: int = 32,
                     mode: str = "around") -> list[dict[str, Any]]:
        fields: dict[str, Any] = {"pid": self.pid, "count": count, "mode": mode}
        if addr is not None:
            fields["addr"] = addr
        return (await self.request("disasm.read", **fields))["disasm"]["instructions"]

    async def data_size(self) -> int:
        """Where the task's data space ends (its memory map's last region)."""
        regions = (await self.request("memory.regions", pid=self.pid))["memory"]["regions"]
        return max(region["end"] for region in regions if region["space"] == "data")

    async def source_instructions(self, file: str) -> dict[int, list[dict[str, Any]]]:
        """The instructions compiled from each line of source `file` (as the symbols
        name it), in address order: those of the functions defined in it."""
        by_line: dict[int, list[dict[str, Any]]] = {}
        for function in (await self.symbols("functions"))["symbols"]:
            if not (function.get("file") and same_file(function["file"], file)):
                continue
            for instruction in await self.disasm_range(function["address"], function["size"]):
                if instruction.get("line") and same_file(instruction.get("file") or "", file):
                    by_line.setdefault(instruction["line"], []).append(instruction)
        return by_line

    async def disasm_range(self, start: int, size: int) -> list[dict[str, Any]]:
        """Every instruction in code bytes [start, start + size)."""
        instructions: list[dict[str, Any]] = []
        address, end = start, start + size
        while address < end:
            read = await self.disasm(address, count=min(MAX_DISASM, (end - address) // 4 + 1),
                                     mode="from")
            read = [ins for ins in read if ins["pc"] < end]
            if not read:
                break
            instructions += read
            address = read[-1]["pc"] + read[-1]["size"]
        return instructions

    async def read_memory(self, addr: int, length: int) -> bytes:
        reply = await self.request("peek", pid=self.pid, addr=addr, length=length)
        return bytes.fromhex(reply["data"])

    async def write_memory(self, addr: int, data: bytes) -> None:
        await self.request("poke", pid=self.pid, addr=addr, data=data.hex())

    async def symbols(self, kind: str = "all") -> dict[str, Any]:
        return (await self.request("symbols.list", pid=self.pid, type=kind))["symbols"]

    async def symbols_info(self) -> dict[str, Any]:
        if self.lacks("symbols"):
            return {}
        return (await self.request("symbols.info", pid=self.pid))["symbols"]

    async def lookup(self, key: int | str, space: str = "code") -> dict[str, Any]:
        return (await self.request("symbols.lookup", pid=self.pid, addr=key, space=space)
                if isinstance(key, int) else
                await self.request("symbols.lookup", pid=self.pid, name=key, space=space)
                )["symbol"]

    async def variables(self, frame: int = 0, scope: str = "all") -> dict[str, Any]:
        return await self._client.frame_variables(self.pid, frame, scope)

    async def expand(self, ref: int, start: int = 0, count: int | None = None) -> dict[str, Any]:
        return await self._client.expand(ref, start, count)

    async def evaluate(self, expr: str, frame: int = 0) -> dict[str, Any]:
        return await self._client.evaluate(self.pid, expr, frame)

    async def data_address(self, text: str, frame: int = 0) -> int:
        """The data address `text` names: a number, a register (`SP`, `R3`), a data
        symbol, a variable (where it lives) or any C expression (its value)."""
        text = text.strip()
        try:
            return int(text, 0)
        except ValueError:
            pass
        if text.upper() in REGISTER_NAMES:
            if self.lacks("expressions"):             # read it with the registers
                return (await self.registers()).value_of(text.upper())
            text = "$" + text.lower()
        try:
            result = await self.evaluate(text, frame)
        except ProtocolError as error:
            if error.code not in ("bad_expression", "no_symbols"):
                raise
            try:
                return (await self.lookup(text, "data"))["address"]
            except ProtocolError:
                raise error from None
        if result.get("address") is not None:
            return int(result["address"])
        return parse_number(result.get("value", ""))

    async def read_source(self, file: str) -> dict[str, Any]:
        """A source file of the task as the executive reads it on its machine."""
        return await self._client.read_source(self.pid, file)

    async def set_variable(self, lvalue: str, value: str, frame: int = 0) -> dict[str, Any]:
        return await self._client.set_variable(self.pid, lvalue, value, frame)

    # ------------------------------------------------------------------ run control

    async def resume(self) -> None:
        await self.request("resume", pid=self.pid)

    async def pause(self) -> None:
        await self.request("pause", pid=self.pid)

    async def step_instruction(self, count: int = 1) -> None:
        await self.request("step", pid=self.pid, count=count)

    async def next_instruction(self) -> None:
        """One instruction, running a call to its return."""
        await self.request("step.over", pid=self.pid)

    async def next_line(self) -> None:
        """To the next source line of this function, running calls to their return."""
        await self.request("step.line", pid=self.pid)

    async def step_out(self) -> None:
        await self.request("step.out", pid=self.pid)

    async def run_to(self, where: int | str | tuple[str, int]) -> None:
        await self.request("run.to", pid=self.pid, **location_fields(where))

    async def jump(self, where: int | str | tuple[str, int]) -> None:
        """Move the paused task's PC there (within its function); nothing runs."""
        await self.request("jump", pid=self.pid, **location_fields(where))

    async def start(self) -> bool:
        """gdb's `start`: run to the first line of `main` (past its prologue); a program
        without a `main` (MVASM) stays at its entry point, and so does any program on an
        executive without breakpoints.  Did it set the task running?"""
        if self.lacks("debug"):
            return False
        try:
            where = await self.function_body("main")
        except ProtocolError as error:
            if error.code in ("unknown_symbol", "no_symbols"):
                return False
            raise
        await self.run_to(where)
        return True

    async def function_body(self, name: str) -> int:
        """Where function `name`'s first source line after the prologue starts (its entry
        when it has no line information): where gdb puts `break NAME`."""
        return await function_body(self._client, self.pid, name)

    async def step_into(self) -> None:
        """To the next source line, entering calls that have source lines (gdb's `step`);
        without line information here, one instruction."""
        try:
            await self.request("step.line", pid=self.pid, mode="into")
        except ProtocolError as error:
            if error.code not in ("no_symbols", "no_line_info"):
                raise
            await self.step_instruction()

    async def history(self) -> History | None:
        """The task's recording, or None when the executive cannot run backwards."""
        if "reverse" not in self.features:
            return None
        return History.from_reply((await self.request("history.status", pid=self.pid))["history"])

    async def record(self, on: bool) -> History:
        """Start (or stop) recording the task's history, for reverse execution."""
        reply = await self.request("history.on" if on else "history.off", pid=self.pid)
        return History.from_reply(reply["history"])

    # ------------------------------------------------------------------ breakpoints

    async def set_breakpoint(self, where: int | str | tuple[str, int],
                             condition: str | None = None) -> Breakpoint:
        fields = location_fields(where)
        if condition:
            fields["condition"] = condition
        reply = await self.request("bp.set", pid=self.pid, **fields)
        return Breakpoint.from_listing(reply["breakpoint"])

    async def clear_breakpoint(self, bp_id: int) -> None:
        await self.request("bp.clear", breakpoint_id=bp_id)

    async def enable_breakpoint(self, bp_id: int, enabled: bool) -> None:
        await self.request("bp.enable" if enabled else "bp.disable", breakpoint_id=bp_id)

    async def change_condition(self, bp: Breakpoint, condition: str) -> Breakpoint:
        """Replace `bp` by one at its address with `condition` (empty: none); the old
        one goes only once the new one is set (a bad condition leaves it as it was)."""
        new = await self.set_breakpoint(bp.address, condition or None)
        if new.id != bp.id:
            await self.clear_breakpoint(bp.id)
        if not bp.enabled:
            await self.enable_breakpoint(new.id, False)
        return new

    async def toggle_breakpoint(self, where: int | str | tuple[str, int]) -> Breakpoint | None:
        """Clear the breakpoints at `where`, or set one there; the new one, or None."""
        address = await self.code_address(where)
        mine = [bp for bp in await self.breakpoints()
                if bp.address == address and bp.kind == "breakpoint"]
        for bp in mine:
            await self.clear_breakpoint(bp.id)
        return None if mine else await self.set_breakpoint(address)

    async def code_address(self, where: int | str | tuple[str, int]) -> int:
        """The instruction address a location names (as the executive resolves it)."""
        if isinstance(where, int):
            return where
        text = f"{where[0]}:{where[1]}" if isinstance(where, tuple) else where
        (instruction,) = await self.disasm(text, count=1, mode="from")
        return instruction["pc"]


def is_stop(event: dict[str, Any]) -> bool:
    """Does this event say its task stopped (a debug_break, or the end of the task)?"""
    if event.get("type") == "debug_break":
        return True
    return (event.get("type") == "task_state"
            and event.get("data", {}).get("new_state") in ENDED_STATES)


def parse_number(text: str) -> int:
    """The number a formatted value starts with ("0x00004000 (buf)", "42 '*'")."""
    word = text.split()[0] if text.split() else ""
    try:
        return int(word, 0)
    except ValueError:
        raise ProtocolError("bad_expression", f"{text!r} is not an address") from None


def location_fields(where: int | str | tuple[str, int]) -> dict[str, Any]:
    """A code location as protocol fields: an address, "main+8", "prog.c:12", or a
    (file, line) pair."""
    if isinstance(where, tuple):
        return {"file": where[0], "line": where[1]}
    return {"addr": where}
