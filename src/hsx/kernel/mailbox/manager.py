"""The executive's mailbox manager: descriptors, per-task handles, delivery and wake-ups.

One manager per executive.  It is pure bookkeeping: it never touches VM memory, never
schedules and never reads a clock.  The kernel calls it from SVC handlers and acts on
what comes back (a status for R0, and `Wake`s for blocked receivers to resume), and
it arms its own timers for receive deadlines, calling `expire_waiter` when one fires.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Callable

from hsx.kernel.constants import (
    ACCESS_MASK,
    DEFAULT_CAPACITY,
    MAX_CAPACITY,
    MAX_PAYLOAD,
    MESSAGE_HEADER_BYTES,
    MODE_MASK,
    MbxFlag,
    MbxFn,
    MbxMode,
    MbxNamespace,
    MbxStatus,
)
from hsx.kernel.mailbox.descriptor import Descriptor, Handle, Message, Waiter
from hsx.kernel.mailbox.events import RECV_TYPE, SEND_TYPE, EmitFn, MailboxEvent
from hsx.kernel.mailbox.grants import StdioGrants
from hsx.kernel.mailbox.stdio import StdioMailboxes
from hsx.kernel.mailbox.results import (
    BindResult,
    MailboxError,
    OpenResult,
    PeekResult,
    RecvResult,
    SendResult,
    StdioHandles,
    Wake,
)
from hsx.kernel.mailbox.targets import Target, TargetError, parse_target

if TYPE_CHECKING:
    from hsx.kernel.profiles import Profile

_FANOUT_POLICY = MbxMode.FANOUT_DROP | MbxMode.FANOUT_BLOCK
_ACCESS_NAMES = {MbxMode.RDONLY: "read-only", MbxMode.WRONLY: "write-only",
                 MbxMode.RDWR: "read-write"}


@dataclass
class _Counters:
    """The manager's totals, for its statistics."""

    messages_sent: int = 0
    messages_received: int = 0
    wakes: int = 0
    timeouts: int = 0
    overruns: int = 0
    errors: int = 0


HOST_PID = 0


class MailboxManager(StdioMailboxes):
    """All mailboxes of one executive.

    Guest-facing calls (`bind`, `open`, `close`, `tap`, `send`, `recv`, `peek`) never
    raise for a guest's mistake: they return a result whose `status` goes into R0 and
    report the refusal as a `mailbox_error` event.  Kernel-facing calls raise
    `MailboxError` when the kernel itself asks for something impossible.
    """

    def __init__(self, *, max_descriptors: int = 256, max_handles_per_task: int = 64,
                 default_capacity: int = DEFAULT_CAPACITY, max_message_size: int = MAX_PAYLOAD,
                 emit: EmitFn | None = None, wants: Callable[[str], bool] | None = None):
        """`emit(type, pid, data)` reports events; `wants(type)`, when given, says whether
        one of `mailbox_send`/`mailbox_recv` (one per message) would reach anyone: they
        are built only then (`EventBus.wants`)."""
        if max_descriptors < 1 or max_handles_per_task < 1:
            raise ValueError("max_descriptors and max_handles_per_task must be at least 1")
        if not MESSAGE_HEADER_BYTES <= default_capacity <= MAX_CAPACITY:
            raise ValueError(f"default_capacity must be {MESSAGE_HEADER_BYTES}..{MAX_CAPACITY}")
        if not 0 <= max_message_size <= MAX_PAYLOAD:
            raise ValueError(f"max_message_size must be 0..{MAX_PAYLOAD}")
        self.max_descriptors = max_descriptors
        self.max_handles_per_task = max_handles_per_task
        self.default_capacity = default_capacity
        self.max_message_size = max_message_size
        self._emit_fn = emit
        self._wants = wants
        # A timeline recorder (hsx.debug.timeline) while one records, else None: told of
        # each message a task sends or receives, (received, pid, descriptor, seq), with
        # no event built for it (two a message: the recorder's hot path).
        self.message_hook: Callable[[bool, int, int, int], None] | None = None
        self._descriptors: dict[int, Descriptor] = {}
        self._by_key: dict[tuple[MbxNamespace, str, int | None], Descriptor] = {}
        self._next_descriptor = 1
        self.stdio_grants = StdioGrants()
        self._handles: dict[int, dict[int, Handle]] = {}
        self._next_handle: dict[int, int] = {}
        self._waiters: dict[int, Waiter] = {}
        self._stdio: dict[int, StdioHandles] = {}
        self.stdio_modes: dict[str, int] = {}    # mode a new task's svc:stdio.* is bound with
        self._counters = _Counters()

    @classmethod
    def from_profile(cls, profile: Profile, emit: EmitFn | None = None,
                     wants: Callable[[str], bool] | None = None) -> MailboxManager:
        return cls(max_descriptors=profile.max_descriptors,
                   max_handles_per_task=profile.max_handles_per_task,
                   default_capacity=profile.mailbox_capacity,
                   max_message_size=profile.max_message_size, emit=emit, wants=wants)

    # -- descriptors and handles -------------------------------------------------------

    def bind(self, pid: int, target: str | bytes, capacity: int = 0, mode: int = 0) -> BindResult:
        """Create or reconfigure a descriptor; 0 means default (new) or unchanged (existing).

        The binding task keeps the descriptor alive until it is released, even without a handle.
        """
        try:
            descriptor, wakes = self._bind(pid, target, capacity, mode)
        except MailboxError as error:
            self._refused(pid, MbxFn.BIND, error)
            return BindResult(error.status)
        return BindResult(MbxStatus.OK, descriptor.id, tuple(wakes))

    def open(self, pid: int, target: str | bytes, flags: int = 0) -> OpenResult:
        """Open a handle, creating the descriptor if needed.

        `flags` access bits restrict the handle (0 = whatever the descriptor allows);
        the TAP bit opens it as a tap.  Other bits are ignored, as they always were.
        """
        try:
            handle = self._open(pid, target, flags)
        except MailboxError as error:
            self._refused(pid, MbxFn.OPEN, error)
            return OpenResult(error.status)
        return OpenResult(MbxStatus.OK, handle.number)

    def close(self, pid: int, handle: int) -> MbxStatus:
        try:
            found = self._handle(pid, handle)
        except MailboxError as error:
            self._refused(pid, MbxFn.CLOSE, error)
            return error.status
        self._drop_handle(found)
        return MbxStatus.OK

    def tap(self, pid: int, handle: int, enable: bool = True) -> MbxStatus:
        """Turn a handle into a tap (it then receives copies of all later traffic) or back."""
        try:
            found = self._handle(pid, handle)
            if enable and not found.can_read:
                raise MailboxError(MbxStatus.ACCESS_DENIED,
                                   f"handle {handle} cannot read, so cannot tap")
        except MailboxError as error:
            self._refused(pid, MbxFn.TAP, error)
            return error.status
        if (found.tap is not None) != enable:
            found.descriptor.set_tap(found, enable)
        return MbxStatus.OK

    # -- traffic -----------------------------------------------------------------------

    def send(self, pid: int, handle: int, payload: bytes, flags: int = 0,
             channel: int = 0) -> SendResult:
        """Queue a message; the result lists the blocked receivers it completed."""
        try:
            wakes = self._send(self._handle(pid, handle), bytes(payload), flags, channel)
        except MailboxError as error:
            if error.status is not MbxStatus.WOULDBLOCK:     # full is flow control, not an error
                self._refused(pid, MbxFn.SEND, error)
            return SendResult(error.status)
        return SendResult(MbxStatus.OK, len(payload), tuple(wakes))

    def recv(self, pid: int, handle: int, max_len: int | None = None) -> RecvResult:
        """Take the next message for this handle, or NO_DATA; never blocks.

        A message longer than `max_len` stays queued and MSG_TOO_LARGE reports its length.
        """
        try:
            found = self._handle(pid, handle)
            if not found.can_read:
                raise MailboxError(MbxStatus.ACCESS_DENIED, f"handle {handle} is write-only")
            if max_len is not None and max_len < 0:
                raise MailboxError(MbxStatus.INVALID_ARGUMENT, f"negative max_len {max_len}")
        except MailboxError as error:
            self._refused(pid, MbxFn.RECV, error)
            return RecvResult(error.status)
        if found.descriptor.pending(found) is None:
            return RecvResult(MbxStatus.NO_DATA)
        result = self._deliver(found, max_len)
        if result.message is None:
            self._refused(pid, MbxFn.RECV, MailboxError(
                result.status, f"next message is {result.length} bytes, buffer holds {max_len}"))
        elif self._observed(RECV_TYPE):
            self._emit(MailboxEvent.RECV, pid, descriptor=found.descriptor.id, handle=handle,
                       tap=found.tap is not None, **_message_fields(result.message))
        return result

    def peek(self, pid: int, handle: int) -> PeekResult:
        try:
            found = self._handle(pid, handle)
        except MailboxError as error:
            self._refused(pid, MbxFn.PEEK, error)
            return PeekResult(error.status)
        descriptor = found.descriptor
        head = descriptor.pending(found)
        used = found.tap.bytes_used if found.tap is not None else descriptor.bytes_used
        return PeekResult(MbxStatus.OK, descriptor.pending_count(found), used,
                          head.length if head else 0, descriptor.capacity, int(descriptor.mode))

    # -- blocking ----------------------------------------------------------------------

    def add_waiter(self, pid: int, handle: int, deadline: float | None = None, *,
                   max_len: int | None = None, timeout: int | None = None) -> None:
        """Block `pid` on `handle` after `recv` said NO_DATA.

        `deadline` and `timeout` (the guest's milliseconds) are only reported; the
        kernel arms a timer and calls `expire_waiter` when it fires.
        """
        found = self._handle(pid, handle)
        if pid in self._waiters:
            raise MailboxError(MbxStatus.INTERNAL_ERROR, f"task {pid} is already waiting")
        if not found.can_read:
            raise MailboxError(MbxStatus.ACCESS_DENIED, f"handle {handle} is write-only")
        if found.descriptor.pending(found) is not None:
            raise MailboxError(MbxStatus.INTERNAL_ERROR,
                               f"task {pid} has a message pending on handle {handle}: receive it")
        waiter = Waiter(pid, found, deadline, max_len)
        self._waiters[pid] = waiter
        found.descriptor.waiters.append(waiter)
        self._emit(MailboxEvent.WAIT, pid, descriptor=found.descriptor.id, handle=handle,
                   timeout=timeout, deadline=deadline)

    def expire_waiter(self, pid: int) -> Wake | None:
        """End `pid`'s wait with TIMEOUT; None if it is no longer waiting (a stale timer)."""
        waiter = self._waiters.get(pid)
        if waiter is None:
            return None
        self._remove_waiter(waiter)
        self._counters.timeouts += 1
        return self._wake(waiter, RecvResult(MbxStatus.TIMEOUT), MailboxEvent.TIMEOUT)

    # -- tasks -------------------------------------------------------------------------

    def target_of(self, pid: int, handle: int) -> str | None:
        """The mailbox a task's handle refers to, as people write it (`app:x`)."""
        found = self._handles.get(pid, {}).get(handle)
        return str(found.descriptor.target) if found is not None else None

    def release_task(self, pid: int) -> list[Wake]:
        """Free everything `pid` held so the app can be loaded again.

        Its handles, taps, cursors and wait go, its bindings are dropped, and descriptors
        it owns are freed.  Other tasks blocked on those get INVALID_HANDLE: the returned
        wakes must be delivered like any other.
        """
        waiter = self._waiters.get(pid)
        if waiter is not None:
            self._remove_waiter(waiter)
        for handle in list(self._handles.get(pid, {}).values()):
            self._drop_handle(handle)
        wakes: list[Wake] = []
        for descriptor in list(self._descriptors.values()):
            descriptor.binders.discard(pid)
            if descriptor.target.owner == pid:
                wakes += self._free(descriptor, "owner_released")
            else:
                self._free_if_unused(descriptor)
        self._handles.pop(pid, None)
        self._next_handle.pop(pid, None)
        self._stdio.pop(pid, None)
        self.stdio_grants.release(pid)
        return wakes

    # -- tools -------------------------------------------------------------------------

    def target_name(self, descriptor_id: int) -> str | None:
        """The target a descriptor serves ("app:readings"), or None once it is freed."""
        descriptor = self._descriptors.get(descriptor_id)
        return str(descriptor.target) if descriptor is not None else None

    def handle_target(self, pid: int, handle: int) -> str | None:
        """The target `pid`'s `handle` is open on, or None."""
        found = self._handles.get(pid, {}).get(handle)
        return str(found.descriptor.target) if found is not None else None

    def snapshot(self) -> dict[str, Any]:
        """JSON-ready view of every descriptor plus pool statistics."""
        all_d = sorted(self._descriptors.values(), key=lambda d: d.id)
        descriptors = [self._describe(d) for d in all_d]
        handles_per_pid = {str(pid): len(t) for pid, t in sorted(self._handles.items()) if t}
        taps = [h for d in all_d for h in d.taps()]
        stats = {
            "max_descriptors": self.max_descriptors,
            "active_descriptors": len(self._descriptors),
            "free_descriptors": self.max_descriptors - len(self._descriptors),
            "descriptor_pool_exhausted": len(self._descriptors) >= self.max_descriptors,
            "total_capacity": sum(d.capacity for d in all_d),
            "bytes_used": sum(d.bytes_used for d in all_d),
            "bytes_available": sum(max(0, d.capacity - d.bytes_used) for d in all_d),
            "queue_depth": sum(len(d.messages) for d in all_d),
            "fanout_descriptors": sum(d.fanout for d in all_d),
            "handles_total": sum(handles_per_pid.values()),
            "handles_per_pid": handles_per_pid,
            "handle_limit_per_pid": self.max_handles_per_task,
            "tap_count": len(taps),
            "tap_queue_depth": sum(len(h.tap.messages) for h in taps if h.tap),
            "waiter_count": len(self._waiters),
            **asdict(self._counters),
        }
        return {"descriptors": descriptors, "stats": stats}

    # -- internals ---------------------------------------------------------------------

    def _bind(self, pid: int, target: str | bytes, capacity: int,
              mode: int) -> tuple[Descriptor, list[Wake]]:
        parsed = self._parse(target, pid)
        new_mode = _normalise_mode(mode)
        if capacity and not MESSAGE_HEADER_BYTES <= capacity <= MAX_CAPACITY:
            raise MailboxError(MbxStatus.INVALID_ARGUMENT,
                               f"capacity {capacity} outside "
                               f"{MESSAGE_HEADER_BYTES}..{MAX_CAPACITY}")
        descriptor = self._by_key.get(parsed.key)
        wakes: list[Wake] = []
        if descriptor is None:
            descriptor = self._create(pid, parsed, capacity or self.default_capacity,
                                      new_mode or MbxMode.RDWR)
        else:
            descriptor.reconfigure(capacity or descriptor.capacity, new_mode or descriptor.mode)
            wakes = self._serve_waiters(descriptor)
        descriptor.binders.add(pid)
        return descriptor, wakes

    def _open(self, pid: int, target: str | bytes, flags: int) -> Handle:
        parsed = self._parse(target, pid)
        self.stdio_grants.check(pid, parsed)
        table = self._handles.setdefault(pid, {})
        # The executive itself (pid 0) holds a few handles per task: it has no quota.
        if pid != HOST_PID and len(table) >= self.max_handles_per_task:
            self._emit(MailboxEvent.EXHAUSTED, pid, reason="handle_limit",
                       handle_limit=self.max_handles_per_task, handles=len(table))
            raise MailboxError(MbxStatus.NO_DESCRIPTOR,
                               f"task {pid} has {len(table)} mailbox handles open "
                               f"(limit {self.max_handles_per_task})")
        descriptor = self._by_key.get(parsed.key) or self._create(
            pid, parsed, self.default_capacity, MbxMode.RDWR)
        try:
            access = _handle_access(descriptor, pid, flags)
        except MailboxError:
            self._free_if_unused(descriptor)
            raise
        number = self._next_handle.get(pid, 1)
        self._next_handle[pid] = number + 1
        handle = Handle(pid, number, descriptor, access)
        descriptor.attach(handle)
        table[number] = handle
        if flags & MbxMode.TAP:
            descriptor.set_tap(handle, True)
        return handle

    def _create(self, pid: int, target: Target, capacity: int, mode: MbxMode) -> Descriptor:
        if len(self._descriptors) >= self.max_descriptors:
            self._emit(MailboxEvent.EXHAUSTED, pid, reason="descriptor_pool_full",
                       target=str(target), namespace=int(target.namespace), name=target.name,
                       owner=target.owner, max_descriptors=self.max_descriptors)
            raise MailboxError(MbxStatus.NO_DESCRIPTOR,
                               f"all {self.max_descriptors} mailbox descriptors are in use; "
                               f"cannot create {target}")
        descriptor = Descriptor(self._next_descriptor, target, capacity, mode)
        self._next_descriptor += 1
        self._descriptors[descriptor.id] = descriptor
        self._by_key[target.key] = descriptor
        self._emit(MailboxEvent.CREATED, pid, descriptor=descriptor.id, target=str(target),
                   namespace=int(target.namespace), name=target.name, owner=target.owner,
                   capacity=capacity, mode=int(mode))
        return descriptor

    def _free(self, descriptor: Descriptor, reason: str) -> list[Wake]:
        wakes = []
        for waiter in list(descriptor.waiters):
            self._remove_waiter(waiter)
            gone = RecvResult(MbxStatus.INVALID_HANDLE)
            wakes.append(self._wake(waiter, gone, MailboxEvent.WAKE))
        for handle in descriptor.handles:
            del self._handles[handle.pid][handle.number]
        descriptor.handles.clear()
        del self._descriptors[descriptor.id]
        del self._by_key[descriptor.target.key]
        self._emit(MailboxEvent.FREED, descriptor.target.owner, descriptor=descriptor.id,
                   target=str(descriptor.target), reason=reason)
        return wakes

    def _free_if_unused(self, descriptor: Descriptor) -> None:
        if descriptor.id in self._descriptors and not descriptor.in_use:
            self._free(descriptor, "unused")

    def _drop_handle(self, handle: Handle) -> None:
        waiter = self._waiters.get(handle.pid)
        if waiter is not None and waiter.handle is handle:
            self._remove_waiter(waiter)
        del self._handles[handle.pid][handle.number]
        handle.descriptor.detach(handle)
        self._free_if_unused(handle.descriptor)

    def _send(self, handle: Handle, payload: bytes, flags: int, channel: int) -> list[Wake]:
        descriptor = handle.descriptor
        if not handle.can_write:
            raise MailboxError(MbxStatus.ACCESS_DENIED, f"handle {handle.number} is read-only")
        if not (0 <= flags <= 0xFFFF and 0 <= channel <= 0xFFFF):
            raise MailboxError(MbxStatus.INVALID_ARGUMENT,
                               f"flags {flags} and channel {channel} must be 16-bit")
        cost = len(payload) + MESSAGE_HEADER_BYTES
        if len(payload) > self.max_message_size or cost > descriptor.capacity:
            raise MailboxError(MbxStatus.MSG_TOO_LARGE,
                               f"{len(payload)}-byte message does not fit {descriptor.target} "
                               f"(capacity {descriptor.capacity} incl. {MESSAGE_HEADER_BYTES}-byte "
                               f"header, max message {self.max_message_size})")
        if descriptor.blocks_when_full and not descriptor.has_room(cost):
            self._emit(MailboxEvent.BACKPRESSURE, handle.pid, descriptor=descriptor.id,
                       handle=handle.number,
                       policy="fanout_block" if descriptor.fanout else "single",
                       capacity=descriptor.capacity, bytes_used=descriptor.bytes_used,
                       requested=cost)
            raise MailboxError(MbxStatus.WOULDBLOCK, f"{descriptor.target} is full")
        # OVERRUN is the executive's to set; `~` on the IntFlag would also clear unknown bits.
        message = Message(payload, int(flags) & ~int(MbxFlag.OVERRUN), int(channel), handle.pid,
                          descriptor.next_seq, handle.number)
        dropped, tap_drops = descriptor.enqueue(message)
        self._counters.messages_sent += 1
        if self.message_hook is not None:
            self.message_hook(False, handle.pid, descriptor.id, message.seq)
        if self._observed(SEND_TYPE):
            self._emit(MailboxEvent.SEND, handle.pid, descriptor=descriptor.id,
                       handle=handle.number, **_message_fields(message))
        for lost in dropped:
            self._overrun(lost.src_pid, descriptor, lost, "fanout_drop", len(descriptor.messages))
        for tap, lost_copies in tap_drops:
            for lost in lost_copies:
                self._overrun(tap.pid, descriptor, lost, "tap_drop",
                              len(tap.tap.messages) if tap.tap else 0, handle=tap.number)
        return self._serve_waiters(descriptor)

    def _overrun(self, pid: int, descriptor: Descriptor, lost: Message, reason: str,
                 queue_depth: int, **extra: Any) -> None:
        self._counters.overruns += 1
        self._emit(MailboxEvent.OVERRUN, pid, descriptor=descriptor.id, dropped_seq=lost.seq,
                   dropped_length=lost.length, dropped_flags=lost.flags, channel=lost.channel,
                   reason=reason, queue_depth=queue_depth, **extra)

    def _deliver(self, handle: Handle, max_len: int | None) -> RecvResult:
        pending = handle.descriptor.pending(handle)
        assert pending is not None
        if max_len is not None and pending.length > max_len:
            return RecvResult(MbxStatus.MSG_TOO_LARGE, None, pending.length)
        message = handle.descriptor.take(handle)
        self._counters.messages_received += 1
        if self.message_hook is not None and handle.tap is None:     # (a tap only watches)
            self.message_hook(True, handle.pid, handle.descriptor.id, message.seq)
        return RecvResult(MbxStatus.OK, message, message.length)

    def _serve_waiters(self, descriptor: Descriptor) -> list[Wake]:
        """Complete the receives of blocked tasks that now have a message, oldest wait first.

        In queue mode each message is taken by exactly one waiter; in fan-out mode every
        waiting reader with something new gets its copy.
        """
        wakes = []
        for waiter in list(descriptor.waiters):
            if descriptor.pending(waiter.handle) is not None:
                self._remove_waiter(waiter)
                result = self._deliver(waiter.handle, waiter.max_len)
                wakes.append(self._wake(waiter, result, MailboxEvent.WAKE))
        return wakes

    def _wake(self, waiter: Waiter, result: RecvResult, event: MailboxEvent) -> Wake:
        if event is MailboxEvent.WAKE:
            self._counters.wakes += 1
        wake = Wake(waiter.pid, waiter.handle.number, waiter.handle.descriptor.id, result)
        info = result.info
        self._emit(event, waiter.pid, descriptor=wake.descriptor_id, handle=wake.handle,
                   status=int(info.status), length=info.length, flags=info.flags,
                   channel=info.channel, src_pid=info.src_pid,
                   seq=result.message.seq if result.message is not None else None)
        return wake

    def _remove_waiter(self, waiter: Waiter) -> None:
        del self._waiters[waiter.pid]
        waiter.handle.descriptor.waiters.remove(waiter)

    def _handle(self, pid: int, number: int) -> Handle:
        handle = self._handles.get(pid, {}).get(number)
        if handle is None:
            raise MailboxError(MbxStatus.INVALID_HANDLE,
                               f"task {pid} has no mailbox handle {number}")
        return handle

    def _parse(self, target: str | bytes, pid: int) -> Target:
        try:
            return parse_target(target, pid)
        except TargetError as error:
            raise MailboxError(MbxStatus.INVALID_ARGUMENT, str(error)) from None

    def _refused(self, pid: int, fn: MbxFn, error: MailboxError) -> None:
        self._counters.errors += 1
        self._emit(MailboxEvent.ERROR, pid, fn=int(fn), status=int(error.status), error=str(error))

    def _observed(self, type_: str) -> bool:
        """Whether an event of a type emitted for every message would reach anyone."""
        return self._emit_fn is not None and (self._wants is None or self._wants(type_))

    def _emit(self, event: MailboxEvent, pid: int | None, **data: Any) -> None:
        if self._emit_fn is not None:
            self._emit_fn(event.value, pid, data)

    def _describe(self, d: Descriptor) -> dict[str, Any]:
        return {
            "descriptor_id": d.id,
            "target": str(d.target),
            "namespace": int(d.target.namespace),
            "name": d.target.name,
            "owner_pid": d.target.owner,
            "mode_mask": int(d.mode),
            "capacity": d.capacity,
            "bytes_used": d.bytes_used,
            "queue_depth": len(d.messages),
            "head_seq": d.head_seq,
            "next_seq": d.next_seq,
            "handles": len(d.handles),
            "readers": [{"pid": h.pid, "handle": h.number, "pending": d.pending_count(h)}
                        for h in d.readers()],
            "waiters": [w.pid for w in d.waiters],
            "taps": [{"pid": h.pid, "handle": h.number, "depth": len(h.tap.messages)}
                     for h in d.taps() if h.tap],
        }


def _normalise_mode(mode: int) -> MbxMode | None:
    """Validate a BIND mode; a fan-out policy bit implies FANOUT, no access bits mean RDWR."""
    if mode & ~MODE_MASK:
        raise MailboxError(MbxStatus.INVALID_ARGUMENT, f"unknown mailbox mode bits 0x{mode:x}")
    if mode & _FANOUT_POLICY == _FANOUT_POLICY:
        raise MailboxError(MbxStatus.INVALID_ARGUMENT,
                           "FANOUT_DROP and FANOUT_BLOCK exclude each other")
    if not mode:
        return None
    normal = MbxMode(mode)
    if not normal & ACCESS_MASK:
        normal |= MbxMode.RDWR
    if normal & _FANOUT_POLICY:
        normal |= MbxMode.FANOUT
    return normal


def _handle_access(descriptor: Descriptor, pid: int, flags: int) -> MbxMode:
    """The owner (and everyone, for global mailboxes) may read and write; others get the
    access bits of the descriptor's mode.  A tap needs read access."""
    owner = descriptor.target.owner
    allowed = MbxMode.RDWR if owner is None or owner == pid else descriptor.mode & ACCESS_MASK
    requested = MbxMode(flags & ACCESS_MASK)
    if requested & ~allowed:
        raise MailboxError(MbxStatus.ACCESS_DENIED,
                           f"{descriptor.target} is {_ACCESS_NAMES[allowed]} for task {pid}; "
                           f"asked for {_ACCESS_NAMES[requested]}")
    access = requested or allowed
    if flags & MbxMode.TAP and not access & MbxMode.RDONLY:
        raise MailboxError(MbxStatus.ACCESS_DENIED,
                           f"a tap on {descriptor.target} needs read access")
    return access


def _message_fields(message: Message) -> dict[str, int]:
    return {"length": message.length, "flags": message.flags, "channel": message.channel,
            "src_pid": message.src_pid, "seq": message.seq}
