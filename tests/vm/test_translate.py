"""Targeted translator checks; test_differential.py covers random programs."""
from __future__ import annotations

import pytest

from hsx.vm import StopReason, translate
from hsx.vm.blockgen import BlockCompiler
from hsx.vm.tracescan import collect_trace
from vmkit import load

COUNTED = ["LDI R1, 0", "LDI R2, 0", "LDI R3, 1", "LDI R4, 50",
           "ADD R2, R2, R1", "ADD R1, R1, R3", "CMP R1, R4", "JNZ 16", "MOV R0, R2", "RET"]


def state(m, ctx):
    return m.registers(ctx), ctx.psw, bytes(ctx.mem), ctx.pc, ctx.steps, ctx.state


def run_both(lines, budgets):
    (m1, a), (m2, b) = load(*lines, translate=False), load(*lines, translate=True)
    for budget in budgets:
        assert m1.run(a, budget) == m2.run(b, budget)
        assert state(m1, a) == state(m2, b)
        if a.state.value != "ready":
            break
    return m2, b


@pytest.mark.parametrize("budget", [1, 2, 3, 4, 5, 7, 9, 64])
def test_loop_block_is_exact_at_every_budget_boundary(budget):
    m, ctx = run_both(COUNTED, [budget] * 400)
    assert ctx.state.value == "returned" and m.registers(ctx)[0] == sum(range(50))


def test_counted_loop_compiles_to_a_comparison_with_flags_only_at_exit():
    m, ctx = load(*COUNTED)
    m.run(ctx, 1000)
    source = BlockCompiler(ctx, collect_trace(ctx, 16)).source()
    loop = source[source.index("for i in range"):source.index("continue")]
    assert "if r1 != r4:" in loop and "psw" not in loop


def test_wrong_predicted_return_address_is_followed():
    # The callee replaces its return address (skip the LDI R0, 1 after the call).
    m, ctx = run_both(["CALL 4", "LDI R0, 1", "LDI R5, 9", "SVC 0x100",
                       "POP R6", "ADDI R6, R6, 4", "PUSH R6", "RET"], [100])
    assert m.registers(ctx)[0] == 0 and m.registers(ctx)[5] == 9


def test_predicted_return_inside_a_loop():
    lines = ["LDI R1, 0", "LDI R4, 30", "CALL 5", "ADDI R1, R1, 1", "CMP R1, R4", "BNE -3",
             "SVC 0x100", "ADD R0, R0, R1", "RET"]
    for budget in (1, 3, 5, 8, 1000):
        m, ctx = run_both(lines, [budget] * 200)
        assert ctx.exit_status == sum(range(30))


def test_register_window_stores_inside_a_loop():
    reg_base = 0x10000 - 64
    m, ctx = run_both([f"LDI32 R9, {reg_base}", "LDI R1, 0", "LDI R2, 7",
                       "ST [R9+4], R2",            # R1 := 7 through memory
                       "ADDI R2, R2, 1", "LD R3, [R9+4]", "CMPI R2, 20", "BLT -4",
                       "BRK 0"], [5, 11, 1000])
    assert m.registers(ctx)[1:4] == [19, 20, 19]


def test_breakpoint_inside_a_followed_call():
    m, ctx = load("LDI R1, 5", "CALL 3", "SVC 0x100", 0, "ADD R0, R0, R1", "RET")
    m.run(ctx, 1)
    m.run(ctx, 3)                           # blocks exist now
    m.set_pc(ctx, 0)
    m.add_breakpoint(ctx, 16)
    stop = m.run(ctx, 100)
    assert stop.reason is StopReason.BREAKPOINT and stop.pc == 16
    assert m.run(ctx, 100).reason is StopReason.EXITED


def test_identical_blocks_compile_once():
    before = len(translate._CACHE)
    contexts = [load(*COUNTED) for _ in range(3)]
    for m, ctx in contexts:
        m.run(ctx, 1000)
    sizes = {len(ctx.blocks) for _, ctx in contexts}
    assert sizes == {len(contexts[0][1].blocks)}
    assert len(translate._CACHE) - before <= len(contexts[0][1].blocks)


def test_a_loop_run_in_small_slices_is_translated_once():
    """Budget boundaries land inside the loop block again and again; only the loop's real
    entry becomes hot, not the instructions where a slice happened to end."""
    from hsx.vm import Machine
    from hsx.vm.translate import HOT_AFTER
    from vmkit import asm, image
    words = asm("LDI32 R4, 200000", "LDI R3, 0", "ADDI R1, R1, 1", "ADD R3, R3, R1",
                "XOR R5, R3, R1", "CMP R1, R4", "BNE -4", "LDI R0, 0", "SVC 0x100")
    machine = Machine(engine="python", hot_after=HOT_AFTER)
    ctx = machine.create_context(image(words))
    while machine.run(ctx, 97).reason is StopReason.BUDGET:   # the executive's slices
        pass
    assert ctx.regs[1] == 200000
    assert len(ctx.blocks) <= 2                 # the loop, and perhaps what follows it


def test_translation_per_context_is_bounded(monkeypatch):
    """Past the limit, new entries are interpreted (exactly) instead of compiled."""
    from hsx.vm import Machine
    from vmkit import asm, image
    monkeypatch.setattr(translate, "MAX_BLOCKS_PER_CONTEXT", 1)
    words = asm("LDI R4, 100", "ADDI R1, R1, 1", "CMP R1, R4", "BNE -2",      # loop 1
                "ADDI R2, R2, 1", "CMP R2, R4", "BNE -2", "LDI R0, 0", "SVC 0x100")  # loop 2
    machine = Machine(engine="python", hot_after=1)
    ctx = machine.create_context(image(words))
    stop = machine.run(ctx, 10_000)
    assert stop.reason is StopReason.EXITED and ctx.regs[1] == ctx.regs[2] == 100
    assert len(ctx.blocks) == 1
