"""Breakpoints in a command handler the executive runs inside its owner task: the stop is
reported like any other, the owner is paused in the handler (inspect, step, resume),
the caller waits for the result, and the owner then goes back to what it was doing."""
from __future__ import annotations

from mvasmkit import CALLER

from hsx.kernel.registry import CmdStatus
from hsx.kernel.states import TaskState

# The owner sleeps (its command's handler computes 41 + 1); the caller calls the command
# after 5 ms and exits with status + result.
OWNER = """
.cmd {"group": 1, "id": 3, "name": "boost", "handler": "boost"}
.text
.entry start
start:
    LDI R0, 20
    SVC MOD=6, FN=0          ; sleep 20 ms
    LDI R0, 0
    SVC MOD=1, FN=0
boost:
    LDI R0, 41
inside:
    ADDI R0, R0, 1
    LDI32 R2, calls
    ST [R2], R0              ; remember the last result
    MOV R1, R0               ; scribble: the kernel puts the owner back
    RET
.data
calls: .word 0
"""
OID = 0x0103


def run_until(rig, done, rounds: int = 1000) -> None:
    """Run the kernel, jumping virtual time to the next deadline when everyone sleeps."""
    for _ in range(rounds):
        if done():
            return
        if not rig.kernel.run(1000):
            deadline = rig.kernel.next_deadline()
            assert deadline is not None, "condition never reached (nothing can run)"
            rig.kernel.clock.advance_to(deadline)
    raise AssertionError("condition never reached")


def stopped_in_handler(rig, condition=None):
    owner = rig.load("owner", OWNER)
    caller = rig.load("caller", CALLER)
    bp = rig.debugger.breakpoints.set(owner.pid, "boost", condition=condition)
    rig.kernel.run(10)                                   # the owner is asleep now
    assert owner.state is TaskState.SLEEPING
    before = (owner.ctx.pc, owner.ctx.regs[15])
    return owner, caller, bp, before


def test_a_breakpoint_in_a_handler_stops_the_owner_and_the_caller_waits(rig):
    owner, caller, bp, before = stopped_in_handler(rig)
    run_until(rig, lambda: owner.state is TaskState.PAUSED)
    event = rig.breaks(owner.pid)[-1]
    assert (event["reason"], event["breakpoint_id"], event["symbol"]) == ("breakpoint", bp, "boost")
    assert event["handler"] == {"oid": OID, "ticket": event["handler"]["ticket"],
                                "caller_pid": caller.pid, "async_call": False}
    assert caller.state is TaskState.WAITING_CMD
    assert caller.summary()["wait"]["kind"] == "command"
    assert owner.summary()["handler"]["caller_pid"] == caller.pid
    # an ordinary paused task: stack, steps, variables of the handler
    assert rig.debugger.stack_info(owner.pid)["frames"][0]["function"] == "boost"
    rig.debugger.step(owner.pid, 2)
    assert owner.ctx.regs[0] == 42 and rig.breaks(owner.pid)[-1]["reason"] == "step"
    rig.kernel.run(1000)
    assert caller.state is TaskState.WAITING_CMD         # still waiting: owner is paused
    rig.debugger.resume(owner.pid)
    run_until(rig, lambda: caller.ended)
    assert caller.exit_status == CmdStatus.OK + 42
    assert (owner.ctx.pc, owner.ctx.regs[15]) == before  # put back exactly, asleep again
    run_until(rig, lambda: owner.ended)
    assert owner.exit_status == 0 and owner.fault is None
    states = [e.data["reason"] for e in rig.of("task_state") if e.pid == caller.pid]
    assert "command_wait" in states and "command_done" in states


def test_a_deadline_that_passes_in_the_handler_is_kept_for_after(rig):
    owner, caller, bp, _ = stopped_in_handler(rig)
    run_until(rig, lambda: owner.state is TaskState.PAUSED)
    rig.kernel.clock.advance_to(0.05)                    # the owner's 20 ms sleep is over
    rig.kernel.run(1000)
    assert owner.state is TaskState.PAUSED               # in the handler, not woken
    rig.debugger.breakpoints.clear(bp)
    rig.debugger.resume(owner.pid)
    run_until(rig, lambda: owner.ended and caller.ended)
    assert (owner.exit_status, caller.exit_status) == (0, 42)
    owner_reasons = [e.data["reason"] for e in rig.of("task_state") if e.pid == owner.pid]
    assert owner_reasons.index("handler_returned") < owner_reasons.index("sleep_wake")


def test_a_false_condition_lets_the_call_finish_at_once(rig):
    owner, caller, _, _ = stopped_in_handler(rig, condition="R0 == 99")
    run_until(rig, lambda: caller.ended)
    assert caller.exit_status == 42 and not rig.breaks(owner.pid)


def test_a_host_call_is_pending_and_completes_when_the_handler_returns(rig):
    owner = rig.load("owner", OWNER)
    rig.debugger.breakpoints.set(owner.pid, "inside")
    rig.kernel.run(10)
    status, ticket = rig.kernel.call_command(0, OID, None)
    assert status is None and owner.state is TaskState.PAUSED
    assert not rig.of("cmd_completed")
    rig.debugger.resume(owner.pid)
    run_until(rig, lambda: bool(rig.of("cmd_completed")))
    done = rig.of("cmd_completed")[-1].data
    assert (done["ticket"], done["status"], done["result"]) == (ticket, 0, 42)
    assert owner.state is TaskState.SLEEPING


def test_the_owner_ending_in_the_handler_fails_the_call(rig):
    owner, caller, _, _ = stopped_in_handler(rig)
    run_until(rig, lambda: owner.state is TaskState.PAUSED)
    rig.kernel.kill(owner.pid)
    run_until(rig, lambda: caller.ended)
    assert caller.exit_status == CmdStatus.EFAIL


def test_a_stopping_watch_written_by_a_handler_stops_it_too(rig):
    owner = rig.load("owner", OWNER)
    caller = rig.load("caller", CALLER)
    watch = rig.debugger.watch_add(owner.pid, "calls", stop=True)
    run_until(rig, lambda: owner.state is TaskState.PAUSED)
    event = rig.breaks(owner.pid)[-1]
    assert (event["reason"], event["watch_id"]) == ("watch", watch["id"])
    assert event["handler"]["caller_pid"] == caller.pid
    assert caller.state is TaskState.WAITING_CMD
    rig.debugger.resume(owner.pid)
    run_until(rig, lambda: caller.ended)
    assert caller.exit_status == 42
