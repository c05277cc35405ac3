"""The debugger over compact pairs: a pair is one instruction (a breakpoint on it stops
before both operations, a step runs both), steps over and out of calls, the stack walk
through a paired prologue, epilogue and frameless leaf, the disassembly and the trace
records of pairs, and a watch on the second operation's store."""
from __future__ import annotations

from hsx.isa import make
from hsx.isa.compact import pack


def op(mnemonic: str, **fields: int):
    return make(mnemonic, **fields)


def pair(first, second) -> str:
    """The `.word` line of a compact pair."""
    return f".word 0x{pack(first, second):08X}"


PAIRS = f"""
        .entry _start
_start: LDI R14, 0
        CALL main
        SVC MOD=1, FN=0
main:   {pair(op("PUSH", rs1=14), op("MOV", rd=14, rs1=15))}
        LDI R1, 3
        LDI R0, 0
again:  {pair(op("ADDI", rd=0, rs1=0, imm=1), op("ADDI", rd=1, rs1=1, imm=-1))}
        CALL leaf
test:   {pair(op("CMPI", rs1=1, imm=0), op("BNE", imm=-2))}
        LDI32 R2, counter
store:  {pair(op("LD", rd=3, rs1=2), op("ST", rs1=2, rs2=0))}
        MOV R15, R14
out:    {pair(op("POP", rd=14), op("RET"))}
leaf:   {pair(op("PUSH", rs1=6), op("PUSH", rs1=7))}
        {pair(op("LDI", rd=6, imm=7), op("ADD", rd=2, rs1=2, rs2=6))}
inleaf: {pair(op("POP", rd=7), op("POP", rd=6))}
        RET
        .data
counter: .word 0
"""
# main, again, leaf, ... as addresses (checked against the symbols in `at`).
ADDRESS = {"main": 12, "again": 24, "test": 32, "store": 44, "out": 52, "leaf": 56,
           "inleaf": 64}


def load(rig):
    task = rig.load("pairs", PAIRS)
    for name, addr in ADDRESS.items():
        assert rig.debugger.symbols_lookup(task.pid, name)["address"] == addr
    return task


def stop_at(rig, task, where):
    rig.debugger.run_to(task.pid, where)
    rig.run_until_paused(task)
    assert task.ctx.pc == ADDRESS[where]


def test_a_breakpoint_on_a_pair_stops_before_both_and_a_step_runs_both(rig):
    task = load(rig)
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, "again")
    rig.run_until_paused(task)
    regs = task.ctx.regs
    assert (task.ctx.pc, regs[0], regs[1]) == (24, 0, 3)
    assert rig.breaks(task.pid)[-1]["breakpoint_id"] == bp
    steps = task.ctx.steps
    assert dbg.step(task.pid) == {"pid": task.pid, "pc": 28, "state": "paused", "executed": 1}
    assert (regs[0], regs[1], task.ctx.steps) == (1, 2, steps + 1)
    dbg.step_over(task.pid)                       # CALL leaf, at full speed
    rig.run_until_paused(task)
    assert task.ctx.pc == 32
    dbg.step(task.pid)                            # CMPI R1, 0 | BNE again: taken
    assert task.ctx.pc == 24 and rig.breaks(task.pid)[-1]["executed"] == 1
    dbg.resume(task.pid)                          # runs it, then stops there next turn
    rig.run_until_paused(task)
    assert (task.ctx.pc, regs[0], regs[1]) == (24, 2, 1)


def test_step_out_of_a_leaf_that_saves_with_pairs(rig):
    task = load(rig)
    stop_at(rig, task, "inleaf")
    sp = task.ctx.regs[15]
    result = rig.debugger.step_out(task.pid)
    assert result["pending"] == "step_out" and result["function"] == "leaf"
    rig.run_until_paused(task)
    assert task.ctx.pc == 32 and task.ctx.regs[15] == sp + 12


def frames(info):
    return [(f["function"], f["pc"]) for f in info["frames"]]


def test_the_stack_walk_reads_paired_prologues_epilogues_and_leaves(rig):
    task = load(rig)
    dbg = rig.debugger
    stop_at(rig, task, "inleaf")                  # frameless: two pushes in one pair
    info = dbg.stack_info(task.pid)
    assert frames(info) == [("leaf", 64), ("main", 32), ("_start", 8)] and info["note"] is None
    stop_at(rig, task, "out")                     # POP R14 | RET: still in main's frame
    info = dbg.stack_info(task.pid)
    assert frames(info) == [("main", 52), ("_start", 8)] and info["note"] is None
    dbg.step(task.pid)
    assert task.ctx.pc == 8 and frames(dbg.stack_info(task.pid)) == [("_start", 8)]


def test_the_stack_walk_right_after_a_paired_prologue(rig):
    task = load(rig)
    dbg = rig.debugger
    stop_at(rig, task, "main")
    fp_before = task.ctx.regs[14]
    assert frames(dbg.stack_info(task.pid)) == [("main", 12), ("_start", 8)]
    dbg.step(task.pid)                            # PUSH R14 | MOV R14, R15
    assert task.ctx.regs[14] == task.ctx.regs[15] != fp_before
    info = dbg.stack_info(task.pid)
    assert frames(info) == [("main", 16), ("_start", 8)] and info["frames"][0]["fp"] == \
        task.ctx.regs[14]


def test_disassembly_shows_a_pair_as_one_line_with_both_operations(rig):
    task = load(rig)
    dbg = rig.debugger
    stop_at(rig, task, "out")
    listing = dbg.disasm(task.pid, "main", count=16, mode="from")["instructions"]
    by_pc = {line["pc"]: line for line in listing}
    prologue = by_pc[12]
    assert (prologue["text"], prologue["mnemonic"], prologue["operands"], prologue["size"]) == (
        "PUSH R14 | MOV R14, R15", "PUSH", "R14 | MOV R14, R15", 4)
    assert prologue["pair"] == ["PUSH R14", "MOV R14, R15"]
    test = by_pc[32]
    assert test["text"] == "CMPI R1, 0 | BNE again" and test["target"] == 24
    assert test["target_symbol"] == "again"
    assert "pair" not in by_pc[16] and by_pc[16]["text"] == "LDI R1, 3"
    out = by_pc[52]                               # the PC: RET's live target, past the POP
    assert out["current"] and out["text"] == "POP R14 | RET" and out["target"] == 8
    assert [line["pc"] for line in listing][:4] == [12, 16, 20, 24]


def traced_at_leaf(rig):
    """(task, debugger, SP) stopped at `leaf`'s entry with the trace on."""
    task = load(rig)
    stop_at(rig, task, "leaf")
    rig.debugger.trace_on(task.pid)
    return task, rig.debugger, task.ctx.regs[15]


def test_trace_records_and_events_of_pairs(rig):
    task, dbg, sp = traced_at_leaf(rig)
    rig.debugger.run_to(task.pid, "test")
    rig.run_until_paused(task)
    records = {r["pc"]: r for r in dbg.trace_records(task.pid)}
    pushes, work, pops = records[56], records[60], records[64]
    assert pushes["text"] == "PUSH R6 | PUSH R7" and pushes["opcode"] == pushes["word"] >> 24
    assert pushes["mem_access"] == {"op": "write", "address": sp - 4, "width": 4, "value": 0}
    assert pushes["mem_access2"]["address"] == sp - 8
    assert pushes["changed_regs"] == ["R15"] and pushes["regs"] == {"R15": sp - 8}
    assert "mem_access" not in work and work["changed_regs"] == ["R2", "R6"]
    assert [pops["mem_access"]["address"], pops["mem_access2"]["address"]] == [sp - 8, sp - 4]


def test_trace_step_events_carry_a_pairs_operations_and_both_writes(rig):
    task, dbg, sp = traced_at_leaf(rig)
    dbg.step(task.pid)
    (event,) = [e.data for e in rig.of("trace_step")]
    assert event["text"] == "PUSH R6 | PUSH R7" and event["mnemonic"] == "PUSH"
    assert event["pair"] == ["PUSH R6", "PUSH R7"]
    assert [(w["addr"], w["new"]) for w in event["mem_writes"]] == [
        (sp - 4, task.ctx.regs[6]), (sp - 8, task.ctx.regs[7])]


def test_a_watch_names_the_pair_whose_second_operation_stored(rig):
    task = load(rig)
    dbg = rig.debugger
    watch = dbg.watch_add(task.pid, "counter", stop=True)
    rig.run_until_paused(task)
    event = rig.breaks(task.pid)[-1]
    assert event["reason"] == "watch" and event["watch_id"] == watch["id"]
    assert event["changed_by"] == 44 and event["new"] == "03000000"
    assert task.ctx.pc == 48 and task.ctx.regs[3] == 0       # LD R3 read the old value
    dbg.watch_remove(watch["id"])
    dbg.resume(task.pid)
    rig.run_until(lambda: task.ended)
    assert task.exit_status == 3
