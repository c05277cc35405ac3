"""Reading exported timelines back with implementations independent of hsx's writers:
Perfetto's own generated protobuf classes (the `perfetto` package, from Perfetto's
.proto files) for .pftrace files, and a demo run whose events the tests compare with.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import Trace, TrackEvent

REPO = Path(__file__).resolve().parents[1]
DEMO = [REPO / "examples" / "mvasm" / f"{name}.mvasm"
        for name in ("producer", "consumer", "sensor", "hello")]


@dataclass
class Decoded:
    """A Perfetto trace as tracks and what is on them."""
    names: dict[int, str] = field(default_factory=dict)             # uuid -> track name
    counter_tracks: set[int] = field(default_factory=set)
    parents: dict[int, int] = field(default_factory=dict)
    # track name -> [(start, end, name, {annotation: value})]
    slices: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    # track name -> [(ts, category, name, flow_ids, terminating_flow_ids)]
    instants: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    counters: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    timestamps: list[int] = field(default_factory=list)

    def flows(self) -> list[tuple[str, int, str, int]]:
        """(sender track, send ts, receiver track, reception ts) of every flow."""
        starts = {}
        for track, rows in self.instants.items():
            for ts, _, _, out, _ in rows:
                for flow in out:
                    starts[flow] = (track, ts)
        found = []
        for track, rows in self.instants.items():
            for ts, _, _, _, into in rows:
                for flow in into:
                    found.append((*starts[flow], track, ts))
        return sorted(found, key=lambda row: row[1])


def decode_perfetto(data: bytes) -> Decoded:
    trace = Trace()
    trace.ParseFromString(data)
    decoded = Decoded()
    open_slices: dict[str, list] = defaultdict(list)
    for packet in trace.packet:
        if packet.HasField("track_descriptor"):
            track = packet.track_descriptor
            decoded.names[track.uuid] = track.name
            if track.HasField("counter"):
                decoded.counter_tracks.add(track.uuid)
            if track.HasField("parent_uuid"):
                decoded.parents[track.uuid] = track.parent_uuid
            continue
        if not packet.HasField("track_event"):
            continue
        event = packet.track_event
        name = decoded.names[event.track_uuid]
        decoded.timestamps.append(packet.timestamp)
        args = {a.name: (a.string_value if a.HasField("string_value") else a.double_value)
                for a in event.debug_annotations}
        if event.type == TrackEvent.TYPE_SLICE_BEGIN:
            open_slices[name].append((packet.timestamp, event.name, args))
        elif event.type == TrackEvent.TYPE_SLICE_END:
            start, slice_name, slice_args = open_slices[name].pop()
            decoded.slices[name].append((start, packet.timestamp, slice_name, slice_args))
        elif event.type == TrackEvent.TYPE_INSTANT:
            decoded.instants[name].append((packet.timestamp, list(event.categories)[0]
                                           if event.categories else None, event.name,
                                           list(event.flow_ids),
                                           list(event.terminating_flow_ids)))
        elif event.type == TrackEvent.TYPE_COUNTER:
            decoded.counters[name].append((packet.timestamp, event.double_counter_value))
    assert not any(open_slices.values()), f"slices never ended: {dict(open_slices)}"
    return decoded
