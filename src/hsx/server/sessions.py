"""Sessions, PID locks and who may change what.

A session is a client's identity across requests (and across connections: a client may
keep one connection for requests and another for events).  It may own PIDs: while it
does, nobody else may change those tasks.  It ends when the client closes it, when it
misses its heartbeat, or when the connection that opened it goes away; every way out
runs the same release hooks, so locks (and, later, breakpoints and watches) can never
outlive their owner.

Session ids are bearer secrets (whoever presents one acts as that session), so they are
only ever shown to their own session; everyone else sees the public `handle` ("s3").
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from hsx.kernel.registry import Auth

from .errors import RequestError, bad_argument

DEFAULT_HEARTBEAT_S = 30.0
DEFAULT_AUTH = Auth.USER              # what a person at the shell is trusted with
HEARTBEAT_RANGE = (1.0, 300.0)
MIN_MAX_EVENTS = 2
MAX_PER_CONNECTION = 16               # sessions one connection may hold open at once

ReleaseHook = Callable[["Session", str], None]


@dataclass(eq=False)
class Session:
    id: str
    handle: str
    client: str
    observer: bool
    heartbeat_s: float
    max_events: int
    features: list[str]
    home: Any                                # the connection that opened it
    auth: int = DEFAULT_AUTH                 # for values and commands (docs/values.md)
    created_at: float = field(default_factory=time.time)
    last_seen: float = field(default_factory=time.monotonic)
    locks: set[int] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    closed: bool = False
    variant: str = "development"             # the executive's (so a client knows what it has)

    def view(self, *, own: bool) -> dict[str, Any]:
        """What `session.open`/`session.list` report; the id only to its owner."""
        now = time.monotonic()
        row: dict[str, Any] = {
            "handle": self.handle, "client": self.client, "observer": self.observer,
            "heartbeat_s": self.heartbeat_s, "features": list(self.features),
            "variant": self.variant,
            "auth": Auth(self.auth).name,
            "max_events": self.max_events, "pid_lock": sorted(self.locks),
            "created_at": self.created_at, "age_s": round(time.time() - self.created_at, 3),
            "idle_s": round(now - self.last_seen, 3)}
        if own:
            row["id"] = self.id
            if self.warnings:
                row["warnings"] = list(self.warnings)
        return row


class SessionTable:
    def __init__(self, *, features: Iterable[str], default_max_events: int,
                 variant: str = "development") -> None:
        self.features = frozenset(features)      # what the executive's variant offers
        self.variant = variant
        self.default_max_events = default_max_events
        self.max_max_events = 16 * default_max_events
        self._sessions: dict[str, Session] = {}
        self._owners: dict[int, Session] = {}
        self._hooks: list[ReleaseHook] = []
        self._next_handle = 1

    def __len__(self) -> int:
        return len(self._sessions)

    def __iter__(self):
        return iter(list(self._sessions.values()))

    def add_release_hook(self, hook: ReleaseHook) -> None:
        """`hook(session, reason)` runs when a session ends for any reason, after its
        locks are released (debugger state keyed by session hangs off this)."""
        self._hooks.append(hook)

    # ------------------------------------------------------------------ lifecycle

    def open(self, *, client: str, observer: bool, pid_lock: list[int], heartbeat_s: Any,
             features: Any, max_events: Any, auth: Any, home: Any) -> Session:
        warnings: list[str] = []
        if home is not None and sum(s.home is home for s in self._sessions.values()) >= \
                MAX_PER_CONNECTION:
            raise RequestError("too_many_sessions",
                               f"this connection has {MAX_PER_CONNECTION} sessions open, the "
                               "most it may: close one (session.close) first")
        if observer and pid_lock:
            raise bad_argument("an observer session cannot lock PIDs")
        for pid in pid_lock:
            owner = self._owners.get(pid)
            if owner is not None:
                raise _locked(pid, owner)
        session = Session(
            id=secrets.token_hex(16), handle=f"s{self._next_handle}", client=client,
            observer=observer, heartbeat_s=self._heartbeat(heartbeat_s, warnings),
            max_events=self._max_events(max_events, warnings),
            features=self._features(features, warnings), home=home, warnings=warnings,
            auth=_auth(auth), variant=self.variant)
        self._next_handle += 1
        self._sessions[session.id] = session
        for pid in pid_lock:
            self.lock(session, pid)
        return session

    def get(self, session_id: str) -> Session:
        """The live session with this id (and note that its client is alive)."""
        session = self._sessions.get(session_id)
        if session is None:
            raise RequestError("session_required",
                               "unknown or expired session: open a new one")
        session.last_seen = time.monotonic()
        return session

    def close(self, session: Session, reason: str) -> None:
        if session.closed:
            return
        session.closed = True
        del self._sessions[session.id]
        for pid in list(session.locks):
            self.unlock(session, pid)
        errors = []
        for hook in self._hooks:
            try:
                hook(session, reason)
            except Exception as error:      # every hook runs; the first failure is raised
                errors.append(error)
        if errors:
            raise errors[0]

    def expire(self, now: float | None = None) -> list[Session]:
        """Close every session that missed its heartbeat; returns them."""
        now = time.monotonic() if now is None else now
        gone = [s for s in self._sessions.values() if now - s.last_seen > s.heartbeat_s]
        for session in gone:
            self.close(session, "expired")
        return gone

    def close_home(self, connection: Any) -> None:
        """The connection went away: end the sessions it opened."""
        for session in [s for s in self._sessions.values() if s.home is connection]:
            self.close(session, "disconnected")

    # ------------------------------------------------------------------ locks

    def owner(self, pid: int) -> Session | None:
        return self._owners.get(pid)

    def lock(self, session: Session, pid: int) -> None:
        if session.observer:
            raise RequestError("read_only", "an observer session cannot lock PIDs")
        owner = self._owners.get(pid)
        if owner is not None and owner is not session:
            raise _locked(pid, owner)
        self._owners[pid] = session
        session.locks.add(pid)

    def unlock(self, session: Session, pid: int) -> None:
        if self._owners.get(pid) is session:
            del self._owners[pid]
        session.locks.discard(pid)

    # ------------------------------------------------------------------ access policy

    @staticmethod
    def check_writer(session: Session | None) -> None:
        """Refuse any change from an observer session."""
        if session is not None and session.observer:
            raise RequestError("read_only", f"session {session.handle} is an observer")

    def check_control(self, session: Session | None, pid: int) -> None:
        """Refuse a change to `pid` unless the caller may make it: not an observer, and
        the PID is unlocked or locked by the caller."""
        self.check_writer(session)
        owner = self._owners.get(pid)
        if owner is not None and owner is not session:
            raise _locked(pid, owner)

    # ------------------------------------------------------------------ negotiation

    def _heartbeat(self, value: Any, warnings: list[str]) -> float:
        if value is None:
            return DEFAULT_HEARTBEAT_S
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise bad_argument("heartbeat_s must be a positive number of seconds")
        low, high = HEARTBEAT_RANGE
        clamped = min(max(float(value), low), high)
        if clamped != value:
            warnings.append(f"heartbeat_clamped:{clamped:g}")
        return clamped

    def _max_events(self, value: Any, warnings: list[str]) -> int:
        if value is None:
            return self.default_max_events
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise bad_argument("capabilities.max_events must be a positive integer")
        clamped = min(max(value, MIN_MAX_EVENTS), self.max_max_events)
        if clamped != value:
            warnings.append(f"max_events_clamped:{clamped}")
        return clamped

    def _features(self, value: Any, warnings: list[str]) -> list[str]:
        if value is None:
            return sorted(self.features)
        if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
            raise bad_argument("capabilities.features must be a list of strings")
        accepted = []
        for name in value:
            if name in self.features:
                if name not in accepted:
                    accepted.append(name)
            else:
                warnings.append(f"unsupported_feature:{name}")
        return accepted


def _locked(pid: int, owner: Session) -> RequestError:
    return RequestError(f"pid_locked:{pid}", f"pid {pid} is locked by session {owner.handle}")


def _auth(value: Any) -> int:
    """An auth level by name (`"admin"`) or number; absent: USER."""
    if value is None:
        return DEFAULT_AUTH
    try:
        if isinstance(value, str):
            return Auth[value.strip().upper()]
        if isinstance(value, int) and not isinstance(value, bool):
            return Auth(value)
    except (KeyError, ValueError):
        pass
    raise bad_argument(f"auth must be one of {', '.join(a.name for a in Auth)} (or 0..3), "
                       f"not {value!r}")
