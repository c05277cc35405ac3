"""Mailboxes seen from the host, and task stdio.

The host is PID 0 to the mailbox manager.  Handles a client opens (`mailbox.open`) are
its own: no other connection can use them, and they are closed when it disconnects.
`send`/`listen` with a `target` instead of a handle open a handle for that one call.
Reading a mailbox takes messages away from its owner, so it needs control of the
owning PID; a tap (`tap: true`) only copies and is open to observers too.

Task output does not need polling: `stdio` subscribes the caller to `stdout`/`stderr`
events, and writes a task's stdin.
"""
from __future__ import annotations

import base64
import binascii
from typing import Any

from hsx.kernel.constants import MbxFlag, MbxMode, MbxStatus
from hsx.kernel.mailbox.manager import HOST_PID
from hsx.kernel.mailbox.targets import TargetError, parse_target

from ..dispatch import Call, Group
from ..errors import RequestError, bad_argument
from .events import max_events, may_read_output, subscription_key, trusted
from ..schema import PID, Bool, Encoded, Int, ListOf, OneOf, Str
from ..subscriptions import Clause, check_pids
from ..variants import check_session, unsupported

group = Group("mailbox", feature="mailbox")
_MODES = {"r": MbxMode.RDONLY, "read": MbxMode.RDONLY, "w": MbxMode.WRONLY,
          "write": MbxMode.WRONLY, "rw": MbxMode.RDWR, "readwrite": MbxMode.RDWR}
STDIO_STREAMS = ("stdout", "stderr")
MAX_HANDLES_PER_CONNECTION = 64
MAX_MESSAGE = 1 << 20
TARGET = Str(256, empty=False)
HANDLE = Int(1, 0xFFFF_FFFF)
PAYLOAD = {"data": Str(MAX_MESSAGE), "data_hex": Encoded("hex", MAX_MESSAGE),
           "data_b64": Encoded("base64", MAX_MESSAGE)}


def mbx_refused(status: MbxStatus, what: str) -> RequestError:
    return RequestError(f"mbx_{status.name.lower()}", f"{what}: {status.name}",
                        mbx_status=int(status))


def _check_target(call: Call, target: str) -> None:
    """Changing or draining a task's mailbox needs control of its PID; a global one
    needs a client that may write at all."""
    try:
        owner = parse_target(target, HOST_PID).owner
    except TargetError as error:
        raise RequestError("mbx_invalid_argument", str(error),
                           mbx_status=int(MbxStatus.INVALID_ARGUMENT)) from None
    if owner is not None and owner != HOST_PID:
        call.control(owner)
    else:
        call.server.sessions.check_writer(call.session)


def _check_output_tap(call: Call, target: str) -> None:
    """A tap on a task's stdio reads its output: the same rule as `stdio`."""
    try:
        parsed = parse_target(target, HOST_PID)
    except TargetError:
        return                                     # the open itself reports it
    if (parsed.name.startswith("stdio.") and parsed.owner not in (None, HOST_PID)
            and not may_read_output(call, parsed.owner)):
        call.control(parsed.owner)


def _open(call: Call, target: str, flags: int) -> int:
    opened = call.kernel.mailboxes.open(HOST_PID, target, flags)
    if opened.status is not MbxStatus.OK:
        raise mbx_refused(opened.status, f"cannot open {target!r}")
    return opened.handle


def _own_handle(call: Call) -> int:
    handle = call.int("handle", min=1)
    if handle not in call.conn.mailbox_handles:
        raise RequestError("unknown_handle", f"handle {handle} was not opened on this connection")
    return handle


def _payload(call: Call) -> bytes:
    if call.has("data_hex"):
        try:
            return bytes.fromhex(call.str("data_hex"))
        except ValueError:
            raise bad_argument("'data_hex' must be hex bytes") from None
    if call.has("data_b64"):
        try:
            return base64.b64decode(call.str("data_b64"), validate=True)
        except (binascii.Error, ValueError):
            raise bad_argument("'data_b64' must be base64") from None
    return call.str("data").encode("utf-8")


@group.command("mailbox.snapshot", "mailbox_snapshot", args={})
def snapshot(call: Call) -> dict[str, Any]:
    return call.kernel.mailboxes.snapshot()


@group.command("mailbox.open", args={"target": TARGET, "tap": Bool(),
                                     "mode": Str(choices=tuple(_MODES))})
def mailbox_open(call: Call) -> dict[str, Any]:
    target = call.str("target")
    tap = call.bool("tap")
    mode = call.str("mode", "rw" if not tap else "r")
    if not tap or _MODES[mode] & MbxMode.WRONLY:     # a read-only tap changes nothing
        _check_target(call, target)
    else:
        _check_output_tap(call, target)
    if len(call.conn.mailbox_handles) >= MAX_HANDLES_PER_CONNECTION:
        raise RequestError("too_many_handles", f"at most {MAX_HANDLES_PER_CONNECTION} "
                           "mailbox handles per connection")
    flags = int(_MODES[mode]) | (int(MbxMode.TAP) if tap else 0)
    handle = _open(call, target, flags)
    call.conn.mailbox_handles.add(handle)
    return {"handle": handle, "target": target, "tap": tap}


@group.command("mailbox.close", args={"handle": HANDLE})
def mailbox_close(call: Call) -> dict[str, Any]:
    handle = _own_handle(call)
    call.conn.mailbox_handles.discard(handle)
    call.kernel.mailboxes.close(HOST_PID, handle)
    return {"closed": handle}


@group.command("send", "mailbox.send", writes=True, args={
    **PAYLOAD, "flags": Int(0, 0xFFFF), "target": TARGET, "handle": HANDLE, "pid": PID,
    "channel": OneOf((Int(0, 0xFFFF), TARGET))})
def send(call: Call) -> dict[str, Any]:
    """Send to an open handle, a target, or (older form) a task's stdin by `pid`."""
    data = _payload(call)
    flags = call.int("flags", 0, min=0, max=0xFFFF)
    target = call.str("target", None)
    legacy = call.field("channel")             # the older form names the target here
    if isinstance(legacy, str) and not legacy.strip().isdigit():
        target, channel = target or legacy, 0
    else:
        channel = call.int("channel", 0, min=0, max=0xFFFF)
    kernel = call.kernel
    if call.has("handle"):
        handle, target, temporary = _own_handle(call), None, False
    else:
        if target is None:
            target = f"svc:stdio.in@{call.int('pid', min=0)}"
        _check_target(call, target)
        handle, temporary = _open(call, target, int(MbxMode.WRONLY)), True
    try:
        sent = kernel.mailboxes.send(HOST_PID, handle, data, flags, channel)
    finally:
        if temporary:
            kernel.mailboxes.close(HOST_PID, handle)
    if sent.status is not MbxStatus.OK:
        raise mbx_refused(sent.status, f"send to {target or f'handle {handle}'}")
    kernel.deliver_wakes(sent.wakes)
    return {"mbx_status": int(sent.status), "length": sent.length, "target": target,
            "woke": [w.pid for w in sent.wakes]}


@group.command("listen", "mailbox.recv", args={
    "limit": Int(1, 1024), "max_len": Int(0, MAX_MESSAGE), "handle": HANDLE, "target": TARGET})
def listen(call: Call) -> dict[str, Any]:
    """Receive up to `limit` waiting messages without blocking."""
    limit = call.int("limit", 5, min=1, max=1024)
    max_len = call.int("max_len", None, min=0)
    kernel = call.kernel
    if call.has("handle"):
        handle, temporary = _own_handle(call), False
    else:
        target = call.str("target", None)
        if target is None:
            raise bad_argument("listen needs 'handle' or 'target' (task output arrives as "
                               "stdout/stderr events: see 'stdio')")
        _check_target(call, target)
        handle, temporary = _open(call, target, int(MbxMode.RDONLY)), True
    messages = []
    try:
        for _ in range(limit):
            got = kernel.mailboxes.recv(HOST_PID, handle, max_len)
            if got.status is MbxStatus.NO_DATA:
                break
            if got.message is None:
                raise mbx_refused(got.status, f"receive on handle {handle} (needs {got.length} bytes)")
            message = got.message
            messages.append({"text": message.payload.decode("utf-8", "replace"),
                             "data_hex": message.payload.hex(), "length": message.length,
                             "flags": message.flags, "channel": message.channel,
                             "src_pid": message.src_pid,
                             "overrun": bool(message.flags & MbxFlag.OVERRUN)})
    finally:
        if temporary:
            kernel.mailboxes.close(HOST_PID, handle)
    return {"messages": messages}


@group.command("stdio", feature="stdio", args={
    **PAYLOAD, "op": Str(choices=("subscribe", "unsubscribe", "write", "recent")),
    "eof": Bool(), "recent": Bool(),
    "pid": OneOf((PID, ListOf(PID, single=False))),
    "streams": ListOf(Str(choices=STDIO_STREAMS), max_items=2, empty=False)})
def stdio(call: Call) -> dict[str, Any]:
    """`op`: `subscribe` (default; stdout/stderr of `pid`, or of every task, as events;
    with `recent: true` the output kept so far comes with it), `unsubscribe`, `recent`
    (the output kept so far, no subscription), or `write` (`data` to the task's stdin;
    `eof: true` ends its input).  Giving `data` implies `write`."""
    op = call.str("op", None) or ("write" if call.has("data") or call.has("data_hex")
                                         or call.has("eof") else "subscribe")
    if op == "write":
        return _write_stdin(call)
    streams = call.field("streams") or list(STDIO_STREAMS)
    pids = check_pids(call.field("pid"))
    for pid in pids or ():
        if not may_read_output(call, pid):
            call.control(pid)                      # refused: pid_locked:<pid>
    if op == "recent":
        return {"recent": _recent(call, pids, tuple(streams))}
    if not call.kernel.profile.offers("events"):
        raise unsupported(f"stdio {op}", "events", call.kernel.profile.name,
                          " (stdio op=recent reads what tasks wrote)")
    check_session("stdio " + op, "events", call.session)
    clause = Clause(pids, tuple(streams))
    hub, key = call.server.hub, subscription_key(call)
    if op == "unsubscribe":
        hub.remove_clause(key, clause)
        return {"unsubscribed": True}
    if op != "subscribe":
        raise bad_argument(f"unknown stdio op {op!r} (subscribe, unsubscribe, write)")
    sub, _ = hub.subscribe(key, call.conn, call.session, max_events(call), [clause],
                           replace=False)
    sub.trusted = trusted(call)
    reply: dict[str, Any] = {"events": sub.stats()}
    if call.bool("recent"):
        reply["recent"] = _recent(call, pids, tuple(streams))
    return reply


def _recent(call: Call, pids: frozenset[int] | None, streams: tuple[str, ...]) -> list[dict]:
    """The kept output of the tasks named (of every task that has some, when none is);
    a task locked by another session is left out unless the caller may read it."""
    outputs = call.server.outputs
    return [outputs.recent(pid, streams) for pid in sorted(pids or outputs.pids())
            if may_read_output(call, pid)]


@group.command("grant.stdio", writes=True, feature="stdio",
               args={"pid": PID, "to": PID, "revoke": Bool()})
def grant_stdio(call: Call) -> dict[str, Any]:
    """Let task `to` open task `pid`'s stdio mailboxes (read or tap its output, write its
    input); `revoke: true` takes that back.  A task's stdio is otherwise its own."""
    task = call.task()
    call.control(task.pid)
    reader = call.task("to")
    boxes = call.kernel.mailboxes
    boxes.stdio_grants.grant(task.pid, reader.pid, not call.bool("revoke"))
    return {"pid": task.pid, "granted": boxes.stdio_grants.readers(task.pid)}


def _write_stdin(call: Call) -> dict[str, Any]:
    task = call.task()
    call.control(task.pid)
    if call.bool("eof"):
        call.kernel.post_stdin(task.pid, b"")
        return {"pid": task.pid, "written": 0, "eof": True}
    data = _payload(call)
    if not data:
        raise bad_argument("empty stdin write: use 'eof': true to end the input")
    call.kernel.post_stdin(task.pid, data)
    return {"pid": task.pid, "written": len(data)}
