"""A timeline as a Perfetto trace (protobuf `Trace`, opened by ui.perfetto.dev).

Written straight in protobuf's wire format, field numbers from Perfetto's
`perfetto_trace.proto`: building the `perfetto` package's generated messages costs
about 5 µs a packet (5 s for a million events), and exports must keep pace with
recordings of a million events (benchmarks/timeline_bench.py).  The tests decode what
this writes with those generated messages, an implementation independent of this one.

Timestamps are the executive's instruction clock: one nanosecond in the UI is one
instruction.  Each task has a track named "app (pid N)" with its state slices (each
with its `reason` and the `wall_time` it began, Unix seconds, as arguments), instants
for its output lines, breakpoint stops, mailbox sends and receptions (joined by flows),
and its end; every value that changed has a counter track; an instruction-level trace
goes on a track of its own under its task.
"""
from __future__ import annotations

from struct import Struct
from typing import BinaryIO

from .model import BEGIN, COUNT, END, INSTANT, STEP, Timeline, task_label

_DOUBLE = Struct("<d").pack
_FIXED64 = Struct("<Q").pack
_WALL_AND_FLOW = Struct("<d2sQ").pack    # a wall time (double), then a flow id's tag and id
_SMALL = [bytes([n]) if n < 0x80 else bytes([n & 0x7F | 0x80, n >> 7]) for n in range(1 << 14)]
_LOW14 = [bytes([n & 0x7F | 0x80, (n >> 7) | 0x80]) for n in range(1 << 14)]

# Tags: (field number << 3) | wire type (0 varint, 1 fixed64, 2 length-delimited).
_PACKET = b"\x0a"                        # Trace.packet = 1
_TIMESTAMP = b"\x40"                     # TracePacket.timestamp = 8
_TRACK_EVENT = b"\x5a"                   # TracePacket.track_event = 11
_SEQUENCE = b"\x50\x01"                  # TracePacket.trusted_packet_sequence_id = 10: 1
_TRACK_DESCRIPTOR = b"\xe2\x03"          # TracePacket.track_descriptor = 60
_TYPE = b"\x48"                          # TrackEvent.type = 9: 1 begin, 2 end, 3 instant, 4 counter
_TRACK_UUID = b"\x58"                    # TrackEvent.track_uuid = 11
_NAME = b"\xba\x01"                      # TrackEvent.name = 23
_CATEGORY = b"\xb2\x01"                  # TrackEvent.categories = 22
_ANNOTATION = b"\x22"                    # TrackEvent.debug_annotations = 4
_FLOW = b"\xf9\x02"                      # TrackEvent.flow_ids = 47 (fixed64)
_FLOW_END = b"\x81\x03"                  # TrackEvent.terminating_flow_ids = 48 (fixed64)
_COUNTER_DOUBLE = b"\xe1\x02"            # TrackEvent.double_counter_value = 44
_ANNOTATION_NAME = b"\x52"               # DebugAnnotation.name = 10
_ANNOTATION_STRING = b"\x32"             # DebugAnnotation.string_value = 6
_ANNOTATION_DOUBLE = b"\x29"             # DebugAnnotation.double_value = 5
_UUID = b"\x08"                          # TrackDescriptor.uuid = 1
_TRACK_NAME = b"\x12"                    # TrackDescriptor.name = 2
_PARENT = b"\x28"                        # TrackDescriptor.parent_uuid = 5
_COUNTER = b"\x42\x00"                   # TrackDescriptor.counter = 8 (empty CounterDescriptor)
_RANK = b"\x60"                          # TrackDescriptor.sibling_order_rank = 12
_ORDERING = b"\x58\x03"                  # TrackDescriptor.child_ordering = 11: EXPLICIT

TASK_TRACKS = 1 << 20                    # uuid of task `pid`'s track: TASK_TRACKS + pid
STEP_TRACKS = 2 << 20                    # ... of its instruction-level trace track
VALUE_TRACKS = 1 << 32                   # ... of value `oid`'s counter track
ROOT_TRACK = 1                           # "HSX executive": the parent of every track


def varint(n: int) -> bytes:
    if n < 0x4000:
        return _SMALL[n]
    if n < 0x10000000:
        return _LOW14[n & 0x3FFF] + _SMALL[n >> 14]
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _string(tag: bytes, text: str) -> bytes:
    data = text.encode()
    return tag + varint(len(data)) + data


def _message(tag: bytes, body: bytes) -> bytes:
    return tag + varint(len(body)) + body


_WALL = _ANNOTATION + varint(len(_string(_ANNOTATION_NAME, "wall_time")) + 9) + \
    _string(_ANNOTATION_NAME, "wall_time") + _ANNOTATION_DOUBLE


def _reason(reason: str) -> bytes:
    return _message(_ANNOTATION, _string(_ANNOTATION_NAME, "reason")
                    + _string(_ANNOTATION_STRING, reason))


def _descriptor(uuid: int, name: str, *, parent: int | None = None, counter: bool = False,
                rank: int | None = None) -> bytes:
    body = _UUID + varint(uuid) + _string(_TRACK_NAME, name)
    if parent is not None:
        body += _PARENT + varint(parent)
    if counter:
        body += _COUNTER
    if rank is not None:
        body += _RANK + varint(rank)
    if uuid == ROOT_TRACK:
        body += _ORDERING
    return _message(_PACKET, _message(_TRACK_DESCRIPTOR, body) + _SEQUENCE)


def write_perfetto(timeline: Timeline, out: BinaryIO) -> int:
    """Write `timeline` as a Perfetto trace to `out`; returns the bytes written."""
    parts: list[bytes] = [_descriptor(ROOT_TRACK, "HSX executive")]
    for rank, pid in enumerate(sorted(timeline.tasks)):
        parts.append(_descriptor(TASK_TRACKS + pid, task_label(pid, timeline.tasks[pid]),
                                 parent=ROOT_TRACK, rank=rank))
    steps = sorted({event[2] for event in timeline.events if event[0] == STEP})
    for pid in steps:
        parts.append(_descriptor(STEP_TRACKS + pid, f"{timeline.tasks.get(pid, pid)} "
                                 f"(pid {pid}) instructions", parent=TASK_TRACKS + pid))
    for rank, oid in enumerate(sorted(timeline.values), len(timeline.tasks)):
        parts.append(_descriptor(VALUE_TRACKS + oid, timeline.values[oid], parent=ROOT_TRACK,
                                 counter=True, rank=rank))
    head = b"".join(parts)
    packets = _events(timeline.events)
    out.write(head)
    out.write(packets)
    return len(head) + len(packets)


def _events(events: list[tuple]) -> bytearray:
    """The packets of `events`, in their order (the hot loop of an export).  Each packet
    is its track event, the sequence id, then the timestamp (protobuf takes fields in
    any order).  All of a track event but its last numbers (a wall time, a counter's
    value, a message's flow id) is the same for every event of a kind on a track and is
    built once, its length included: the numbers after it have a fixed size."""
    out = bytearray()
    small, low14, double, fixed64 = _SMALL, _LOW14, _DOUBLE, _FIXED64
    wall_flow, tail = _WALL_AND_FLOW, _SEQUENCE + _TIMESTAMP
    begins: dict[tuple, bytes] = {}          # (pid, name, reason) -> the event up to wall_time
    ends: dict[int, bytes] = {}              # pid -> its slice end, up to the timestamp
    instants: dict[tuple, bytes] = {}        # (pid, category, name, flows) -> ... up to wall_time
    counters: dict[int, bytes] = {}          # oid -> the event up to the value
    steps: dict[tuple, bytes] = {}           # (pid, pc, text) -> ... up to the timestamp
    for event in events:
        kind, at = event[0], event[1]
        if at < 0x4000:
            stamp = small[at]
        elif at < 0x10000000:
            stamp = low14[at & 0x3FFF] + small[at >> 14]
        else:
            stamp = varint(at)
        if kind == INSTANT:
            flows_out, flow_in = event[6], event[7]
            if not flows_out:
                if flow_in is None:                             # output, stop, end
                    key = event[3:6]
                    head = instants.get(key)
                    if head is None:
                        head = instants[key] = _instant_head(key, 8)
                    body = head + double(event[2]) + tail + stamp
                else:                                           # a reception
                    key = event[3:6] + (_FLOW_END,)
                    head = instants.get(key)
                    if head is None:
                        head = instants[key] = _instant_head(key, 18)
                    body = head + wall_flow(event[2], _FLOW_END, flow_in) + tail + stamp
            elif len(flows_out) == 1 and flow_in is None:        # a send, received once
                key = event[3:6] + (_FLOW,)
                head = instants.get(key)
                if head is None:
                    head = instants[key] = _instant_head(key, 18)
                body = head + wall_flow(event[2], _FLOW, flows_out[0]) + tail + stamp
            else:                                               # ... received by several
                numbers = double(event[2]) + b"".join(_FLOW + fixed64(flow) for flow in flows_out)
                if flow_in is not None:
                    numbers += _FLOW_END + fixed64(flow_in)
                body = _instant_head(event[3:6], len(numbers)) + numbers + tail + stamp
        elif kind == END:
            body = ends.get(event[2])
            if body is None:
                body = ends[event[2]] = _message(_TRACK_EVENT, _TYPE + b"\x02" + _TRACK_UUID
                                                 + varint(TASK_TRACKS + event[2])) + tail
            body += stamp
        elif kind == BEGIN:
            key = event[3:6]
            head = begins.get(key)
            if head is None:
                head = begins[key] = _head(_TYPE + b"\x01" + _TRACK_UUID
                                           + varint(TASK_TRACKS + key[0]) + _string(_NAME, key[1])
                                           + _reason(key[2]) + _WALL, 8)
            body = head + double(event[2]) + tail + stamp
        elif kind == COUNT:
            head = counters.get(event[3])
            if head is None:
                head = counters[event[3]] = _head(_TYPE + b"\x04" + _TRACK_UUID
                                                  + varint(VALUE_TRACKS + event[3])
                                                  + _COUNTER_DOUBLE, 8)
            body = head + double(event[4]) + tail + stamp
        else:                                                   # STEP
            key = event[2:5]
            body = steps.get(key)
            if body is None:
                body = steps[key] = _message(_TRACK_EVENT, (
                    _TYPE + b"\x03" + _TRACK_UUID + varint(STEP_TRACKS + key[0])
                    + _string(_NAME, key[2]))) + tail
            body += stamp
        size = len(body)
        out += _PACKET
        out += small[size] if size < 0x4000 else varint(size)
        out += body
    return out


def _head(fields: bytes, rest: int) -> bytes:
    """The start of a track event of `fields` and `rest` bytes more: its tag and length."""
    return _TRACK_EVENT + varint(len(fields) + rest) + fields


def _instant_head(key: tuple, rest: int) -> bytes:
    """An instant on task `key[0]`'s track, category `key[1]`, named `key[2]`, up to its
    wall time: `rest` bytes (the wall time, and any flow ids) follow."""
    pid, category, name = key[:3]
    return _head(_TYPE + b"\x03" + _TRACK_UUID + varint(TASK_TRACKS + pid)
                 + _string(_CATEGORY, category) + _string(_NAME, name) + _WALL, rest)
