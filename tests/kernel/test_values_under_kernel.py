"""Values and commands end to end: metadata, guest handlers, subscriptions, persistence."""
from mvasmkit import CALLER

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.registry import Auth, CmdStatus, ValStatus
from hsx.kernel.runner import run_to_completion
from hsx.kernel.states import TaskState
from hsx.toolchain.build import build_source

MOTOR = """
.value {"group": 1, "id": 2, "name": "rpm", "unit": "rpm", "init": 1.0, "max": 100.0, "persist_key": 5}
.cmd {"group": 1, "id": 3, "name": "boost", "help": "Add one to the base", "handler": "boost"}
.text
.entry start
start:
    LDI R0, 200
    SVC MOD=6, FN=0          ; stay alive for 200 ms
    LDI R0, 0
    SVC MOD=1, FN=0
boost:                        ; int32_t boost(void): computed in guest code
    LDI R0, 41
    ADDI R0, R0, 1
    MOV R1, R0               ; scribble on registers: the kernel restores them
    RET
"""


def test_metadata_registers_values_and_commands_at_load(harness):
    motor = harness.load(MOTOR, "motor")
    kernel = harness.kernel
    assert kernel.values.get(0, 0x0102).raw == 0x3C00
    assert [c.oid for c in kernel.commands.list()] == [0x0103]
    assert kernel.commands.help(0x0103).data == b"Add one to the base\0"
    assert motor.state is TaskState.READY


def test_a_command_runs_its_handler_in_guest_code(harness):
    motor = harness.load(MOTOR, "motor")
    caller = harness.load(CALLER, "caller")
    harness.kernel.run(5)
    sp, pc = motor.ctx.regs[15], motor.ctx.pc
    assert harness.kernel.call_command(0, 0x0103, None) == (CmdStatus.OK, 42)
    assert (motor.ctx.regs[15], motor.ctx.pc) == (sp, pc)        # owner put back exactly
    assert harness.run().reason == "done"
    assert caller.exit_status == 42                              # OK (0) + result 42
    assert motor.exit_status == 0
    completed = harness.of("cmd_completed")
    assert len(completed) == 2 and all(e.data["status"] == 0 for e in completed)


SUBSCRIBER = """
.data
box: .asciz "app:watch"
.bss
note: .zero 8
.text
.entry start
start:
    LDI32 R1, 0x0102
    LDI32 R2, box
    SVC MOD=7, FN=5          ; SUB -> R1 handle
    LDI32 R2, note
    LDI R3, 8
    LDI32 R4, 0xFFFF
    LDI R5, 0
    SVC MOD=5, FN=3          ; block until the value changes
    LDI32 R2, note
    LDH R0, [R2+4]           ; new f16 of <u16 oid><u16 old><u16 new>
    SVC MOD=1, FN=0
"""

SETTER = """
.text
.entry start
start:
    LDI R0, 20
    SVC MOD=6, FN=0
    LDI32 R1, 0x0102
    LDI32 R2, 0x4000         ; 2.0
    SVC MOD=7, FN=3          ; SET
    SVC MOD=1, FN=0
"""


def test_a_subscriber_blocks_until_the_value_changes(harness):
    harness.load(MOTOR, "motor")
    subscriber = harness.load(SUBSCRIBER, "watcher")
    setter = harness.load(SETTER, "setter")
    assert harness.run().reason == "done"
    assert setter.exit_status == ValStatus.OK
    assert subscriber.exit_status == 0x4000
    reasons = [e.data["reason"] for e in harness.of("task_state") if e.pid == subscriber.pid]
    assert "mailbox_wait" in reasons and "mailbox_wake" in reasons
    assert len(harness.of("value_changed")) == 1


def test_a_faulting_handler_fails_the_call_not_the_owner(harness):
    source = MOTOR.replace("    LDI R0, 41\n", "    LDI R0, 0\n    LD R0, [R0]\n")
    motor = harness.load(source, "motor")
    harness.kernel.run(3)
    assert harness.kernel.call_command(0, 0x0103, None) == (CmdStatus.EFAIL, 0)
    assert motor.state is TaskState.SLEEPING and motor.fault is None
    assert any("did not return" in e.data["message"] for e in harness.of("dmesg"))


def test_values_persist_across_a_kernel_restart(tmp_path):
    image = build_source(MOTOR, filename="motor.mvasm", app_name="motor")

    def kernel():
        return Kernel(clock=VirtualClock(), fs_root=tmp_path / "fs", state_dir=tmp_path / "state")

    first = kernel()
    first.load(image)
    result = first.values.set(0, 0x0102, 0x4200, Auth.ADMIN, first.clock.now())   # 3.0
    assert result.status is ValStatus.OK and result.changed
    first.shutdown()                                          # flushes the debounced write
    second = kernel()
    second.load(image)
    assert second.values.get(0, 0x0102).raw == 0x4200         # stored value beats init 1.0
    second.shutdown()


def test_debounced_writes_are_flushed_by_the_kernel_timer(tmp_path):
    k = Kernel(clock=VirtualClock(), fs_root=tmp_path / "fs", state_dir=tmp_path / "state")
    k.load(build_source(MOTOR, filename="motor.mvasm", app_name="motor"))
    k.load(build_source(SETTER, filename="setter.mvasm", app_name="setter"))
    run_to_completion(k)
    assert k.store.pending == 0                             # written before everyone ended


def test_kill_and_reload_releases_values_and_commands(harness):
    motor = harness.load(MOTOR, "motor")
    harness.kernel.kill(motor.pid)
    assert harness.kernel.values.info(0x0102) is None
    again = harness.load(MOTOR, "motor")
    assert harness.kernel.values.info(0x0102).owner_pid == again.pid


def test_a_second_instance_declaring_the_same_oids_is_refused(harness):
    import pytest
    from hsx.kernel.errors import KernelError
    harness.load(MOTOR, "motor")
    with pytest.raises(KernelError) as error:
        harness.load(MOTOR, "motor")
    assert error.value.code.startswith("value_exists")
    assert len(harness.kernel.live_tasks()) == 1
