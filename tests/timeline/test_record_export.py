"""The executive's timeline, recorded while the demo runs (a producer sending five
readings to a consumer, a sensor updating a value, hello world) and exported: the
Perfetto trace, decoded with Perfetto's own protobuf classes, and the Chrome JSON and
VCD files, read back independently, hold the events the executive emitted."""
from __future__ import annotations

import json
import tracemalloc
from collections import defaultdict

import pytest
from vcd.reader import TokenKind, tokenize

from hsx.debug import Debugger
from hsx.debug.timeline import Recorder, build_timeline, export
from hsx.debug.timeline.recorder import (MIN_BUDGET, RECORD_BYTES, RECV, SEND, STATE,
                                         Recording)
from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.runner import run_to_completion
from hsx.toolchain.build import build_file, build_source
from timelinekit import DEMO, decode_perfetto

EVENTS = {"task_state", "mailbox_send", "mailbox_recv", "mailbox_wake", "value_changed",
          "value_registered", "stdout"}


def run(paths=DEMO, **recorder_options):
    """Record a run of `paths` from before their load to their end; also returns the
    events the executive emitted, with the instruction count when each one came."""
    kernel = Kernel(clock=VirtualClock(), output=lambda task, fd, data: None)
    emitted = []
    kernel.events.subscribe(lambda e: emitted.append((e.type, e.pid, dict(e.data))), EVENTS)
    recorder = Recorder(kernel, **recorder_options)
    recorder.start()
    for path in paths:
        kernel.load(build_file(path))
    run_to_completion(kernel)
    recorder.stop()
    return kernel, recorder, emitted


def perfetto(recorder, tmp_path):
    path = tmp_path / "t.pftrace"
    export(recorder.snapshot(), path)
    return decode_perfetto(path.read_bytes())


def track_names(emitted):
    return {pid: f"{data['app_name']} (pid {pid})" for type_, pid, data in emitted
            if type_ == "task_state" and data["reason"] == "loaded"}


def test_the_perfetto_trace_has_a_track_per_task_flows_for_messages_and_a_counter(tmp_path):
    kernel, recorder, emitted = run()
    trace = perfetto(recorder, tmp_path)
    tracks = track_names(emitted)
    assert set(tracks.values()) == {"producer (pid 1)", "consumer (pid 2)", "sensor (pid 3)",
                                    "hello (pid 4)"}
    task_tracks = {uuid for uuid, name in trace.names.items() if name in tracks.values()}
    assert len(task_tracks) == 4 and not task_tracks & trace.counter_tracks

    # every message the producer sent is a flow from its track to the consumer's
    sends = [data for type_, pid, data in emitted if type_ == "mailbox_send" and pid == 1]
    assert len(sends) == 5
    flows = trace.flows()
    assert [(sender, receiver) for sender, _, receiver, _ in flows] == \
        [(tracks[1], tracks[2])] * len(sends)
    assert all(sent <= received for _, sent, _, received in flows)

    # the value's counter: its value when declared, then each change
    changes = [data["new_value"] for type_, _, data in emitted if type_ == "value_changed"]
    assert [value for _, value in trace.counters["sensor.temp"]] == [20.0] + changes

    # each task's slices follow its task_state events, named by state and detail
    waits = [data for type_, pid, data in emitted
             if type_ == "task_state" and pid == 2 and data["new_state"] == "waiting_mbx"]
    consumer = trace.slices[tracks[2]]
    waiting = [s for s in consumer if s[2] == "waiting_mbx: app:readings"]
    assert len(waiting) == len(waits) >= 5
    assert all(s[3]["reason"] == "mailbox_wait" and s[3]["wall_time"] > 0 for s in waiting)
    assert {s[2] for s in trace.slices[tracks[1]]} >= {"running", "sleeping: 50 ms"}
    for rows in trace.slices.values():                     # slices of a task do not overlap
        for (_, end, *_), (start, *_) in zip(rows, rows[1:]):
            assert end <= start

    # output lines are instants on their task's track, in order
    for pid, name in tracks.items():
        lines = [data["text"] for type_, p, data in emitted if type_ == "stdout" and p == pid]
        assert [i[2] for i in trace.instants[name] if i[1] == "stdout"] == lines
        ends = [i for i in trace.instants[name] if i[1] == "end"]
        assert [i[2] for i in ends] == ["returned: exit 0"]
    assert trace.timestamps == sorted(trace.timestamps)
    assert max(trace.timestamps) == kernel.total_instructions


def test_timestamps_are_the_instruction_clock_exactly():
    """hello: LDI32, LDI, SVC (its line goes out), LDI, SVC (exit): 5 instructions."""
    kernel, recorder, _ = run([DEMO[3]])
    timeline = build_timeline(recorder.snapshot())
    instants = [(event[1], event[4], event[5]) for event in timeline.events if event[0] == 2]
    assert instants == [(3, "stdout", "Hello from HSX\n"), (5, "end", "returned: exit 0")]
    assert kernel.total_instructions == 5


def test_the_same_programs_give_the_same_timeline(tmp_path):
    def without_wall_time(trace):
        return {name: [(start, end, slice_name, args["reason"])
                       for start, end, slice_name, args in rows]
                for name, rows in trace.slices.items()}, trace.flows(), dict(trace.counters)
    first = without_wall_time(perfetto(run()[1], tmp_path))
    assert without_wall_time(perfetto(run()[1], tmp_path)) == first


def test_wall_time_is_the_executives_clock_as_unix_time(tmp_path):
    """On a virtual clock (sleeps take no real time) every wall time, whatever record it
    comes from, is that clock's reading, in order, from when recording started."""
    kernel, recorder, _ = run()
    recording = recorder.snapshot()
    assert recording.end_wall - recording.start_wall == pytest.approx(kernel.clock.now())
    assert kernel.clock.now() >= 0.25                       # the producer's five sleeps
    walls = [record[1] for record in recording.records]
    assert walls == sorted(walls) and walls[-1] <= recording.end_wall
    trace = perfetto(recorder, tmp_path)
    begins = sorted((start, args["wall_time"]) for rows in trace.slices.values()
                    for start, _, _, args in rows)
    assert [wall for _, wall in begins] == sorted(wall for _, wall in begins)


def test_a_message_received_by_several_or_by_none_and_late_timestamps(tmp_path):
    """A broadcast received twice has two flows; a message nobody received, or whose
    send was not recorded, none; a time past 2**28 instructions is written whole."""
    late = 0x1234_5678_9
    records = [(0, 1.0, STATE, pid, "waiting_mbx", "mailbox_wait", "app:news")
               for pid in (2, 3)] + [
        (10, 1.1, SEND, 1, 7, 1, "app:news"),
        (12, 1.2, RECV, 2, 7, 1, "app:news"),
        (13, 1.3, RECV, 3, 7, 1, "app:news"),
        (20, 1.4, SEND, 1, 7, 2, "app:news"),           # nobody receives it
        (30, 1.5, RECV, 2, 7, 0, "app:news"),           # its send came before recording
        (late, 1.6, SEND, 1, 7, 3, "app:news"),
        (late + 1, 1.7, RECV, 3, 7, 3, "app:news")]
    recording = Recording(records, {}, {1: "radio", 2: "a", 3: "b"}, {}, 0, late + 2,
                          1.0, 1.8, 0)
    export(recording, tmp_path / "t.pftrace")
    trace = decode_perfetto((tmp_path / "t.pftrace").read_bytes())
    radio, a, b = "radio (pid 1)", "a (pid 2)", "b (pid 3)"
    assert trace.flows() == [(radio, 10, a, 12), (radio, 10, b, 13),
                             (radio, late, b, late + 1)]
    assert [(ts, name, out) for ts, _, name, out, _ in trace.instants[radio]] == \
        [(10, "send app:news", [1, 2]), (20, "send app:news", []),
         (late, "send app:news", [3])]
    assert [(ts, into) for ts, _, _, _, into in trace.instants[a]] == [(12, [1]), (30, [])]
    assert [s[3]["wall_time"] for s in trace.slices[a]] == [1.0]
    assert max(trace.timestamps) == late + 2


def test_chrome_json_has_the_same_tasks_slices_flows_and_counters(tmp_path):
    kernel, recorder, emitted = run()
    path = tmp_path / "t.json"
    assert export(recorder.snapshot(), path)["format"] == "chrome"
    events = json.loads(path.read_text())["traceEvents"]
    threads = {e["tid"]: e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    assert threads == track_names(emitted)
    depth = defaultdict(int)
    for event in events:
        if event["ph"] in "BE":
            depth[event["tid"]] += 1 if event["ph"] == "B" else -1
            assert depth[event["tid"]] >= 0
    assert set(depth.values()) == {0}
    starts = {e["id"]: e["tid"] for e in events if e["ph"] == "s"}
    ends = {e["id"]: e["tid"] for e in events if e["ph"] == "f"}
    assert len(starts) == 5 and {(starts[i], ends[i]) for i in starts} == {(1, 2)}
    changes = [data["new_value"] for type_, _, data in emitted if type_ == "value_changed"]
    assert [e["args"]["value"] for e in events if e["ph"] == "C"] == [20.0] + changes


def test_vcd_holds_the_values_changes(tmp_path):
    kernel, recorder, emitted = run()
    path = tmp_path / "t.vcd"
    written = export(recorder.snapshot(), path, values=["sensor.temp"])
    assert written["format"] == "vcd" and written["events"] == 4
    counters = perfetto(recorder, tmp_path).counters["sensor.temp"]
    ids, now, changes = {}, None, []
    with open(path, "rb") as stream:
        for token in tokenize(stream):
            if token.kind is TokenKind.VAR:
                ids[token.data.id_code] = token.data.reference
            elif token.kind is TokenKind.CHANGE_TIME:
                now = token.data
            elif token.kind is TokenKind.CHANGE_REAL:
                changes.append((now, ids[token.data.id_code], token.data.value))
    assert set(ids.values()) == {"sensor_temp"}
    # the declared value is the VCD's initial one (time 0); then each change, at its time
    assert [(t, v) for t, _, v in changes] == counters


def test_vcd_names_an_unknown_value(tmp_path):
    _, recorder, _ = run([DEMO[2]])
    with pytest.raises(ValueError, match="no value 'pressure'.*values: sensor.temp"):
        export(recorder.snapshot(), tmp_path / "t.vcd", values=["pressure"])


def test_off_it_is_not_hooked_in_at_all():
    kernel = Kernel(clock=VirtualClock())
    before = list(kernel.events._listeners)
    recorder = Recorder(kernel)
    recorder.start()
    assert kernel.timeline is recorder and len(kernel.events._listeners) > len(before)
    assert kernel.mailboxes.message_hook is not None
    recorder.stop()
    assert kernel.timeline is None and kernel.events._listeners == before
    assert kernel.mailboxes.message_hook is None


PING = """
.data
name: .asciz "app:loop"
msg:  .ascii "x"
.bss
buf: .zero 4
.text
.entry start
start:
    LDI32 R1, name
    LDI R2, 0
    SVC MOD=5, FN=0
    MOV R6, R1
loop:
    MOV R1, R6
    LDI32 R2, msg
    LDI R3, 1
    LDI R4, 0
    LDI R5, 0
    SVC MOD=5, FN=2
    MOV R1, R6
    LDI32 R2, buf
    LDI R3, 4
    LDI32 R4, 0xFFFF
    LDI R5, 0
    SVC MOD=5, FN=3
    JMP loop
"""


def test_the_ring_stays_within_its_budget_and_keeps_each_tasks_state():
    kernel = Kernel(clock=VirtualClock())
    kernel.load(build_source(PING, filename="ping.mvasm", app_name="ping"))
    recorder = Recorder(kernel, budget=MIN_BUDGET)
    recorder.start()
    while not recorder.dropped:
        kernel.run(50_000)
    assert recorder.bytes <= MIN_BUDGET and len(recorder.ring) <= MIN_BUDGET // RECORD_BYTES
    assert recorder.ring[0][2] == SEND          # the ring's oldest is a message by now...
    timeline = build_timeline(recorder.snapshot())
    first = timeline.events[0]                  # ... yet the timeline starts with its state
    assert first[0] == 0 and first[1] == recorder.ring[0][0] and first[4] == "running"


LINE = "✓" * 100 + "\n"              # kept as 2 bytes a character
LINE_BYTES = "".join(f"\\x{byte:02x}" for byte in LINE.encode())
PRINTER = f"""
.data
line: .ascii "{LINE_BYTES}"
.text
.entry start
start:
    LDI R1, 1
    LDI32 R2, line
    LDI R3, {len(LINE.encode())}
    SVC MOD=4, FN=2
    JMP start
"""


@pytest.mark.parametrize("program", [PING, PRINTER], ids=["messages", "non-ASCII output"])
def test_a_record_costs_at_most_what_the_budget_counts(program):
    kernel = Kernel(clock=VirtualClock(), output=lambda task, fd, data: None)
    kernel.load(build_source(program, filename="p.mvasm", app_name="p"))
    recorder = Recorder(kernel)
    recorder.start()
    kernel.run(20_000)                          # warm up: names, caches, the event history
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    count, counted = len(recorder.ring), recorder.bytes
    kernel.run(200_000)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(recorder.ring) - count > 1000 and not recorder.dropped
    assert grown <= recorder.bytes - counted


def test_instruction_level_trace_records_go_on_a_track_of_their_own(tmp_path):
    kernel = Kernel(clock=VirtualClock(), output=lambda task, fd, data: None)
    debugger = Debugger(kernel)
    task = kernel.load(build_file(DEMO[3]))
    debugger.trace_on(task.pid)
    recorder = Recorder(kernel, instructions=True)
    recorder.start()
    run_to_completion(kernel)
    recorder.stop()
    trace = perfetto(recorder, tmp_path)
    steps = trace.instants["hello (pid 1) instructions"]
    assert [ts for ts, *_ in steps] == [0, 1, 2, 3, 4]
    assert steps[2][2].startswith("SVC") and steps[0][2].startswith("LDI32")
    assert trace.parents[next(u for u, n in trace.names.items() if n.endswith("instructions"))] \
        == next(u for u, n in trace.names.items() if n == "hello (pid 1)")
