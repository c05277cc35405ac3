"""The prior executive's commands that have no other home, kept for its clients:
`attach`, `detach` and `stdio_fanout` (docs/protocol.md, "Compatibility").

`attach`/`detach` attached the prior executive to a VM in another process.  The VM now
runs inside the executive and is always attached, so both only acknowledge, with the
reply the prior executive gave (`info`).  `stdio_fanout` switches a task's stdio
mailboxes between queue mode (the executive is their one reader) and fan-out mode
(every reader, a client's handle or a granted task, gets each message), for one task,
for every task, or for the tasks loaded from now on.
"""
from __future__ import annotations

from typing import Any

from hsx.kernel.constants import MbxMode, MbxStatus
from hsx.kernel.mailbox.manager import HOST_PID

from ..dispatch import Call, Group
from ..errors import RequestError, bad_argument
from ..schema import PID, OneOf, Str
from .core import info_payload
from .mailbox import mbx_refused

group = Group("legacy")

# Modes by the prior executive's names, and the masks it bound them with.
OFF = MbxMode.RDWR
FANOUT = MbxMode.RDWR | MbxMode.FANOUT | MbxMode.FANOUT_DROP
FANOUT_BLOCK = MbxMode.RDWR | MbxMode.FANOUT | MbxMode.FANOUT_BLOCK
MODES = {"off": OFF, "none": OFF, "default": OFF, "fanout": FANOUT, "drop": FANOUT,
         "fanout_drop": FANOUT, "fanout_block": FANOUT_BLOCK, "block": FANOUT_BLOCK}
STREAMS = {"in": ("in",), "stdin": ("in",), "out": ("out",), "stdout": ("out",),
           "err": ("err",), "stderr": ("err",), "both": ("out", "err"),
           "all": ("in", "out", "err")}
SCOPES = {"default": "default", "global": "default", "template": "default",
          "all": "all", "*": "all"}


@group.command("attach", args={})
def attach(call: Call) -> dict[str, Any]:
    """The VM runs in-process: always attached.  The reply is `info`, as before."""
    return {"info": {**info_payload(call), "attached": True}}


@group.command("detach", args={})
def detach(call: Call) -> dict[str, Any]:
    """Nothing to let go of; the tasks and the clock carry on.  The reply is `info`."""
    return {"info": {**info_payload(call), "attached": True}}


@group.command("stdio_fanout", "stdiofanout", feature="stdio", args={
    "pid": OneOf((PID, Str(16))), "stream": Str(choices=tuple(STREAMS)),
    "mode": Str(choices=tuple(MODES))})
def stdio_fanout(call: Call) -> dict[str, Any]:
    scope, pid = _scope(call)
    streams = STREAMS[call.str("stream", "all")]
    boxes = call.kernel.mailboxes
    mode_name = call.str("mode", None)
    applied: list[dict[str, Any]] = []
    if mode_name is not None:
        mask = MODES[mode_name]
        pids = [pid] if scope == "pid" else [t.pid for t in call.kernel.live_tasks()]
        for each in pids:
            call.control(each)
        if scope != "pid":
            call.server.sessions.check_writer(call.session)
        if scope == "default":
            for stream in streams:
                boxes.stdio_modes[f"svc:stdio.{stream}"] = int(mask)
            applied += [{"pid": "default", "stream": s, "mode_mask": int(mask)} for s in streams]
        for each in pids:
            for stream in streams:
                target = f"svc:stdio.{stream}@{each}"
                bound = boxes.bind(HOST_PID, target, 0, int(mask))
                if bound.status is not MbxStatus.OK:
                    raise mbx_refused(bound.status, target)
                call.kernel.deliver_wakes(bound.wakes)
                applied.append({"pid": each, "stream": stream, "mode_mask": int(mask)})
    config = _config(call, scope, pid, streams)
    if mode_name is not None:
        config.update(mode=_mode_name(MODES[mode_name]), mode_mask=int(MODES[mode_name]),
                      applied=applied)
    return {"config": config}


def _scope(call: Call) -> tuple[str, int | None]:
    """("pid", the live task) / ("default", None) / ("all", None) from `pid`."""
    value = call.field("pid")
    if value is None:
        return "default", None
    if isinstance(value, str):
        scope = SCOPES.get(value.strip().lower())
        if scope is None:
            raise bad_argument(f"'pid' must be a task's pid, \"default\" or \"all\", "
                               f"not {value!r}")
        return scope, None
    task = call.task()
    if task.ended:
        raise RequestError("task_ended", f"task {task.pid} has ended: its stdio is gone")
    return "pid", task.pid


def _config(call: Call, scope: str, pid: int | None,
            streams: tuple[str, ...]) -> dict[str, Any]:
    boxes = call.kernel.mailboxes
    template = [_stream(s, boxes.stdio_modes.get(f"svc:stdio.{s}", int(OFF))) for s in streams]
    if scope == "pid":
        return {"scope": "pid", "pid": pid, "streams": _task_streams(call, pid, streams)}
    config: dict[str, Any] = {"scope": scope, "streams": template}
    if scope == "all":
        config["default"] = template
        config["tasks"] = [{"pid": t.pid, "streams": _task_streams(call, t.pid, streams)}
                           for t in call.kernel.live_tasks()]
    return config


def _task_streams(call: Call, pid: int, streams: tuple[str, ...]) -> list[dict[str, Any]]:
    modes = {d["name"]: d["mode_mask"] for d in call.kernel.mailboxes.snapshot()["descriptors"]
             if d["owner_pid"] == pid and d["name"].startswith("stdio.")}
    return [_stream(s, modes.get(f"stdio.{s}", int(OFF))) for s in streams]


def _stream(stream: str, mask: int) -> dict[str, Any]:
    return {"stream": stream, "mode_mask": mask, "mode": _mode_name(MbxMode(mask))}


def _mode_name(mask: MbxMode) -> str:
    if not mask & MbxMode.FANOUT:
        return "off"
    return "fanout_block" if mask & MbxMode.FANOUT_BLOCK else "fanout"
