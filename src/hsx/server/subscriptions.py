"""Event subscriptions: filters, a bounded queue per subscriber, and the hub feeding them.

The hub is the server's only listener on the kernel's event bus, registered for exactly
the types some subscriber asked for (so high-rate `scheduler` events are not even built
unless someone names them).  Each subscription queues events until its connection can
write them.  A queue has two lanes:

* critical — `debug_break`, `task_state` and `fault` of PIDs the subscriber's session
  owns.  Never dropped.  When this lane alone fills the queue the subscription is
  *saturated* and the auto clock waits instead of producing more (back-pressure).
* droppable — everything else.  When the queue is full the oldest droppable event is
  lost, and the subscriber gets one `warning` event saying how many were lost before
  its next event.

Events are shared between queues and encoded once, on first write (`wirelines`).

A subscription may ask for *credit-based* delivery (`credit`): at most that many events
written to it and not yet acknowledged (`events.ack`).  The rest wait in the queue,
where the rules above apply: droppable events are dropped oldest first (with the
warning), and an owner's critical events fill the queue until the clock waits.  A
consumer that acknowledges slowly is thus paced by its acknowledgements, not by its
socket buffers.

A subscription may ask for output to be *coalesced* (`coalesce_ms`): a task's writes to
stdout (or stderr) still queued become one event, and output at the end of the queue
waits up to `coalesce_ms` for more -- a task printing 10,000 lines a second then costs
its subscriber tens of events a second instead of 10,000.

Output (`stdout`/`stderr`) of a task locked by a session goes only to that session and to
clients the executive authenticated with its token: a debugging session's program output
is not everyone's to read.
"""
from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from hsx.kernel.events import Event, EventBus, type_matches

from .errors import RequestError, bad_argument
from .framing import encode
from .wirelines import OutputRun, Wire, joined_lines

# Every event type a client can name.  Entries ending in "_" are families matched by
# prefix.  A new kernel event type must be added here (and to docs/protocol.md).
EVENT_TYPES = (
    "task_state", "fault", "debug_break", "stdout", "stderr", "dmesg", "can_tx",
    "scheduler", "trace_step", "watch_update", "warning", "input_dropped",
    "mailbox_", "value_", "cmd_",
)
HIGH_RATE = EventBus.HIGH_RATE                  # delivered only when asked for by name
CRITICAL = frozenset({"debug_break", "task_state", "fault"})
DEFAULT_CATEGORIES = tuple(t for t in EVENT_TYPES if t not in HIGH_RATE and t != "warning")
OUTPUT = frozenset({"stdout", "stderr"})
RUN_CHARS = 64 * 1024            # a coalesced output event carries at most about this much
RUN_REACH = 8                    # how far from the end of a queue an output run still grows


def check_categories(value: Any) -> tuple[str, ...]:
    """Normalise a `categories` field (a string or a list; none = the default set)."""
    if value is None or value == [] or value == "":
        return DEFAULT_CATEGORIES
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(c, str) and c for c in items):
        raise bad_argument("categories must be a string or a list of strings")
    for category in items:
        if not any(t == category or t.startswith(category) or
                   (t.endswith("_") and category.startswith(t)) for t in EVENT_TYPES):
            raise RequestError("unsupported_category", f"no event type matches {category!r}",
                               category=category)
    return tuple(dict.fromkeys(items))


def check_pids(value: Any) -> frozenset[int] | None:
    """Normalise a `pid`/`pids` filter (an int or a list; none = every PID)."""
    if value is None:
        return None
    items = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if (not isinstance(items, list) or
            not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in items)):
        raise bad_argument("pids must be a non-negative integer or a list of them")
    return frozenset(items)


@dataclass(frozen=True)
class Clause:
    """One filter: events of these types (exact or by prefix) from these PIDs.  With a
    PID filter, events that belong to no PID are left out."""

    pids: frozenset[int] | None
    categories: tuple[str, ...]

    def matches(self, type_: str, pid: int | None) -> bool:
        if self.pids is not None and pid not in self.pids:
            return False
        return type_matches(type_, self.categories)

    def view(self) -> dict[str, Any]:
        return {"pids": sorted(self.pids) if self.pids is not None else None,
                "categories": list(self.categories)}


class Sink(Protocol):
    """Where a subscription's events go (a connection)."""

    def events_ready(self, subscription: "Subscription") -> None: ...


class ReadySubscriptions:
    """A sink's subscriptions with events to write, in the order they became ready, and
    its one timer for output they hold back (`held_until`): armed by the first flush
    that leaves output held, left alone by the flushes after it (so they do not pile up
    timers), cleared when it fires and calls `flush`."""

    def __init__(self, flush: Callable[[], None]) -> None:
        self._flush = flush
        self._subscriptions: dict[Subscription, None] = {}
        self._timer: asyncio.TimerHandle | None = None

    def add(self, subscription: Subscription) -> None:
        self._subscriptions[subscription] = None

    def now(self) -> list[Subscription]:
        """The ready subscriptions, to drain one by one (then `drained`)."""
        return list(self._subscriptions)

    def drained(self, subscription: Subscription) -> None:
        """`subscription` gave what it had: it is done, or its held output is flushed when
        its hold ends."""
        due = subscription.held_until()
        if due is None:
            del self._subscriptions[subscription]
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(
                max(0.0, due - time.monotonic()), self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._flush()

    def close(self) -> None:
        """The sink is closed: nothing more to flush."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Subscription:
    def __init__(self, token: int, sink: Sink, session: Any, max_events: int,
                 hub: "EventHub") -> None:
        self.token = token
        self.sink = sink
        self.session = session
        self.max_events = max_events
        self.coalesce_s = 0.0            # how long output at the queue's end waits for more
        self._output_since = 0.0         # when that output was queued (time.monotonic)
        self.clauses: list[Clause] = []
        self._hub = hub
        self._critical: deque[Wire] = deque()
        self._droppable: deque[Wire] = deque()
        self._notified = False           # the sink was told there is something to take
        self._lost = 0                   # dropped since the last warning was written
        self._lost_first = 0
        self._lost_last = 0
        self.dropped = 0                 # dropped in total
        self.delivered = 0
        self.last_ack = 0
        self.credit: int | None = None   # events written and unacknowledged at most
        self._in_flight: deque[int] = deque()   # seqs written and not acknowledged (credit)
        self.high_water = 0
        self.trusted = False             # the client presented the executive's token

    def wants(self, type_: str, pid: int | None) -> bool:
        for clause in self.clauses:
            if clause.matches(type_, pid):
                return True
        return False

    def pids_for(self, type_: str) -> tuple[bool, frozenset[int] | None]:
        """Whether any clause names `type_`, and from which PIDs (None: every PID)."""
        pids: set[int] = set()
        wanted = False
        for clause in self.clauses:
            if type_matches(type_, clause.categories):
                if clause.pids is None:
                    return True, None
                wanted = True
                pids |= clause.pids
        return wanted, frozenset(pids)

    def may_see(self, owner: Any) -> bool:
        """Output of a task locked by session `owner`: only for that session, or for a
        client the executive authenticated with its token (`trusted`)."""
        return self.trusted or owner is self.session

    def is_critical(self, type_: str, pid: int | None) -> bool:
        return (type_ in CRITICAL and self.session is not None and pid is not None
                and pid in self.session.locks)

    @property
    def pending(self) -> int:
        return len(self._critical) + len(self._droppable)

    @property
    def saturated(self) -> bool:
        return len(self._critical) >= self.max_events

    def offer(self, wire: Wire, critical: bool) -> None:
        if self.coalesce_s and not critical and wire.event.type in OUTPUT:
            if self._extend_output(wire):
                return
            self._output_since = time.monotonic()
        droppable = self._droppable
        pending = len(droppable) + len(self._critical)
        if critical:
            self._critical.append(wire)
            if pending >= self.max_events and droppable:
                self._lose(droppable.popleft())
            else:
                pending += 1
        elif pending < self.max_events:
            droppable.append(wire)
            pending += 1
        elif droppable:
            self._lose(droppable.popleft())
            droppable.append(wire)
        else:
            self._lose(wire)
            return
        if pending > self.high_water:
            self.high_water = pending
        if not self._notified:           # once until the sink has taken everything
            self._notified = True
            self.sink.events_ready(self)

    def offer_many(self, wires: list[Wire]) -> None:
        """`offer` of each of `wires`, all droppable (and none output, unless output is
        not coalesced): the same queue, losses and warning, in one go."""
        if not wires:
            return
        droppable = self._droppable
        kept, critical = len(droppable), len(self._critical)
        droppable.extend(wires)
        # What offering them one by one leaves: the queue fills up to max_events, then
        # each new event pushes the oldest droppable one out (no fewer than were there).
        keep = max(kept, min(kept + len(wires), self.max_events - critical))
        for _ in range(kept + len(wires) - keep):
            self._lose(droppable.popleft())
        if critical + keep > self.high_water:
            self.high_water = critical + keep
        if not self._notified:
            self._notified = True
            self.sink.events_ready(self)

    def _output_tail(self) -> Wire | OutputRun | None:
        """The output event at the very end of the queue, if that is what is last."""
        if not self._droppable:
            return None
        tail = self._droppable[-1]
        if tail.event.type not in OUTPUT or (self._critical and self._critical[-1].seq > tail.seq):
            return None
        return tail

    def _extend_output(self, wire: Wire) -> bool:
        """Add a write to the task's output run still queued near the end, and move the
        run to the end: the droppable events it passes (the mailbox traffic of each
        write) go out before it.  It never passes a critical event or other output."""
        droppable = self._droppable
        for back in range(1, min(len(droppable), RUN_REACH) + 1):
            run = droppable[-back]
            if run.event.type in OUTPUT:
                break
        else:
            return False
        if (run.event.type != wire.event.type or run.event.pid != wire.event.pid
                or (self._critical and self._critical[-1].seq > run.seq)
                or isinstance(run, OutputRun) and run.chars >= RUN_CHARS):
            return False
        del droppable[-back]
        if not isinstance(run, OutputRun):
            run = OutputRun(run)
        run.add(wire)
        droppable.append(run)
        return True

    def held_until(self) -> float | None:
        """While output at the end of the queue waits for more: until when (monotonic)."""
        if not self.coalesce_s or self._output_tail() is None:
            return None
        due = self._output_since + self.coalesce_s
        return due if due > time.monotonic() else None

    def _lose(self, wire: Wire | OutputRun) -> None:
        if not self._lost:
            self._lost_first = getattr(wire, "first_seq", wire.seq)
        writes = getattr(wire, "writes", 1)
        self._lost += writes
        self._lost_last = wire.seq
        self.dropped += writes

    def take(self, limit: int) -> list[bytes]:
        """Up to `limit` events to write, oldest first, a loss warning in front, as
        chunks of whole lines; output still waiting for more (`held_until`) stays."""
        held = self._droppable.pop() if self.held_until() is not None else None
        try:
            return self._take(limit)
        finally:
            if not self._critical and not self._droppable:
                self._notified = False   # (a held run included): the next offer tells again
            if held is not None:
                self._droppable.append(held)

    def _take(self, limit: int) -> list[bytes]:
        if self.credit is not None:
            limit = min(limit, self.credit - len(self._in_flight))
            if limit <= 0:               # a warning waits for the event it goes before
                return []
        was_saturated = self.saturated
        out: list[bytes] = []
        if self._lost:
            out.append(self._warning())
            limit -= 1
        critical, droppable = self._critical, self._droppable
        if critical:
            items = []
            while len(items) < limit and (critical or droppable):
                if critical and (not droppable or critical[0].seq < droppable[0].seq):
                    items.append(critical.popleft())
                else:
                    items.append(droppable.popleft())
        else:                            # the common case: one lane, oldest first
            pop = droppable.popleft
            items = [pop() for _ in range(min(limit, len(droppable)))]
        if items:
            out.append(joined_lines(items))
            self.delivered += len(items)
            if self.credit is not None:
                self._in_flight.extend(item.seq for item in items)
        if was_saturated and not self.saturated:
            self._hub.unsaturated()
        return out

    def _warning(self) -> bytes:
        # Stands in for the lost events, so it carries the seq of the last one.
        line = encode({"seq": self._lost_last, "ts": round(time.time(), 6), "type": "warning",
                       "pid": None, "data": {"reason": "events_dropped", "dropped": self._lost,
                                             "first_seq": self._lost_first,
                                             "last_seq": self._lost_last,
                                             "subscription": self.token}})
        self._lost = 0
        return line

    def close(self) -> None:
        """Forget what is queued (the subscription was replaced or ended)."""
        self._critical.clear()
        self._droppable.clear()
        self._notified = False
        self._lost = 0

    def ack(self, seq: int) -> None:
        """The client has processed every event up to `seq`: with credit, that many
        more may be written (the sink is told when some wait)."""
        self.last_ack = max(self.last_ack, seq)
        in_flight = self._in_flight
        freed = 0
        while in_flight and in_flight[0] <= seq:
            in_flight.popleft()
            freed += 1
        if freed and self.pending:
            self._notified = True
            self.sink.events_ready(self)

    def stats(self) -> dict[str, Any]:
        return {"token": self.token, "max": self.max_events, "pending": self.pending,
                "coalesce_ms": round(self.coalesce_s * 1000),
                "credit": self.credit, "in_flight": len(self._in_flight),
                "delivered": self.delivered, "drops": self.dropped,
                "high_water": self.high_water, "last_ack": self.last_ack,
                "filters": [c.view() for c in self.clauses]}


class EventHub:
    """Fans kernel events out to subscriptions; one per session (or per connection for
    clients without a session)."""

    def __init__(self, bus: EventBus, now: float, on_unsaturated: Any,
                 owner_of: Callable[[int], Any] = lambda pid: None) -> None:
        self.bus = bus
        self._owner_of = owner_of                 # pid -> the session locking it, or None
        self._ts_offset = time.time() - now       # kernel clock -> epoch seconds
        self._on_unsaturated = on_unsaturated
        self._subs: dict[Any, Subscription] = {}
        # event type -> [(subscription, the PIDs it wants or None, a critical type?)],
        # built at the first event of each type after a subscription changed
        self._routes: dict[str, list[tuple[Subscription, frozenset[int] | None, bool]]] = {}
        self._next_token = 1
        self._listener = self._on_event          # one bound method: the bus compares identity
        self._listening = False

    def get(self, key: Any) -> Subscription | None:
        return self._subs.get(key)

    def subscribe(self, key: Any, sink: Sink, session: Any, max_events: int,
                  clauses: Iterable[Clause], *, replace: bool = True,
                  since_seq: int | None = None, coalesce_ms: int | None = None,
                  credit: int | None = None) -> tuple[Subscription, int]:
        """Create (or, with replace=False, extend) the subscription for `key`; replay
        retained history after `since_seq`.  Returns it and how many events replayed."""
        if since_seq is not None:
            self._check_since(since_seq)
        sub = self._subs.get(key)
        if replace or sub is None or sub.sink is not sink:
            if sub is not None:
                self._end(sub)
            sub = Subscription(self._next_token, sink, session, max_events, self)
            self._next_token += 1
            self._subs[key] = sub
        for clause in clauses:
            if clause not in sub.clauses:
                sub.clauses.append(clause)
        if coalesce_ms is not None:
            sub.coalesce_s = coalesce_ms / 1000
        if credit is not None:
            sub.credit = credit or None          # 0: no credit limit
        self._refresh()
        replayed = 0
        if since_seq is not None:
            for event in list(self.bus.history):
                owner = (self._owner_of(event.pid) if event.type in OUTPUT
                         and event.pid is not None else None)
                if (event.seq > since_seq and sub.wants(event.type, event.pid)
                        and (owner is None or sub.may_see(owner))):
                    sub.offer(Wire(event, self._ts_offset), sub.is_critical(event.type, event.pid))
                    replayed += 1
        return sub, replayed

    def unsubscribe(self, key: Any) -> bool:
        sub = self._subs.pop(key, None)
        if sub is None:
            return False
        self._end(sub)
        self._refresh()
        return True

    def remove_clause(self, key: Any, clause: Clause) -> None:
        """Stop delivering what `clause` asked for; the subscription ends with its last."""
        sub = self._subs.get(key)
        if sub is None or clause not in sub.clauses:
            return
        sub.clauses.remove(clause)
        if sub.clauses:
            self._refresh()
        else:
            self.unsubscribe(key)

    def _end(self, sub: Subscription) -> None:
        was_saturated = sub.saturated
        sub.close()
        if was_saturated:
            self._on_unsaturated()

    def drop_sink(self, sink: Sink) -> None:
        """A connection closed: its subscriptions end (their sessions may live on)."""
        for key in [k for k, s in self._subs.items() if s.sink is sink]:
            self.unsubscribe(key)

    def saturated(self) -> bool:
        for sub in self._subs.values():
            if sub.saturated:
                return True
        return False

    def unsaturated(self) -> None:
        self._on_unsaturated()

    def _check_since(self, since_seq: int) -> None:
        history = self.bus.history
        last = self.bus.last_seq
        if since_seq > last:
            raise RequestError("seq_evicted", f"seq {since_seq} is newer than the last event "
                               f"({last}): the executive was restarted; resync fully",
                               oldest_seq=history[0].seq if history else last + 1,
                               last_seq=last)
        if (history and len(history) == history.maxlen and since_seq + 1 < history[0].seq):
            raise RequestError("seq_evicted", f"events after {since_seq} are no longer "
                               f"retained (oldest is {history[0].seq}); resync fully",
                               oldest_seq=history[0].seq, last_seq=last)

    def _on_event(self, event: Event) -> None:
        type_ = event.type
        route = self._routes.get(type_)
        if route is None:
            route = self._route(type_)
        pid = event.pid
        private = self._owner_of(pid) if type_ in OUTPUT and pid is not None else None
        wire = None
        for sub, pids, critical_type in route:
            if (pids is None or pid in pids) and (private is None or sub.may_see(private)):
                if wire is None:
                    wire = Wire(event, self._ts_offset)
                else:
                    wire.shared = True
                sub.offer(wire, critical_type and sub.is_critical(type_, pid))

    def _on_events(self, events: list[Event]) -> None:
        """Events of one type in a row (`EventBus.emit_batch`, or a task's writes the bus
        held): each subscription that wants some gets them in one `offer_many`."""
        type_ = events[0].type
        if type_ in CRITICAL:
            for event in events:
                self._on_event(event)
            return
        route = self._routes.get(type_)
        if route is None:
            route = self._route(type_)
        if not route:
            return
        offset = self._ts_offset
        wires = [Wire(event, offset) for event in events]
        if type_ in OUTPUT:
            self._offer_output(wires, route)
            return
        if len(route) > 1:
            for wire in wires:
                wire.shared = True
        for sub, pids, _ in route:
            sub.offer_many(wires if pids is None else
                           [wire for wire in wires if wire.event.pid in pids])

    def _offer_output(self, wires: list[Wire],
                      route: list[tuple[Subscription, frozenset[int] | None, bool]]) -> None:
        """Output writes to the subscriptions that want them and may see them (output of
        a locked task is private), as `_on_event` offers each."""
        owner_of = self._owner_of
        owners = {pid: owner_of(pid) for pid in {wire.event.pid for wire in wires}}
        private = any(owner is not None for owner in owners.values())
        chosen = []
        for sub, pids, _ in route:
            if private:
                mine = [wire for wire in wires if (pids is None or wire.event.pid in pids)
                        and (owners[wire.event.pid] is None
                             or sub.may_see(owners[wire.event.pid]))]
            else:
                mine = wires if pids is None else [w for w in wires if w.event.pid in pids]
            if mine:
                chosen.append((sub, mine))
        if len(chosen) > 1:
            offered: set[int] = set()
            for _, mine in chosen:
                for wire in mine:
                    if id(wire) in offered:
                        wire.shared = True
                    offered.add(id(wire))
        for sub, mine in chosen:
            if sub.coalesce_s:               # each write may join the run before it
                for wire in mine:
                    sub.offer(wire, False)
            else:
                sub.offer_many(mine)

    def _route(self, type_: str) -> list[tuple[Subscription, frozenset[int] | None, bool]]:
        route = []
        for sub in self._subs.values():
            wanted, pids = sub.pids_for(type_)
            if wanted:
                route.append((sub, pids, type_ in CRITICAL))
        self._routes[type_] = route
        return route

    def _refresh(self) -> None:
        """Listen on the bus for the union of what subscribers want, and nothing more."""
        self._routes = {}
        if self._listening:
            self.bus.unsubscribe(self._listener)
            self._listening = False
        types = {c for sub in self._subs.values() for clause in sub.clauses
                 for c in clause.categories}
        if types:
            self.bus.subscribe(self._listener, types, batch=self._on_events)
            self._listening = True
