"""Quantum-1 round robin through the machine's interleaved path gives exactly the same
interleaving as one `run(ctx, 1)` per turn."""
from hypothesis import given, settings, strategies as st

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.toolchain.build import build_source

WORKER = """
.data
box: .asciz "app:shared"
.bss
buf: .zero 8
.text
.entry start
start:
    LDI32 R1, box
    LDI R2, 0
    SVC MOD=5, FN=0          ; everybody opens the same queue
    MOV R6, R1
    LDI R7, {loops}
again:
    ADDI R8, R8, {step}
    LSLI R9, R8, 3
    XOR R10, R10, R9
    SVC MOD=6, FN=2          ; an SVC in the middle of the loop: a kernel turn
    ADD R11, R11, R0
    MOV R1, R6
    LDI32 R2, buf
    LDI R3, 4
    LDI R4, 0
    LDI R5, 0
    ST [R2], R10
    SVC MOD=5, FN=2          ; send (never blocks)
    MOV R1, R6
    LDI R3, 8
    LDI R4, 0
    SVC MOD=5, FN=3          ; poll: takes whoever's message is first
    ADD R12, R12, R1
    ADDI R7, R7, -1
    BNE again
    MOV R0, R10
    SVC MOD=1, FN=0
"""


def snapshot(kernel):
    return [(t.pid, t.ctx.pc, t.ctx.steps, tuple(t.ctx.regs), t.state.value)
            for t in kernel.tasks.values()]


def make(tmp_path, steps, interleave: bool, events: list | None = None):
    kernel = Kernel(clock=VirtualClock(), fs_root=tmp_path / "fs")
    if not interleave:
        kernel._round_robin = lambda *args: 0              # one turn per machine call
    if events is not None:
        kernel.events.subscribe(events.append, {"scheduler"})
    for index, step in enumerate(steps):
        source = WORKER.format(loops=5 + index, step=step)
        kernel.load(build_source(source, filename=f"w{index}.mvasm", app_name=f"w{index}"))
    return kernel


@settings(max_examples=15, deadline=None)
@given(steps=st.lists(st.integers(1, 100), min_size=2, max_size=4),
       budgets=st.lists(st.integers(1, 60), min_size=1, max_size=12),
       announce=st.booleans())
def test_interleaved_turns_match_single_turns(tmp_path_factory, steps, budgets, announce):
    """Same registers, states and counts; with a `scheduler` listener, the same switch
    events in the same order (the interleaved path emits them after its machine call)."""
    tmp = tmp_path_factory.mktemp("rr")
    fast_events, exact_events = ([], []) if announce else (None, None)
    fast = make(tmp / "a", steps, True, fast_events)
    exact = make(tmp / "b", steps, False, exact_events)
    calls = []
    interleave = fast.machine.run_interleaved
    fast.machine.run_interleaved = lambda *args: calls.append(1) or interleave(*args)
    for budget in budgets:
        assert fast.run(budget) == exact.run(budget)
        assert snapshot(fast) == snapshot(exact)
    while fast.live_tasks() or exact.live_tasks():
        assert fast.run(97) == exact.run(97)
        assert snapshot(fast) == snapshot(exact)
    assert [t.exit_status for t in fast.tasks.values()] == [t.exit_status for t in exact.tasks.values()]
    assert calls                                  # the fast path really ran
    if announce:
        assert ([(e.seq, e.pid, e.data) for e in fast_events] ==
                [(e.seq, e.pid, e.data) for e in exact_events])
        assert len(fast_events) > sum(steps)


def test_a_run_past_its_time_limit_starts_no_further_turn(tmp_path):
    """`until` bounds a batch whose instructions became dear (here: a scheduler event
    per switch): the turn under way completes, no new one starts."""
    from time import perf_counter

    kernel = make(tmp_path, [1, 2], False, [])
    assert kernel.run(40, until=perf_counter()) == 1
    assert kernel.run(40, until=perf_counter() + 60) == 40
