"""Test vectors T1-T34 of the prior VM (reference vm_isa_hxe.md §8), adapted: faults are
fault records instead of R0 error codes; the stack holds stack_size/4 frames."""
from __future__ import annotations

import pytest

from hsx.isa import EncodingError
from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import ContextState, StopReason
from vmkit import MODE_IDS, MODES, asm, image, load, machine

TOP = 0x10000 - 64 - 16           # stack_top with the default 64 KiB memory


@pytest.fixture(params=MODES, ids=MODE_IDS)
def tr(request):
    return request.param


def run(*lines, tr, budget=100_000, **kw):
    m, ctx = load(*lines, translate=tr, **kw)
    stop = m.run(ctx, budget)
    return m, ctx, stop, m.registers(ctx)


def test_t1_call_and_return(tr):
    m, ctx, stop, r = run("LDI R5, 0", "CALL 3", "ADD R5, R5, R13", "RET", "LDI R13, 1", "RET",
                          tr=tr)
    assert stop.reason is StopReason.RETURNED and r[5] == 1 and r[15] == TOP


def test_t2_nested_calls(tr):
    m, ctx, stop, r = run("CALL 2", "RET", "CALL 2", "RET", "LDI R0, 42", "RET", tr=tr)
    assert stop.reason is StopReason.RETURNED and stop.status == 42 and ctx.exit_status == 42


def test_t3_call_relative_to_the_call(tr):
    m, ctx = load("LDI R2, 7", "RET", "CALL -2", "RET", entry=8, translate=tr)
    m.step(ctx)
    assert ctx.pc == 0
    m.step(ctx)
    m.step(ctx)
    assert ctx.pc == 12 and m.registers(ctx)[2] == 7


def test_t4_ret_from_entry_frame_returns(tr):
    m, ctx, stop, r = run("RET", tr=tr)
    assert stop.reason is StopReason.RETURNED and stop.status == 0 and stop.pc == 0
    assert ctx.state is ContextState.RETURNED and ctx.pc == 0 and stop.executed == 1


def test_t5_unbounded_recursion_overflows_after_stack_size_over_4_calls(tr):
    m, ctx, stop, r = run("CALL 0", "RET", tr=tr, stack_size=0x2000)
    assert stop.reason is StopReason.FAULT and stop.fault.kind == "stack_overflow"
    assert stop.executed == 0x2000 // 4 and r[15] == TOP - 0x2000 and ctx.pc == 0


def test_t6_t7_signed_division(tr):
    m, ctx, stop, r = run("LDI R1, 10", "LDI R2, 3", "DIV R3, R1, R2", "LDI R4, -7",
                          "LDI R5, 2", "DIV R6, R4, R5", "LDI R7, -7", "LDI R8, -3",
                          "DIV R9, R7, R8", "BRK 0", tr=tr)
    assert (r[3], r[6], r[9]) == (3, 0xFFFFFFFD, 2)
    m, ctx, stop, r = run("LDI R1, 8", "LDI R2, 2", "DIV R3, R1, R2", "LDI R4, 1", "LDI R5, 2",
                          "DIV R6, R4, R5", "BRK 0", tr=tr)
    assert (r[3], r[6]) == (4, 0) and ctx.psw & 1


def test_t8_divide_by_zero_faults_on_the_div(tr):
    m, ctx, stop, r = run("LDI R1, 5", "LDI R2, 0", "DIV R3, R1, R2", "BRK 0", tr=tr)
    assert stop.reason is StopReason.FAULT and stop.fault.kind == "divide_by_zero"
    assert ctx.pc == 8 and stop.executed == 2 and r[0] == 0 and r[3] == 0


def test_t9_svc_exit(tr):
    m, ctx, stop, r = run("LDI R0, 42", "SVC 0x100", tr=tr)
    assert stop.reason is StopReason.EXITED and stop.status == 42
    assert ctx.state is ContextState.EXITED and ctx.exit_status == 42 and ctx.pc == 8


def test_t10_unknown_svc_is_enosys_and_continues(tr):
    m, ctx = load("SVC 0xF7F", "RET", translate=tr)
    stop = m.run(ctx, 1)
    assert stop.reason is StopReason.BUDGET and m.registers(ctx)[0] == HSX_ERR_ENOSYS
    assert ctx.state is ContextState.READY and ctx.pc == 4


def test_t11_dev_libm_is_not_a_standalone_call(tr):
    """Adapted: the developer libm (module 14) is not part of the standalone SVCs."""
    m, ctx = load("LDI R1, 0", "SVC 0xE00", "RET", translate=tr)
    m.run(ctx, 2)
    assert m.registers(ctx)[0] == HSX_ERR_ENOSYS and ctx.state is ContextState.READY


def test_t12_t13_add_flags(tr):
    m, ctx, stop, r = run("LDI32 R1, 0xFFFFFFFF", "LDI R2, 1", "ADD R3, R1, R2", "BRK 0", tr=tr)
    assert r[3] == 0 and ctx.psw == 0b0011
    m, ctx, stop, r = run("LDI32 R1, 0x40000000", "LDI32 R2, 0x40000000", "ADD R3, R1, R2",
                          "BRK 0", tr=tr)
    assert r[3] == 0x80000000 and ctx.psw == 0b1100


def test_t14_t15_t16_sub_and_cmp_flags(tr):
    m, ctx, stop, r = run("LDI R1, 3", "LDI R2, 5", "SUB R3, R1, R2", "BRK 0", tr=tr)
    assert r[3] == 0xFFFFFFFE and ctx.psw == 0b0100
    m, ctx, stop, r = run("LDI R1, 5", "LDI R2, 3", "SUB R3, R1, R2", "BRK 0", tr=tr)
    assert r[3] == 2 and ctx.psw == 0b0010
    m, ctx, stop, r = run("LDI R1, 1", "LDI R2, 1", "CMP R1, R2", "BRK 0", tr=tr)
    assert ctx.psw == 0b0011 and (r[1], r[2]) == (1, 1)


def test_t17_jz_taken(tr):
    m, ctx, stop, r = run("LDI R1, 4", "LDI R2, 4", "SUB R3, R1, R2", "JZ 28",
                          "LDI32 R0, 0xBAD", "BRK 0", "LDI32 R0, 0x123", "BRK 0", tr=tr)
    assert r[0] == 0x123


def test_t18_to_t21_adc_sbc(tr):
    m, ctx, stop, r = run("LDI32 R1, 0xFFFFFFFF", "LDI R2, 1", "ADD R0, R1, R2",
                          "ADC R3, R1, R2", "BRK 0", tr=tr)
    assert r[3] == 1 and ctx.psw == 0b0010
    m, ctx, stop, r = run("LDI32 R1, 0xFFFFFFFF", "LDI R2, 1", "ADD R0, R1, R2",
                          "LDI32 R6, 0x7FFFFFFF", "LDI R7, 0", "ADC R5, R6, R7", "BRK 0", tr=tr)
    assert r[5] == 0x80000000 and ctx.psw == 0b1100
    m, ctx, stop, r = run("LDI R1, 0", "LDI R2, 1", "SUB R0, R1, R2", "LDI R6, 5", "LDI R7, 3",
                          "SBC R5, R6, R7", "BRK 0", tr=tr)
    assert r[5] == 1 and ctx.psw == 0b0010
    m, ctx, stop, r = run("LDI R1, 4", "SUB R0, R1, R1", "LDI R6, 3", "LDI R7, 7",
                          "SBC R5, R6, R7", "BRK 0", tr=tr)
    assert r[5] == 0xFFFFFFFC and ctx.psw & 0b0110 == 0b0100


def test_adc_sbc_true_overflow(tr):
    """Fixed defect: V is the real signed overflow of a + b + carry / a - b - borrow."""
    m, ctx, stop, r = run("LDI32 R1, 0xFFFFFFFF", "LDI R2, 1", "ADD R0, R1, R2",
                          "LDI32 R6, 0x7FFFFFFF", "ADC R5, R6, R6", "BRK 0", tr=tr)
    assert r[5] == 0xFFFFFFFF and ctx.psw & 8
    m, ctx, stop, r = run("LDI R1, 0", "LDI R2, 1", "SUB R0, R1, R2", "LDI32 R6, 0x80000000",
                          "LDI32 R7, 0x7FFFFFFF", "SBC R5, R6, R7", "BRK 0", tr=tr)
    assert r[5] == 0 and ctx.psw == 0b1011


def test_t22_t23_shifts(tr):
    m, ctx, stop, r = run("LDI R1, 1", "LDI R2, 1", "LDI32 R3, 0x80000000", "LDI R4, 32",
                          "LDI R5, 33", "LSL R6, R1, R2", "LSR R7, R6, R2", "ASR R8, R3, R2",
                          "LSL R9, R1, R4", "LSR R10, R6, R4", "ASR R11, R3, R5", "LDI R0, 0",
                          "LSL R12, R0, R5", "BRK 0", tr=tr)
    assert r[6:13] == [2, 1, 0xC0000000, 1, 2, 0xC0000000, 0] and ctx.psw & 1
    m, ctx, stop, r = run("LDI32 R1, 0x7FFFFFFF", "ADD R2, R1, R1", "LDI R3, 0",
                          "LSR R4, R1, R3", "BRK 0", tr=tr)
    assert not ctx.psw & 8


def test_t24_t25_accesses_past_the_end_fault(tr):
    m, ctx, stop, r = run("LDI32 R1, 0xFFFE", "LD R2, [R1+0]", "RET", tr=tr)
    assert stop.fault.kind == "memory" and stop.fault.addr == 0xFFFE and ctx.pc == 8
    m, ctx, stop, r = run("LDI32 R1, 0xFFFF", "LDI R2, 1", "ST [R1+0], R2", "RET", tr=tr)
    assert stop.fault.kind == "memory" and stop.fault.addr == 0xFFFF and r[0] == 0


def test_t26_unaligned_little_endian_loads(tr):
    m, ctx = load("LDI32 R1, 0x2000", "LD R2, [R1+0]", "LD R3, [R1+1]", "LDH R4, [R1+2]",
                  "BRK 0", translate=tr)
    m.write_memory(ctx, 0x2000, bytes([0x11, 0x22, 0x33, 0x44, 0x55]))
    m.run(ctx, 10)
    assert m.registers(ctx)[2:5] == [0x44332211, 0x55443322, 0x4433]


def test_t27_jump_zero_extended_then_ret_ends(tr):
    words = [0x21000A10] + [0] * (0xA10 // 4 - 1) + [0x25000000]
    m = machine(tr)
    ctx = m.create_context(image(words))
    m.step(ctx)
    assert ctx.pc == 0xA10 and ctx.state is ContextState.READY
    m.step(ctx)
    assert ctx.pc == 0xA10 and ctx.state is ContextState.RETURNED


def test_t28_trace_of_the_last_instruction(tr):
    m, ctx = load("LDI R1, 1", "ADD R2, R1, R1", "BRK 0", translate=tr)
    m.set_trace(ctx, True)
    m.step(ctx)
    rec = m.last_trace(ctx)
    assert (rec.pc, rec.word, rec.changed) == (0, 0x01100001, {1: (0, 1)})
    m.step(ctx)
    rec = m.last_trace(ctx)
    assert rec.pc == 4 and rec.changed == {2: (0, 2)} and (rec.psw_before, rec.psw_after) == (0, 0)


def test_t29_brk_encoding():
    assert asm("BRK", "BRK 5") == [0x7F000000, 0x7F000005]
    with pytest.raises(EncodingError):
        asm("BRK 300")


def test_t30_brk_retires_and_reports_its_code(tr):
    m, ctx, stop, r = run("LDI R1, 5", "BRK 7", "LDI R1, 6", tr=tr)
    assert stop.reason is StopReason.BRK and (stop.pc, stop.code, ctx.pc) == (4, 7, 8)
    assert r[1] == 5 and stop.executed == 2 and ctx.state is ContextState.READY


def test_t31_byte_and_half_loads_zero_extend(tr):
    m, ctx, stop, r = run("LDI32 R1, 0x2000", "LDI R2, -1", "STB [R1+0], R2", "LDB R3, [R1+0]",
                          "STH [R1+4], R2", "LDH R4, [R1+4]", "LDBS R5, [R1+0]",
                          "LDHS R6, [R1+4]", "BRK 0", tr=tr)
    assert (r[3], r[4], r[5], r[6]) == (0xFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF)


def test_t32_half_precision(tr):
    m, ctx, stop, r = run("LDI32 R1, 0x3C00", "LDI R2, 0", "LDI R9, 15", "FDIV R3, R1, R2",
                          "LDI32 R4, 0xABCD0000", "FADD R4, R1, R1", "I2F R5, R1",
                          "LDI R6, -3", "I2F R7, R6", "F2I R8, R7", "BRK 0", tr=tr)
    assert r[3] == 0x7C00                      # IEEE 1/0 = +Inf (the prior VM gave 0)
    assert (r[4], r[5], r[7], r[8]) == (0xABCD4000, 0x7380, 0xC200, 0xFFFFFFFD)
    assert ctx.psw == 0


def test_t33_push_pop_move_sp(tr):
    m, ctx, stop, r = run("LDI R1, 77", "PUSH R1", "MOV R2, R15", "POP R3", "MOV R4, R15",
                          "BRK 0", tr=tr)
    assert (r[2], r[3], r[4], r[15]) == (TOP - 4, 77, TOP, TOP)


def test_t34_mul_flags(tr):
    m, ctx, stop, r = run("LDI32 R1, 0x10000", "MUL R3, R1, R1", "BRK 0", tr=tr)
    assert r[3] == 0 and ctx.psw == 0b1011
    m, ctx, stop, r = run("LDI32 R1, 0xFFFFFFFF", "LDI R2, 2", "MUL R3, R1, R2", "BRK 0", tr=tr)
    assert r[3] == 0xFFFFFFFE and ctx.psw == 0b1110
