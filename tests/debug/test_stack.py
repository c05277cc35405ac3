"""Stack walks: names through recursion, frame 0 before/after its prologue and in a
frameless leaf, and damaged chains that end with a note instead of an exception."""
from __future__ import annotations

import pytest

from debugkit import FACT, LOOP, build
from hsx.debug import DebugError


def address(rig, pid, name):
    return rig.debugger.symbols_lookup(pid, name)["address"]


def stop_at(rig, task, where):
    rig.debugger.run_to(task.pid, where)
    rig.run_until_paused(task)


def functions(info):
    return [f["function"] for f in info["frames"]]


def test_recursive_frames_with_names_and_lines(rig):
    task = rig.load("fact", FACT)
    stop_at(rig, task, "base")
    info = rig.debugger.stack_info(task.pid)
    assert functions(info) == ["fact"] * 5 + ["main", "_start"]
    assert info["note"] is None and info["truncated"] is False and info["warnings"] == []
    back = address(rig, task.pid, "back")
    top, caller = info["frames"][0], info["frames"][1]
    assert top == {"index": 0, "pc": address(rig, task.pid, "base"), "sp": task.ctx.regs[15],
                   "fp": task.ctx.regs[14], "function": "fact", "offset": 40,
                   "file": "fact.mvasm", "line": 25, "return_pc": back}
    # a caller is at its return address (`back`, fact+28) but on the line of its call:
    # `CALL fact` is line 21, `back: POP R1` line 22
    assert (caller["pc"], caller["line"], caller["offset"]) == (back, 21, 28)
    assert caller["sp"] == task.ctx.regs[14] + 8          # SP in the caller after the return
    assert [f["pc"] for f in info["frames"][-2:]] == [address(rig, task.pid, "after"), 8]
    sps = [f["sp"] for f in info["frames"]]
    assert sps == sorted(sps) and len(set(sps)) == len(sps)


@pytest.mark.parametrize("where, offset, depth", [
    ("fact", 0, 1), ("fact+4", 4, 1),                      # before / inside the prologue
    ("done+4", 48, 5), ("done+8", 52, 5)])                # POP R14, then RET of fact(1)
def test_frame_zero_before_the_prologue_and_in_the_epilogue(rig, where, offset, depth):
    task = rig.load("fact", FACT)
    stop_at(rig, task, where)
    info = rig.debugger.stack_info(task.pid)
    assert info["frames"][0]["offset"] == offset
    assert functions(info) == ["fact"] * depth + ["main", "_start"] and info["note"] is None


def test_frame_zero_in_a_leaf_without_a_frame(rig):
    task = rig.load("loop", LOOP)
    stop_at(rig, task, "inleaf")                          # after PUSH R6; R14 is main's
    info = rig.debugger.stack_info(task.pid)
    assert functions(info) == ["leaf", "main", "_start"] and info["note"] is None
    assert info["frames"][0]["return_pc"] == address(rig, task.pid, "store") + 8


def test_frame_limit(rig):
    task = rig.load("fact", FACT)
    stop_at(rig, task, "base")
    info = rig.debugger.stack_info(task.pid, max_frames=3)
    assert len(info["frames"]) == 3 and info["truncated"] is True
    assert "3 frames" in info["note"]
    with pytest.raises(DebugError):
        rig.debugger.stack_info(task.pid, max_frames=0)


def damage(rig, task, offset, value):
    fp = task.ctx.regs[14]
    rig.debugger.mem_write(task.pid, fp + offset, value.to_bytes(4, "little"))


@pytest.mark.parametrize("hurt, frames, note", [
    (lambda rig, t: damage(rig, t, 4, 0x9990), 1, "outside the code"),
    (lambda rig, t: damage(rig, t, 4, 12), 1, "not after a call"),
    (lambda rig, t: damage(rig, t, 0, 0x1234), 2, "not in the stack"),
    (lambda rig, t: damage(rig, t, 0, t.ctx.regs[14]), 2, "not in the stack between"),
    (lambda rig, t: damage(rig, t, 0, t.ctx.regs[14] - 32), 2, "not in the stack"),
    (lambda rig, t: t.ctx.regs.__setitem__(14, 0x5000), 1, "frame pointer 0x5000"),
    (lambda rig, t: t.ctx.regs.__setitem__(15, 0x100), 1, "SP 0x100 is outside the stack"),
])
def test_damaged_chains_end_with_a_note(rig, hurt, frames, note):
    task = rig.load("fact", FACT)
    stop_at(rig, task, "base")
    hurt(rig, task)
    info = rig.debugger.stack_info(task.pid)
    assert len(info["frames"]) == frames and note in info["note"]
    assert info["truncated"] is False


def test_without_symbols_frames_are_addresses(rig, tmp_path):
    task = rig.kernel.load(build(tmp_path, "bare", FACT).read_bytes())
    rig.debugger.breakpoints.set(task.pid, 92)            # `base`, by address
    rig.run_until_paused(task)
    info = rig.debugger.stack_info(task.pid)
    assert len(info["frames"]) == 7 and info["note"] is None   # functions found from calls
    assert functions(info) == [None] * 7
    assert "no symbols" in info["warnings"][0]


def test_a_faulted_task_keeps_its_stack(rig):
    task = rig.load("crash", """
        .entry _start
_start: LDI R14, 0
        CALL main
        SVC MOD=1, FN=0
main:   PUSH R14
        MOV R14, R15
        LDI R1, 0
boom:   LD R0, [R1]
""")
    rig.run_until(lambda: task.ended)
    info = rig.debugger.stack_info(task.pid)
    assert functions(info) == ["main", "_start"]
    assert info["frames"][0]["pc"] == address(rig, task.pid, "boom")


# `fail` ends with a call that never returns: its return address is where `next`
# begins, and the line after the call is the first line of `next`.
NORETURN = """
        .entry _start
_start: LDI R14, 0
        CALL main
        SVC MOD=1, FN=0
main:   PUSH R14
        MOV R14, R15
        CALL fail
        MOV R15, R14
        POP R14
        RET
fail:   PUSH R14
        MOV R14, R15
        CALL stop
next:   PUSH R14
        MOV R14, R15
        MOV R15, R14
        POP R14
        RET
stop:   BRK 5
        BR stop
"""


def test_a_caller_is_named_by_its_call_not_by_its_return_address(rig):
    task = rig.load("noreturn", NORETURN)
    rig.run_until_paused(task)                            # at the BRK in `stop`
    info = rig.debugger.stack_info(task.pid)
    assert functions(info) == ["stop", "fail", "main", "_start"] and info["note"] is None
    caller = info["frames"][1]
    assert caller["pc"] == address(rig, task.pid, "next")     # the return address ...
    assert (caller["line"], caller["offset"]) == (14, 12)     # ... of `CALL stop`, fail+12
    variables = rig.debugger.frame_variables(task.pid, 1, "registers")
    assert variables["line"] == 14                      # the frame's own listing agrees
