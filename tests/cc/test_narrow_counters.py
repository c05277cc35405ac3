"""Loop counters clang widened to 64 bits, kept in one register (narrow.py): only when
every value fits a word, and with the results of the 64-bit program.

- programs/widened_counters.c (counters up and down, signed and unsigned uses, bounds
  around 2^31 and 2^32, early exits, a counter stored, passed, multiplied, converted)
  prints what gcc's build prints at -O1/-O2/-Os on both engines, and its loops are
  narrowed exactly where the values fit;
- counters written as IR, over random starts, bounds, steps, compares and uses, compute
  what the same loop computes in Python's 64-bit arithmetic;
- mix's loop (benchmarks/peers/mix.c) steps and tests its counter as one word;
- `and`, `or`, `xor` of a 64-bit value with a zero-extended word (how the other uses
  read a narrowed counter) are one word's operation.
"""
from __future__ import annotations

import struct
from pathlib import Path

import pytest
from cckit import (PROGRAMS, compile_and_run, function_lines, native_run, requires_gcc,
                   run_image)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hsx.toolchain.build import assemble_statements
from hsx.toolchain.cc.driver import Options, build_c, clang_ir, compile_c_file
from hsx.toolchain.cc.mir import CONDITIONS, SWAPPED
from hsx.toolchain.cc.narrow import narrow_counters
from hsx.toolchain.cc.reader import read_module
from hsx.toolchain.cc.runtime import link_program
from hsx.toolchain.cc.types import I32, I64
from hsx.toolchain.cc.unit import compile_ir

PROGRAM = PROGRAMS / "widened_counters.c"
OPTS = [1, 2, "s"]
ENGINES = ["python", "native"]
M64 = (1 << 64) - 1


@pytest.fixture(scope="module")
def images():
    cache = {}

    def get(opt):
        if opt not in cache:
            cache[opt] = build_c([str(PROGRAM)], Options(opt=opt))[0].image
        return cache[opt]
    return get


@pytest.fixture(scope="module")
def gcc_output(tmp_path_factory):
    return native_run(PROGRAM, tmp_path_factory.mktemp("native"))


@requires_gcc
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("opt", OPTS)
def test_widened_counters_print_what_gcc_prints(images, gcc_output, opt, engine):
    assert run_image(images(opt), engine=engine) == gcc_output


def narrowed(opt) -> dict[str, bool]:
    """Per function of the program: was a 64-bit phi of clang's IR made 32 bits?"""
    module = read_module(clang_ir(str(PROGRAM), Options(opt=opt)), str(PROGRAM),
                         from_clang=True)
    out = {}
    for fn in module.functions:
        if not fn.is_declaration:
            wide = [i for b in fn.blocks for i in b.instrs
                    if i.opcode == "phi" and i.ty == I64]
            narrow_counters(fn)
            out[fn.name] = any(i.ty == I32 for i in wide)
    return out


FITS = ["mix_like", "down", "signed_uses", "around_2_31", "to_word_edge", "early_exit",
        "stored_counter", "passed_and_compared", "multiply"]
DOES_NOT_FIT = ["past_word_edge", "across_2_32", "wrapping_unsigned"]


@pytest.mark.parametrize("opt", OPTS)
def test_counters_are_narrowed_exactly_when_their_values_fit_a_word(opt):
    found = narrowed(opt)
    assert [f for f in FITS if not found[f]] == []
    assert [f for f in DOES_NOT_FIT if found[f]] == []


# -- counters written as IR --------------------------------------------------------------

H0, P = 1469598103934665603, 1099511628211
LIMIT = 40          # iterations before the loop's guard leaves it (the latch may never)
PREDICATES = sorted(CONDITIONS)

IR = """
@fmt = private constant [16 x i8] c"%llu %llu %llu\\0A\\00"
declare i32 @printf(ptr, ...)

define i32 @main() {{
entry:
  br label %loop
loop:
  %i = phi i64 [ {start}, %entry ], [ %next, %latch ]
  %h = phi i64 [ {h0}, %entry ], [ %h3, %latch ]
  %n = phi i32 [ 0, %entry ], [ %n1, %latch ]
  %d = {derived} i64 %i, {k}
  %e = icmp {use_pred} i64 %i, {e}
  %s = select i1 %e, i64 3, i64 5
  %f = {to_fp} i64 %i to double
  %fb = bitcast double %f to i64
  %x1 = xor i64 %h, %i
  %x2 = xor i64 %x1, %d
  %x3 = xor i64 %x2, %fb
  %x4 = add i64 %x3, %s
  %h3 = mul i64 %x4, {p}
  %n1 = add i32 %n, 1
  %guard = icmp uge i32 %n1, {limit}
  br i1 %guard, label %done, label %latch
latch:
  %next = add i64 %i, {delta}
  %c = icmp {pred} i64 {a}, {b}
  br i1 %c, label {if_true}, label {if_false}
done:
  %hh = phi i64 [ %h3, %loop ], [ %h3, %latch ]
  %ii = phi i64 [ %i, %loop ], [ {exit_value}, %latch ]
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i64 %hh, i64 %ii, i64 %d)
  ret i32 0
}}
"""


def _signed(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


def _compare(pred: str, a: int, b: int) -> bool:
    if pred[0] == "s":
        a, b = _signed(a), _signed(b)
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
            "ge": a >= b}[pred[1:] if pred[0] in "su" else pred]


def _operand(c: dict) -> int:
    """The derived instruction's constant, made defined (no division by 0, no shift
    by 64 or more)."""
    k = c["k"] & M64
    if c["derived"] in ("shl", "lshr"):
        return k & 63
    if c["derived"] in ("udiv", "urem"):
        return k or 1
    return k


OPERATIONS = {"add": int.__add__, "sub": int.__sub__, "or": int.__or__, "and": int.__and__,
              "xor": int.__xor__, "mul": int.__mul__, "shl": int.__lshift__,
              "lshr": int.__rshift__, "udiv": int.__floordiv__, "urem": int.__mod__}


def model(c: dict) -> str:
    """What the IR's loop prints, computed with Python's integers."""
    i, h = c["start"] & M64, H0
    for n in range(1, LIMIT + 1):
        d = OPERATIONS[c["derived"]](i, _operand(c)) & M64
        s = 3 if _compare(c["use_pred"], i, c["e"] & M64) else 5
        f = float(_signed(i)) if c["to_fp"] == "sitofp" else float(i)
        fb = struct.unpack("<Q", struct.pack("<d", f))[0]
        h = (((h ^ i ^ d ^ fb) + s) * P) & M64
        if n >= LIMIT:
            return f"{h} {i} {d}\n"
        nxt = (i + c["delta"]) & M64
        x, bound = (nxt if c["on_step"] else i), c["bound"] & M64
        taken = _compare(c["pred"], bound, x) if c["swapped"] else \
            _compare(c["pred"], x, bound)
        if taken != c["true_stays"]:
            return f"{h} {nxt if c['next_read'] else i} {d}\n"
        i = nxt
    raise AssertionError("unreachable")


def ir_text(c: dict) -> str:
    x = "%next" if c["on_step"] else "%i"
    a, b = (c["bound"], x) if c["swapped"] else (x, c["bound"])
    stay, leave = "%loop", "%done"
    return IR.format(start=c["start"], h0=_signed(H0), p=P, derived=c["derived"],
                     k=_signed(_operand(c)),
                     use_pred=c["use_pred"], e=c["e"], to_fp=c["to_fp"], limit=LIMIT,
                     delta=c["delta"], pred=c["pred"], a=a, b=b,
                     exit_value="%next" if c["next_read"] else "%i",
                     if_true=stay if c["true_stays"] else leave,
                     if_false=leave if c["true_stays"] else stay)


def run_ir(text: str, engine: str) -> str:
    listing, _, weak = compile_ir(text, "loop.ll", False, "loop.mvasm")
    module = assemble_statements(listing.statements, "loop.mvasm", function_sections=True)
    out, status = run_image(link_program([module], weak=[weak]).image, engine=engine)
    assert status == 0
    return out.decode()


EDGES = [0, 1 << 31, 1 << 32, 1 << 32, 1 << 63, 1 << 64]
near_an_edge = st.builds(lambda edge, off: _signed((edge + off) & M64),
                         st.sampled_from(EDGES), st.integers(-45, 45))


def _encoded(c: dict, stay: str, swapped: bool, true_stays: bool) -> dict:
    """The latch's compare and branch for "stay while `next-or-i stay bound`"."""
    pred = stay if true_stays else CONDITIONS[stay][1]
    return {**c, "pred": SWAPPED[pred] if swapped else pred, "swapped": swapped,
            "true_stays": true_stays}


def _ends_near(c: dict):
    """Bounds the count meets (give or take a few) within the guard's iterations, and
    anywhere near an edge."""
    counted = st.builds(
        lambda n, jitter: _signed((c["start"] + c["delta"] * n + jitter) & M64),
        st.integers(-3, LIMIT + 5), st.sampled_from([0, 0, 0, 1, -1, 2]))
    return counted | near_an_edge


def _towards(delta: int):
    """Conditions to stay in the loop that the count leaves eventually."""
    return st.sampled_from(["ne", "ult", "ule", "slt", "sle"] if delta > 0 else
                           ["ne", "ugt", "uge", "sgt", "sge"])


loops = st.fixed_dictionaries({
    "start": near_an_edge | st.integers(0, 100),
    "delta": st.sampled_from([1, 2, 3, 4, -1, -2, -4]),
    "on_step": st.booleans(),
    "next_read": st.booleans(),        # by more than the phi: after the loop
    "derived": st.sampled_from(sorted(OPERATIONS)),
    "use_pred": st.sampled_from(PREDICATES),
    "to_fp": st.sampled_from(["uitofp", "sitofp"]),
    "k": st.integers(0, 70) | near_an_edge,
}).flatmap(lambda c: st.builds(
    lambda stay, swapped, true_stays, bound, e: {**_encoded(c, stay, swapped, true_stays),
                                                 "bound": bound, "e": e},
    _towards(c["delta"]) | st.sampled_from(PREDICATES), st.booleans(), st.booleans(),
    _ends_near(c),
    st.integers(-60, 60).map(lambda off: _signed((c["start"] + off) & M64))))


BASE = dict(start=5, delta=1, pred="ult", on_step=True, next_read=True, swapped=False,
            true_stays=True, derived="add", k=1, use_pred="slt", e=20, to_fp="sitofp",
            bound=30)
WORD = (1 << 32) - 1
EDGE_CASES = [           # (loop, narrowed?)
    (BASE, True),
    ({**BASE, "start": WORD - 20, "bound": WORD}, True),          # to the last word value
    ({**BASE, "start": WORD - 20, "pred": "ule", "bound": WORD}, False),  # ... and past it
    ({**BASE, "bound": WORD + 1}, False),                         # a bound beyond a word
    ({**BASE, "pred": "ne", "delta": 2, "bound": 30}, False),     # never met ...
    ({**BASE, "start": WORD - 8, "delta": 2, "pred": "ne", "bound": WORD - 1}, False),
    ({**BASE, "pred": "ne", "delta": 2, "bound": 31}, True),      # ... and met
    ({**BASE, "start": -1}, False),                               # a negative start
    ({**BASE, "start": 40, "bound": 30}, True),                   # above the bound
    ({**BASE, "start": WORD - 1, "bound": 5}, True),              # ... up to a word
    ({**BASE, "start": WORD, "bound": 5}, False),                 # ... past it
    ({**BASE, "delta": -1, "pred": "ugt", "bound": 0}, True),     # down to 0
    ({**BASE, "delta": -1, "pred": "uge", "bound": 0}, False),    # ... and to -1
    ({**BASE, "start": 30, "delta": -1, "pred": "ne", "on_step": False, "bound": 0,
      "next_read": False}, True),                                 # ... where nobody sees it
    ({**BASE, "start": 30, "delta": -1, "pred": "ne", "on_step": False, "bound": 0},
     False),                                                      # ... or somebody does
    ({**BASE, "start": (1 << 31) - 20, "pred": "slt", "bound": (1 << 31) + 5, "k": 7,
      "derived": "mul"}, True),                                   # signed, past 2^31
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=loops, engine=st.sampled_from(ENGINES))
def test_counters_compute_what_64_bit_arithmetic_computes(c, engine):
    assert run_ir(ir_text(c), engine) == model(c)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("c", [c for c, _ in EDGE_CASES])
def test_counters_at_the_edges_compute_what_64_bit_arithmetic_computes(c, engine):
    assert run_ir(ir_text(c), engine) == model(c)


def test_the_ir_loops_narrow_when_they_fit():
    """The properties above see narrowed counters (else they would test nothing)."""
    for c, fits in EDGE_CASES:
        fn = read_module(ir_text(c), "loop.ll").function("main")
        narrow_counters(fn)
        assert (fn.blocks[1].instrs[0].ty == I32) is fits, c


# -- mix ----------------------------------------------------------------------------------

MIX = Path(__file__).parents[2] / "benchmarks" / "peers" / "mix.c"


def test_mix_steps_and_tests_its_counter_as_one_word():
    """`for (int i = 1; i <= MIX_N; i++)`, widened by clang to an i64 used as one: the
    loop adds 1 to one register and compares it once (it was ADDI/ADC on a pair, then
    CMPI hi, 0 and CMP lo, each with its branch)."""
    text = compile_c_file(str(MIX), Options(opt=2, include_dirs=(str(MIX.parent),))).mvasm
    blocks: dict[str, list[str]] = {}
    for line in text[text.index("\nrun:"):text.index("\nmain:")].splitlines():
        if line.startswith(".L"):
            label = line.rstrip(":")
            blocks[label] = []
        elif line.startswith("    ") and blocks:
            blocks[label].append(line.split()[0])
    loops = [code for label, code in blocks.items()
             if any(line.endswith(" " + label) for line in text.splitlines()
                    if line.startswith("    B") and label in line)
             and code]
    (loop,) = [code for code in loops if "DIVU64" in code]
    assert "ADC" not in loop, loop
    assert sum(m in ("CMP", "CMPI") for m in loop) == 1, loop


# -- 64-bit logic with a zero-extended word ----------------------------------------------

ZERO_HIGH = r"""
#include <stdint.h>
#include <stdio.h>
__attribute__((noinline)) uint64_t flip(uint64_t x, unsigned y) { return x ^ y; }
__attribute__((noinline)) void merge(uint64_t *p, uint64_t x, unsigned y) { *p = x | y; }
__attribute__((noinline)) uint64_t low_bits(uint64_t x, unsigned y) { return x & y; }
int main(void)
{
    uint64_t m;
    merge(&m, 0xF0F0F0F012345678ull, 0x8000000Fu);
    uint64_t x = 0xF0F0F0F012345678ull;
    printf("%llx %llx %llx\n", (unsigned long long)flip(x, 0xFFFFFFFFu),
           (unsigned long long)m, (unsigned long long)low_bits(x, 0xFF00FF00u));
    return 0;
}
"""


def test_logic_with_a_zero_extended_word_is_one_word_operation(tmp_path):
    """x ^ (uint64_t)y is one XOR and a copy of x's high word into the result's (it
    was a zero register and a second XOR, then copies into the result's registers)."""
    path = tmp_path / "zero_high.c"
    path.write_text(ZERO_HIGH)
    listing = compile_c_file(str(path), Options(opt="s")).mvasm
    flip = function_lines(listing, "flip")
    assert flip[0] == "XOR R0, R1, R3" and flip[1] in ("MOV R1, R2", "ORI R1, R2, 0") \
        and flip[2:] == ["RET"], flip
    merge = [line.split()[0] for line in function_lines(listing, "merge")]
    assert merge.count("OR") == 1 and "LDI" not in merge, merge
    low = [line.split()[0] for line in function_lines(listing, "low_bits")]
    assert low.count("AND") == 1, low
    assert compile_and_run(tmp_path, ZERO_HIGH, opt="s") == (
        f"{0xF0F0F0F012345678 ^ 0xFFFFFFFF:x} {0xF0F0F0F012345678 | 0x8000000F:x} "
        f"{0xF0F0F0F012345678 & 0xFF00FF00:x}\n", 0)
