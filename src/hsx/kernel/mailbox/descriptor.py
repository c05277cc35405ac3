"""Descriptors and handles: the queue storage and who may read what from it.

A descriptor holds one FIFO of messages.  In queue mode a message goes to exactly one
receiver.  In fan-out mode every handle that can read is a subscriber with a cursor
(the sequence number it wants next); it receives every message sent after it opened
except its own, and a message is reclaimed once no subscriber still needs it.  A tap
gets its own bounded copy buffer, so it never holds back the queue.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from itertools import islice

from hsx.kernel.constants import MESSAGE_HEADER_BYTES, MbxFlag, MbxMode
from hsx.kernel.mailbox.targets import Target


@dataclass(frozen=True)
class Message:
    """One queued message, as a receiver gets it."""

    payload: bytes
    flags: int
    channel: int
    src_pid: int
    seq: int                 # per descriptor, from 0
    src_handle: int = 0      # the sender's handle number (0: not sent through a handle)

    @property
    def length(self) -> int:
        return len(self.payload)

    @property
    def cost(self) -> int:
        """Bytes of capacity the message occupies (payload plus the wire header)."""
        return len(self.payload) + MESSAGE_HEADER_BYTES

    def sent_by(self, handle: Handle) -> bool:
        return (self.src_pid, self.src_handle) == (handle.pid, handle.number)

    def with_overrun(self) -> Message:
        return replace(self, flags=self.flags | int(MbxFlag.OVERRUN))


@dataclass(eq=False)
class TapBuffer:
    """Copies for one tap; full means the oldest copy is dropped, never that the sender waits."""

    messages: deque[Message] = field(default_factory=deque)
    bytes_used: int = 0
    overrun: bool = False

    def push(self, message: Message, capacity: int) -> list[Message]:
        dropped = []
        while self.messages and self.bytes_used + message.cost > capacity:
            dropped.append(self._pop())
        self.overrun = self.overrun or bool(dropped)
        self.messages.append(message)
        self.bytes_used += message.cost
        return dropped

    def take(self) -> Message:
        message = self._pop()
        if self.overrun:
            self.overrun = False
            message = message.with_overrun()
        return message

    def _pop(self) -> Message:
        message = self.messages.popleft()
        self.bytes_used -= message.cost
        return message


@dataclass(eq=False)
class Handle:
    """One task's open reference to a descriptor."""

    pid: int
    number: int
    descriptor: Descriptor
    access: MbxMode
    cursor: int = 0          # fan-out: sequence number of the next message wanted
    overrun: bool = False    # fan-out: messages were dropped before this reader saw them
    tap: TapBuffer | None = None

    def __post_init__(self) -> None:
        self.can_read = bool(self.access & MbxMode.RDONLY)
        self.can_write = bool(self.access & MbxMode.WRONLY)

    @property
    def is_reader(self) -> bool:
        """Whether this handle receives from the shared queue (fan-out: is a subscriber)."""
        return self.tap is None and self.can_read


@dataclass(eq=False)
class Waiter:
    """A task blocked in RECV on `handle`; `deadline` is only reported, the kernel times it."""

    pid: int
    handle: Handle
    deadline: float | None
    max_len: int | None


@dataclass(eq=False)
class Descriptor:
    """One mailbox: its queue, its handles and the tasks waiting on it."""

    id: int
    target: Target
    capacity: int
    mode: MbxMode
    messages: deque[Message] = field(default_factory=deque)
    next_seq: int = 0
    bytes_used: int = 0
    handles: list[Handle] = field(default_factory=list)
    binders: set[int] = field(default_factory=set)   # pids whose BIND keeps it alive
    waiters: list[Waiter] = field(default_factory=list)  # FIFO: first blocked, first served

    def __post_init__(self) -> None:
        self._derive()

    def _derive(self) -> None:
        """The mode's bits as plain booleans: Flag arithmetic is slow on the send path."""
        self.fanout = bool(self.mode & MbxMode.FANOUT)
        # Queue mode and FANOUT_BLOCK refuse a send; FANOUT(_DROP) drops the oldest instead.
        self.blocks_when_full = not self.fanout or bool(self.mode & MbxMode.FANOUT_BLOCK)

    @property
    def head_seq(self) -> int:
        return self.messages[0].seq if self.messages else self.next_seq

    @property
    def in_use(self) -> bool:
        return bool(self.handles or self.binders or self.messages)

    def readers(self) -> list[Handle]:
        return [h for h in self.handles if h.is_reader]

    def taps(self) -> list[Handle]:
        return [h for h in self.handles if h.tap is not None]

    def attach(self, handle: Handle) -> None:
        handle.cursor = self.next_seq        # fan-out subscribers get messages sent from now on
        self.handles.append(handle)

    def detach(self, handle: Handle) -> None:
        self.handles.remove(handle)
        self.reclaim()

    def set_tap(self, handle: Handle, enable: bool) -> None:
        handle.tap = TapBuffer() if enable else None
        handle.cursor, handle.overrun = self.next_seq, False
        self.reclaim()

    def reconfigure(self, capacity: int, mode: MbxMode) -> None:
        """Change capacity or mode without losing queued messages.

        A smaller capacity only refuses (or, in drop mode, drops on) later sends until the
        backlog fits.  Switching between queue and fan-out gives every reader the backlog.
        """
        switched = self.fanout != bool(mode & MbxMode.FANOUT)
        self.capacity, self.mode = capacity, mode
        self._derive()
        if switched:
            for handle in self.handles:
                handle.cursor, handle.overrun = self.head_seq, False
        self.reclaim()

    # -- receiving ---------------------------------------------------------------------

    def pending(self, handle: Handle) -> Message | None:
        """The next message `handle` would receive, without consuming it."""
        if handle.tap is not None:
            return handle.tap.messages[0] if handle.tap.messages else None
        if not self.fanout:
            return self.messages[0] if self.messages else None
        index = self._unseen(handle)
        return None if index is None else self.messages[index]

    def pending_count(self, handle: Handle) -> int:
        if handle.tap is not None:
            return len(handle.tap.messages)
        if not self.fanout:
            return len(self.messages)
        start = max(0, handle.cursor - self.head_seq)
        return sum(not m.sent_by(handle) for m in islice(self.messages, start, None))

    def take(self, handle: Handle) -> Message:
        """Consume the message `pending(handle)` returned; OVERRUN marks a gap before it."""
        if handle.tap is not None:
            return handle.tap.take()
        if not self.fanout:
            return self._pop()
        message = self.pending(handle)
        assert message is not None, "take() without a pending message"
        handle.cursor = message.seq + 1
        if handle.overrun:
            handle.overrun = False
            message = message.with_overrun()
        self.reclaim()
        return message

    def _unseen(self, handle: Handle) -> int | None:
        """Index of the first queued message a subscriber has not seen (its own count as seen)."""
        for index in range(max(0, handle.cursor - self.head_seq), len(self.messages)):
            if not self.messages[index].sent_by(handle):
                return index
        return None

    # -- sending -----------------------------------------------------------------------

    def has_room(self, cost: int) -> bool:
        return self.bytes_used + cost <= self.capacity

    def enqueue(self, message: Message) -> tuple[list[Message], list[tuple[Handle, list[Message]]]]:
        """Append `message` (the caller checked room or drop policy).

        Returns the queue messages dropped to make room (fan-out drop policy) and, per
        tap, the copies its buffer dropped.
        """
        dropped = []
        while self.messages and not self.has_room(message.cost):
            oldest = self._pop()
            dropped.append(oldest)
            for reader in self.readers():
                if reader.cursor <= oldest.seq:
                    reader.cursor = oldest.seq + 1
                    reader.overrun = reader.overrun or not oldest.sent_by(reader)
        self.messages.append(message)
        self.bytes_used += message.cost
        self.next_seq += 1
        tap_drops = [(tap, tap.tap.push(message, self.capacity)) for tap in self.taps() if tap.tap]
        self.reclaim()
        return dropped, [(tap, lost) for tap, lost in tap_drops if lost]

    def reclaim(self) -> None:
        """Fan-out: forget messages no subscriber still needs (all of them if nobody subscribes)."""
        if not self.fanout:
            return
        floor = self.next_seq
        for reader in self.readers():
            index = self._unseen(reader)
            if index is not None:
                floor = min(floor, self.messages[index].seq)
        while self.messages and self.messages[0].seq < floor:
            self._pop()

    def _pop(self) -> Message:
        message = self.messages.popleft()
        self.bytes_used -= message.cost
        return message
