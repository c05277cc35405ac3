"""Reverse execution's core: after going back to any recorded point the task's state
(registers, PSW, PC, step count, all of its memory) equals, byte for byte, what the
forward run had there — on both engines, with checkpoints every few instructions and
SVC results (inputs from outside) in the way; running forward through the past replays
to the same end."""
from __future__ import annotations

import io
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from hsx.debug.history import History
from hsx.vm import Machine, StandaloneSvc

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vm"))
from randprog import MEM, program, raw_program  # noqa: E402
from vmkit import image  # noqa: E402


def state(ctx):
    return bytes(ctx.mem), ctx.pc, ctx.psw, ctx.steps


def recorded_run(words, engine, regs, slices, interval):
    machine = Machine(StandaloneSvc(stdout=io.BytesIO(), stderr=io.BytesIO(),
                                    sleep=lambda seconds: None), engine=engine)
    ctx = machine.create_context(image(words), mem_size=MEM, stack_size=0x400)
    for i, value in enumerate(regs):
        machine.write_register(ctx, i, value)
    machine.write_register(ctx, 13, 0x2000)
    ctx.history = History(machine, ctx, interval=interval)
    seen = {ctx.steps: state(ctx)}
    for budget in slices:
        if ctx.state.value != "ready":
            break
        machine.run(ctx, budget)
        if ctx.state.value == "ready":
            seen[ctx.steps] = state(ctx)
    return machine, ctx, seen


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.one_of(program(), raw_program()), engine=st.sampled_from(["python", "native"]),
       regs=st.lists(st.integers(0, 0xFFFFFFFF), min_size=12, max_size=12),
       slices=st.lists(st.integers(1, 60), min_size=2, max_size=8),
       interval=st.integers(3, 40), picks=st.lists(st.integers(0, 1000), min_size=1,
                                                    max_size=5))
def test_going_back_restores_the_forward_state_exactly(words, engine, regs, slices, interval,
                                                      picks):
    machine, ctx, seen = recorded_run(words, engine, regs, slices, interval)
    if ctx.state.value != "ready":
        return                        # an ended task's past is not rewound (documented)
    history = ctx.history
    points = sorted(seen)
    for pick in picks:
        target = points[pick % len(points)]
        history.goto(target)
        assert state(ctx) == seen[target]
    # running on from the past replays to the recorded end, then records live again
    end = max(points)
    history.goto(points[0])
    while ctx.steps < end and ctx.state.value == "ready":
        machine.run(ctx, min(17, end - ctx.steps))
    assert state(ctx) == seen[end]


def test_history_stays_within_its_budget():
    from vmkit import asm
    words = asm("LDI32 R4, 3000000", "LDI32 R5, 0x2000", "LDI32 R6, 0x3FFF",
                "LDI32 R7, 0x2000", "ADDI R1, R1, 1", "ST [R5], R1", "ADDI R5, R5, 4",
                "AND R5, R5, R6", "OR R5, R5, R7", "CMP R1, R4", "BNE -6", "LDI R0, 0",
                "SVC 0x100")
    machine = Machine(engine="native")
    ctx = machine.create_context(image(words), mem_size=0x10000)
    ctx.history = History(machine, ctx, budget=1 << 20, interval=10_000)
    stop = machine.run(ctx, 30_000_000)
    assert stop.reason.value == "exited"
    history = ctx.history
    assert history.bytes <= 1 << 20 and history.dropped > 0
    assert history.start > 0 and history.end == ctx.steps
