"""The C executive's direct API (hsx_exec.h), driven through ctypes with a clock the test
moves: loading (copied, in place, streamed; names; limits), the state machine and its
task_state events, the scheduler's sleep and timers, pause/resume/step, registers and
memory, breakpoints, run-to, the stack walk, watches, the trace, the host's mailboxes,
stdin and kept output, values and commands from the host."""
from __future__ import annotations

import ctypes as C

import pytest
from execapi import (BreakpointInfo, CommandInfo, Frame, MailboxInfo, MbxMessage, TraceRecord,
                     ValueInfo, executive, image)


COUNTER = """
        .entry main
main:   LDI R14, 0
        LDI R1, 0
loop:   ADDI R1, R1, 1
        CALL twice
        CMPI R1, 50
        BNE loop
        MOV R0, R1
        SVC MOD=1, FN=0
twice:  PUSH R14
        MOV R14, R15
inner:  ADD R2, R1, R1
        POP R14
        RET
"""

SLEEPY = """
        .entry main
main:   LDI R0, 100
        SVC MOD=6, FN=0
        LDI R0, 7
        SVC MOD=1, FN=0
"""

WRITER = """
        .entry main
main:   LDI32 R3, cell
        LDI R1, 0
loop:   ADDI R1, R1, 1
        ST [R3], R1
after:  CMPI R1, 3
        BNE loop
        LDI R0, 0
        SVC MOD=1, FN=0
        .data
cell:   .word 0
"""


def test_a_task_runs_to_its_end_through_the_state_machine(ex):
    data, _ = image(COUNTER)
    status, pid = ex.load(data)
    assert status == "ok" and ex.state(pid) == "ready"
    ex.run()
    info = ex.task(pid)
    assert ex.state(pid) == "returned" and info.has_exit_status and info.exit_status == 50
    states = [(e["prev"], e["state"]) for e in ex.of("task_state", pid)]
    assert states == [("none", "ready"), ("ready", "returned")]
    assert ex.call("kill", pid) == "ok"          # an ended task: its record goes
    assert ex.call("task", pid, C.byref(type(info)())) == "unknown_pid"


def test_names_instances_and_limits(ex):
    data, _ = image(COUNTER, "counter")
    single, _ = image(COUNTER, "solo", allow_multiple=False)
    assert ex.load(data, paused=True)[0] == "ok"
    status, second = ex.load(data, paused=True)
    assert status == "ok" and ex.task(second).app_name == b"counter_#0"
    assert ex.task(second).app_name_base == b"counter"
    status, third = ex.load(data, paused=True)
    assert status == "ok" and ex.task(third).app_name == b"counter_#1"
    assert ex.call("kill", third) == ex.call("kill", third) == "ok"   # ended, then removed
    long_name = "x" * 31                        # the longest: the suffix cuts the base
    status, whole = ex.load(data, long_name, paused=True)
    assert status == "ok" and ex.task(whole).app_name == long_name.encode()
    status, cut = ex.load(data, long_name, paused=True)
    assert status == "ok" and ex.task(cut).app_name == b"x" * 28 + b"_#0"
    assert ex.task(cut).app_name_base == long_name.encode()
    for pid in (whole, cut):                    # the slots the rest of the test counts
        assert ex.call("kill", pid) == ex.call("kill", pid) == "ok"
    assert ex.load(single, paused=True)[0] == "ok"
    status, _ = ex.load(single, paused=True)
    assert status == "app_exists" and ex.lib.hsx_exec_last_detail() == b"solo"
    limit = 4 if ex.variant == "minimal" else 8
    while ex.load(data, paused=True)[0] == "ok":
        pass
    live = sum(1 for pid in range(1, 40) if ex.lib.hsx_exec_task(pid, C.byref(type(ex.task(1))())) == 0
               and ex.state(pid) not in ("returned", "faulted", "killed"))
    assert live == limit
    assert ex.load(data)[0] == "too_many_tasks"
    ex.call("kill", 1)                           # kill releases the slot: a load fits again
    assert ex.load(data, paused=True)[0] == "ok"


def test_bad_images_name_what_is_wrong(ex):
    data, _ = image(COUNTER)
    assert ex.load(data[:20])[0] == "bad_image" and ex.lib.hsx_exec_last_detail() == b"too_small"
    bad = bytearray(data)
    bad[-1] ^= 1
    assert ex.load(bytes(bad))[0] == "bad_image" and ex.lib.hsx_exec_last_detail() == b"crc_mismatch"
    assert ex.load(data + b"junk")[0] == "bad_image"
    assert ex.lib.hsx_exec_last_detail() == b"trailing_bytes"


def test_images_run_in_place_and_streamed(ex):
    data, _ = image(COUNTER)
    status, pid = ex.load(data, in_place=True)
    ex.run()
    assert status == "ok" and ex.task(pid).exit_status == 50
    stream = C.c_uint32()
    assert ex.call("load_begin", b"streamed", C.byref(stream)) == "ok"
    for at in range(0, len(data), 37):
        assert ex.call("load_write", stream, data[at:at + 37], len(data[at:at + 37]), None) == "ok"
    pid = C.c_uint32()
    assert ex.call("load_end", stream, 0, C.byref(pid)) == "ok"
    ex.run()
    assert ex.task(pid.value).app_name == b"streamed" and ex.task(pid.value).exit_status == 50
    # a wrong header ends the stream at once; an unknown stream is refused
    assert ex.call("load_begin", None, C.byref(stream)) == "ok"
    assert ex.call("load_write", stream, b"XXXX" * 24, 96, None) == "bad_image"
    assert ex.call("load_write", stream, b"x", 1, None) == "unknown_stream"
    assert ex.call("load_begin", None, C.byref(stream)) == "ok"
    ex.call("load_write", stream, data[:100], 100, None)
    assert ex.call("load_end", stream, 0, C.byref(pid)) == "bad_image"
    assert ex.lib.hsx_exec_last_detail() == b"truncated"


def test_sleep_wakes_at_its_deadline(ex):
    data, _ = image(SLEEPY)
    _, pid = ex.load(data)
    ex.run()
    assert ex.state(pid) == "sleeping" and ex.task(pid).wait_ms == 100
    ran, next_ms = ex.run()
    assert ran == 0 and next_ms == 100
    ex.now = 99
    ex.run()
    assert ex.state(pid) == "sleeping"
    ex.now = 100
    ex.run()
    assert ex.state(pid) == "returned" and ex.task(pid).exit_status == 7
    reasons = [e["reason"] for e in ex.of("task_state", pid)]
    assert reasons == [0, 2, 3, 12]             # loaded, sleep, sleep_wake, returned


def test_pause_resume_step_and_registers(ex):
    data, _ = image(COUNTER)
    _, pid = ex.load(data, paused=True)
    assert ex.state(pid) == "paused"
    executed = C.c_uint32()
    assert ex.call("step", pid, 3, C.byref(executed)) == "ok" and executed.value == 3
    regs = ex.registers(pid)
    assert regs.regs[1] == 1 and regs.steps == 3 and ex.state(pid) == "paused"
    assert ex.call("set_register", pid, 1, 48) == "ok"
    assert ex.call("set_register", pid, 16, 2) == "bad_address"
    assert ex.call("resume", pid) == "ok"
    ex.run()
    assert ex.task(pid).exit_status == 50
    assert ex.call("pause", pid) == "task_ended" and ex.call("pause", 99) == "unknown_pid"


def test_memory_reads_and_writes(ex):
    data, _ = image(WRITER)
    _, pid = ex.load(data, paused=True)
    info = ex.task(pid)
    assert ex.peek(pid, 0, 8, space=1) == data[96:104]       # the code, as stored
    ex.call("poke", pid, 0x4000, b"\x05\x00\x00\x00", 4)
    assert ex.peek(pid, 0x4000, 4) == b"\x05\x00\x00\x00"
    assert ex.call("peek", pid, 0, info.mem_size - 2, (C.c_uint8 * 4)(), 4) == "bad_argument"


def test_a_fault_ends_only_its_task(ex):
    data, _ = image(".entry main\nmain: LDI R1, 4\n LD R0, [R1]\n")
    good, _ = image(COUNTER)
    _, bad = ex.load(data)
    _, ok = ex.load(good)
    ex.run()
    info = ex.task(bad)
    assert ex.state(bad) == "faulted" and info.fault_kind == b"memory" and info.fault_addr == 4
    assert ex.task(ok).exit_status == 50
    fault = ex.of("fault", bad)[0]          # kind and numbers: the words are the host's
    assert (fault["what"], fault["pc"], fault["addr"], fault["a"]) == ("memory", 4, 4, 4)


# -- debugging (development and full) ---------------------------------------------------

def test_debugging_is_unsupported_in_minimal():
    ex = executive("minimal")
    data, at = image(COUNTER)
    _, pid = ex.load(data, paused=True)
    ident = C.c_uint32()
    assert ex.call("bp_set", pid, at("inner"), 0, C.byref(ident)) == "unsupported"
    assert ex.call("watch_add", pid, 0x4000, 4, 0, C.byref(ident)) == "unsupported"
    assert ex.call("stack", pid, (Frame * 4)(), 4, C.byref(ident)) == "unsupported"


def test_breakpoints_stop_count_and_go(dbg):
    data, at = image(COUNTER)
    _, pid = dbg.load(data, paused=True)
    ident = C.c_uint32()
    assert dbg.call("bp_set", pid, at("inner"), 0, C.byref(ident)) == "ok"
    assert dbg.call("bp_set", pid, 2, 0, C.byref(C.c_uint32())) == "bad_address"
    dbg.call("resume", pid)
    dbg.run()
    assert dbg.state(pid) == "paused" and dbg.task(pid).pc == at("inner")
    stop = dbg.of("debug_break", pid)[-1]
    assert stop["what"] == "breakpoint" and stop["id"] == ident.value and stop["pc"] == at("inner")
    dbg.call("resume", pid)                       # runs through it, stops there next time
    dbg.run()
    info = BreakpointInfo()
    cursor = C.c_uint32()
    assert dbg.lib.hsx_exec_next_breakpoint(C.byref(cursor), C.byref(info)) == 1
    assert info.hits == 2 and dbg.registers(pid).regs[1] == 2
    dbg.call("bp_enable", ident, 0)               # disabled: it runs on
    dbg.call("resume", pid)
    dbg.run()
    assert dbg.task(pid).exit_status == 50
    assert dbg.call("bp_clear", ident) == "ok" and dbg.call("bp_clear", ident) == "unknown_breakpoint"


def test_run_to_is_a_temporary_breakpoint(dbg):
    data, at = image(COUNTER)
    _, pid = dbg.load(data, paused=True)
    ident = C.c_uint32()
    assert dbg.call("run_to", pid, at("twice"), C.byref(ident)) == "ok"
    dbg.run()
    assert dbg.task(pid).pc == at("twice")
    assert dbg.of("debug_break", pid)[-1]["a"] == 1               # temporary
    assert dbg.lib.hsx_exec_next_breakpoint(C.byref(C.c_uint32()), C.byref(BreakpointInfo())) == 0


def test_the_stack_walk_gives_the_frame_chain(dbg):
    data, at = image(COUNTER)
    _, pid = dbg.load(data, paused=True)
    dbg.call("bp_set", pid, at("inner"), 0, C.byref(C.c_uint32()))
    dbg.call("resume", pid)
    dbg.run()
    frames, count = (Frame * 8)(), C.c_uint32()
    assert dbg.call("stack", pid, frames, 8, C.byref(count)) == "ok"
    assert count.value == 2
    assert frames[0].pc == at("inner")
    assert frames[1].pc == at("loop") + 8          # the return address: after the CALL
    assert frames[1].sp == frames[0].fp + 8


def test_watches_report_changes_and_may_stop(dbg):
    data, at = image(WRITER)
    _, pid = dbg.load(data, paused=True)
    ident = C.c_uint32()
    assert dbg.call("watch_add", pid, 0x4000, 4, 1, C.byref(ident)) == "ok"
    assert dbg.call("watch_add", pid, 0x4000, 64, 0, C.byref(C.c_uint32())) == "bad_argument"
    dbg.call("resume", pid)
    dbg.run()
    update = dbg.of("watch_update", pid)[0]
    assert update["id"] == ident.value and update["data"] == b"\0\0\0\0\x01\0\0\0"
    assert update["pc"] == at("loop") + 4 and update["c"] == 1     # the ST
    assert dbg.state(pid) == "paused" and dbg.task(pid).pc == at("after")
    stop = dbg.of("debug_break", pid)[-1]
    assert stop["what"] == "watch" and stop["id"] == ident.value and stop["b"] == at("loop") + 4
    assert stop["addr"] == 0x4000 and stop["data"] == update["data"]
    dbg.call("watch_remove", ident)
    dbg.call("resume", pid)
    dbg.run()
    assert dbg.task(pid).exit_status == 0 and len(dbg.of("watch_update", pid)) == 1


def test_the_trace_keeps_the_newest_instructions(dbg):
    data, at = image(COUNTER)
    _, pid = dbg.load(data, paused=True)
    assert dbg.call("trace", pid, 1) == "ok"
    dbg.call("resume", pid)
    dbg.run()
    records = (TraceRecord * 10)()
    n = dbg.lib.hsx_exec_trace_records(pid, records, 10)
    assert n == 10
    assert [r.steps for r in records] == list(range(records[0].steps, records[0].steps + 10))
    assert records[9].pc == dbg.task(pid).pc - 4        # the final SVC (it retired)


def test_init_forgets_the_breakpoints_watches_and_trace_before_it(dbg):
    """A task of the new start gets the same pid as one before it: nothing of the old
    one's debugging may reach it."""
    data, at = image(WRITER)
    _, pid = dbg.load(data, paused=True)
    dbg.call("bp_set", pid, at("after"), 0, C.byref(C.c_uint32()))
    dbg.call("watch_add", pid, 0x4000, 4, 1, C.byref(C.c_uint32()))
    dbg.call("trace", pid, 1)
    again = executive(dbg.variant)
    _, same = again.load(data)
    cursor = C.c_uint32()
    assert same == pid
    assert not again.lib.hsx_exec_next_breakpoint(C.byref(cursor), C.byref(BreakpointInfo()))
    again.run()
    assert again.task(pid).exit_status == 0
    assert not again.of("watch_update", pid) and not again.of("debug_break", pid)
    assert again.lib.hsx_exec_trace_records(pid, (TraceRecord * 4)(), 4) == 0


# -- the host's services ----------------------------------------------------------------------

def test_host_mailboxes_stdin_and_kept_output(ex):
    echo, _ = image("""
        .entry main
main:   LDI R1, 0
        LDI32 R2, buf
        LDI R3, 16
        SVC MOD=4, FN=1
        MOV R3, R0
        LDI R1, 1
        SVC MOD=4, FN=2
        LDI R0, 0
        SVC MOD=1, FN=0
        .bss
buf:    .zero 16
""")
    _, pid = ex.load(echo)
    ex.run()
    assert ex.state(pid) == "waiting_mbx" and ex.task(pid).wait_kind == b"mailbox"
    written = C.c_uint32()
    assert ex.call("stdin", pid, b"hi!", 3, 0, C.byref(written)) == "ok" and written.value == 3
    ex.run()
    assert ex.of("stdout", pid)[0]["data"] == b"hi!"
    out, dropped = (C.c_uint8 * 8)(), C.c_uint32()
    assert ex.lib.hsx_exec_recent_output(pid, out, 8, C.byref(dropped)) == 3 and bytes(out[:3]) == b"hi!"
    handle = C.c_uint32()
    assert ex.call("mbx_open", b"app:host", 0, C.byref(handle)) == "ok"
    woken = C.c_uint32()
    assert ex.call("mbx_send", handle, b"ping", 4, 0, 3, C.byref(woken)) == "ok"
    buf, msg = (C.c_uint8 * 8)(), MbxMessage()
    assert ex.call("mbx_recv", handle, buf, 8, C.byref(msg)) == "ok"
    assert bytes(buf[:4]) == b"ping" and msg.channel == 3 and msg.src_pid == 0
    assert ex.call("mbx_recv", handle, buf, 8, C.byref(msg)) == "mailbox"
    assert ex.lib.hsx_exec_last_detail() == b"3"                 # NO_DATA
    seen, info, cursor = [], MailboxInfo(), C.c_uint32()
    while ex.lib.hsx_exec_next_mailbox(C.byref(cursor), C.byref(info)):
        seen.append(info.target.decode())
    assert "app:host" in seen


def test_values_and_commands_from_the_host(ex):
    app, _ = image("""
        .value {"group": 1, "id": 2, "group_name": "motor", "name": "rpm", "min": 0, "max": 100}
        .cmd {"group": 1, "id": 7, "name": "answer", "handler": "answer", "flags": "async"}
        .entry main
main:   LDI R1, 1
        LDI32 R2, buf
        LDI R3, 4
        LDI32 R4, 0xFFFF
        LDI R5, 0
        SVC MOD=5, FN=3
        SVC MOD=1, FN=0
answer: LDI R0, 42
        RET
        .bss
buf:    .zero 4
""", "motor")
    _, pid = ex.load(app)
    ex.run()
    oid = C.c_uint16()
    assert ex.call("value_find", b"motor.rpm", C.byref(oid)) == "ok" and oid.value == 0x0102
    assert ex.call("value_find", b"rpm", C.byref(oid)) == "ok"
    assert ex.call("value_find", b"nope", C.byref(oid)) == "unknown_name"
    changed = C.c_int()
    assert ex.call("value_set", 0x0102, 0x5640, C.byref(changed)) == "ok" and changed.value == 1
    assert ex.call("value_set", 0x0102, 0x5A40, C.byref(changed)) == "value"   # out of range
    assert ex.lib.hsx_exec_last_detail() == b"4"
    raw = C.c_uint16()
    assert ex.call("value_get", 0x0102, C.byref(raw)) == "ok" and raw.value == 0x5640
    assert ex.of("value_changed")[0]["c"] == 0x5640
    info, cursor = ValueInfo(), C.c_uint32()
    assert ex.lib.hsx_exec_next_value(C.byref(cursor), C.byref(info)) == 1
    assert info.name == b"rpm" and info.group_name == b"motor" and info.has_range == 1
    command = CommandInfo()
    assert ex.lib.hsx_exec_next_command(C.byref(cursor), C.byref(command)) == 1
    assert (command.oid, command.name, command.flags) == (0x0107, b"answer", 2)   # async
    assert command.handler_addr == 36                  # `answer`: main's nine words before it
    result = C.c_int32()
    assert ex.call("command_call", 0x0107, C.byref(result)) == "ok" and result.value == 42
    assert ex.state(pid) == "waiting_mbx"         # the handler ran in the waiting owner
    assert ex.call("command_call", 0x0199, C.byref(result)) == "command"


# -- the scheduler (docs/scheduler.md "Priorities and quanta under load") ---------------------

SPIN = """
        .entry main
main:   ADDI R1, R1, 1
        BR main
"""


def _instructions(ex, pids):
    return [ex.task(pid).instructions for pid in pids]


def test_quanta_share_a_level_in_proportion(ex):
    data, _ = image(SPIN)
    pids = [ex.load(data)[1] for _ in range(3)]
    ex.call("sched", pids[0], -1, 1000)
    ex.call("sched", pids[1], -1, 1000)
    ex.call("sched", pids[2], -1, 2000)
    for _ in range(40):
        ex.run(10_000)
    counts = _instructions(ex, pids)
    assert sum(counts) == 400_000
    assert counts[0] == counts[1] and abs(counts[2] - 2 * counts[0]) <= 2000


def test_quantum_one_tasks_interleave_one_instruction_each(ex):
    data, _ = image(SPIN)
    pids = [ex.load(data)[1] for _ in range(3)]
    ex.run(30_001)
    assert sorted(_instructions(ex, pids)) == [10_000, 10_000, 10_001]


def test_a_higher_priority_runs_first_and_alone(ex):
    data, _ = image(SPIN)
    sleepy, _ = image(SLEEPY)
    low = ex.load(data)[1]
    high = ex.load(sleepy)[1]
    assert ex.call("sched", high, 20, -1) == "ok"
    assert ex.call("sched", high, 256, -1) == "bad_argument"
    assert ex.call("sched", high, -1, 0) == "bad_argument"
    ex.run(1000)                                 # high runs until it sleeps, then low
    assert ex.state(high) == "sleeping" and ex.task(low).instructions > 0
    ex.now = 100
    before = ex.task(low).instructions
    ex.run(1000)                                 # high wakes and runs first, to its end
    assert ex.state(high) == "returned" and ex.task(high).instructions == 4
    assert ex.task(low).instructions - before == 998          # the rest of the budget


CAN_APP = """
        .entry main
main:   LDI32 R1, 0x123
        LDI32 R2, frame
        LDI R3, 3
        SVC MOD=2, FN=0             ; TX an 11-bit frame
        MOV R8, R0
        LDI32 R1, 0x80012345
        LDI R3, 8
        SVC MOD=2, FN=0             ; TX a 29-bit frame
        MOV R9, R0
        LDI R3, 9
        SVC MOD=2, FN=0             ; too long
        MOV R10, R0
        LDI32 R1, rx
        SVC MOD=2, FN=1             ; RX: a frame is waiting
        MOV R11, R0
        MOV R12, R1
        MOV R13, R2
        LDI32 R1, rx
        SVC MOD=2, FN=1             ; RX: nothing more
        MOV R7, R0
        BRK 1
        .data
frame:  .byte 1, 2, 3, 4, 5, 6, 7, 8
rx:     .zero 8
"""


def test_can_frames_go_through_the_board_controller(ex):
    from execapi import TestCan, with_can
    can = TestCan()
    can.incoming.append((0x80000042, b"\xAA\xBB"))
    with_can(ex, can)
    data, at = image(CAN_APP)
    _, pid = ex.load(data)
    ex.run()
    regs = ex.registers(pid).regs
    assert ex.peek(pid, at("rx"), 2) == b"\xAA\xBB"
    assert can.sent == [(0x123, b"\x01\x02\x03"), (0x80012345, bytes(range(1, 9)))]
    assert regs[8] == 0 and regs[9] == 0 and regs[10] == 0xFFFFFFEA     # -EINVAL
    assert (regs[11], regs[12], regs[13]) == (0, 0x80000042, 2)
    assert regs[7] == 3                                                  # no frame


def test_can_without_a_controller_is_enosys(ex):
    data, _ = image(CAN_APP)
    _, pid = ex.load(data)
    ex.run()
    assert ex.registers(pid).regs[8] == 0xFFFFFF01
