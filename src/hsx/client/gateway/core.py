"""The host-side debug gateway: a board answers address-level commands; the front ends
speak symbols.  `Gateway` answers the symbolic ones on the host (docs/protocol.md,
"Client library"), with hsx.debug's own code over a view of the remote task.

Each command is a generator (`hsx.client.drive`): it yields the device requests it
needs (`regs`, `peek`, `bp.set {addr}`, …) and returns the reply protocol v1 gives.
Views of stopped tasks are kept until something may run them; symbols stay on the
host, keyed by the image the board runs (`images.ImageStore`).
"""
from __future__ import annotations

from typing import Any, Callable

from hsx.debug import Condition, DebugError
from hsx.debug.inspector import Inspector
from hsx.debug.symbols import SymbolService, TaskSymbols
from hsx.debug.watches import Describe
from hsx.image.model import HxeImage

from ..drive import Steps
from ..errors import ProtocolError
from .images import ImageStore, Known, shared_store
from .remote import NeedBytes, RemoteTask, decode_image, make_task
from .runs import WAIT, RunControl

__all__ = ["WAIT", "Gateway", "command"]

# What the gateway answers on the host for a board that has the debugger (development,
# full): a board's `info` and sessions list these features too, so front ends see what
# the pair offers, as from `hsx execd` of the same variant.
HOST_FEATURES = ("disasm", "expressions", "symbols", "variables")
# What a framed link cannot carry: its key table (hsx.link.keys) has no reverse
# execution or timeline commands, as no board offers them.
LINK_LACKS = ("reverse", "timeline")
MAX_RUNS = 64                  # fetch-and-retry rounds of one computation
JSON_CHUNK = 4096              # bytes one peek reads from an executive without frames
HANDLERS: dict[str, Callable[["Gateway", dict[str, Any]], Steps]] = {}
# commands that change nothing a view holds
READ_ONLY = frozenset({
    "ping", "info", "ps", "list_tasks", "regs", "dumpregs", "read_regs", "peek", "mem.read",
    "read_mem", "dmesg", "log", "mailbox.snapshot", "mailbox_snapshot", "val.list",
    "val_list", "val.get", "val_get", "val.stats", "val_stats", "cmd.list", "cmd_list",
    "cmd.stats", "cmd_stats", "session.open", "session.keepalive", "session.heartbeat",
    "session.close", "session.list", "session.lock", "session.unlock", "events.subscribe",
    "subscribe", "events.unsubscribe", "unsubscribe", "events.ack", "clock.status", "clock",
    "bp.list", "bp", "bp.ls", "watch.list", "watch", "watch.ls", "trace.status",
    "trace.records", "trace.history", "trace.exports", "trace.load"})


def command(*names: str):
    """Register a generator as the gateway's answer to `names`."""
    def register(handler):
        for name in names:
            HANDLERS[name] = handler
        return handler
    return register


class RemoteSymbols(SymbolService):
    """hsx.debug's symbol service over remote tasks (no kernel: the gateway attaches)."""

    def __init__(self) -> None:
        super().__init__(kernel=None, store=None)

    def attach_view(self, task: RemoteTask, known: Known | None) -> TaskSymbols:
        entry = self._tasks.get(task.pid)
        table = known.table if known is not None else None
        if entry is not None and entry.task.image is task.image and entry.table is table:
            entry.task = task                     # same build: keep the code map
            return entry
        warnings = [] if table is not None else [
            f"no symbols for {task.app_name}: showing addresses only"]
        path = known.sym_path if known is not None else None
        entry = TaskSymbols(task, table, self._code_map(task, table), path, warnings)
        self._tasks[task.pid] = entry
        return entry

    def known(self, pid: int) -> TaskSymbols | None:
        return self._tasks.get(pid)

    def get(self, pid: int) -> TaskSymbols:
        entry = self._tasks.get(pid) if isinstance(pid, int) else None
        if entry is None:
            raise DebugError("unknown_pid", f"no task with pid {pid!r}")
        return entry

    def forget(self, pid: int) -> None:
        self._tasks.pop(pid, None)


class Gateway(RunControl):
    def __init__(self, hello: dict[str, Any] | None, store: ImageStore | None = None) -> None:
        """`hello`: the device's (None for an executive without frames)."""
        self.hello = hello or {}
        max_frame = self.hello.get("max_frame")
        self.chunk = max(16, int(max_frame) - 64) if max_frame else JSON_CHUNK
        self.images = store or shared_store()
        self.symbols = RemoteSymbols()
        self.inspector = Inspector(self.symbols)
        self.views: dict[int, RemoteTask] = {}
        self.loaded: dict[int, Known] = {}          # pid -> what this host loaded as it
        self.code: dict[int, tuple[tuple, tuple[Any, list, Known | None]]] = {}
        self.conditions: dict[int, Condition] = {}  # breakpoint id -> its condition
        self.unseen: dict[int, int] = {}            # breakpoint id -> hits it ran on past
        self.watch_names: dict[int, str | None] = {}
        self.watch_changes: dict[int, Describe] = {}  # watch id -> what changed, in C
        self.pending: dict[int, tuple[str, Steps]] = {}   # pid -> a step waiting for a stop
        self.expected: dict[int, list[int]] = {}    # pid -> pcs of our own steps' breaks
        self.outbox: list[dict[str, Any]] = []      # events the gateway made (steps' ends)
        self.planted: set[int] = set()              # breakpoint ids the gateway's steps set
        self.subscribed = False                     # events reach the gateway
        self.last_seq: int | None = None

    @property
    def debugs(self) -> bool:
        """Whether the device has breakpoints and events (not a minimal board)."""
        return self.hello.get("variant") != "minimal"

    # -- dispatch -------------------------------------------------------------------------

    def handles(self, cmd: str) -> bool:
        return cmd.lower() in HANDLERS

    def request(self, cmd: str, fields: dict[str, Any]) -> Steps:
        """The reply to a request: answered here, or passed on to the device (with the
        views it may change dropped).  Raises ProtocolError like a device's error reply."""
        name = cmd.lower()
        handler = HANDLERS.get(name)
        if handler is None:
            if name not in READ_ONLY:
                self.views.clear()
            return (yield (cmd, fields))
        try:
            payload = yield from handler(self, fields)
        except DebugError as error:
            raise ProtocolError(error.code, error.message,
                                {"version": 1, "status": "error", "error": error.code,
                                 "message": error.message}) from None
        return {"version": 1, "status": "ok", **payload}

    def reset(self) -> None:
        """The board reset: nothing it held is known any more."""
        self.views.clear()
        self.loaded.clear()
        self.code.clear()
        self.conditions.clear()
        self.unseen.clear()
        self.watch_names.clear()
        self.watch_changes.clear()
        self.pending.clear()
        self.expected.clear()
        self.subscribed = False
        self.symbols = RemoteSymbols()
        self.inspector = Inspector(self.symbols)

    def changed(self, pid: int | None) -> None:
        """Task `pid` (None: any) may have run: its view is stale."""
        if pid is None:
            self.views.clear()
        else:
            self.views.pop(pid, None)
            self.inspector.refs.forget(pid)

    def condition_text(self, bp_id: Any) -> str | None:
        condition = self.conditions.get(bp_id)
        return condition.text if condition is not None else None

    # -- views ----------------------------------------------------------------------------

    def view(self, pid: Any) -> Steps:
        """The task's view (fetched now unless a stopped task's is kept): its entry in
        the symbol service."""
        pid = as_pid(pid)
        task = self.views.get(pid)
        if task is None or not task.stopped:
            row = yield from self.task_row(pid)
            registers = (yield ("regs", {"pid": pid}))["registers"]
            image, decoded, known = yield from self._code(pid, row)
            task = make_task(pid, registers, image, decoded, row.get("app_name") or f"pid{pid}",
                             known.source if known is not None else None)
            if task.stopped:
                self.views[pid] = task
            self.symbols.attach_view(task, known)
        return self.symbols.get(pid)

    def attached(self, pid: int) -> Steps:
        """The task's symbols entry, fetching a view only when there is none yet (names
        of code addresses need the code, not the task's current state)."""
        entry = self.symbols.known(pid)
        if entry is None:
            entry = yield from self.view(pid)
        return entry

    def task_row(self, pid: int) -> Steps:
        """The task's `ps` row."""
        reply = yield ("ps", {"pid": pid})
        rows = reply.get("tasks", {}).get("tasks", []) if isinstance(reply.get("tasks"), dict) \
            else reply.get("tasks", [])
        for row in rows:
            if row.get("pid") == pid:
                return row
        raise DebugError("unknown_pid", f"no task with pid {pid}")

    def _code(self, pid: int, row: dict[str, Any]) -> Steps:
        """(image, decoded code, what the host knows of it) of task `pid`: the image this
        host loaded, or its code read from the device and looked up in the store."""
        name = (row.get("app_name"), row.get("code_len"))    # a PID used again: another task
        cached = self.code.get(pid)
        if cached is not None and cached[0] == name:
            return cached[1]
        known = self.loaded.get(pid)
        if known is not None and row.get("code_len") not in (None, len(known.image.code)):
            known = None                           # not what this host loaded as that PID
        if known is None:
            code = yield from self._read_code(pid, row.get("code_len"))
            known = self.images.find(code)
            image = known.image if known is not None else _bare_image(code)
        else:
            image = known.image
        found = (image, decode_image(image), known)
        self.code[pid] = (name, found)
        return found

    def _read_code(self, pid: int, code_len: Any) -> Steps:
        if not isinstance(code_len, int):
            code_len = yield from self._probe_code_len(pid)
        out = bytearray()
        while len(out) < code_len:
            reply = yield ("peek", {"pid": pid, "addr": len(out), "space": "code",
                                    "length": min(self.chunk, code_len - len(out))})
            out += bytes.fromhex(reply["data"])
        return bytes(out)

    def _probe_code_len(self, pid: int) -> Steps:
        """The code's length, found by reading (an executive whose `ps` does not say it)."""
        def readable(length: int) -> Steps:
            try:
                yield ("peek", {"pid": pid, "addr": length - 4, "length": 4, "space": "code"})
            except ProtocolError:
                return False
            return True
        low, high = 0, 4
        while (yield from readable(high)):
            low, high = high, high * 2
        while high - low > 4:
            middle = (low + high) // 2 // 4 * 4
            if (yield from readable(middle)):
                low = middle
            else:
                high = middle
        return low

    def computed(self, pid: int, work: Callable[[], Any]) -> Steps:
        """`work()` over the task's view, fetching the memory it reads as it asks."""
        task = self.symbols.get(pid).task
        for _ in range(MAX_RUNS):
            task.ctx.mem.writes.clear()
            try:
                return work()
            except NeedBytes as need:
                yield from self._fetch(task, need)
        raise DebugError("internal_error", f"reading task {pid}'s memory did not settle")

    def _fetch(self, task: RemoteTask, need: NeedBytes) -> Steps:
        layout = task.ctx.layout
        addr, end = need.addr, need.addr + need.size
        if layout.stack_base <= addr < layout.stack_top:
            end = max(end, layout.stack_top)          # the whole used stack, at once
        end = min(end, task.ctx.mem.size)
        while addr < end:
            length = min(self.chunk, end - addr)
            reply = yield ("peek", {"pid": task.pid, "addr": addr, "length": length})
            task.ctx.mem.fill(addr, bytes.fromhex(reply["data"]))
            addr += length

    def flush_writes(self, pid: int) -> Steps:
        """Send what a computation wrote into the view (`set`) to the device."""
        task = self.symbols.get(pid).task
        writes, task.ctx.mem.writes = list(task.ctx.mem.writes), []
        for addr, data in writes:
            yield ("poke", {"pid": pid, "addr": addr, "data": data.hex()})
        if writes:
            self.changed(pid)


def with_host_features(listing: dict[str, Any], framed: bool = True) -> dict[str, Any]:
    """`info` or a session with the features the gateway adds (or, on a board without
    the debugger, the variant that has them); on a framed link, without those the link
    cannot carry."""
    features = listing.get("features")
    if not isinstance(features, list):
        return listing
    if framed:
        features = [f for f in features if f not in LINK_LACKS]
    out = {**listing, "features": features}
    required = out.get("variant_required")
    if framed and isinstance(required, dict):
        required = {k: v for k, v in required.items() if k not in LINK_LACKS}
        out["variant_required"] = required
    if "debug" in features:
        out["features"] = sorted({*features, *HOST_FEATURES})
        if isinstance(required, dict):
            out["variant_required"] = {k: v for k, v in required.items()
                                       if k not in HOST_FEATURES}
    elif isinstance(required, dict):
        needed = required.get("debug", "development")
        out["variant_required"] = {**required, **{f: needed for f in HOST_FEATURES}}
    return out


def as_pid(value: Any) -> int:
    if isinstance(value, str):
        try:
            value = int(value, 0)
        except ValueError:
            pass
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 0xFFFFFFFF:
        raise DebugError("bad_argument", f"'pid' must be an integer 0..0xFFFFFFFF, not {value!r}")
    return value


def _bare_image(code: bytes) -> HxeImage:
    """An image known only by its code (no entry, rodata or metadata)."""
    return HxeImage(code=code)
