"""A traced run's records are those of running the same instructions one at a time
untraced, with the register diff, the predicted memory access and its value taken
around each: random programs over the ALU, memory (the register window included),
stack and branch instructions, on the exact interpreter and the native engine."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from hsx.vm import StopReason
from hsx.vm.stop import Stop
from hsx.vm.trace import make_record, old_value, predict_access
from randprog import fresh, program, snapshot
from vmkit import MODE_IDS, MODES


def untraced(m, ctx, budget):
    records, executed = [], 0
    while executed < budget:
        pc = ctx.pc
        before, psw = ctx.regs.tolist(), ctx.psw
        access = predict_access(ctx.decoded[pc >> 2] if pc < ctx.code_len else None,
                                before, ctx.layout.stack_top)
        old = old_value(ctx, access) if access is not None else None
        stop = m.run(ctx, 1)
        executed += stop.executed
        if stop.executed:
            records.append(make_record(ctx, pc, before, psw, access, old))
        if stop.reason is not StopReason.BUDGET:
            return replace(stop, executed=executed), records
    return Stop(StopReason.BUDGET, executed, ctx.pc), records


@pytest.mark.parametrize("mode", [m for m in MODES if m is not True],
                         ids=[i for m, i in zip(MODES, MODE_IDS) if m is not True])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=program(), regs=st.lists(st.integers(0, 0xFFFFFFFF), min_size=12, max_size=12),
       data=st.binary(min_size=96, max_size=96),
       slices=st.lists(st.integers(1, 120), min_size=1, max_size=3))
def test_traced_records_equal_one_at_a_time_untraced(mode, words, regs, data, slices):
    (m1, traced), (m2, plain) = fresh(words, mode, regs, data), fresh(words, mode, regs, data)
    m1.set_trace(traced, True, depth=10_000)
    expected = []
    for budget in slices:
        stop = m1.run(traced, budget)
        stop_plain, records = untraced(m2, plain, budget)
        expected += records
        assert stop == stop_plain
        assert list(traced.trace) == expected
        assert snapshot(traced) == snapshot(plain)
        if traced.state.value != "ready":
            break
