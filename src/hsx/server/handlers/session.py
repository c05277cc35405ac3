"""session.open / keepalive / close / list, and taking or dropping PID locks later."""
from __future__ import annotations

from typing import Any

from ..dispatch import Call, Group
from ..schema import MAX_U32, NAME, PID, Bool, Int, ListOf, Num, Obj, OneOf, Str
from ..variants import unsupported

group = Group("session")


def _pids(call: Call, name: str) -> list[int]:
    """A PID or a list of them (checked by the schema), without repeats."""
    return list(dict.fromkeys(call.field(name) or []))


@group.command("session.open", args={
    "client": NAME, "observer": Bool(), "pid_lock": ListOf(PID),
    "heartbeat_s": Num(0.001, 1e9), "auth": OneOf((Int(0, 3), Str(16))),
    "capabilities": Obj({"features": ListOf(NAME, single=False), "max_events": Int(1, MAX_U32)})})
def session_open(call: Call) -> dict[str, Any]:
    capabilities = call.field("capabilities") or {}
    profile = call.kernel.profile
    if call.bool("observer") and not profile.offers("observers"):
        raise unsupported("observer sessions", "observers", profile.name, plural=True)
    session = call.server.sessions.open(
        client=call.str("client", "unknown"), observer=call.bool("observer"),
        pid_lock=_pids(call, "pid_lock"),
        heartbeat_s=call.field("heartbeat_s"), features=capabilities.get("features"),
        max_events=capabilities.get("max_events"), auth=call.field("auth"),
        home=call.conn)
    call.server.log.log("info", f"session {session.handle} opened by {session.client} "
                        f"from {call.conn.peer}", session=session.handle)
    return {"session": session.view(own=True)}


@group.command("session.keepalive", "session.heartbeat", needs_session=True, args={})
def session_keepalive(call: Call) -> dict[str, Any]:
    return {"heartbeat_s": call.require_session().heartbeat_s}


@group.command("session.close", needs_session=True, args={})
def session_close(call: Call) -> dict[str, Any]:
    session = call.require_session()
    call.server.sessions.close(session, "closed")
    return {"closed": session.handle}


@group.command("session.list", args={})
def session_list(call: Call) -> dict[str, Any]:
    return {"sessions": [s.view(own=s is call.session) for s in call.server.sessions]}


@group.command("session.lock", needs_session=True, args={"pid": ListOf(PID)})
def session_lock(call: Call) -> dict[str, Any]:
    session = call.require_session()
    for pid in _pids(call, "pid") or [call.int("pid")]:
        call.server.sessions.lock(session, pid)
    return {"session": session.view(own=True)}


@group.command("session.unlock", needs_session=True, args={"pid": ListOf(PID)})
def session_unlock(call: Call) -> dict[str, Any]:
    session = call.require_session()
    for pid in _pids(call, "pid") or [call.int("pid")]:
        call.server.sessions.unlock(session, pid)
    call.server.clock.wake()
    return {"session": session.view(own=True)}
