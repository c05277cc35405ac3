"""Whole-executive commands: ping, info, ps, dmesg, shutdown."""
from __future__ import annotations

import asyncio
import os
from typing import Any

from hsx import __version__
from hsx.kernel.profiles import FULL_FEATURES, variant_offering

from ..dispatch import Call, Group
from ..dmesg import LEVELS
from ..schema import COUNT, NAME, PID, Str
from ..views import current_pid, registers, scheduler_trace, task_row

group = Group("core")


@group.command("ping", args={})
def ping(call: Call) -> dict[str, Any]:
    return {"reply": "pong", "protocol": 1, "server": "hsx-execd", "hsx_version": __version__}


@group.command("info", args={"pid": PID})
def info(call: Call) -> dict[str, Any]:
    data = info_payload(call)
    if call.has("pid"):
        task = call.task()
        data["selected_pid"] = task.pid
        data["selected_registers"] = registers(task)
    return {"info": data}


def info_payload(call: Call) -> dict[str, Any]:
    """What `info` reports about the whole executive (also `attach`'s reply)."""
    server, kernel = call.server, call.kernel
    host, port = server.address or ("", 0)
    return {
        "program": "hsx-execd", "hsx_version": __version__, "protocol": 1,
        "address": f"{host}:{port}", "process_id": os.getpid(),
        "uptime_s": round(kernel.clock.now() - kernel.started_at, 3),
        "profile": kernel.profile.name, "variant": kernel.profile.name,
        "limits": kernel.profile.as_dict(), "features": sorted(kernel.profile.features),
        "variant_required": {feature: variant_offering(feature) for feature in
                             sorted(FULL_FEATURES - kernel.profile.features)},
        "tasks": [task_row(server, t) for t in kernel.tasks.values()],
        "current_pid": current_pid(kernel), "instructions": kernel.total_instructions,
        "auto": server.clock.running, "clock": server.clock.status(),
        "scheduler": {"queued": kernel.scheduler.queued(),
                      "trace": scheduler_trace(kernel, 32)},
        "sessions": len(server.sessions), "connections": len(server.connections),
        "events": {"last_seq": kernel.events.last_seq, "retained": len(kernel.events.history)},
    }


@group.command("ps", "list_tasks", args={"pid": PID})
def ps(call: Call) -> dict[str, Any]:
    server, kernel = call.server, call.kernel
    tasks = [call.task()] if call.has("pid") else list(kernel.tasks.values())
    return {"tasks": {"tasks": [task_row(server, t) for t in tasks],
                      "current_pid": current_pid(kernel)}}


@group.command("dmesg", "log", args={
    "level": Str(choices=LEVELS), "limit": COUNT, "pid": PID, "filter_session": NAME})
def dmesg(call: Call) -> dict[str, Any]:
    level = call.str("level", None)
    return {"logs": call.server.log.entries(
        limit=call.int("limit", 100, min=0), level=level, pid=call.int("pid", None, min=0),
        session=call.str("filter_session", None))}


@group.command("shutdown", writes=True, args={})
def shutdown(call: Call) -> dict[str, Any]:
    for task in call.kernel.live_tasks():
        call.control(task.pid)
    call.server.log.log("info", f"shutdown requested by {call.conn.peer}")
    asyncio.get_running_loop().call_soon(call.server.request_shutdown)
    return {"shutdown": True}
