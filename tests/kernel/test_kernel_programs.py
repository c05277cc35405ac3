"""Real MVASM programs run under the kernel: IPC, fan-out, sleep, faults, reload, scale."""
import pytest

from hsx.kernel.errors import KernelError
from hsx.kernel.states import TaskState


PRODUCER = """
.data
chan: .asciz "app:chan"
msg:  .ascii "ping"
.text
.entry start
start:
    LDI32 R1, chan
    LDI R2, 0
    SVC MOD=5, FN=0          ; OPEN -> R1 handle
    MOV R6, R1
    LDI R7, 3
loop:
    MOV R1, R6
    LDI32 R2, msg
    LDI R3, 4
    LDI R4, 0
    LDI R5, 0
    SVC MOD=5, FN=2          ; SEND
    ADDI R7, R7, -1
    BNE loop
    LDI R0, 0
    SVC MOD=1, FN=0
"""

CONSUMER = """
.data
chan: .asciz "app:chan"
.bss
buf: .zero 16
.text
.entry start
start:
    LDI32 R1, chan
    LDI R2, 0
    SVC MOD=5, FN=0
    MOV R6, R1
    LDI R7, 3
loop:
    MOV R1, R6
    LDI32 R2, buf
    LDI R3, 16
    LDI32 R4, 0xFFFF         ; wait forever
    LDI R5, 0
    SVC MOD=5, FN=3          ; RECV -> R1 length
    MOV R3, R1
    LDI R1, 1
    LDI32 R2, buf
    SVC MOD=4, FN=2          ; write to stdout
    ADDI R7, R7, -1
    BNE loop
    LDI R0, 7
    SVC MOD=1, FN=0
"""


def test_producer_consumer_with_blocking_receive(harness):
    h = harness
    consumer = h.load(CONSUMER, "consumer")     # first, so it blocks before any data exists
    producer = h.load(PRODUCER, "producer")
    outcome = h.run()
    assert outcome.reason == "done"
    assert h.text(consumer.pid) == "ping" * 3
    assert consumer.exit_status == 7 and producer.exit_status == 0
    states = [(e.pid, e.data["reason"]) for e in h.of("task_state")]
    assert (consumer.pid, "mailbox_wait") in states and (consumer.pid, "mailbox_wake") in states
    assert consumer.accounting.waits >= 1
    assert h.of("stdout") and h.of("stdout")[0].data["text"] == "ping"


FANOUT_PUBLISHER = """
.data
chan: .asciz "app:news"
msg:  .ascii "hot"
.text
.entry start
start:
    LDI32 R1, chan
    LDI R2, 0
    LDI R3, 0x1A             ; WRONLY | FANOUT | FANOUT_DROP
    SVC MOD=5, FN=1          ; BIND
    LDI32 R1, chan
    LDI R2, 2                ; open write-only
    SVC MOD=5, FN=0
    MOV R6, R1
    LDI R0, 20
    SVC MOD=6, FN=0          ; sleep 20 ms: let the readers subscribe
    LDI R7, 2
again:
    MOV R1, R6
    LDI32 R2, msg
    LDI R3, 3
    LDI R4, 0
    LDI R5, 0
    SVC MOD=5, FN=2
    ADDI R7, R7, -1
    BNE again
    LDI R0, 0
    SVC MOD=1, FN=0
"""

FANOUT_READER = """
.data
chan: .asciz "app:news"
.bss
buf: .zero 8
.text
.entry start
start:
    LDI32 R1, chan
    LDI R2, 1                ; open read-only
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
    MOV R3, R1
    LDI R1, 1
    LDI32 R2, buf
    SVC MOD=4, FN=2
    ADDI R7, R7, -1
    BNE more
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def test_fan_out_delivers_every_message_to_three_readers(harness):
    h = harness
    publisher = h.load(FANOUT_PUBLISHER, "publisher")
    readers = [h.load(FANOUT_READER, "reader") for _ in range(3)]
    assert [r.app_name for r in readers] == ["reader", "reader_#0", "reader_#1"]
    assert h.run().reason == "done"
    for reader in readers:
        assert h.text(reader.pid) == "hothot"
        assert reader.exit_status == 0
    assert publisher.exit_status == 0


SLEEPER = """
.text
.entry start
start:
    LDI R0, 50
    SVC MOD=6, FN=0          ; sleep 50 ms
    SVC MOD=6, FN=7          ; R0 = ms since the kernel started
    SVC MOD=1, FN=0
"""

SPINNER = """
.text
.entry start
start:
    LDI32 R1, 40000
spin:
    ADDI R1, R1, -1
    BNE spin
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def test_sleeper_wakes_on_time_while_others_keep_running(harness):
    h = harness
    sleeper = h.load(SLEEPER, "sleeper")
    spinners = [h.load(SPINNER, "spin") for _ in range(2)]
    assert h.run().reason == "done"
    # Virtual time: 1 µs per instruction.  The sleeper woke at 50 ms, not later than a
    # scheduling round after it.
    assert 50 <= sleeper.exit_status <= 52
    wake = [e for e in h.of("task_state") if e.pid == sleeper.pid and e.data["reason"] == "sleep_wake"]
    assert len(wake) == 1
    for spinner in spinners:
        assert spinner.exit_status == 0 and spinner.instructions > 80_000


def test_sleep_alone_waits_for_the_deadline_instead_of_spinning(harness):
    h = harness
    sleeper = h.load(SLEEPER, "sleeper")
    outcome = h.run()
    assert outcome.reason == "done"
    assert sleeper.exit_status == 50
    assert outcome.instructions == sleeper.instructions == 4


FAULTER = """
.text
.entry start
start:
    LDI R1, 0
    LD R2, [R1+4]            ; null page
    LDI R0, 1
    SVC MOD=1, FN=0
"""


def test_a_fault_stops_only_that_task(harness):
    h = harness
    faulter = h.load(FAULTER, "faulter")
    others = [h.load(SPINNER, "spin") for _ in range(2)]
    assert h.run().reason == "done"
    assert faulter.state is TaskState.FAULTED
    assert faulter.fault.kind.value == "memory" and faulter.fault.addr == 4
    assert faulter.ctx.pc == 4 and faulter.exit_status is None
    faults = h.of("fault")
    assert len(faults) == 1 and faults[0].pid == faulter.pid and faults[0].data["pc"] == 4
    assert all(t.state is TaskState.RETURNED and t.exit_status == 0 for t in others)


WITH_METADATA = """
.mailbox {"target": "app:telemetry", "capacity": 96}
.text
.entry start
start:
    LDI R0, 30
    SVC MOD=6, FN=0
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def test_kill_and_reload_of_an_app_with_metadata(harness):
    h = harness
    first = h.load(WITH_METADATA, "telemetry")
    names = [d["target"] for d in h.kernel.mailboxes.snapshot()["descriptors"]]
    assert "app:telemetry" in names
    h.kernel.run(3)
    h.kernel.kill(first.pid)
    assert first.state is TaskState.KILLED
    assert "app:telemetry" not in [d["target"] for d in h.kernel.mailboxes.snapshot()["descriptors"]]
    assert first.pid not in h.kernel.scheduler and first.pid not in h.kernel.timers
    second = h.load(WITH_METADATA, "telemetry")
    assert second.app_name == "telemetry" and second.pid != first.pid
    assert h.run().reason == "done" and second.exit_status == 0


def test_single_instance_images_refuse_a_second_copy(harness):
    from hsx.toolchain.build import build_source
    h = harness
    image = build_source(SPINNER, filename="solo.mvasm", app_name="solo")
    image.flags &= ~0x2
    h.kernel.load(image)
    with pytest.raises(KernelError) as error:
        h.kernel.load(image)
    assert error.value.code == "app_exists:solo"


COUNTER = """
.text
.entry start
start:
    LDI R1, 10
count:
    ADDI R1, R1, -1
    BNE count
    SVC MOD=6, FN=2          ; R0 = pid
    SVC MOD=1, FN=0
"""


def test_hundred_tasks_round_robin(harness):
    h = harness
    tasks = [h.load(COUNTER, "counter") for _ in range(100)]
    # Quantum 1: every task retires its first instruction before any retires a second.
    assert h.kernel.run(100) == 100
    assert all(t.instructions == 1 for t in tasks)
    assert [to for _, to, _ in list(h.kernel.scheduler_trace)[-100:]] == [t.pid for t in tasks]
    assert h.run().reason == "done"
    assert [t.exit_status for t in tasks] == [t.pid for t in tasks]


def test_quantum_and_priority(harness):
    h = harness
    low = h.load(SPINNER, "low")
    high = h.load(SPINNER, "high")
    h.kernel.set_priority(high.pid, 20)
    h.kernel.set_quantum(high.pid, 100)
    h.kernel.run(1000)
    assert high.instructions == 1000 and low.instructions == 0
    with pytest.raises(KernelError, match="quantum"):
        h.kernel.set_quantum(low.pid, 0)


def test_pause_resume_and_a_wake_while_paused(harness):
    h = harness
    sleeper = h.load(SLEEPER, "sleeper")
    h.kernel.run(10)
    assert sleeper.state is TaskState.SLEEPING
    h.kernel.pause(sleeper.pid)
    assert sleeper.state is TaskState.PAUSED
    h.kernel.clock.advance_to(1.0)
    h.kernel.run(10)                      # the deadline passes while paused
    assert sleeper.state is TaskState.PAUSED
    h.kernel.resume(sleeper.pid)
    assert sleeper.state is TaskState.READY
    assert h.run().reason == "done"


def test_deadlock_is_reported_not_spun(harness):
    h = harness
    h.load(CONSUMER, "consumer")          # nobody will ever send
    assert h.run().reason == "deadlock"


STDIN_ECHO = """
.bss
buf: .zero 32
.text
.entry start
start:
    LDI R1, 0
    LDI32 R2, buf
    LDI R3, 32
    SVC MOD=4, FN=1          ; read fd 0 (blocks)
    MOV R3, R0
    LDI R1, 1
    LDI32 R2, buf
    SVC MOD=4, FN=2          ; echo it
    MOV R0, R3
    SVC MOD=1, FN=0
"""


def test_stdin_read_blocks_until_input_arrives(harness):
    h = harness
    echo = h.load(STDIN_ECHO, "echo")
    h.kernel.run(100)
    assert echo.state is TaskState.WAITING_MBX
    h.kernel.post_stdin(echo.pid, b"hello")
    assert h.run().reason == "done"
    assert h.text(echo.pid) == "hello" and echo.exit_status == 5


STDIN_UNTIL_EOF = """
.bss
buf: .zero 8
.text
.entry start
start:
    LDI R6, 0                ; reads that returned 0
again:
    LDI R1, 0
    LDI32 R2, buf
    LDI R3, 8
    SVC MOD=4, FN=1          ; read fd 0
    CMPI R0, 0
    JNZ again
    ADDI R6, R6, 1
    CMPI R6, 3
    JNZ again                ; three reads at the end of the input
    MOV R0, R6
    SVC MOD=1, FN=0
"""


def test_the_end_of_input_is_for_good_every_later_read_returns_0(harness):
    h = harness
    reader = h.load(STDIN_UNTIL_EOF, "reader")
    h.kernel.run(100)
    h.kernel.post_stdin(reader.pid, b"partial")          # a line without its newline
    h.kernel.post_stdin(reader.pid, b"")                 # then one end of input
    h.kernel.post_stdin(reader.pid, b"")                 # (ending it again: nothing)
    with pytest.raises(KernelError) as closed:
        h.kernel.post_stdin(reader.pid, b"more")         # nobody would ever read it
    assert closed.value.code == "stdin_closed"
    assert h.run().reason == "done" and reader.exit_status == 3


FILE_WRITER = """
.data
path: .asciz "notes.txt"
text: .ascii "saved"
.text
.entry start
start:
    LDI32 R1, path
    LDI R2, 0x0E             ; WRONLY | CREAT | TRUNC
    SVC MOD=4, FN=0
    MOV R6, R0
    MOV R1, R6
    LDI32 R2, text
    LDI R3, 5
    SVC MOD=4, FN=2
    MOV R1, R6
    SVC MOD=4, FN=3
    SVC MOD=1, FN=0
"""


def test_file_system_calls_land_in_the_sandbox(harness, tmp_path):
    h = harness
    task = h.load(FILE_WRITER, "writer")
    assert h.run().reason == "done" and task.exit_status == 0
    assert (tmp_path / "fs" / "notes.txt").read_bytes() == b"saved"


def test_bad_images_are_refused_with_a_code(harness):
    h = harness
    with pytest.raises(KernelError) as error:
        h.kernel.load(b"not an image at all, clearly")
    assert error.value.code.startswith("bad_image:")
    sid = h.kernel.load_begin()
    with pytest.raises(KernelError) as early:
        h.kernel.load_write(sid, b"XXXX" + bytes(100))      # rejected at the header
    assert early.value.code == "bad_image:bad_magic"
    assert h.kernel.tasks == {}


def test_streamed_load_in_chunks(harness):
    from hsx.image.hxe import write_hxe
    from hsx.toolchain.build import build_source
    h = harness
    data = write_hxe(build_source(COUNTER, filename="c.mvasm", app_name="streamed"))
    sid = h.kernel.load_begin()
    for i in range(0, len(data), 7):
        h.kernel.load_write(sid, data[i:i + 7])
    task = h.kernel.load_end(sid)
    assert task.app_name == "streamed"
    sid = h.kernel.load_begin()
    h.kernel.load_write(sid, data[:50])
    h.kernel.load_abort(sid)
    with pytest.raises(KernelError, match="no streamed load"):
        h.kernel.load_end(sid)
