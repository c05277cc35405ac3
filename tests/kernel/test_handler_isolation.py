"""A command's handler runs in its owner task, borrowed between two of its instructions:
the owner must come back exactly as it was (registers, PC, flags, a pending breakpoint
resume, its stack), whatever instruction it was interrupted at, on both engines.  The
executive does it through the VM's interface only (Machine.save_context,
enter_function, restore_context)."""
from __future__ import annotations

import pytest

from hsx.kernel.registry import CmdStatus
from hsx.vm.native.engine import unavailable_reason

# A loop whose result depends on every register it uses, on the carry flag between an
# ADD and the ADC after it, and on what it keeps on its stack; then a handler that
# scribbles on all of that.
OWNER = """
.cmd {"group": 1, "id": 3, "name": "scribble", "handler": "scribble"}
.text
.entry start
start:
    LDI R0, 0
    LDI32 R1, 0x9E3779B9
    LDI R2, 1
    LDI R3, 0
    LDI R4, 0
    LDI R5, 300
loop:
    ADD R3, R3, R1
    ADC R4, R4, R0
    PUSH R3
    XOR R2, R2, R3
    LSLI R6, R2, 3
    POP R7
    ADD R2, R6, R7
    SUB R5, R5, R8
    ADDI R8, R0, 1
    CMPI R5, 0
    JNZ loop
    XOR R0, R2, R4
    ADD R0, R0, R3
    SVC MOD=1, FN=0
scribble:
    LDI32 R0, 0xFFFFFFFF
    LDI32 R1, 0x12345678
    MOV R2, R1
    MOV R3, R1
    MOV R4, R1
    MOV R5, R1
    MOV R6, R1
    MOV R7, R1
    MOV R8, R1
    MOV R14, R1
    ADD R0, R0, R0
    PUSH R1
    PUSH R2
    POP R9
    POP R10
    LDI R0, 77
    RET
"""
ENGINES = ["python", pytest.param("native", marks=pytest.mark.skipif(
    unavailable_reason() is not None, reason=f"native engine: {unavailable_reason()}"))]


def undisturbed_exit_status(harness_with, engine: str) -> int:
    harness = harness_with("alone", engine=engine)
    owner = harness.load(OWNER, "owner")
    assert harness.run().reason == "done"
    return owner.exit_status


@pytest.mark.parametrize("engine", ENGINES)
def test_a_handler_call_leaves_the_interrupted_task_exactly_as_it_was(harness_with, engine):
    harness = harness_with("called", engine=engine)
    kernel = harness.kernel
    machine = kernel.machine
    owner = harness.load(OWNER, "owner")
    ctx = owner.ctx
    calls, slice_sizes = 0, [1, 2, 3, 5, 7, 11]
    while not owner.ended:
        kernel.run(slice_sizes[calls % len(slice_sizes)])
        if owner.ended:
            break
        before = machine.save_context(ctx)
        sp = machine.read_register(ctx, 15)
        stack_in_use = machine.read_memory(ctx, sp, ctx.layout.stack_top - sp)
        steps = ctx.steps
        assert kernel.call_command(0, 0x0103, None) == (CmdStatus.OK, 77)
        assert ctx.steps > steps                    # the handler really ran in the owner
        assert machine.save_context(ctx) == before
        assert machine.read_memory(ctx, sp, ctx.layout.stack_top - sp) == stack_in_use
        calls += 1
    assert calls > 100                              # interrupted all over the loop
    assert owner.exit_status == undisturbed_exit_status(harness_with, engine)
