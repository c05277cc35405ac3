"""Compact pairs on the Python engine (docs/machine.md, "Compact pairs"): a pair is one
step that runs its first operation, then its second, each exactly as the instruction it
stands for; a fault in the second keeps the first's effects and is reported at the pair;
a pair word that does not decode is an illegal instruction.  Checked on the exact
interpreter and the translator (random pair programs against the same operations as
ordinary instructions, and against each other), traced runs and the quantum-1 round
robin."""
from __future__ import annotations

import io
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from hsx.isa import decode, make
from hsx.isa.compact import pack
from hsx.vm import FaultKind, StopReason
from hsx.vm.signals import illegal_fault
from pairkit import (BRK, expanded_program, initial_registers, load_pair_state,
                     pair_program, straight_pairs)
from randprog import MEM, snapshot
from vmkit import asm, image, machine

ENGINES = pytest.mark.parametrize("mode", [False, True, "native", "native-fetch"],
                                  ids=["interp", "translate", "native", "native-fetch"])
data_bytes = st.binary(min_size=256, max_size=256)
SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def boot(words, mode, regs=None, data=b""):
    m = machine(mode, stdout=io.BytesIO(), stderr=io.BytesIO(), sleep=lambda seconds: None)
    ctx = m.create_context(image(words), mem_size=MEM, stack_size=0x400)
    if regs is not None:
        load_pair_state(m, ctx, regs, data)
    return m, ctx


def state(ctx):
    """What the program computed: registers, flags, memory."""
    return ctx.regs.tolist(), ctx.psw, bytes(ctx.mem)


# --- a pair is its two instructions, one step ------------------------------------------

@ENGINES
@settings(max_examples=300, **SLOW)
@given(pairs=straight_pairs(), regs=initial_registers, data=data_bytes)
def test_a_pair_runs_as_its_two_instructions_one_after_the_other(mode, pairs, regs, data):
    (mp, paired) = boot(pair_program(pairs), mode, regs, data)
    (ms, plain) = boot(expanded_program(pairs), mode, regs, data)
    sp, ss = mp.run(paired, 10_000), ms.run(plain, 10_000)
    assert sp.reason is ss.reason and sp.reason in (StopReason.BRK, StopReason.FAULT)
    assert state(paired) == state(plain)
    index, in_second = divmod(ss.pc, 8)             # the pair the expanded run stopped in
    assert sp.pc == 4 * index
    if sp.reason is StopReason.BRK:
        assert (paired.steps, plain.steps) == (index + 1, 2 * index + 1)
        assert index == len(pairs)
    else:                                           # a fault in its first or second half
        assert (paired.steps, plain.steps) == (index, 2 * index + in_second // 4)
        assert paired.fault == replace(plain.fault, pc=4 * index)
        assert paired.pc == 4 * index


@ENGINES
def test_a_loop_of_pairs_branches_from_the_pair_and_counts_one_step_per_pair(mode):
    words = asm("LDI R1, 5") + [
        pack(make("ADDI", rd=0, rs1=0, imm=1), make("ADDI", rd=1, rs1=1, imm=-1)),
        pack(make("CMPI", rs1=1, imm=0), make("BNE", imm=-1)),
        BRK]
    m, ctx = boot(words, mode)
    stop = m.run(ctx, 1000)
    assert stop.reason is StopReason.BRK and stop.pc == 12
    assert m.registers(ctx)[:2] == [5, 0] and ctx.steps == 1 + 5 * 2 + 1


# --- a fault in the second half ----------------------------------------------------------

FAULTING_SECONDS = {
    "memory": (make("LD", rd=2, rs1=3, imm=0), FaultKind.MEMORY),
    "stack": (make("POP", rd=2), FaultKind.STACK_UNDERFLOW),
    "sp": (make("MOV", rd=15, rs1=3), FaultKind.STACK_OVERFLOW),
    "target": (make("BR", imm=-100), FaultKind.PC_OUT_OF_RANGE),
}


def second_half_fault(kind):
    """ADDI R1, R1, 1 (which sets flags: 1 + 0xFFFFFFFF is zero with a carry), then a
    second half that faults with R3 = 0 and SP at the top of the stack."""
    second, fault = FAULTING_SECONDS[kind]
    return asm("LDI R1, -1") + [pack(make("ADDI", rd=1, rs1=1, imm=1), second), BRK], fault


def check_second_half_fault(m, ctx, stop, fault, executed=1):
    assert stop.reason is StopReason.FAULT and stop.executed == executed
    assert ctx.fault.kind is fault and ctx.fault.pc == 4 and ctx.pc == 4
    assert m.registers(ctx)[1] == 0 and ctx.psw == 0b0011     # the first half's effects
    assert ctx.steps == 1                                     # the pair did not retire


@ENGINES
@pytest.mark.parametrize("kind", FAULTING_SECONDS)
def test_a_fault_in_the_second_half_keeps_the_first_and_is_reported_at_the_pair(mode, kind):
    words, fault = second_half_fault(kind)
    m, ctx = boot(words, mode)
    check_second_half_fault(m, ctx, m.run(ctx, 100), fault)


@pytest.mark.parametrize("kind", FAULTING_SECONDS)
def test_a_traced_run_stops_at_a_second_half_fault_with_the_first_done_once(kind):
    words, fault = second_half_fault(kind)
    m, ctx = boot(words, False)
    m.set_trace(ctx, True, depth=10)
    check_second_half_fault(m, ctx, m.run(ctx, 100), fault)
    assert [r.pc for r in ctx.trace] == [0]                  # the faulting pair: no record


@pytest.mark.parametrize("kind", FAULTING_SECONDS)
def test_the_round_robin_stops_before_a_pair_whose_second_half_faults(kind):
    """run_interleaved stops *before* a trapping instruction and the caller runs it with
    run(ctx, 1): the pair's first half must not run twice."""
    words, fault = second_half_fault(kind)
    m, ctx = boot(words, False)
    done, stopped = m.run_interleaved([ctx], 10)
    assert (done, stopped, ctx.pc, m.registers(ctx)[1], ctx.psw) == (1, 0, 4, 0xFFFFFFFF, 0)
    check_second_half_fault(m, ctx, m.run(ctx, 1), fault, executed=0)


@pytest.mark.parametrize("path", ["run", "traced", "interleaved"])
def test_a_storing_first_half_is_kept_once_when_the_second_faults(path):
    """PUSH R1 | LD R2, [R3] with R3 = 0: the push stays, made once however it runs."""
    m, ctx = boot(asm("LDI R1, 9") + [pack(make("PUSH", rs1=1), make("LD", rd=2, rs1=3)),
                                      BRK], False)
    top = ctx.layout.stack_top
    m.write_memory(ctx, top - 8, (0x55555555).to_bytes(4, "little"))
    if path == "traced":
        m.set_trace(ctx, True, depth=10)
    if path == "interleaved":
        assert m.run_interleaved([ctx], 10) == (1, 0)
        assert m.registers(ctx)[15] == top and m.read_memory(ctx, top - 4, 4) == bytes(4)
    stop = m.run(ctx, 10)
    assert stop.reason is StopReason.FAULT and stop.pc == 4 and ctx.fault.addr == 0
    assert m.registers(ctx)[15] == top - 4 and ctx.steps == 1
    assert m.read_memory(ctx, top - 8, 8) == (0x55555555).to_bytes(4, "little") + bytes([9, 0, 0, 0])


@pytest.mark.parametrize("path", ["run", "traced", "interleaved"])
def test_a_return_from_the_entry_frame_in_the_second_half_keeps_the_first(path):
    m, ctx = boot([pack(make("ADDI", rd=0, rs1=0, imm=7), make("RET"))], False)
    if path == "traced":
        m.set_trace(ctx, True, depth=10)
    if path == "interleaved":
        assert m.run_interleaved([ctx], 10) == (0, 0) and m.registers(ctx)[0] == 0
    stop = m.run(ctx, 10)
    assert stop.reason is StopReason.RETURNED and stop.status == 7 and ctx.steps == 1
    if path == "traced":
        (record,) = ctx.trace
        assert record.changed == {0: (0, 7)} and record.memory is None


@settings(max_examples=150, **SLOW)
@given(pairs=straight_pairs(), regs=initial_registers, data=data_bytes,
       rounds=st.integers(1, 4))
def test_the_round_robin_and_a_plain_run_agree_on_pair_programs(pairs, regs, data, rounds):
    words = pair_program(pairs)
    (m1, turns), (m2, plain) = boot(words, False, regs, data), boot(words, False, regs, data)
    while True:                       # until the BRK at the end, or a fault
        done, stopped = m1.run_interleaved([turns], rounds)
        if stopped >= 0 and m1.run(turns, 1).reason is not StopReason.BUDGET:
            break
    m2.run(plain, 10_000)
    assert snapshot(turns) == snapshot(plain)


# --- words that are not pairs -------------------------------------------------------------

not_a_pair = st.integers(0, (1 << 30) - 1).map(lambda bits: (0b11 << 30) | bits).filter(
    lambda word: decode(word) is None)


@ENGINES
@settings(max_examples=100, deadline=None)
@given(word=not_a_pair, traced=st.booleans())
def test_a_word_that_is_not_a_pair_is_an_illegal_instruction(mode, word, traced):
    unknown = 0xBF000000                                # an opcode no instruction has
    assert decode(unknown) is None
    faults = []
    for bad in (word, unknown):
        m, ctx = boot(asm("LDI R1, 5") + [bad, BRK], mode)
        if traced:
            m.set_trace(ctx, True, depth=10)
        before = m.registers(ctx)
        stop = m.run(ctx, 100)
        assert stop.reason is StopReason.FAULT and (stop.pc, ctx.pc, ctx.steps) == (4, 4, 1)
        assert m.registers(ctx) == [5 if i == 1 else v for i, v in enumerate(before)]
        faults.append(ctx.fault)
    assert faults[0] == replace(faults[1], message=illegal_fault(4, word).message)
    assert f"0x{word:08X} (opcode 0x{word >> 24:02X})" in faults[0].message


# --- trace records --------------------------------------------------------------------------

def expanded_records(pairs, regs, data):
    """The expanded program run traced: its records two by two (one pair each)."""
    m, ctx = boot(expanded_program(pairs), False, regs, data)
    m.set_trace(ctx, True, depth=10_000)
    m.run(ctx, 10_000)
    return list(ctx.trace)


@settings(max_examples=200, **SLOW)
@given(pairs=straight_pairs(), regs=initial_registers, data=data_bytes)
def test_a_pairs_trace_record_is_its_two_instructions_records_merged(pairs, regs, data):
    m, ctx = boot(pair_program(pairs), False, regs, data)
    m2, untraced = boot(pair_program(pairs), False, regs, data)
    m.set_trace(ctx, True, depth=10_000)
    assert m.run(ctx, 10_000) == m2.run(untraced, 10_000)
    assert snapshot(ctx) == snapshot(untraced)
    records, plain = list(ctx.trace), expanded_records(pairs, regs, data)
    for index, record in enumerate(records):
        halves = plain[2 * index:2 * index + 2]
        if index == len(pairs):                       # the BRK
            halves = halves[:1]
        before = {n: old for r in reversed(halves) for n, (old, _) in r.changed.items()}
        after = {n: new for r in halves for n, (_, new) in r.changed.items()}
        changed = {n: (before[n], after[n]) for n in before if before[n] != after[n]}
        accesses = [r.memory for r in halves if r.memory is not None]
        assert record.pc == 4 * index and record.steps == index + 1
        assert record.changed == changed
        assert (record.psw_before, record.psw_after) == (halves[0].psw_before,
                                                         halves[-1].psw_after)
        assert [record.memory, record.memory2] == (accesses + [None, None])[:2]
    assert len(records) == len(plain) // 2 + (untraced.fault is None)


def test_a_pair_records_two_accesses_and_the_value_each_saw():
    """PUSH R1 | PUSH R2: the second push goes below the first; LDF then STF of the same
    slot: the load's value is what it read, before the store overwrote it."""
    words = asm("LDI R1, 5", "LDI R2, 7") + [
        pack(make("PUSH", rs1=1), make("PUSH", rs1=2)),
        pack(make("LD", rd=3, rs1=15, imm=4), make("ST", rs1=15, rs2=2, imm=4)), BRK]
    m, ctx = boot(words, False)
    top = ctx.layout.stack_top
    m.set_trace(ctx, True, depth=10)
    m.run(ctx, 100)
    pushes, swap = list(ctx.trace)[2:4]
    assert (pushes.memory.op, pushes.memory.addr, pushes.memory.value) == ("write", top - 4, 5)
    assert (pushes.memory2.op, pushes.memory2.addr, pushes.memory2.value) == ("write", top - 8, 7)
    assert pushes.changed == {15: (top, top - 8)}
    assert (swap.memory.op, swap.memory.value) == ("read", 5)
    assert (swap.memory2.op, swap.memory2.value, swap.memory2.old) == ("write", 7, 5)
    assert swap.changed == {3: (0, 5)}
