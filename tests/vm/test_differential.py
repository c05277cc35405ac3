"""The translator must be indistinguishable from the exact interpreter: random
straight-line and loop programs over the ALU, memory, stack and branch instructions,
run in random budget slices, give identical stops, registers, PSW, memory, PC and steps."""
from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings, strategies as st

from hsx.vm import Machine, StandaloneSvc, StopReason
from pairkit import mixed_program
from randprog import MEM, fresh, program, raw_program, snapshot
from vmkit import image


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.one_of(program(), mixed_program()),         # (mixed: with compact pairs)
       regs=st.lists(st.integers(0, 0xFFFFFFFF), min_size=12, max_size=12),
       data=st.binary(min_size=96, max_size=96), psw=st.integers(0, 15),
       slices=st.lists(st.integers(1, 300), min_size=1, max_size=4))
def test_translator_matches_interpreter(words, regs, data, psw, slices):
    (m1, exact), (m2, fast) = fresh(words, False, regs, data), fresh(words, True, regs, data)
    m1.set_psw(exact, psw)
    m2.set_psw(fast, psw)
    for budget in slices:
        s1, s2 = m1.run(exact, budget), m2.run(fast, budget)
        assert s1 == s2
        assert snapshot(exact) == snapshot(fast)
        if exact.state.value != "ready":
            break


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.one_of(program(), mixed_program()),
       regs=st.lists(st.integers(0, 0xFFFFFFFF), min_size=12, max_size=12),
       data=st.binary(min_size=96, max_size=96), bp=st.integers(0, 40))
def test_breakpoints_agree(words, regs, data, bp):
    """With a breakpoint set (splitting blocks), both engines stop at the same places,
    and a breakpoint on a pair stops before the whole pair."""
    (m1, exact), (m2, fast) = fresh(words, False, regs, data), fresh(words, True, regs, data)
    m2.run(fast, 3)
    m1.run(exact, 3)
    addr = 4 * (bp % (len(words)))
    for m, ctx in ((m1, exact), (m2, fast)):
        if ctx.state.value == "ready":
            m.add_breakpoint(ctx, addr)
    for _ in range(5):
        if exact.state.value != "ready":
            break
        s1, s2 = m1.run(exact, 200), m2.run(fast, 200)
        assert s1 == s2 and snapshot(exact) == snapshot(fast)
        if s1.reason is StopReason.BREAKPOINT:
            assert s1.pc == addr and exact.pc == addr


def quiet_machine(translate):
    return Machine(StandaloneSvc(stdout=io.BytesIO(), stderr=io.BytesIO(),
                                 sleep=lambda seconds: None), translate=translate,
                   hot_after=1, engine="python")   # translate at first sight: test the translator


@settings(max_examples=300, deadline=None)
@given(words=raw_program(), regs=st.lists(st.integers(0, 0xFFFFFFFF), min_size=16,
                                          max_size=16), slices=st.lists(st.integers(1, 50),
                                                                        min_size=1, max_size=4))
def test_arbitrary_instruction_words(words, regs, slices):
    """No guest program makes either engine raise; both agree on everything."""
    engines = []
    for translate in (False, True):
        m = quiet_machine(translate)
        ctx = m.create_context(image(words), mem_size=MEM, stack_size=0x400)
        for i, value in enumerate(regs[:15]):
            m.write_register(ctx, i, value if i % 3 else value & 0x7FFF)
        engines.append((m, ctx))
    (m1, exact), (m2, fast) = engines
    for budget in slices:
        s1, s2 = m1.run(exact, budget), m2.run(fast, budget)
        assert s1 == s2 and snapshot(exact) == snapshot(fast)
        if exact.state.value != "ready":
            break
