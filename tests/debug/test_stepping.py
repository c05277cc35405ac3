"""Run control: instruction steps on the host; step over/out/line and run-to at full
speed in the kernel, with recursion telling frames apart by SP."""
from __future__ import annotations

import pytest

from debugkit import FACT, LOOP, SPINNER
from hsx.debug import DebugError
from hsx.kernel.states import TaskState


def address(rig, pid, name):
    return rig.debugger.symbols_lookup(pid, name)["address"]


def stop_at(rig, task, where, **kwargs):
    """Run the task to `where` and return the debug_break it reported."""
    rig.debugger.run_to(task.pid, where, **kwargs)
    rig.run_until_paused(task)
    return rig.breaks(task.pid)[-1]


def test_step_pauses_a_running_task_and_reports_each_step(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    result = dbg.step(task.pid, 2)                     # LDI R14, 0; CALL main
    main = address(rig, task.pid, "main")
    assert result == {"pid": task.pid, "pc": main, "state": "paused", "executed": 2}
    assert rig.breaks(task.pid)[-1] == {"pid": task.pid, "pc": main, "reason": "step",
                                        "executed": 2, "symbol": "main", "offset": 0,
                                        "file": "fact.mvasm", "line": 6}
    dbg.step(task.pid)
    assert task.ctx.pc == main + 4 and task.state is TaskState.PAUSED
    rig.kernel.run(100)
    assert task.ctx.pc == main + 4                     # a stepped task stays paused


def test_step_ends_early_at_a_breakpoint(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    stop_at(rig, task, "again")
    bp = dbg.breakpoints.set(task.pid, "leaf")
    result = dbg.step(task.pid, 10)
    assert task.ctx.pc == address(rig, task.pid, "leaf") and result["executed"] == 3
    assert rig.breaks(task.pid)[-1]["reason"] == "breakpoint"
    assert rig.breaks(task.pid)[-1]["breakpoint_id"] == bp


def test_step_over_a_call_runs_it_at_full_speed(rig):
    task = rig.load("fact", FACT)
    spin = rig.load("spin", SPINNER)
    dbg = rig.debugger
    after = address(rig, task.pid, "after")
    stop_at(rig, task, after - 4)                      # main's CALL fact
    sp = task.ctx.regs[15]
    ticks = spin.ctx.steps
    assert dbg.step_over(task.pid)["pending"] == "step_over"
    rig.run_until_paused(task)
    assert task.ctx.pc == after and task.ctx.regs[0] == 120 and task.ctx.regs[15] == sp
    assert rig.breaks(task.pid)[-1]["reason"] == "step"
    assert spin.ctx.steps > ticks                      # the kernel ran everyone meanwhile
    assert not task.ctx.breakpoints                    # the step's stop is gone


def test_step_over_a_recursive_call_stops_in_the_same_frame(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    back = address(rig, task.pid, "back")
    bp = dbg.breakpoints.set(task.pid, back - 4, condition="R1 == 3")   # fact(4) calls fact(3)
    rig.run_until_paused(task)
    dbg.breakpoints.clear(bp)
    sp = task.ctx.regs[15]
    breaks = len(rig.breaks(task.pid))
    dbg.step_over(task.pid)                            # deeper calls return to `back` first
    rig.run_until_paused(task)
    assert task.ctx.pc == back and task.ctx.regs[15] == sp and task.ctx.regs[0] == 6
    assert len(rig.breaks(task.pid)) == breaks + 1


def test_step_over_anything_else_is_one_step(rig):
    task = rig.load("fact", FACT)
    rig.debugger.step_over(task.pid)
    assert task.ctx.pc == 4 and rig.breaks(task.pid)[-1]["reason"] == "step"


def test_step_out_climbs_the_recursion_one_frame_at_a_time(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    back = address(rig, task.pid, "back")
    stop_at(rig, task, "base")                         # fact(1), five frames of fact deep
    depth = len(dbg.stack_info(task.pid)["frames"])
    for level in range(1, 5):
        dbg.step_out(task.pid)
        rig.run_until_paused(task)
        assert task.ctx.pc == back
        assert len(dbg.stack_info(task.pid)["frames"]) == depth - level
    dbg.step_out(task.pid)                             # fact(5) returns into main
    rig.run_until_paused(task)
    assert task.ctx.pc == address(rig, task.pid, "after") and task.ctx.regs[0] == 120
    dbg.step_out(task.pid)                             # main returns into _start
    rig.run_until_paused(task)
    assert task.ctx.pc == 8
    with pytest.raises(DebugError) as error:
        dbg.step_out(task.pid)
    assert error.value.code == "outermost_frame"


def test_step_out_of_a_leaf_without_a_frame(rig):
    task = rig.load("loop", LOOP)
    stop_at(rig, task, "inleaf")                       # after the leaf's PUSH R6
    rig.debugger.step_out(task.pid)
    rig.run_until_paused(task)
    assert task.ctx.pc == address(rig, task.pid, "store") + 8       # after main's CALL leaf
    assert rig.debugger.symbols.describe(task.pid, task.ctx.pc)["symbol"] == "main"


def test_run_to_is_a_temporary_breakpoint(rig):
    task = rig.load("fact", FACT)
    spin = rig.load("spin", SPINNER)
    dbg = rig.debugger
    result = dbg.run_to(task.pid, "after")
    assert result["breakpoint_id"] == dbg.breakpoints.list(task.pid)[-1]["id"]
    rig.run_until_paused(task)
    event = rig.breaks(task.pid)[-1]
    assert event["temporary"] is True and event["pc"] == address(rig, task.pid, "after")
    assert [b["kind"] for b in dbg.breakpoints.list(task.pid)] == []
    assert spin.state is TaskState.READY and spin.ctx.steps > 0


def test_a_breakpoint_inside_the_call_abandons_the_step(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    stop_at(rig, task, address(rig, task.pid, "after") - 4)
    bp = dbg.breakpoints.set(task.pid, "base")
    dbg.step_over(task.pid)
    rig.run_until_paused(task)
    assert rig.breaks(task.pid)[-1]["breakpoint_id"] == bp
    dbg.breakpoints.clear(bp)
    dbg.resume(task.pid)
    rig.run_until(lambda: task.ended)                  # the step's stop at `after` is gone
    assert task.exit_status == 120
    assert [e["reason"] for e in rig.breaks(task.pid)] == ["breakpoint", "breakpoint"]


def test_pause_cancels_a_pending_step(rig):
    task = rig.load("spin", SPINNER + "\n.text\nfar: SVC MOD=1, FN=0\n")
    dbg = rig.debugger
    dbg.step(task.pid, 2)
    dbg.run_to(task.pid, "far")                        # never reached
    dbg.pause(task.pid)
    assert task.state is TaskState.PAUSED
    dbg.breakpoints.clear(dbg.breakpoints.list(task.pid)[0]["id"])
    assert not task.ctx.breakpoints


def test_pause_and_resume_everything(rig):
    one, two = rig.load("one", SPINNER), rig.load("two", SPINNER)
    dbg = rig.debugger
    assert dbg.pause() == [one.pid, two.pid]
    assert rig.kernel.run(100) == 0
    assert dbg.resume() == [one.pid, two.pid]
    assert rig.kernel.run(100) == 100


def test_step_into_a_brk_reports_the_brk(rig):
    task = rig.load("brk", """
        .entry start
start:  LDI R0, 1
        BRK 3
        SVC MOD=1, FN=0
""")
    rig.debugger.step(task.pid, 5)
    assert [e["reason"] for e in rig.breaks(task.pid)] == ["brk"]
    assert task.ctx.pc == 8 and task.state is TaskState.PAUSED


def test_step_line_in_assembly_steps_over_calls(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    after = address(rig, task.pid, "after")
    stop_at(rig, task, after - 4)
    dbg.step_line(task.pid)
    rig.run_until_paused(task)
    assert task.ctx.pc == after and task.ctx.regs[0] == 120
    event = rig.breaks(task.pid)[-1]
    assert (event["reason"], event["line"]) == ("step", 10)


def test_step_line_needs_line_information(rig, tmp_path):
    from debugkit import build
    bare = rig.kernel.load(build(tmp_path, "bare", FACT).read_bytes())
    with pytest.raises(DebugError) as error:
        rig.debugger.step_line(bare.pid)
    assert error.value.code == "no_symbols"


def test_ended_tasks_cannot_be_stepped(rig):
    task = rig.load("fact", FACT)
    rig.run_until(lambda: task.ended)
    for call in (rig.debugger.step, rig.debugger.step_over, rig.debugger.resume):
        with pytest.raises(DebugError) as error:
            call(task.pid)
        assert error.value.code == "task_ended"


def test_a_long_step_runs_in_the_kernel_and_stops_after_exactly_n_instructions(rig):
    task = rig.load("spin", SPINNER)
    other = rig.load("other", SPINNER)
    dbg = rig.debugger
    dbg.step(task.pid, 1)
    start, others = task.ctx.steps, other.ctx.steps
    result = dbg.step(task.pid, 25_001)                  # more than the host steps
    assert result["pending"] == "step" and result["requested"] == 25_001
    assert task.ctx.steps == start                      # nothing ran yet: the kernel runs it
    rig.run_until_paused(task)
    assert task.ctx.steps - start == 25_001 and other.ctx.steps > others
    event = rig.breaks(task.pid)[-1]
    assert (event["reason"], event["executed"], event["pc"]) == ("step", 25_001, task.ctx.pc)
    rig.kernel.run(1000)
    assert task.ctx.steps - start == 25_001             # it stays paused
    assert task.step_limit is None


def test_the_kernel_pauses_a_counted_step_alone_in_quanta_and_in_a_crowd(rig):
    """The count is exact whether the task runs alone (long turns) or shares the CPU."""
    for company in (0, 2):
        task = rig.load("spin", SPINNER)
        crowd = [rig.load(f"c{k}", SPINNER) for k in range(company)]
        rig.debugger.step(task.pid, 1)
        start = task.ctx.steps
        rig.debugger.step(task.pid, 12_345)
        rig.run_until_paused(task, slice_=777)
        assert task.ctx.steps - start == 12_345
        for t in [task, *crowd]:
            rig.kernel.kill(t.pid)


def test_pause_interrupts_a_long_step(rig):
    task = rig.load("spin", SPINNER)
    dbg = rig.debugger
    dbg.step(task.pid, 1)
    start = task.ctx.steps
    dbg.step(task.pid, 10 ** 12)
    rig.kernel.run(5000)
    dbg.pause(task.pid)
    ran = task.ctx.steps - start
    assert 0 < ran <= 5000 and task.state is TaskState.PAUSED
    assert task.step_limit is None
    dbg.resume(task.pid)                                 # a plain run now: no step limit
    rig.kernel.run(20_000)
    assert task.ctx.steps - start > 20_000 and task.state is not TaskState.PAUSED


def test_a_long_step_ends_early_at_a_breakpoint(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    stop_at(rig, task, "again")
    bp = dbg.breakpoints.set(task.pid, "leaf")
    assert dbg.step(task.pid, 50_000)["pending"] == "step"
    rig.run_until_paused(task)
    event = rig.breaks(task.pid)[-1]
    assert event["reason"] == "breakpoint" and event["breakpoint_id"] == bp
    assert task.step_limit is None
    dbg.resume(task.pid)
    rig.run_until_paused(task)                           # the next call of leaf, not the count
    assert rig.breaks(task.pid)[-1]["reason"] == "breakpoint"
