"""session.open / keepalive / close / list, and taking or dropping PID locks later."""
from __future__ import annotations

from typing import Any

from ..dispatch import Call, Group
from ..errors import bad_argument

group = Group("session")


def _pid_list(value: Any) -> list[int]:
    if value is None:
        return []
    items = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if (not isinstance(items, list) or
            not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in items)):
        raise bad_argument("pid_lock must be a PID, a list of PIDs, or null")
    return list(dict.fromkeys(items))


@group.command("session.open")
def session_open(call: Call) -> dict[str, Any]:
    capabilities = call.args.get("capabilities") or {}
    if not isinstance(capabilities, dict):
        raise bad_argument("capabilities must be an object")
    session = call.server.sessions.open(
        client=call.str("client", "unknown"), observer=call.bool("observer"),
        pid_lock=_pid_list(call.args.get("pid_lock")),
        heartbeat_s=call.args.get("heartbeat_s"), features=capabilities.get("features"),
        max_events=capabilities.get("max_events"), auth=call.args.get("auth"),
        home=call.conn)
    call.server.log.log("info", f"session {session.handle} opened by {session.client} "
                        f"from {call.conn.peer}", session=session.handle)
    return {"session": session.view(own=True)}


@group.command("session.keepalive", "session.heartbeat", needs_session=True)
def session_keepalive(call: Call) -> dict[str, Any]:
    return {"heartbeat_s": call.require_session().heartbeat_s}


@group.command("session.close", needs_session=True)
def session_close(call: Call) -> dict[str, Any]:
    session = call.require_session()
    call.server.sessions.close(session, "closed")
    return {"closed": session.handle}


@group.command("session.list")
def session_list(call: Call) -> dict[str, Any]:
    return {"sessions": [s.view(own=s is call.session) for s in call.server.sessions]}


@group.command("session.lock", needs_session=True)
def session_lock(call: Call) -> dict[str, Any]:
    session = call.require_session()
    for pid in _pid_list(call.args.get("pid")) or [call.int("pid", min=0)]:
        call.server.sessions.lock(session, pid)
    return {"session": session.view(own=True)}


@group.command("session.unlock", needs_session=True)
def session_unlock(call: Call) -> dict[str, Any]:
    session = call.require_session()
    for pid in _pid_list(call.args.get("pid")) or [call.int("pid", min=0)]:
        call.server.sessions.unlock(session, pid)
    call.server.clock.wake()
    return {"session": session.view(own=True)}
