"""Watches (with the pc that made each change, and stop-on-change) and the instruction
trace ring with its JSON-lines export."""
from __future__ import annotations

import json

import pytest

from debugkit import FACT, LOOP, SPINNER, build, make_rig
from hsx.debug import DebugError, Debugger, load_trace
from hsx.debug.trace import TOTAL_RECORDS
from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.profiles import get_profile
from hsx.kernel.states import TaskState


def address(rig, pid, name):
    return rig.debugger.symbols_lookup(pid, name)["address"]


def updates(rig):
    return [e.data for e in rig.of("watch_update")]


def test_watch_reports_each_change_with_the_storing_instruction(rig):
    task = rig.load("loop", LOOP)
    spin = rig.load("spin", SPINNER)
    dbg = rig.debugger
    watch = dbg.watch_add(task.pid, "counter", owner="s1")
    assert watch == {"id": watch["id"], "pid": task.pid, "addr": 0x4000, "length": 4,
                     "symbol": "counter", "stop": False, "owner": "s1", "value": "00000000"}
    assert spin.ctx.trace is None                      # other tasks keep the fast path
    rig.run_until(lambda: task.ended)
    store = address(rig, task.pid, "store")
    assert [(u["old"], u["new"], u["pc"]) for u in updates(rig)] == [
        (f"{n:02x}000000", f"{n + 1:02x}000000", store) for n in range(5)]
    assert updates(rig)[0] == {"id": watch["id"], "pid": task.pid, "addr": 0x4000, "length": 4,
                               "symbol": "counter", "old": "00000000", "new": "01000000",
                               "pc": store}
    assert dbg.watch_list() == []                      # gone with the task


def test_stopping_watch_parks_the_task_after_the_change(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    watch = dbg.watch_add(task.pid, 0x4000, 4, stop=True)
    store = address(rig, task.pid, "store")
    rig.run_until_paused(task)
    assert task.ctx.pc == store + 4 and task.ctx.regs[1] == 1
    event = rig.breaks(task.pid)[-1]
    assert event == {"pid": task.pid, "pc": store + 4, "reason": "watch", "watch_id": watch["id"],
                     "addr": 0x4000, "old": "00000000", "new": "01000000", "changed_by": store,
                     "symbol": "main", "offset": store + 4 - address(rig, task.pid, "main"),
                     "file": "loop.mvasm", "line": 12}
    assert not task.ctx.breakpoints                    # the stop's breakpoint is gone
    dbg.resume(task.pid)                               # runs the CALL, on to the next change
    rig.run_until_paused(task)
    assert task.ctx.regs[1] == 2 and task.ctx.pc == store + 4


def test_watch_stop_while_stepping(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    dbg.run_to(task.pid, "store")
    rig.run_until_paused(task)
    dbg.watch_add(task.pid, "counter", stop=True)
    result = dbg.step(task.pid, 5)
    assert result["executed"] == 1 and rig.breaks(task.pid)[-1]["reason"] == "watch"
    assert not task.ctx.breakpoints


def test_host_writes_have_no_pc_and_removed_watches_cost_nothing(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    watch = dbg.watch_add(task.pid, "counter")
    assert task.ctx.trace is not None
    dbg.mem_write(task.pid, 0x4001, b"\x07")
    assert updates(rig)[-1]["pc"] is None and updates(rig)[-1]["new"] == "00070000"
    assert dbg.watch_remove(watch["id"])["id"] == watch["id"]
    assert task.ctx.trace is None
    rig.run_until(lambda: task.ended)
    assert len(updates(rig)) == 1
    with pytest.raises(DebugError) as error:
        dbg.watch_remove(watch["id"])
    assert error.value.code == "unknown_watch"


def test_watch_arguments(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    for args, code in [((0x4000, 0), "bad_argument"), ((0xFFFF, 4), "out_of_range"),
                       (("nope",), "unknown_symbol"), ((1.5,), "bad_argument")]:
        with pytest.raises(DebugError) as error:
            dbg.watch_add(task.pid, *args)
        assert error.value.code == code, args
    one = dbg.watch_add(task.pid, "counter", owner="a")
    two = dbg.watch_add(task.pid, "counter+2", 2, owner="b")
    assert (two["addr"], two["length"], two["symbol"]) == (0x4002, 2, "counter")
    assert dbg.release_owner("a") == {"breakpoints": [], "watches": [one["id"]]}
    assert [w["id"] for w in dbg.watch_list(task.pid)] == [two["id"]]


def test_trace_ring_records_and_export(rig, tmp_path):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    assert dbg.trace_records(task.pid) == [] and task.ctx.trace is None
    status = dbg.trace_on(task.pid, size=8)
    assert status == {"pid": task.pid, "enabled": True, "format": "hsx.trace/1",
                      "capacity": 8, "count": 0}
    dbg.step(task.pid, 5)                              # LDI, CALL, PUSH, MOV, LDI
    records = dbg.trace_records(task.pid)
    assert [r["seq"] for r in records] == [1, 2, 3, 4, 5]
    assert [r["pc"] for r in records] == [0, 4, 12, 16, 20]
    push = records[2]
    assert push["text"] == "PUSH R14" and push["opcode"] == 0x40
    assert push["changed_regs"] == ["R15"] and push["regs"] == {"R15": task.ctx.layout.stack_top - 8}
    assert push["mem_access"] == {"op": "write", "address": task.ctx.layout.stack_top - 8,
                                  "width": 4, "value": 0}
    assert records[1]["changed_regs"] == ["R15"] and "mem_access" in records[1]   # CALL pushes
    dbg.resume(task.pid)
    rig.kernel.run(20)
    assert len(dbg.trace_records(task.pid)) == 8       # the ring keeps the newest 8
    assert dbg.trace_records(task.pid, limit=3)[-1]["seq"] == task.ctx.steps

    path = tmp_path / "t.jsonl"
    assert dbg.trace_export(task.pid, path, limit=5) == 5
    header = json.loads(path.read_text().splitlines()[0])
    assert header == {"format": "hsx.trace/1", "pid": task.pid, "app": "fact", "count": 5}
    loaded = load_trace(path)
    assert loaded.header == header and loaded.records == dbg.trace_records(task.pid, limit=5)

    dbg.trace_off(task.pid)
    assert task.ctx.trace is None and dbg.trace_status(task.pid)["enabled"] is False
    rig.kernel.run(10)
    assert len(dbg.trace_records(task.pid)) == 8       # still readable after off


def test_trace_defaults_to_the_profile_size_and_bad_files(rig, tmp_path):
    task = rig.load("fact", FACT)
    assert rig.debugger.trace_on(task.pid)["capacity"] == rig.kernel.profile.trace_records
    for text in ["{", '{"seq": 1}', '{"format": "other/9"}', "[1]"]:
        path = tmp_path / "bad.jsonl"
        path.write_text(text + "\n")
        with pytest.raises(DebugError) as error:
            load_trace(path)
        assert error.value.code == "trace_file"
    headerless = tmp_path / "plain.jsonl"
    headerless.write_text('{"seq": 1, "pid": 2, "pc": 0, "opcode": 1, "extra": true}\n')
    assert load_trace(headerless).records[0]["extra"] is True


def test_watch_and_trace_share_the_tap(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    watch = dbg.watch_add(task.pid, "counter")
    dbg.trace_on(task.pid, size=4)
    dbg.trace_off(task.pid)
    assert task.ctx.trace is not None                  # the watch still needs it
    rig.run_until(lambda: task.state is TaskState.RETURNED)
    assert len(updates(rig)) == 5 and watch["id"]


def test_trace_step_events_keep_their_place_among_other_events(rig):
    """A run's trace_step events are emitted together, yet the stream stays in execution
    order: each watch_update follows the trace_step of the store that caused it, the
    task's end follows its last instruction's, and seq counts up through all of them."""
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    dbg.trace_on(task.pid, size=64)
    dbg.watch_add(task.pid, "counter")
    rig.run_until(lambda: task.ended)
    events = rig.events
    assert [e.seq for e in events] == sorted(e.seq for e in events)
    steps = [e for e in events if e.type == "trace_step"]
    assert [e.data["steps"] for e in steps] == list(range(1, task.ctx.steps + 1))
    store = address(rig, task.pid, "store")
    for n, event in enumerate(events):
        if event.type == "watch_update":
            assert events[n - 1].type == "trace_step" and events[n - 1].data["pc"] == store
    ended = next(n for n, e in enumerate(events) if e.type == "task_state"
                 and e.data["new_state"] == "returned")
    assert events[ended - 1] is steps[-1]


def test_the_profile_size_is_a_cap_a_larger_ring_is_clamped(rig):
    task = rig.load("fact", FACT)
    cap = rig.kernel.profile.trace_records
    status = rig.debugger.trace_on(task.pid, size=100_000)
    assert status["capacity"] == cap and status["warnings"] == [f"size_clamped:{cap}"]
    assert "warnings" not in rig.debugger.trace_on(task.pid, size=cap)


def test_trace_rings_of_all_tasks_together_are_bounded(tmp_path):
    rig = make_rig(tmp_path, profile=get_profile("full", trace_records=TOTAL_RECORDS))
    dbg = rig.debugger
    first, second = (rig.load(name, LOOP).pid for name in ("one", "two"))
    dbg.trace_on(first, size=TOTAL_RECORDS - 100)
    with pytest.raises(DebugError) as refused:
        dbg.trace_on(second, size=101)
    assert refused.value.code == "bad_argument" and "trace.off" in refused.value.message
    assert dbg.trace_on(second, size=100)["enabled"]
    dbg.trace_on(second, size=100)                    # a fresh ring of its own
    rig.kernel.kill(first)                            # an ended task's ring goes when needed
    assert dbg.trace_on(second, size=1000)["capacity"] == 1000
    assert dbg.trace_status(first)["count"] == 0


TRACED_WRITER = """
        .entry start
start:  LDI R4, 3
        LDI32 R5, counter
loop:   LDI R1, 1
        LDI32 R2, msg
        LDI R3, 3
        SVC MOD=4, FN=2
        ST [R5], R4
        ADDI R4, R4, -1
        CMPI R4, 0
        BNE loop
        LDI R0, 0
        SVC MOD=1, FN=0
        .data
msg:    .ascii "hi\\n"
counter: .word 0
"""


def test_a_traced_task_s_output_keeps_its_place_among_its_trace_steps(tmp_path):
    """Both held back until a run ends (trace_step by the trace, a write's stdout by
    the bus when its listeners take batches), they still come in execution order: each
    write's stdout between the trace_steps of the instruction before its SVC and of the
    SVC (recorded once it has retired); and the stream is the one a listener taking
    each event at once gets."""
    streams = []
    for n, batched in enumerate((False, True)):
        kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=tmp_path / f"fs{n}")
        seen: list = []
        kernel.events.subscribe(seen.append, {"trace_step", "stdout", "watch_update"},
                                batch=seen.extend if batched else None)
        dbg = Debugger(kernel)
        task = kernel.load(build(tmp_path, f"writer{n}", TRACED_WRITER))
        dbg.trace_on(task.pid, size=64)
        dbg.watch_add(task.pid, "counter")
        while not task.ended:
            kernel.run(7)
        streams.append([(e.seq, e.ts, e.type, e.pid, e.data) for e in seen])
    assert streams[0] == streams[1]
    types = [type_ for _, _, type_, _, _ in streams[1]]
    assert types.count("stdout") == 3 and types.count("watch_update") == 3
    for n, (_, _, type_, _, data) in enumerate(streams[1]):
        if type_ == "stdout":
            (_, _, before, _, step), (_, _, after, _, svc) = streams[1][n - 1], streams[1][n + 1]
            assert before == after == "trace_step" and step["text"] == "LDI R3, 3"
            assert svc["text"].startswith("SVC") and data == {"text": "hi\n"}
