"""An outer frame's callee-saved registers: read from the save slots of the callees that
pushed them (a framed prologue, a frameless leaf), or still live; written back there."""
from __future__ import annotations

import pytest

from hsx.debug import DebugError

# main keeps 55 in R6 across a call of mid (framed: saves R6 and R7), which keeps 66 in R6
# across a call of leaf (frameless: pushes R6 and sets it to 77); main exits with its R6.
PROGRAM = """
        .entry _start
_start: LDI R14, 0
        CALL main
        SVC MOD=1, FN=0
main:   PUSH R14
        MOV R14, R15
        PUSH R6
        LDI R6, 55
        CALL mid
        MOV R0, R6
        POP R6
        MOV R15, R14
        POP R14
        RET
mid:    PUSH R14
        MOV R14, R15
        PUSH R6
        PUSH R7
        LDI R6, 66
        LDI R7, 67
        CALL leaf
        POP R7
        POP R6
        MOV R15, R14
        POP R14
        RET
leaf:   PUSH R6
        LDI R6, 77
inleaf: MOV R1, R1
        POP R6
        RET
"""


@pytest.fixture
def stopped(rig):
    task = rig.load("nest", PROGRAM)
    rig.debugger.run_to(task.pid, "inleaf")
    rig.run_until_paused(task)
    return task


def value(rig, task, expr, frame):
    return rig.debugger.evaluate(task.pid, frame, expr)["value"]


def test_each_frame_sees_its_own_callee_saved_registers(rig, stopped):
    frames = [f["function"] for f in rig.debugger.stack_info(stopped.pid)["frames"]]
    assert frames[:3] == ["leaf", "mid", "main"]
    assert [value(rig, stopped, "(int)$r6", k) for k in range(3)] == ["77", "66", "55"]
    assert value(rig, stopped, "(int)$r7", 1) == "67"            # mid's own, live
    with pytest.raises(DebugError) as error:                      # caller-saved: gone
        value(rig, stopped, "$r1", 1)
    assert "R0..R5 do not survive calls" in error.value.message


def test_setting_an_outer_frames_register_writes_its_save_slot(rig, stopped):
    rig.debugger.assign(stopped.pid, 2, "$r6", "99")
    assert value(rig, stopped, "(int)$r6", 2) == "99"
    assert value(rig, stopped, "(int)$r6", 0) == "77"             # the live one untouched
    rig.debugger.resume(stopped.pid)
    rig.run_until(lambda: stopped.ended)
    assert stopped.exit_status == 99
