"""The standalone SVC handler and the handler interface."""
from __future__ import annotations

import io
import time

import pytest

from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import ContextState, StandaloneSvc, StopReason, SvcStop
from vmkit import MODE_IDS, MODES, asm, image, load, machine_for

MSG = b"hello, world\n"


@pytest.fixture(params=MODES, ids=MODE_IDS)
def tr(request):
    return request.param


def streams():
    return {"stdout": io.BytesIO(), "stderr": io.BytesIO()}


def test_uart_write(tr):
    out = streams()
    m, ctx = load("LDI32 R1, 0x4000", f"LDI R2, {len(MSG)}", "SVC 0x101", "LDI R0, 3",
                  "SVC 0x100", rodata=MSG, translate=tr, **out)
    stop = m.run(ctx, 100)
    assert out["stdout"].getvalue() == MSG and stop.reason is StopReason.EXITED
    assert stop.status == 3 and stop.pc == 20 and ctx.pc == 24


@pytest.mark.parametrize("fd,expect_out,expect_err,r0", [
    (1, MSG, b"", len(MSG)), (2, b"", MSG, len(MSG)), (7, b"", b"", 0xFFFFFFF7)])
def test_fs_write_to_stdio(tr, fd, expect_out, expect_err, r0):
    out = streams()
    m, ctx = load(f"LDI R1, {fd}", "LDI32 R2, 0x4000", f"LDI R3, {len(MSG)}", "SVC 0x402",
                  "BRK 0", rodata=MSG, translate=tr, **out)
    m.run(ctx, 100)
    assert out["stdout"].getvalue() == expect_out and out["stderr"].getvalue() == expect_err
    assert m.registers(ctx)[0] == r0


@pytest.mark.parametrize("ptr,length", [(0x10, 4), (0xFFF0, 0x20), (0xFFFFFFFF, 2)])
def test_bad_guest_pointer_faults_at_the_svc(tr, ptr, length):
    out = streams()
    m, ctx = load(f"LDI32 R1, {ptr}", f"LDI R2, {length}", "SVC 0x101", translate=tr, **out)
    stop = m.run(ctx, 100)
    assert stop.reason is StopReason.FAULT and stop.fault.kind == "memory"
    assert stop.fault.pc == 12 and ctx.pc == 12 and ctx.steps == 2 and stop.executed == 2
    assert stop.fault.addr == ptr and out["stdout"].getvalue() == b""


def test_get_steps_counts_the_svc(tr):
    m, ctx = load("LDI R1, 1", "LDI R1, 2", "LDI R1, 3", "SVC 0x000", "BRK 0", translate=tr)
    m.run(ctx, 2)
    m.run(ctx, 100)
    assert m.registers(ctx)[0] == 4


@pytest.mark.parametrize("imm", [0x001, 0x102, 0x200, 0x400, 0x601, 0x700, 0xF7F])
def test_unknown_calls_are_enosys(tr, imm):
    m, ctx = load(f"SVC {imm}", "BRK 0", translate=tr)
    assert m.run(ctx, 10).reason is StopReason.BRK
    assert m.registers(ctx)[0] == HSX_ERR_ENOSYS


def test_sleep_sleeps_then_continues(tr):
    slept = []
    m = machine_for(StandaloneSvc(sleep=slept.append), tr)
    ctx = m.create_context(image(asm("LDI R0, 250", "SVC 0x600", "LDI R1, 9", "SVC 0x100")))
    stop = m.run(ctx, 100)
    assert slept == [0.25] and stop.reason is StopReason.EXITED and stop.status == 0
    assert m.registers(ctx)[1] == 9


def test_real_sleep_wakes(tr):
    m, ctx = load("LDI R0, 20", "SVC 0x600", "LDI R0, 5", "SVC 0x100", translate=tr)
    t0 = time.monotonic()
    stop = m.run(ctx, 100)
    assert stop.reason is StopReason.EXITED and stop.status == 5
    assert time.monotonic() - t0 >= 0.015


def test_custom_handler_can_stop_the_run_and_resume(tr):
    calls = []

    def kernel(ctx, module, function):
        calls.append((module, function, ctx.pc, ctx.steps))
        if (module, function) == (6, 1):
            ctx.regs[0] = 11
            return SvcStop("yield", detail="tick")
        if (module, function) == (1, 0):
            return SvcStop.exit(ctx.regs[0] + 1)
        return None

    m = machine_for(kernel, tr)
    ctx = m.create_context(image(asm("LDI R1, 1", "SVC 0x601", "ADD R0, R0, R1", "SVC 0x100")))
    stop = m.run(ctx, 100)
    assert stop.reason is StopReason.SVC and stop.svc.detail == "tick" and stop.pc == 4
    assert ctx.pc == 8 and ctx.state is ContextState.READY and stop.executed == 2
    stop = m.run(ctx, 100)
    assert stop.reason is StopReason.EXITED and stop.status == 13 and ctx.exit_status == 13
    assert calls == [(6, 1, 8, 2), (1, 0, 16, 4)]
