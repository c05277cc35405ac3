"""SVC modules under the kernel, each driven by a small MVASM program."""
import errno
import math

from hsx.image.hxe import write_hxe
from hsx.isa.f16 import f16_to_float
from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.kernel.registry import ValStatus
from hsx.kernel.states import TaskState
from hsx.toolchain.build import build_source


def exit_with(body: str) -> str:
    return f".text\n.entry start\nstart:\n{body}\n    SVC MOD=1, FN=0\n"


def run_one(h, body: str, name="t"):
    task = h.load(exit_with(body), name)
    assert h.run().reason == "done"
    return task


def test_unknown_module_and_function_give_enosys_and_continue(harness):
    task = run_one(harness, "    SVC MOD=0xF, FN=0x7F\n    MOV R6, R0\n    SVC MOD=6, FN=0x55\n"
                            "    XOR R0, R0, R6")
    assert task.exit_status == 0            # both calls returned ENOSYS
    task2 = run_one(harness, "    SVC MOD=0xF, FN=1", "t2")
    assert task2.exit_status == HSX_ERR_ENOSYS


def test_modules_built_on_first_call_are_the_modules_of_their_numbers(harness):
    """CAN, values and commands are built when a task first calls them (firstuse.py):
    each builder gives the module its number routes to, built once."""
    kernel = harness.kernel
    builders = kernel.first_use_syscalls()
    assert sorted(builders) == [0x02, 0x07, 0x08]
    assert {number: build().number for number, build in builders.items()} == \
        {number: number for number in builders}
    assert builders[0x02]() is kernel.can
    assert "values" not in vars(kernel)       # no value registry until one is used
    task = run_one(harness, "    LDI R1, 9\n    LDI R2, 9\n    SVC MOD=7, FN=1")   # LOOKUP
    assert task.exit_status == ValStatus.ENOENT
    assert len(kernel.values) == 0


def test_core_get_steps_counts_retired_instructions(harness):
    task = run_one(harness, "    LDI R1, 1\n    LDI R2, 2\n    SVC MOD=0, FN=0")
    assert task.exit_status == 3             # two LDIs and the SVC itself


def test_getpid_and_time(harness):
    a = run_one(harness, "    SVC MOD=6, FN=2", "a")
    assert a.exit_status == a.pid


def test_devmath_functions(harness):
    # R1 = f16 1.0; sqrt(1.0) = 1.0; upper half of R0 kept from LDI32.
    task = run_one(harness, "    LDI32 R0, 0xABCD0000\n    LDI32 R1, 0x3C00\n    SVC MOD=0xE, FN=3")
    assert task.exit_status == 0xABCD3C00
    sin = run_one(harness, "    LDI R0, 0\n    LDI32 R1, 0x3C00\n    SVC MOD=0xE, FN=0", "s")
    assert abs(f16_to_float(sin.exit_status) - math.sin(1.0)) < 1e-3
    log0 = run_one(harness, "    LDI R0, 0\n    LDI R1, 0\n    SVC MOD=0xE, FN=4", "l")
    assert log0.exit_status == 0xFC00       # -inf


def test_spawn_wait_and_kill(harness, tmp_path):
    child = build_source(exit_with("    LDI R0, 9"), filename="child.mvasm", app_name="child")
    (tmp_path / "fs").mkdir(exist_ok=True)
    (tmp_path / "fs" / "child.hxe").write_bytes(write_hxe(child))
    parent = harness.load("""
.data
path: .asciz "child.hxe"
.text
.entry start
start:
    LDI32 R1, path
    SVC MOD=6, FN=4          ; spawn -> R0 pid
    MOV R6, R0
again:
    MOV R1, R6
    SVC MOD=6, FN=6          ; wait
    CMPI R0, 0
    BEQ done
    SVC MOD=6, FN=1          ; yield and try again
    BR again
done:
    MOV R0, R1               ; the child's exit status
    SVC MOD=1, FN=0
""", "parent")
    assert harness.run().reason == "done"
    assert parent.exit_status == 9
    kids = [t for t in harness.kernel.tasks.values() if t.app_name == "child"]
    assert len(kids) == 1 and kids[0].exit_status == 9


def test_kill_from_a_task(harness):
    victim = harness.load(exit_with("spin:\n    BR spin"), "victim")
    killer = harness.load(exit_with(f"    LDI R1, {victim.pid}\n    SVC MOD=6, FN=5\n"
                                    f"    MOV R6, R0\n    LDI R1, {victim.pid}\n    SVC MOD=6, FN=5\n"
                                    "    MOV R0, R6"), "killer")
    assert harness.run().reason == "done"
    assert victim.state is TaskState.KILLED and killer.exit_status == 0


def test_spawn_of_a_missing_file_fails_cleanly(harness):
    task = harness.load("""
.data
path: .asciz "../escape.hxe"
nope: .asciz "missing.hxe"
.text
.entry start
start:
    LDI32 R1, path
    SVC MOD=6, FN=4
    MOV R6, R0
    LDI32 R1, nope
    SVC MOD=6, FN=4
    ADD R0, R0, R6
    SVC MOD=1, FN=0
""", "spawner")
    assert harness.run().reason == "done"
    assert task.exit_status == (-errno.EINVAL - errno.ENOEXEC) & 0xFFFFFFFF


def test_can_frames_travel_between_tasks(harness):
    receiver = harness.load("""
.bss
buf: .zero 8
.text
.entry start
start:
    LDI R0, 5
    SVC MOD=6, FN=0          ; give the sender time
poll:
    LDI32 R1, buf
    SVC MOD=2, FN=1          ; RX
    CMPI R0, 0
    BNE poll
    LDI32 R3, buf
    LDB R0, [R3]
    ADD R0, R0, R2           ; first data byte + length
    SVC MOD=1, FN=0
""", "rx")
    sender = harness.load("""
.data
frame: .byte 40, 2, 3
.text
.entry start
start:
    LDI R0, 10
    SVC MOD=6, FN=0
    LDI R1, 0x123
    LDI32 R2, frame
    LDI R3, 3
    SVC MOD=2, FN=0          ; TX
    MOV R6, R0
    LDI R3, 9
    SVC MOD=2, FN=0          ; too long
    SUB R0, R6, R0
    SVC MOD=1, FN=0
""", "tx")
    assert harness.run().reason == "done"
    assert receiver.exit_status == 43
    assert sender.exit_status == errno.EINVAL
    assert harness.of("can_tx")[0].data == {"id": 0x123, "data": "280203", "extended": False}


def test_a_bad_pointer_in_a_syscall_faults_the_caller(harness):
    task = harness.load(exit_with("    LDI R1, 1\n    LDI R2, 8\n    LDI R3, 4\n    SVC MOD=4, FN=2"),
                        "bad")
    assert harness.run().reason == "done"
    assert task.state is TaskState.FAULTED and task.fault.kind.value == "memory"
    assert task.fault.pc == 12             # the SVC, which did not retire


def test_listdir_and_delete(harness, tmp_path):
    (tmp_path / "fs").mkdir(exist_ok=True)
    (tmp_path / "fs" / "a.txt").write_text("x")
    task = harness.load("""
.data
root: .asciz "/"
name: .asciz "a.txt"
.bss
out: .zero 32
.text
.entry start
start:
    LDI32 R1, root
    LDI32 R2, out
    LDI R3, 32
    SVC MOD=4, FN=0x0A       ; listdir -> R0 bytes
    MOV R3, R0
    LDI R1, 1
    LDI32 R2, out
    SVC MOD=4, FN=2          ; print the listing
    LDI32 R1, name
    SVC MOD=4, FN=0x0B       ; delete
    SVC MOD=1, FN=0
""", "lister")
    assert harness.run().reason == "done"
    assert harness.text(task.pid) == "a.txt" and task.exit_status == 0
    assert not (tmp_path / "fs" / "a.txt").exists()


def test_receive_with_timeout_returns_timeout_status(harness):
    task = harness.load("""
.data
me: .asciz "app:quiet"
.bss
buf: .zero 4
info: .zero 20
.text
.entry start
start:
    LDI32 R1, me
    LDI R2, 0
    SVC MOD=5, FN=0
    LDI32 R2, buf
    LDI R3, 4
    LDI R4, 25               ; 25 ms
    LDI32 R5, info
    SVC MOD=5, FN=3
    LDI32 R1, info
    LD R1, [R1]              ; status from the info block as well
    ADD R0, R0, R1
    SVC MOD=1, FN=0
""", "quiet")
    assert harness.run().reason == "done"
    assert task.exit_status == 14            # TIMEOUT (7) in R0 and in the info block
    assert task.accounting.timeouts == 1
    reasons = [e.data["reason"] for e in harness.of("task_state") if e.pid == task.pid]
    assert reasons == ["loaded", "mailbox_wait", "timeout", "returned"]


TINY_SENDER = """
.data
box: .asciz "app:tiny"
msg: .ascii "abcdefgh"
.text
.entry start
start:
    LDI32 R1, box
    LDI R2, 16               ; room for one 8-byte message (plus its header)
    LDI R3, 3
    SVC MOD=5, FN=1          ; BIND
    LDI32 R1, box
    LDI R2, 0
    SVC MOD=5, FN=0
    MOV R6, R1
    LDI R7, 3
next:
    LDI32 R0, 0xFFFF         ; wait for room as long as it takes
    MOV R1, R6
    LDI32 R2, msg
    LDI R3, 8
    LDI R4, 0
    LDI R5, 0
    SVC MOD=5, FN=7          ; SEND_WAIT
    CMPI R0, 0
    BNE fail
    ADDI R7, R7, -1
    BNE next
    LDI R0, 5                ; now a bounded wait that must time out
    MOV R1, R6
    LDI32 R2, msg
    LDI R3, 8
    SVC MOD=5, FN=7
    SVC MOD=1, FN=0          ; exit with that status (TIMEOUT = 7)
fail:
    LDI R0, 99
    SVC MOD=1, FN=0
"""

TINY_READER = """
.data
box: .asciz "app:tiny"
.bss
buf: .zero 8
.text
.entry start
start:
    LDI R0, 10
    SVC MOD=6, FN=0          ; let the sender fill the mailbox first
    LDI32 R1, box
    LDI R2, 0
    SVC MOD=5, FN=0
    MOV R6, R1
    LDI R7, 2
more:
    MOV R1, R6
    LDI32 R2, buf
    LDI R3, 8
    LDI32 R4, 0xFFFF
    LDI R5, 0
    SVC MOD=5, FN=3
    ADDI R7, R7, -1
    BNE more
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def test_send_wait_blocks_until_a_receive_makes_room(harness):
    sender = harness.load(TINY_SENDER, "sender")
    reader = harness.load(TINY_READER, "reader")
    assert harness.run().reason == "done"
    assert reader.exit_status == 0
    assert sender.exit_status == 7             # the last, bounded send timed out
    reasons = [e.data["reason"] for e in harness.of("task_state") if e.pid == sender.pid]
    assert reasons.count("mailbox_wait") == 2 and "mailbox_wake" in reasons and "timeout" in reasons
