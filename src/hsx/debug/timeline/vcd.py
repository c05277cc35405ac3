"""Values as signals: a timeline's value changes as a VCD file (pyvcd), for GTKWave,
Surfer and the other waveform viewers hardware and firmware people use.

Each value is a `real` variable in scope `hsx.values`, named by its name ("sensor.temp"
becomes `sensor_temp`: VCD identifiers have no dots).  The timescale is 1 ns and one
nanosecond is one instruction of the executive's instruction clock, as in the Perfetto
export.
"""
from __future__ import annotations

import re
from typing import Iterable, TextIO

from vcd import VCDWriter

from .model import COUNT, Timeline

SCOPE = "hsx.values"


def signal_name(name: str) -> str:
    """`name` as a VCD identifier."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def pick_values(timeline: Timeline, names: Iterable[str] | None) -> dict[int, str]:
    """oid -> name of the values `names` chooses ("sensor.temp", "temp" or "2:1"); all
    of them without `names`.  An unknown name raises ValueError naming it."""
    if names is None:
        return dict(timeline.values)
    chosen = {}
    for wanted in names:
        found = [oid for oid, name in timeline.values.items()
                 if wanted in (name, name.rsplit(".", 1)[-1], f"{oid >> 8}:{oid & 0xFF}")]
        if not found:
            known = ", ".join(sorted(timeline.values.values())) or "none"
            raise ValueError(f"no value {wanted!r} in the timeline (values: {known})")
        for oid in found:
            chosen[oid] = timeline.values[oid]
    return chosen


def write_vcd(timeline: Timeline, out: TextIO, names: Iterable[str] | None = None) -> int:
    """Write the chosen values' changes to `out`; returns how many changes."""
    chosen = pick_values(timeline, names)
    count = 0
    with VCDWriter(out, timescale="1 ns", date="", comment="HSX timeline: 1 ns = 1 instruction",
                   init_timestamp=timeline.start) as writer:
        variables = {oid: writer.register_var(SCOPE, signal_name(name), "real", init=0.0)
                     for oid, name in sorted(chosen.items())}
        for event in timeline.events:
            if event[0] == COUNT and event[3] in variables:
                writer.change(variables[event[3]], event[1], event[4])
                count += 1
    return count
