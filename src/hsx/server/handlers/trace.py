"""Instruction traces over protocol v1: a ring per task (`trace.on/off/status/records`),
written as JSON lines and read back (`trace.export`, `trace.load`).

Files: a relative `path` (or none, for an export) lives under `<state dir>/traces`.  An
absolute path is taken as given while the executive listens on loopback only (its
clients are local users, who can `load` any file anyway); on a network address only
paths inside that directory are accepted (`path_refused`), so a remote client cannot
make the daemon overwrite or read its other files.
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hsx.debug.trace import FORMAT as TRACE_FORMAT
from hsx.debug.trace import load_trace
from hsx.debug.errors import TRACE_FILE

from ..dispatch import Call, Group
from ..errors import RequestError, bad_argument
from ..auth import is_loopback
from ..images import host_file
from ..schema import COUNT, MAX_U32, PID, Bool, Int, FilePath
from .debug import controlled_pid, debugger

group = Group("trace", feature="trace")
TRACE_DIR = "traces"
MAX_RECORDS = 1 << 20           # records one ring may hold
MAX_TRACE_FILE = 256 << 20      # bytes of a trace file trace.load reads


@group.command("trace.on", writes=True, args={"pid": PID, "size": Int(1, MAX_RECORDS)})
def trace_on(call: Call) -> dict[str, Any]:
    """Start a fresh ring of `size` records (default: the profile's `trace_records`)."""
    pid = controlled_pid(call)
    return {"trace": debugger(call).trace_on(pid, call.int("size", None, min=1))}


@group.command("trace.off", writes=True, args={"pid": PID})
def trace_off(call: Call) -> dict[str, Any]:
    """Stop recording; what was recorded stays readable."""
    return {"trace": debugger(call).trace_off(controlled_pid(call))}


@group.command("trace", writes=True, args={"pid": PID, "mode": Bool()})
def trace_switch(call: Call) -> dict[str, Any]:
    """The older form: `mode` on/off (or a boolean) switches; without it, toggles."""
    dbg = debugger(call)
    pid = controlled_pid(call)
    on = call.bool("mode") if call.has("mode") else not dbg.trace_status(pid)["enabled"]
    return {"trace": dbg.trace_on(pid) if on else dbg.trace_off(pid)}


@group.command("trace.status", args={"pid": PID})
def trace_status(call: Call) -> dict[str, Any]:
    return {"trace": debugger(call).trace_status(call.task().pid)}


@group.command("trace.records", "trace.history", args={"pid": PID, "limit": COUNT})
def trace_records(call: Call) -> dict[str, Any]:
    """The newest `limit` records (all by default), oldest first."""
    dbg = debugger(call)
    pid = call.task().pid
    records = dbg.trace_records(pid, call.int("limit", None, min=0))
    return {"trace": {**dbg.trace_status(pid), "returned": len(records), "records": records}}


@group.command("trace.export", writes=True, args={"pid": PID, "path": FilePath(), "limit": COUNT})
def trace_export(call: Call) -> dict[str, Any]:
    task = call.task()
    path = _path(call, default=f"{task.app_name}-{task.pid}-{task.ctx.steps}.jsonl")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        count = debugger(call).trace_export(task.pid, path, call.int("limit", None, min=0))
    except OSError as error:
        raise RequestError(TRACE_FILE, f"{path}: {error.strerror or error}") from None
    return {"trace": {"pid": task.pid, "path": str(path), "count": count,
                      "format": TRACE_FORMAT}}


@group.command("trace.exports", args={})
def trace_exports(call: Call) -> dict[str, Any]:
    """Traces exported so far, kept in the executive's state store (also across restarts)."""
    return {"exports": debugger(call).trace_history()}


@group.command("trace.load", args={"limit": COUNT, "export_id": Int(1, MAX_U32), "path": FilePath()})
async def trace_load(call: Call) -> dict[str, Any]:
    """Read an export back, from the state store by `export_id` or from a file by `path`
    (off the event loop: it may be large)."""
    limit = call.int("limit", None, min=0)
    if call.has("export_id"):
        export_id = call.int("export_id", min=1)
        loaded, where = debugger(call).stored_trace(export_id), {"export_id": export_id}
    else:
        path = host_file(_path(call), MAX_TRACE_FILE, TRACE_FILE, "trace")
        loaded, where = await asyncio.to_thread(load_trace, path), {"path": str(path)}
    records = loaded.records if limit is None else loaded.records[-limit:] if limit else []
    return {"trace": {**where, "header": loaded.header, "count": len(loaded.records),
                      "returned": len(records), "records": records}}


def _path(call: Call, default: str | None = None) -> Path:
    return state_path(call, TRACE_DIR, default)


def state_path(call: Call, directory: str, default: str | None = None) -> Path:
    """The request's `path` (or `default`), relative to `<state dir>/<directory>`;
    absolute paths only while the executive listens on loopback."""
    config = call.server.config
    base = (Path(config.state_dir) / directory).resolve() if config.state_dir else None
    name = call.str("path", default)
    if name is None:
        raise bad_argument(f"{call.args['cmd']} requires 'path'")
    path = Path(name)
    if not path.is_absolute():
        if base is None:
            raise bad_argument("the executive has no state directory (--state-dir) for "
                               f"{directory}: give an absolute 'path'")
        path = base / path
    path = path.resolve()
    if not is_loopback(config.host) and (base is None or not path.is_relative_to(base)):
        raise RequestError("path_refused", f"{path}: an executive on a network address "
                           f"only reads and writes files under <state dir>/{directory}")
    return path
