"""Compact pairs on the native engine (port/c/), in its host build and its
microcontroller build (decode at fetch): a program of pairs gives the state its
expansion gives on the reference, with each pair's two instructions run as two steps
there and one here (tests/vm/pairprog.py); a fault in the second operation keeps the
first's effects; a word that is no pair faults as an unknown opcode does; a breakpoint
on a pair stops before both; the round robin stops before a pair whose second
operation would stop it, having undone the first."""
from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from hsx.isa import make
from hsx.isa.compact import decode_pair, pack
from hsx.vm import StandaloneSvc, StopReason
from hsx.vm.native import engine as native
from pairprog import FIRSTS, RET_CODE, Reference, half, layout, pair_program, pair_word
from randprog import MEM, fresh, snapshot
from vmkit import asm, image, machine_for

pytestmark = pytest.mark.skipif(native.unavailable_reason() is not None,
                                reason=f"native engine: {native.unavailable_reason()}")

CORES = pytest.mark.parametrize("core", ["native", "native-fetch"])
regs12 = st.lists(st.integers(0, 0xFFFFFFFF), min_size=12, max_size=12)
data96 = st.binary(min_size=96, max_size=96)


def state(ctx):
    """What must agree between a pair program and its expansion: all but pc and steps."""
    return ctx.regs.tolist(), ctx.psw, bytes(ctx.mem), ctx.state, ctx.exit_status


def same_stop(ours, theirs, units_ours, units_theirs):
    assert ours.reason == theirs.reason
    assert units_ours[ours.pc] == units_theirs[theirs.pc]
    if ours.reason is StopReason.FAULT:
        assert (ours.fault.kind, ours.fault.addr) == (theirs.fault.kind, theirs.fault.addr)
        assert units_ours[ours.fault.pc] == units_theirs[theirs.fault.pc]


def program(words, core, regs, data):
    """randprog's fresh task, with 16 words on its stack for POPs to take."""
    m, ctx = fresh(words, core, regs, data)
    m.write_register(ctx, 15, ctx.regs[15] - 64)
    return m, ctx


def start(units, core, regs, data):
    """(engine under test, its context, the reference on the expansion)."""
    m, ctx = program(layout(units, expanded=False)[0], core, regs, data)
    reference = Reference(*program(layout(units, expanded=True)[0], False, regs, data), units)
    return m, ctx, reference


def unit_map(units):
    return {addr: i for i, addr in enumerate(layout(units, expanded=False)[1])}


@CORES
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units=pair_program(), regs=regs12, data=data96, psw=st.integers(0, 15))
def test_pairs_step_as_their_expansion(core, units, regs, data, psw):
    """One step of a pair is both of its instructions: the same registers, flags and
    memory after every step, and the same stops at the same unit."""
    m, ctx, ref = start(units, core, regs, data)
    m.set_psw(ctx, psw)
    ref.m.set_psw(ref.ctx, psw)
    ours = unit_map(units)
    for steps in range(1, 120):
        stop, expected = m.run(ctx, 1), ref.unit()
        same_stop(stop, expected, ours, ref.unit_at)
        assert state(ctx) == state(ref.ctx)
        if stop.reason is not StopReason.BUDGET:
            break
        assert ctx.steps == steps


@CORES
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units=pair_program(), regs=regs12, data=data96,
       slices=st.lists(st.integers(1, 300), min_size=1, max_size=4))
def test_pairs_run_as_their_expansion(core, units, regs, data, slices):
    """Runs of many steps (the threaded loop's linked code, superinstructions around
    pairs) end where the expansion does after as many units, one step per pair."""
    m, ctx, ref = start(units, core, regs, data)
    ours = unit_map(units)
    for budget in slices:
        before = ctx.steps
        stop = m.run(ctx, budget)
        assert ctx.steps - before == stop.executed
        expected = None
        for _ in range(stop.executed + (stop.reason is StopReason.FAULT)):
            expected = ref.unit()
        if expected is not None:
            assert expected.reason in (stop.reason, StopReason.BUDGET)
        if stop.reason is not StopReason.BUDGET:
            same_stop(stop, expected, ours, ref.unit_at)
        assert ours[ctx.pc] == ref.unit_at[ref.ctx.pc] and state(ctx) == state(ref.ctx)
        if stop.reason is not StopReason.BUDGET:
            break


@CORES
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units=pair_program(), regs=regs12, data=data96, at=st.integers(0, 40),
       warm=st.integers(0, 30))
def test_a_breakpoint_on_a_pair_stops_before_both(core, units, regs, data, at, warm):
    """A breakpoint, set before or after the code ran (and was linked), stops at its
    unit before anything of it ran, and is run through when resumed."""
    m, ctx, ref = start(units, core, regs, data)
    ours = unit_map(units)
    unit = at % len(units)
    addr, ref_addr = layout(units, False)[1][unit], ref.addresses[unit]
    for _ in range(warm):
        if m.run(ctx, 1).reason is not StopReason.BUDGET:
            return
        ref.unit()
    m.add_breakpoint(ctx, addr)
    ref.m.add_breakpoint(ref.ctx, ref_addr)
    for _ in range(4):
        stop = m.run(ctx, 200)
        expected = None
        for _ in range(stop.executed + (stop.reason in (StopReason.FAULT,
                                                        StopReason.BREAKPOINT))):
            expected = ref.unit()
        if stop.reason is not StopReason.BUDGET:
            same_stop(stop, expected, ours, ref.unit_at)
        assert state(ctx) == state(ref.ctx)
        if stop.reason is not StopReason.BREAKPOINT:
            break
        assert stop.pc == addr


def word_machine(core, words, **regs):
    m = machine_for(StandaloneSvc(stdout=io.BytesIO(), stderr=io.BytesIO()), core)
    ctx = m.create_context(image(words), mem_size=MEM, stack_size=0x400)
    for reg, value in regs.items():
        m.write_register(ctx, int(reg[1:]), value)
    return m, ctx


@CORES
def test_a_fault_in_the_second_keeps_the_first(core):
    """Reported at the pair, after the first operation's effects (a pair is not atomic)."""
    push_then_load = pack(make("PUSH", rs1=1), make("LD", rd=2, rs1=3, imm=0))
    m, ctx = word_machine(core, asm("LDI R1, 7", "LDI R3, 4", push_then_load, "BRK 1"))
    sp = ctx.regs[15]
    stop = m.run(ctx, 10)
    assert stop.reason is StopReason.FAULT and stop.pc == 8 and stop.executed == 2
    assert stop.fault.kind.value == "memory" and stop.fault.addr == 4
    assert ctx.regs[15] == sp - 4 and m.read_memory(ctx, sp - 4, 4) == b"\x07\0\0\0"
    assert ctx.steps == 2 and ctx.pc == 8


@CORES
@pytest.mark.parametrize("start_pc, first_ran", [(4, True), (8, False)])
def test_an_operation_writing_sp_out_of_the_stack_faults(core, start_pc, first_ran):
    """The SP guard of the second undoes the second's write only; the first's (here
    LDI R15, 1) faults with nothing changed."""
    words = asm("LDI R0, 0") + [pack(make("LDI", rd=1, imm=9), make("MOV", rd=15, rs1=0)),
                                pack(make("LDI", rd=15, imm=1), make("LDI", rd=2, imm=1))]
    m, ctx = word_machine(core, words)
    sp = ctx.regs[15]
    ctx.pc = start_pc
    stop = m.run(ctx, 10)
    assert stop.reason is StopReason.FAULT and stop.pc == start_pc
    assert stop.fault.kind.value == "stack_overflow" and stop.fault.addr == (0 if first_ran else 1)
    assert ctx.regs[15] == sp and ctx.regs[2] == 0 and ctx.regs[1] == (9 if first_ran else 0)


@CORES
@pytest.mark.parametrize("compare", ["CMP R1, R1", "CMPI R1, 0"])
def test_a_compare_before_a_pair_ending_in_a_branch_runs_the_whole_pair(core, compare):
    """The host build runs a CMP or CMPI and the conditional branch after it as one; a
    pair whose second operation is such a branch is not one: its first runs too."""
    words = asm("LDI R1, 0", compare) + [pack(make("LDI", rd=2, imm=5), make("BNE", imm=0))]
    m, ctx = word_machine(core, words + asm("BRK 1"))
    assert m.run(ctx, 10).reason is StopReason.BRK and ctx.regs[2] == 5 and ctx.steps == 4


@CORES
def test_ret_in_the_second_returns(core):
    """From the entry frame, as RET does: the task ends with R0 set by the first."""
    m, ctx = word_machine(core, [pack(make("LDI", rd=0, imm=5), make("RET"))])
    stop = m.run(ctx, 10)
    assert stop.reason is StopReason.RETURNED and stop.status == 5 and ctx.steps == 1


@CORES
def test_ret_in_the_second_returns_to_its_caller(core):
    words = asm("CALL 3", "MOV R2, R0", "BRK 1") + [pack(make("LDI", rd=0, imm=4),
                                                        make("RET"))]
    m, ctx = word_machine(core, words)
    stop = m.run(ctx, 10)
    assert stop.reason is StopReason.BRK and ctx.regs[2] == 4 and ctx.steps == 4


@st.composite
def not_a_pair(draw):
    """A word with the pair tag that does not decode: any of its 30 bits, or two valid
    operations with a control transfer first."""
    if draw(st.booleans()):
        return pair_word(draw(half(frozenset(range(32)) - FIRSTS - {0})), draw(half(FIRSTS)))
    word = 0xC0000000 | draw(st.integers(0, (1 << 30) - 1))
    return word if decode_pair(word) is None else 0xC0000000 | RET_CODE << 25 | 1


@CORES
@settings(max_examples=200, deadline=None)
@given(word=not_a_pair())
def test_a_word_that_is_no_pair_is_an_illegal_instruction(core, word):
    """Exactly as an unknown opcode: the reference (which knows no pairs yet) treats
    such a word as it treats any word it cannot decode."""
    assert decode_pair(word) is None
    words = asm("LDI R1, 3", word, "BRK 1")
    results = []
    for engine in ("python", core):
        m, ctx = word_machine(engine, words)
        results.append((m.run(ctx, 10), snapshot(ctx)))
    assert results[0] == results[1]
    stop = results[1][0]
    assert stop.reason is StopReason.FAULT and stop.fault.kind.value == "illegal_opcode"
    assert stop.pc == 4 and f"0x{word:08X}" in stop.fault.message


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units=pair_program(), regs=regs12, data=data96,
       slices=st.lists(st.integers(1, 200), min_size=1, max_size=3))
def test_the_microcontroller_build_agrees_with_the_host_build(units, regs, data, slices):
    words = layout(units, expanded=False)[0]
    (m1, host), (m2, fetch) = (program(words, "native", regs, data),
                               program(words, "native-fetch", regs, data))
    for budget in slices:
        assert m1.run(host, budget) == m2.run(fetch, budget)
        assert snapshot(host) == snapshot(fetch)
        if host.state.value != "ready":
            break


@CORES
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs=st.lists(pair_program(max_units=10), min_size=2, max_size=4), regs=regs12,
       data=data96, rounds=st.integers(1, 60))
def test_the_round_robin_stops_before_a_pair_that_would_stop_it(core, programs, regs, data,
                                                                 rounds):
    """hsx_run_interleaved against single steps in turn: it stops before the first step
    that would not retire plainly, with nothing of that pair done (its first undone)."""
    interleaved = [program(layout(units, False)[0], core, regs, data) for units in programs]
    stepped = [program(layout(units, False)[0], core, regs, data) for units in programs]
    expected = [snapshot(ctx) for _, ctx in stepped]
    result = (rounds, -1)
    for turn in range(rounds * len(programs)):
        task = turn % len(programs)
        m, ctx = stepped[task]
        if m.run(ctx, 1).reason is not StopReason.BUDGET:
            result = (turn // len(programs), task)      # and that task as it was before
            break
        expected[task] = snapshot(ctx)
    m = interleaved[0][0]
    assert m.run_interleaved([ctx for _, ctx in interleaved], rounds) == result
    assert [snapshot(ctx) for _, ctx in interleaved] == expected


@CORES
def test_a_pair_is_one_trace_step(core):
    """Stepping a pair with a breakpoint after it: the step count is per pair."""
    words = [pack(make("LDI", rd=1, imm=1), make("ADDI", rd=1, rs1=1, imm=2))] * 3 \
        + asm("BRK 1")
    m, ctx = word_machine(core, words)
    m.add_breakpoint(ctx, 8)
    stop = m.run(ctx, 100)
    assert stop.reason is StopReason.BREAKPOINT and stop.executed == 2 and ctx.regs[1] == 3
    assert m.step(ctx).executed == 1 and ctx.pc == 12 and ctx.steps == 3
