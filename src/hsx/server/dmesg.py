"""The executive's log (`dmesg`): a bounded ring of what happened, newest last.

Fed by the kernel (`dmesg` events, faults, tasks ending) and by the server (sessions,
connections, refused logins, internal errors), so one command answers "what went on".
"""
from __future__ import annotations

import time
from collections import deque
from typing import Any

from hsx.kernel.events import Event

LEVELS = ("debug", "info", "warning", "error")
KERNEL_TYPES = {"dmesg", "fault", "task_state"}


class Dmesg:
    def __init__(self, size: int = 512) -> None:
        self._ring: deque[dict[str, Any]] = deque(maxlen=size)
        self._seq = 0

    def log(self, level: str, message: str, **fields: Any) -> None:
        self._seq += 1
        self._ring.append({"seq": self._seq, "ts": round(time.time(), 6), "level": level,
                           "message": message, **{k: v for k, v in fields.items()
                                                  if v is not None}})

    def on_kernel_event(self, event: Event) -> None:
        data = event.data
        if event.type == "dmesg":
            self.log(data.get("level", "info"), str(data.get("message", "")), pid=event.pid)
        elif event.type == "fault":
            self.log("error", f"task {event.pid} faulted: {data.get('message', data.get('kind'))}",
                     pid=event.pid)
        elif event.type == "task_state" and data.get("new_state") in ("returned", "killed"):
            status = data.get("exit_status")
            suffix = f" (exit status {status})" if status is not None else ""
            self.log("info", f"task {event.pid} {data['new_state']}{suffix}", pid=event.pid)

    def entries(self, *, limit: int, level: str | None = None, pid: int | None = None,
                session: str | None = None) -> list[dict[str, Any]]:
        floor = LEVELS.index(level) if level else 0
        rows = [e for e in self._ring
                if LEVELS.index(e["level"]) >= floor
                and (pid is None or e.get("pid") == pid)
                and (session is None or e.get("session") == session)]
        return rows[-limit:] if limit else []
