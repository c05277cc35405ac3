"""events.subscribe / unsubscribe / ack: the push stream on a client's connection.

A session has one subscription (subscribing again replaces it, from any connection);
a client without a session gets one per connection, whose events are all droppable.
"""
from __future__ import annotations

from typing import Any

from ..dispatch import Call, Group
from ..errors import RequestError
from ..schema import PID, Int, ListOf, Obj, Str
from ..subscriptions import Clause, check_categories, check_pids

group = Group("events", feature="events")
SEQ = Int(0, 2 ** 63 - 1)
MAX_CREDIT = 1 << 16             # events in flight one subscriber may ask for


def subscription_key(call: Call) -> Any:
    return call.session if call.session is not None else call.conn


def may_read_output(call: Call, pid: int) -> bool:
    """Output of a task locked by a session is that session's, and any client's the
    executive authenticated with its token."""
    owner = call.server.sessions.owner(pid)
    return owner is None or owner is call.session or trusted(call)


def trusted(call: Call) -> bool:
    """The client presented the executive's token (it has one)."""
    return call.server.token is not None


def max_events(call: Call) -> int:
    if call.session is not None:
        return call.session.max_events
    return call.server.sessions.default_max_events


_FILTERS = {"pids|pid": ListOf(PID), "categories": ListOf(Str(64)), "since_seq": SEQ}


@group.command("events.subscribe", "subscribe",
               args={**_FILTERS, "filters": Obj(_FILTERS), "coalesce_ms": Int(0, 1000),
                     "credit": Int(0, MAX_CREDIT)})
def subscribe(call: Call) -> dict[str, Any]:
    filters = call.field("filters") or {}       # the older form nests the filter fields

    def pick(*names: str) -> Any:
        found = [source[n] for source in (filters, call.args) for n in names
                 if source.get(n) is not None]
        return found[0] if found else None

    clause = Clause(check_pids(pick("pids", "pid")), check_categories(pick("categories")))
    since = pick("since_seq")
    hub = call.server.hub
    sub, replayed = hub.subscribe(subscription_key(call), call.conn, call.session,
                                  max_events(call), [clause], since_seq=since,
                                  coalesce_ms=call.field("coalesce_ms") or 0,
                                  credit=call.field("credit") or 0)
    sub.trusted = trusted(call)
    reply = {**sub.stats(), "cursor": hub.bus.last_seq, "replayed": replayed,
             "retained": len(hub.bus.history)}
    if since is not None:
        reply["since_seq"] = since
    return {"events": reply}


@group.command("events.unsubscribe", "unsubscribe", args={})
def unsubscribe(call: Call) -> dict[str, Any]:
    return {"unsubscribed": call.server.hub.unsubscribe(subscription_key(call))}


@group.command("events.ack", args={"seq": SEQ})
def ack(call: Call) -> dict[str, Any]:
    seq = call.int("seq", min=0)
    sub = call.server.hub.get(subscription_key(call))
    if sub is None:
        raise RequestError("not_subscribed", "events.ack without a subscription")
    sub.ack(seq)
    return {"events": sub.stats()}
