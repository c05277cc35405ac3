"""Compact pairs under the C executive (its core decodes at fetch, as boards do): a pair
is one instruction to everything that counts or stops them -- the step count, a step,
a breakpoint, the trace ring, the quantum-1 round robin (which stops before a pair
whose second operation faults, with nothing of it done) -- and the BRK listing reads
a pair as one code word. A fault in the second operation keeps the first's effect."""
from __future__ import annotations

import ctypes as C

import pytest
from execapi import BreakpointInfo, TraceRecord, image

from hsx.isa import make
from hsx.isa.compact import pack



def word(first, second) -> str:
    return f".word 0x{pack(first, second):08X}"


# R2 = 1 + 2 + ... + 10, two pairs an iteration
SUM = f"""
        .entry main
main:   LDI R1, 0
        LDI R2, 0
loop:   {word(make("ADDI", rd=1, rs1=1, imm=1), make("ADD", rd=2, rs1=2, rs2=1))}
        {word(make("CMPI", rs1=1, imm=10), make("BNE", imm=-1))}
        MOV R0, R2
        SVC MOD=1, FN=0
after:  BRK 5
"""
SUM_STEPS = 2 + 10 * 2 + 2

# the second operation faults (R3 = 4 is no data address) after the first ran
FAULTS = f"""
        .entry main
main:   LDI R1, 0
        LDI R3, 4
pair:   {word(make("ADDI", rd=1, rs1=1, imm=1), make("LD", rd=2, rs1=3))}
"""

PUSH_FAULTS = f"""
        .entry main
main:   LDI R1, 7
        LDI R3, 4
pair:   {word(make("PUSH", rs1=1), make("LD", rd=2, rs1=3))}
"""

SPIN = """
        .entry main
main:   LDI R1, 0
loop:   ADDI R1, R1, 1
        BR loop
"""


def test_pairs_run_both_operations_as_one_instruction(ex):
    data, _ = image(SUM)
    _, pid = ex.load(data)
    ex.run()
    info = ex.task(pid)
    assert info.exit_status == 55 and info.instructions == SUM_STEPS


def test_a_step_runs_a_whole_pair(ex):
    data, at = image(SUM)
    _, pid = ex.load(data, paused=True)
    executed = C.c_uint32()
    assert ex.call("step", pid, 3, C.byref(executed)) == "ok" and executed.value == 3
    regs = ex.registers(pid)
    assert (regs.regs[1], regs.regs[2], regs.steps, regs.pc) == (1, 1, 3, at("loop") + 4)


def test_a_fault_in_the_second_operation_keeps_the_first(ex):
    data, at = image(FAULTS)
    _, pid = ex.load(data)
    ex.run()
    info = ex.task(pid)
    assert ex.state(pid) == "faulted" and info.fault_kind == b"memory"
    assert info.fault_pc == at("pair") and info.fault_addr == 4
    assert ex.registers(pid).regs[1] == 1 and info.instructions == 2


def test_the_round_robin_stops_before_a_pair_that_faults(ex):
    """Quantum-1 tasks run in one core call; the pair whose second operation faults is
    undone there and runs once as a turn of its own: its first operation once."""
    data, at = image(FAULTS)
    spin, _ = image(SPIN)
    _, pid = ex.load(data)
    others = [ex.load(spin)[1] for _ in range(2)]
    ex.run(3000)
    regs = ex.registers(pid)
    assert ex.state(pid) == "faulted" and ex.task(pid).fault_pc == at("pair")
    assert regs.regs[1] == 1 and regs.sp == ex.task(pid).stack_top
    assert all(ex.state(other) == "ready" for other in others)


def test_the_round_robin_undoes_a_first_push(ex):
    data, at = image(PUSH_FAULTS)
    spin, _ = image(SPIN)
    _, pid = ex.load(data)
    for _ in range(2):
        ex.load(spin)
    ex.run(3000)
    regs, info = ex.registers(pid), ex.task(pid)
    assert ex.state(pid) == "faulted" and info.fault_pc == at("pair")
    assert regs.sp == info.stack_top - 4                  # pushed once
    assert ex.peek(pid, regs.sp, 4) == b"\x07\0\0\0"


def test_a_breakpoint_on_a_pair_stops_before_both(dbg):
    data, at = image(SUM)
    _, pid = dbg.load(data, paused=True)
    assert dbg.call("bp_set", pid, at("loop"), 0, C.byref(C.c_uint32())) == "ok"
    dbg.call("resume", pid)
    dbg.run()
    regs = dbg.registers(pid)
    assert dbg.state(pid) == "paused" and regs.pc == at("loop") and regs.regs[1] == 0
    dbg.call("resume", pid)                       # both operations, once
    dbg.run()
    regs = dbg.registers(pid)
    assert regs.pc == at("loop") and (regs.regs[1], regs.regs[2]) == (1, 1)


def test_the_trace_has_one_record_per_pair(dbg):
    data, at = image(SUM)
    _, pid = dbg.load(data, paused=True)
    assert dbg.call("trace", pid, 1) == "ok"
    dbg.call("resume", pid)
    dbg.run()
    records = (TraceRecord * 8)()
    n = dbg.lib.hsx_exec_trace_records(pid, records, 8)
    assert n == 8
    assert [r.steps for r in records] == list(range(SUM_STEPS - 7, SUM_STEPS + 1))
    assert [r.pc for r in records][:4] == [at("loop"), at("loop") + 4] * 2


def listed_breakpoints(dbg) -> list[tuple[int, int, int, int]]:
    """(pid, address, brk, code) of every breakpoint the executive lists."""
    listed, cursor, info = [], C.c_uint32(), BreakpointInfo()
    while dbg.lib.hsx_exec_next_breakpoint(C.byref(cursor), C.byref(info)):
        listed.append((info.pid, info.addr, info.brk, info.code))
    return listed


def test_a_brk_after_pairs_is_listed_at_its_address(dbg):
    """The BRK listing reads the code word by word: a pair is one word."""
    data, at = image(SUM)
    dbg.load(data, paused=True)
    assert [entry[1:] for entry in listed_breakpoints(dbg)] == [(at("after"), 1, 5)]
