"""Breakpoints on real programs under the kernel: hits stop one task before the
instruction, the others keep running, and continuing executes the instruction."""
from __future__ import annotations

import pytest

from debugkit import FACT, LOOP, SPINNER, build
from hsx.debug import DebugError
from hsx.kernel.states import TaskState


def address(rig, pid, name):
    return rig.debugger.symbols_lookup(pid, name)["address"]


def test_breakpoint_by_symbol_stops_one_task_while_another_runs(rig):
    task = rig.load("fact", FACT)
    spin = rig.load("spin", SPINNER)
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, "base", owner="s1")
    base = address(rig, task.pid, "base")

    rig.run_until_paused(task)
    assert task.ctx.pc == base
    (event,) = rig.breaks(task.pid)
    assert event == {"pid": task.pid, "pc": base, "reason": "breakpoint", "breakpoint_id": bp,
                     "symbol": "fact", "offset": base - address(rig, task.pid, "fact"),
                     "file": "fact.mvasm", "line": 25}
    paused = [e.data for e in rig.of("task_state") if e.pid == task.pid][-1]
    assert paused["new_state"] == "paused" and paused["reason"] == "debug_break"
    assert task.ctx.regs[0] == 0                        # LDI R0, 1 has not executed

    ticks = spin.ctx.steps
    rig.kernel.run(5000)                                # the other task keeps running
    assert spin.ctx.steps > ticks and task.state is TaskState.PAUSED

    (listed,) = [b for b in dbg.breakpoints.list(task.pid) if b["id"] == bp]
    assert listed == {"id": bp, "pid": task.pid, "address": base, "kind": "breakpoint",
                      "symbol": "fact", "offset": 40, "location": "fact+0x28",
                      "file": "fact.mvasm", "line": 25, "hits": 1, "enabled": True,
                      "temporary": False, "condition": None, "owner": "s1",
                      "remembered": False}

    dbg.resume(task.pid)                                # executes LDI R0, 1 and goes on
    rig.run_until(lambda: task.ended)
    assert task.exit_status == 120 and len(rig.breaks(task.pid)) == 1


def test_continue_runs_the_instruction_under_the_breakpoint_once(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    dbg.breakpoints.set(task.pid, "store")
    seen = []
    for _ in range(5):
        rig.run_until_paused(task)
        seen.append(task.ctx.regs[1])
        before = task.ctx.steps
        dbg.resume(task.pid)
        rig.kernel.run(1)
        assert task.ctx.steps == before + 1            # the ST ran; no second stop there
    rig.run_until(lambda: task.ended)
    assert seen == [1, 2, 3, 4, 5] and task.exit_status == 5


def test_kernel_resume_after_a_step_onto_a_breakpoint_does_not_stop_again(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    store = address(rig, task.pid, "store")
    dbg.breakpoints.set(task.pid, "store")
    dbg.run_to(task.pid, "again")
    rig.run_until_paused(task)
    dbg.step(task.pid)                                 # lands on the breakpoint
    assert task.ctx.pc == store
    rig.kernel.resume(task.pid)                        # resumed by anyone: the ST runs
    rig.run_until_paused(task)
    assert task.ctx.pc == store and task.ctx.regs[1] == 2


def test_locations_by_line_address_and_text(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    fact = address(rig, task.pid, "fact")
    by_line = dbg.breakpoints.set(task.pid, ("fact.mvasm", 16))
    assert dbg.breakpoints.set(task.pid, "fact.mvasm:16") == by_line   # same place: same id
    assert dbg.breakpoints.get(by_line).address == fact + 4
    directive = dbg.breakpoints.set(task.pid, ("fact.mvasm", 2))       # `.entry`: no code
    assert dbg.breakpoints.get(directive).address == 0                 # the next line's
    assert dbg.breakpoints.list(task.pid)[-1]["line"] == 3
    assert dbg.breakpoints.get(dbg.breakpoints.set(task.pid, fact)).address == fact
    assert dbg.breakpoints.get(dbg.breakpoints.set(task.pid, "0x8")).address == 8
    assert dbg.breakpoints.get(dbg.breakpoints.set(task.pid, "fact+8")).address == fact + 8


def test_bad_locations(rig, tmp_path):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    after = address(rig, task.pid, "after")                             # LDI32: 8 bytes
    for where, code in [(after + 4, "bad_address"), (2, "bad_address"), (0x4000, "bad_address"),
                        ("nope", "unknown_symbol"), ("counter", "unknown_symbol"),
                        (("fact.mvasm", 999), "no_code_for_line"), (("other.c", 1), "no_code_for_line"),
                        (1.5, "bad_argument"), ("fact +", "bad_argument")]:
        with pytest.raises(DebugError) as error:
            dbg.breakpoints.set(task.pid, where)
        assert error.value.code == code, where
    with pytest.raises(DebugError, match="no task") as error:
        dbg.breakpoints.set(99, 0)
    assert error.value.code == "unknown_pid"

    bare = rig.kernel.load(build(tmp_path, "bare", FACT).read_bytes())   # no .sym beside it
    with pytest.raises(DebugError) as error:
        dbg.breakpoints.set(bare.pid, "main")
    assert error.value.code == "no_symbols"
    assert dbg.breakpoints.get(dbg.breakpoints.set(bare.pid, 12)).address == 12


def test_disable_enable_and_clear(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, "store")
    assert dbg.breakpoints.disable(bp)["enabled"] is False
    assert not task.ctx.breakpoints                    # nothing left in the machine
    rig.kernel.run(30)
    assert task.state is TaskState.READY
    dbg.breakpoints.enable(bp)
    rig.run_until_paused(task)
    assert dbg.breakpoints.clear(bp)["id"] == bp
    assert dbg.breakpoints.list(task.pid) == [] and not task.ctx.breakpoints
    with pytest.raises(DebugError) as error:
        dbg.breakpoints.clear(bp)
    assert error.value.code == "unknown_breakpoint"
    dbg.resume(task.pid)
    rig.run_until(lambda: task.ended)


def test_conditions_on_registers_and_memory(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, "store", condition="R1 == 3")
    rig.run_until_paused(task)
    assert task.ctx.regs[1] == 3
    assert dbg.breakpoints.get(bp).hits == 1           # false conditions are not hits
    dbg.breakpoints.clear(bp)

    dbg.breakpoints.set(task.pid, "again", condition="[counter] >= 4 && SP < 0xFFB0")
    dbg.resume(task.pid)
    rig.run_until_paused(task)
    assert task.ctx.regs[1] == 4
    assert [e["reason"] for e in rig.breaks(task.pid)] == ["breakpoint", "breakpoint"]


def test_condition_errors(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    for text in ["R1 ==", "R1 = 3", "[counter", "nosuch > 1", ""]:
        with pytest.raises(DebugError) as error:
            dbg.breakpoints.set(task.pid, "store", condition=text)
        assert error.value.code == "bad_condition", text
    dbg.breakpoints.set(task.pid, "store", condition="[0xFFFFFFF0] == 1")
    rig.run_until_paused(task)                         # an unreadable condition stops, and says so
    assert "outside the task" in rig.breaks(task.pid)[-1]["condition_error"]


def test_temporary_breakpoint_is_gone_after_its_hit(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, "store", temporary=True)
    rig.run_until_paused(task)
    assert rig.breaks(task.pid)[-1]["temporary"] is True
    assert dbg.breakpoints.list(task.pid) == [] and not task.ctx.breakpoints
    with pytest.raises(DebugError):
        dbg.breakpoints.get(bp)
    dbg.resume(task.pid)
    rig.run_until(lambda: task.ended)


def test_release_owner_drops_only_that_sessions_breakpoints(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    mine = dbg.breakpoints.set(task.pid, "store", owner="s1")
    theirs = dbg.breakpoints.set(task.pid, "leaf", owner="s2")
    assert dbg.release_owner("s1") == {"breakpoints": [mine], "watches": []}
    assert [b["id"] for b in dbg.breakpoints.list(task.pid)] == [theirs]
    rig.run_until_paused(task)
    assert task.ctx.pc == address(rig, task.pid, "leaf")


def test_brk_instructions_are_static_breakpoints(rig):
    task = rig.load("brk", """
        .entry start
start:  LDI R0, 1
trap:   BRK 7
        LDI R0, 2
        BRK 8
        SVC MOD=1, FN=0
""")
    dbg = rig.debugger
    first, second = dbg.breakpoints.list(task.pid)
    assert (first["kind"], first["code"], first["symbol"], first["address"]) == ("brk", 7, "start", 4)
    rig.run_until_paused(task)
    assert rig.breaks(task.pid)[-1] == {"pid": task.pid, "pc": 4, "reason": "brk", "code": 7,
                                        "breakpoint_id": first["id"], "symbol": "start",
                                        "offset": 4, "file": "brk.mvasm", "line": 4}
    assert task.ctx.pc == 8                            # a BRK has retired when it traps
    with pytest.raises(DebugError) as error:
        dbg.breakpoints.clear(first["id"])
    assert error.value.code == "static_breakpoint"
    dbg.breakpoints.disable(second["id"])              # skip the next one
    dbg.resume(task.pid)
    rig.run_until(lambda: task.ended)
    assert task.exit_status == 2 and len(rig.breaks(task.pid)) == 1
    assert dbg.breakpoints.list() == []                # an ended task's breakpoints are gone


def test_faults_are_reported_as_debug_breaks(rig):
    task = rig.load("bad", """
        .entry start
start:  LDI R1, 0
        LD R0, [R1]
""")
    rig.run_until(lambda: task.ended)
    event = rig.breaks(task.pid)[-1]
    assert (event["reason"], event["pc"], event["kind"], event["addr"]) == ("fault", 4, "memory", 0)
    assert event["symbol"] == "start" and event["line"] == 4
    types = [e.type for e in rig.events if e.pid == task.pid]
    assert types.index("fault") < types.index("debug_break")


def test_closing_the_debugger_takes_everything_out(rig):
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    dbg.breakpoints.set(task.pid, "leaf")
    dbg.watch_add(task.pid, "counter")
    dbg.step(task.pid)
    dbg.step_over(task.pid)                            # pending: a stop after the CALL
    assert task.ctx.breakpoints and task.ctx.trace is not None
    dbg.close()
    assert not task.ctx.breakpoints and task.ctx.trace is None
    assert rig.kernel.debug_hook is None
    rig.run_until(lambda: task.ended)
    assert task.exit_status == 5
