"""The native engine (the C core of port/c/) against the Python engine's exact
interpreter, the reference: random programs, raw instruction words, breakpoints, the
interleaved round robin, the f16 helpers, and every MVASM example and C test program run
in lockstep, compared on registers, flags, memory, PC, step counts and stops."""
from __future__ import annotations

import ctypes
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from hsx.isa import BY_CODE, OPCODES, fp
from hsx.isa.f16 import f16_add, f16_div, f16_mul, f16_sub, f16_to_int, int_to_f16
from hsx.vm import Machine, MachineError, StandaloneSvc, StopReason
from hsx.vm.native import engine as native
from randprog import MEM, fresh, program, raw_program, snapshot
from vmkit import asm, image

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(native.unavailable_reason() is not None,
                                reason=f"native engine: {native.unavailable_reason()}")

regs12 = st.lists(st.integers(0, 0xFFFFFFFF), min_size=12, max_size=12)
# The host's pre-decoding core, and the microcontrollers' build that decodes at fetch.
CORES = pytest.mark.parametrize("core", ["native", "native-fetch"])


@CORES
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=program(), regs=regs12, data=st.binary(min_size=96, max_size=96),
       psw=st.integers(0, 15), slices=st.lists(st.integers(1, 300), min_size=1, max_size=4))
def test_native_matches_the_interpreter(core, words, regs, data, psw, slices):
    (m1, exact), (m2, fast) = fresh(words, False, regs, data), fresh(words, core, regs, data)
    m1.set_psw(exact, psw)
    m2.set_psw(fast, psw)
    for budget in slices:
        assert m1.run(exact, budget) == m2.run(fast, budget)
        assert snapshot(exact) == snapshot(fast)
        if exact.state.value != "ready":
            break


@settings(max_examples=100, deadline=None)
@given(words=program(), regs=regs12, data=st.binary(min_size=96, max_size=96))
def test_native_single_steps_match(words, regs, data):
    """A debugger's single steps: the same state after every instruction."""
    (m1, exact), (m2, fast) = fresh(words, False, regs, data), fresh(words, "native", regs, data)
    for _ in range(200):
        assert m1.step(exact) == m2.step(fast)
        assert snapshot(exact) == snapshot(fast)
        if exact.state.value != "ready":
            break


def quiet(engine: str, translate: bool = False) -> Machine:
    return Machine(StandaloneSvc(stdout=io.BytesIO(), stderr=io.BytesIO(),
                                 sleep=lambda seconds: None), engine=engine, translate=translate)


@pytest.mark.parametrize("budget", [(1 << 31) - 1, 1 << 31, native.MAX_BUDGET, 1 << 40])
def test_a_budget_beyond_a_c_int_runs_to_the_stop(budget):
    """The core is called without ctypes' argument conversion, its uint32_t budget
    passed as a C int (masked to 32 bits); a budget beyond 32 bits runs in calls of
    MAX_BUDGET, before and after an SVC."""
    m = quiet("native")
    ctx = m.create_context(image(asm("LDI R1, 0", "LDI R2, 5", "ADDI R1, R1, 1", "CMP R1, R2",
                                     "JNZ 8", "SVC 0x402", "MOV R0, R1", "RET")),
                           mem_size=MEM, stack_size=0x400)
    stop = m.run(ctx, budget)
    assert stop.reason is StopReason.RETURNED and stop.status == 5
    assert stop.executed == ctx.steps == 2 + 5 * 3 + 3


@settings(max_examples=300, deadline=None)
@given(words=raw_program(), regs=st.lists(st.integers(0, 0xFFFFFFFF), min_size=16,
                                          max_size=16),
       slices=st.lists(st.integers(1, 50), min_size=1, max_size=4))
def test_native_arbitrary_instruction_words(words, regs, slices):
    """Every opcode with arbitrary field bits, SVC and BRK included."""
    pairs = []
    for engine in ("python", "native"):
        m = quiet(engine)
        ctx = m.create_context(image(words), mem_size=MEM, stack_size=0x400)
        for i, value in enumerate(regs[:15]):
            m.write_register(ctx, i, value if i % 3 else value & 0x7FFF)
        pairs.append((m, ctx))
    (m1, exact), (m2, fast) = pairs
    for budget in slices:
        assert m1.run(exact, budget) == m2.run(fast, budget)
        assert snapshot(exact) == snapshot(fast)
        if exact.state.value != "ready":
            break


@CORES
@settings(max_examples=100, deadline=None)
@given(words=program(), regs=regs12, data=st.binary(min_size=96, max_size=96),
       bp=st.integers(0, 40))
def test_native_breakpoints_agree(core, words, regs, data, bp):
    (m1, exact), (m2, fast) = fresh(words, False, regs, data), fresh(words, core, regs, data)
    assert m1.run(exact, 3) == m2.run(fast, 3)
    addr = 4 * (bp % len(words))
    for m, ctx in ((m1, exact), (m2, fast)):
        if ctx.state.value == "ready":
            m.add_breakpoint(ctx, addr)
    for turn in range(6):
        if exact.state.value != "ready":
            break
        if turn == 3:                           # and once taken out again
            m1.remove_breakpoint(exact, addr)
            m2.remove_breakpoint(fast, addr)
        assert m1.run(exact, 200) == m2.run(fast, 200)
        assert snapshot(exact) == snapshot(fast)


# A loop of the pairs the native engine runs as one (superinstructions, forwarding
# ones -- an ADD or ADDI whose sum the next instruction takes as its base or compares --
# and CMP/CMPI with the branch after them, hsx_vm.c), over the data at `cell`.
FUSED_LOOP = """
.data
cell: .word 7, 9
.text
.entry start
start:
    LDI32 R10, cell
    LDI R1, 0
    LDI R2, 4
loop:
    LDI32 R3, 1000
    CMP R1, R3
    BGE done
    ADD R4, R10, R1
    LD R5, [R4]
    MUL R5, R5, R5
    ADDI R1, R1, 1
    ST [R10+4], R5
    ADDI R9, R10, 4
    STB [R9], R1
    ADD R8, R1, R1
    CMPI R8, 2001
    BEQ done
    PUSH R5
    POP R6
    ANDI R6, R1, 1
    CMPI R6, 1
    BNE loop
    MOV R7, R6
    BR loop
done:
    BRK 1
"""


# every instruction of the loop (0x14 is LDI32's literal)
@pytest.mark.parametrize("addr", [0x10, *range(0x18, 0x64, 4)], ids=hex)
def test_a_breakpoint_set_after_the_code_ran_stops_there(addr):
    """Once run, a pair runs with one dispatch; a breakpoint set then on either of
    its instructions (or on the branch of a fused CMP) must still stop there."""
    from hsx.toolchain.build import build_source
    code = build_source(FUSED_LOOP, filename="fused.mvasm", app_name="fused")
    runs = []
    for engine in ("python", "native"):
        m = quiet(engine)
        ctx = m.create_context(code)
        assert m.run(ctx, 60).reason is StopReason.BUDGET      # every pair linked
        m.add_breakpoint(ctx, addr)
        stops = [m.run(ctx, 500) for _ in range(3)]
        runs.append((stops, snapshot(ctx)))
    assert runs[0] == runs[1]
    assert runs[1][0][0].reason is StopReason.BREAKPOINT and runs[1][0][0].pc == addr


@pytest.mark.parametrize("compare", ["CMPI R1, 0", "CMP R1, R2"])
@pytest.mark.parametrize("taken", [True, False])
def test_a_compare_and_branch_to_no_instruction(compare, taken):
    """A CMP/CMPI and the branch after it run as one; a branch whose target is no
    instruction must still fault there when taken, and fall through when not."""
    words = asm("LDI R1, 0" if taken else "LDI R1, 1", "LDI R2, 0", compare,
                0x70000000 | 0x1000,            # BEQ 0x1000 words on: past the code
                "LDI R3, 7", "BRK 1")
    results = []
    for engine in ("python", "native"):
        m = quiet(engine)
        ctx = m.create_context(image(words), mem_size=MEM, stack_size=0x400)
        results.append((m.run(ctx, 100), snapshot(ctx)))
    assert results[0] == results[1]
    stop = results[1][0]
    if taken:
        assert stop.reason is StopReason.FAULT and stop.pc == 12
    else:
        assert stop.reason is StopReason.BRK


@settings(max_examples=60, deadline=None)
@given(programs=st.lists(program(), min_size=1, max_size=5), regs=regs12,
       data=st.binary(min_size=96, max_size=96), rounds=st.integers(1, 400))
def test_interleaved_round_robin_agrees(programs, regs, data, rounds):
    """Quantum-1 turns inside the core stop before the same instruction of the same task."""
    sides = []
    for mode in (False, "native"):
        pairs = [fresh(words, mode, regs, data) for words in programs]
        sides.append((pairs[0][0], [ctx for _, ctx in pairs]))
    (m1, exact), (m2, fast) = sides
    assert m1.run_interleaved(exact, rounds) == m2.run_interleaved(fast, rounds)
    for a, b in zip(exact, fast):
        assert snapshot(a) == snapshot(b)


# --- the f16 helpers, bit for bit -------------------------------------------------------

def _f16_functions():
    lib = native.library()
    for name in ("hsx_f16_add", "hsx_f16_sub", "hsx_f16_mul", "hsx_f16_div"):
        getattr(lib, name).argtypes = [ctypes.c_uint32, ctypes.c_uint32]
        getattr(lib, name).restype = ctypes.c_uint32
    for name in ("hsx_int_to_f16", "hsx_f16_to_int"):
        getattr(lib, name).argtypes = [ctypes.c_uint32]
        getattr(lib, name).restype = ctypes.c_uint32
    return lib


def test_f16_conversions_match_for_every_half():
    lib = _f16_functions()
    for bits in range(0x10000):
        assert lib.hsx_f16_to_int(bits) == f16_to_int(bits), hex(bits)


half = st.integers(0, 0xFFFF)


@settings(max_examples=3000, deadline=None)
@given(a=half, b=half, value=st.integers(0, 0xFFFFFFFF))
def test_f16_arithmetic_matches(a, b, value):
    lib = _f16_functions()
    assert lib.hsx_f16_add(a, b) == f16_add(a, b)
    assert lib.hsx_f16_sub(a, b) == f16_sub(a, b)
    assert lib.hsx_f16_mul(a, b) == f16_mul(a, b)
    assert lib.hsx_f16_div(a, b) == f16_div(a, b)
    assert lib.hsx_int_to_f16(value) == int_to_f16(value)


FP_FUNCTIONS = {  # native helper: (argument widths, result width, reference)
    "hsx_fadds": ((32, 32), 32, fp.fadds), "hsx_fsubs": ((32, 32), 32, fp.fsubs),
    "hsx_fmuls": ((32, 32), 32, fp.fmuls), "hsx_fdivs": ((32, 32), 32, fp.fdivs),
    "hsx_fcmps": ((32, 32), 32, fp.fcmps), "hsx_dadd": ((64, 64), 64, fp.dadd),
    "hsx_dsub": ((64, 64), 64, fp.dsub), "hsx_dmul": ((64, 64), 64, fp.dmul),
    "hsx_ddiv": ((64, 64), 64, fp.ddiv), "hsx_dcmp": ((64, 64), 32, fp.dcmp),
    "hsx_s2d": ((32,), 64, fp.s2d), "hsx_d2s": ((64,), 32, fp.d2s),
    "hsx_u2s": ((64,), 32, fp.int_to_s),
    "hsx_i2s": ((64,), 32, lambda v: fp.int_to_s(v - (1 << 64) if v >> 63 else v)),
}
_CTYPE = {32: ctypes.c_uint32, 64: ctypes.c_uint64}


# near a rounding boundary of binary32 (24 bits) well past 2^53: what the conversions
# through binary64 must round right; and anything
_WIDE = st.one_of(st.integers(0, (1 << 64) - 1),
                  st.builds(lambda top, shift, low: (top << shift | low) & ((1 << 64) - 1),
                            st.integers(1 << 24, (1 << 26) - 1), st.integers(30, 40),
                            st.integers(0, 3)))


@settings(max_examples=2000, deadline=None)
@given(name=st.sampled_from(sorted(FP_FUNCTIONS)), a=_WIDE, b=st.integers(0, (1 << 64) - 1))
def test_native_float_helpers_match(name, a, b):
    """binary32/64 in C (the host's hardware) against hsx.isa.fp, bit for bit."""
    widths, result, reference = FP_FUNCTIONS[name]
    function = getattr(native.library(), name)
    function.argtypes = [_CTYPE[w] for w in widths]
    function.restype = _CTYPE[result]
    args = [value & ((1 << w) - 1) for value, w in zip((a, b), widths)]
    assert function(*args) == reference(*args)


# --- whole programs in lockstep ----------------------------------------------------------

LOCKSTEP = 20_000          # instructions compared after every single one
SLICE = 5_000              # then in slices, memory compared at each boundary
MAX_STEPS = 3_000_000


def lockstep(img) -> tuple[bytes, int | None]:
    """Run `img` on both engines, comparing everything; (stdout, exit status)."""
    outs = [io.BytesIO(), io.BytesIO()]
    machines = [Machine(StandaloneSvc(stdout=out, stderr=io.BytesIO(),
                                      sleep=lambda seconds: None), engine=engine)
                for out, engine in zip(outs, ("python", "native"))]
    ctxs = [m.create_context(img) for m in machines]
    (m1, m2), (exact, fast) = machines, ctxs
    while exact.steps < MAX_STEPS and exact.state.value == "ready":
        budget = 1 if exact.steps < LOCKSTEP else SLICE
        s1, s2 = m1.run(exact, budget), m2.run(fast, budget)
        assert s1 == s2, f"after {exact.steps} steps"
        if budget == 1:
            assert (exact.regs.tolist(), exact.psw, exact.pc, exact.steps) == \
                   (fast.regs.tolist(), fast.psw, fast.pc, fast.steps)
        else:
            assert snapshot(exact) == snapshot(fast), f"after {exact.steps} steps"
        if s1.reason is StopReason.BRK:
            break
    assert snapshot(exact) == snapshot(fast)
    assert outs[0].getvalue() == outs[1].getvalue()
    return outs[1].getvalue(), exact.exit_status


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "mvasm").glob("*.mvasm")),
                         ids=lambda p: p.stem)
def test_mvasm_examples_in_lockstep(path):
    from hsx.toolchain.build import build_file
    lockstep(build_file(path))


C_PROGRAMS = sorted((ROOT / "tests" / "cc" / "programs").glob("*.c")) + \
    sorted((ROOT / "examples" / "c").glob("hello.c"))


@pytest.mark.parametrize("path", C_PROGRAMS, ids=lambda p: p.stem)
def test_c_programs_in_lockstep(path):
    from hsx.toolchain.cc.driver import build_c_file
    lockstep(build_c_file(str(path), opt=2))


# --- the table and the core agree -----------------------------------------------------

def test_the_core_implements_exactly_the_opcode_table():
    lib = native.library()
    assert all(lib.hsx_implements(op.code) for op in OPCODES)
    assert not any(lib.hsx_implements(code) for code in range(256) if code not in BY_CODE)


def test_the_opcode_header_is_generated_from_the_table():
    from hsx.isa.cheader import render
    assert (ROOT / "port" / "c" / "hsx_opcodes.h").read_text() == render(), \
        "regenerate it: python -m hsx.isa.cheader > port/c/hsx_opcodes.h"


def test_engine_selection(monkeypatch):
    monkeypatch.delenv("HSX_ENGINE", raising=False)
    assert Machine().engine == "native"
    assert type(Machine(engine="python")) is Machine
    monkeypatch.setenv("HSX_ENGINE", "python")
    assert Machine().engine == "python"
    assert Machine(engine="native").engine == "native"
    with pytest.raises(MachineError, match="unknown engine 'fast'"):
        Machine(engine="fast")
