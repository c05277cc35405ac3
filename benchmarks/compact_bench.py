"""What a 16-bit compact instruction form would save: `python benchmarks/compact_bench.py
[--quick]` (issue 30, docs/isa.md "A compact form: the measurement").

HSX code is about 2 x the bytes of clang's Thumb-2 build of the same C (density_bench.py),
and most of the gap is the encoding: every HSX instruction is 4 bytes, where Thumb-2
averages 2.7-2.9.  Before changing the ISA, this measures what a candidate compact form
would give on the same code, compiled as `hsx cc -Os` compiles it today:

- the candidate: 15-bit operations (a 5-bit compact opcode and 10 bits of operands), the
  29 of `COMPACT` below, chosen from the instruction mix (density_bench.py --breakdown):
  moves, two-address ALU operations, small immediates, loads and stores at small
  offsets, PUSH/POP/RET and short branches;
- **pairs**: two compact operations in one word (the top two bits 11, a range of opcode
  bytes no instruction uses), so the program counter stays word-aligned and the decoded
  code tables, breakpoints and line tables keep one entry per word.  A pair is two
  adjacent compact operations where the first transfers no control and the second is no
  branch target;
- **pairs, two-address**: the same, if the register allocator also gave every ALU
  operation its destination as first source (an upper bound of what a pairing-aware
  compiler adds);
- **16/32**: the variable-length form Thumb-2 and RISC-V's C extension use (any compact
  operation in 2 bytes, the program counter in halfwords): the ceiling of the encoding.

It encodes nothing: it counts, from the decoded code of each object and image, which
instructions the candidate covers and how many words they would take.  Thumb-2 sizes
are density_bench.py's (the same builds).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import density_bench as density  # noqa: E402  (the corpus and the Thumb-2 builds)

from hsx.isa import decode_code  # noqa: E402
from hsx.isa.encoding import Instruction  # noqa: E402
from hsx.isa.opcodes import Form, Group  # noqa: E402
from hsx.toolchain.cc.driver import Options, build_c, compile_c_file  # noqa: E402

FRAME = 14                               # R14, the frame pointer the compiler addresses locals by


def _s(bits: int) -> Callable[[int], bool]:
    return lambda v: -(1 << (bits - 1)) <= v < (1 << (bits - 1))


_S6, _S10 = _s(6), _s(10)


def _two_address(i: Instruction, commutative: bool) -> bool:
    return i.rd == i.rs1 or (commutative and i.rd == i.rs2)


@dataclass(frozen=True)
class Compact:
    """One compact operation: the HSX instructions it stands for and its 10 bits."""
    name: str
    mnemonics: tuple[str, ...]
    operands: str                            # the 10 bits, for the table in docs/isa.md
    fits: Callable[[Instruction, bool], bool]   # (instruction, two_address_assumed)


def _alu(name: str, mnemonic: str, commutative: bool) -> Compact:
    return Compact(name, (mnemonic,), "Rd4 Rs4 (Rd = Rd op Rs)",
                   lambda i, assume: assume or _two_address(i, commutative))


def _branch(mnemonic: str) -> Compact:
    return Compact(f"C.{mnemonic}", (mnemonic,), "signed 10-bit word offset",
                   lambda i, _: _S10(i.imm))


# The candidate, one row per compact opcode (at most 32: a 5-bit field).
COMPACT: tuple[Compact, ...] = (
    Compact("C.MOV", ("MOV",), "Rd4 Rs4", lambda i, _: True),
    _alu("C.ADD", "ADD", True), _alu("C.SUB", "SUB", False), _alu("C.AND", "AND", True),
    _alu("C.OR", "OR", True), _alu("C.XOR", "XOR", True), _alu("C.MUL", "MUL", True),
    _alu("C.LSL", "LSL", False), _alu("C.LSR", "LSR", False),
    Compact("C.CMP", ("CMP",), "Ra4 Rb4", lambda i, _: True),
    Compact("C.LDI", ("LDI",), "Rd4 imm6 (-32..31)", lambda i, _: _S6(i.imm)),
    Compact("C.ADDI", ("ADDI",), "Rd4 imm6 (Rd = Rd + imm)",
            lambda i, assume: (assume or i.rd == i.rs1) and _S6(i.imm)),
    Compact("C.CMPI", ("CMPI",), "Ra4 imm6", lambda i, _: _S6(i.imm)),
    Compact("C.LSLI", ("LSLI",), "Rd4 imm5 (Rd = Rd << imm)",
            lambda i, assume: assume or i.rd == i.rs1),
    Compact("C.LSRI", ("LSRI",), "Rd4 imm5 (Rd = Rd >> imm)",
            lambda i, assume: assume or i.rd == i.rs1),
    Compact("C.LDF", ("LD",), "Rd4 word offset6 from R14",
            lambda i, _: i.rs1 == FRAME and i.imm % 4 == 0 and _S6(i.imm // 4)),
    Compact("C.STF", ("ST",), "Rs4 word offset6 from R14",
            lambda i, _: i.rs1 == FRAME and i.imm % 4 == 0 and _S6(i.imm // 4)),
    Compact("C.LD", ("LD",), "Rd4 Ra4 word offset2 (0..12)",
            lambda i, _: i.imm in (0, 4, 8, 12)),
    Compact("C.ST", ("ST",), "Rs4 Ra4 word offset2 (0..12)",
            lambda i, _: i.imm in (0, 4, 8, 12)),
    Compact("C.LDB", ("LDB",), "Rd4 Ra4 offset2 (0..3)", lambda i, _: 0 <= i.imm <= 3),
    Compact("C.STB", ("STB",), "Rs4 Ra4 offset2 (0..3)", lambda i, _: 0 <= i.imm <= 3),
    Compact("C.STACK", ("PUSH", "POP", "RET"), "sub-op2 R4 (PUSH R, POP R, RET)",
            lambda i, _: True),
    *(_branch(m) for m in ("BR", "BEQ", "BNE", "BLT", "BGE", "BLTU", "BGEU")),
)
assert len(COMPACT) <= 32, "the compact opcode is 5 bits"
_BY_MNEMONIC: dict[str, list[Compact]] = {}
for _c in COMPACT:
    for _m in _c.mnemonics:
        _BY_MNEMONIC.setdefault(_m, []).append(_c)


def compact_form(ins: Instruction | None, two_address: bool = False) -> Compact | None:
    """The compact operation that encodes `ins`, if the candidate has one."""
    if ins is None:
        return None
    return next((c for c in _BY_MNEMONIC.get(ins.op.mnemonic, ()) if c.fits(ins, two_address)),
                None)


def _transfers_control(ins: Instruction) -> bool:
    return ins.op.group is Group.BRANCH


@dataclass
class Count:
    """One body of code: its instructions and the words each form would take."""
    instructions: int = 0
    compact: int = 0
    words: int = 0            # as it is
    pairs: int = 0            # words with pairs
    pairs_two_address: int = 0
    halfwords: int = 0        # the 16/32 form, in halfwords

    def add(self, other: "Count") -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


Decoded = list[tuple[int, Instruction | None, int]]     # (word index, instruction, words)


def _decoded(words: list[int]) -> Decoded:
    out, k = [], 0
    while k < len(words):
        ins = decode_code(words, k)
        size = ins.size // 4 if ins is not None else 1     # (an undecodable word: one)
        out.append((k, ins, size))
        k += size
    return out


def _packed_words(code: Decoded, fits: list[bool], targets: set[int]) -> int:
    """Words with adjacent compact operations (`fits`) paired, left to right."""
    words, i = 0, 0
    while i < len(code):
        _, ins, size = code[i]
        if fits[i] and i + 1 < len(code) and fits[i + 1] and not _transfers_control(ins) \
                and code[i + 1][0] not in targets:
            words, i = words + 1, i + 2
        else:
            words, i = words + size, i + 1
    return words


def count(words: list[int], labels: set[int]) -> Count:
    """`words` of code; `labels`: word indices something outside the code jumps or calls
    to (function entries), besides the branch targets found in it."""
    code = _decoded(words)
    targets = set(labels)
    for at, ins, _ in code:
        if ins is not None and ins.op.form is not Form.ABS12:
            target = ins.branch_target(4 * at)
            if target is not None:
                targets.add(target // 4)
    result = Count(instructions=len(code), words=len(words))
    forms = [compact_form(ins) for _, ins, _ in code]
    for (_, ins, size), form in zip(code, forms):
        # 16/32: branch offsets count halfwords, so a short branch reaches half as far
        short = form is not None and (not form.name.startswith("C.B") or _S10(2 * ins.imm))
        result.compact += form is not None
        result.halfwords += 1 if short else 2 * size
    result.pairs = _packed_words(code, [form is not None for form in forms], targets)
    result.pairs_two_address = _packed_words(
        code, [compact_form(ins, True) is not None for _, ins, _ in code], targets)
    return result


def library_count(code: density.Code) -> tuple[Count, int]:
    """The library's objects (hsx cc -Os -c): the count and their rodata bytes."""
    options = Options(opt="s", include_dirs=tuple(map(str, code.include)),
                      defines=tuple(code.defines))
    total, rodata = Count(), 0
    for source in code.sources:
        module = compile_c_file(str(source), options).module
        labels = {s.offset // 4 for s in module.symbols.values() if s.section == "text"}
        total.add(count(module.code, labels))
        rodata += len(module.rodata)
    return total, rodata


def program_count(code: density.Code) -> tuple[Count, int, set[str]]:
    """The linked image (hsx cc -Os): the count, its rodata bytes, and the names
    density_bench's Thumb-2 link must force in."""
    options = Options(opt="s", include_dirs=tuple(map(str, code.include)),
                      defines=tuple(code.defines))
    result, units = build_c([str(s) for s in code.sources], options)
    image = result.image
    words = image.code_words
    labels = {f.address // 4 for f in result.symbols.functions}
    forced = set().union(*(u.module.imports for u in units))
    return count(words, labels), len(image.rodata), forced


HEADER = (f"{'':<20} {'HSX bytes':>10} {'Thumb-2':>9} {'now':>6} {'pairs':>6} "
          f"{'pairs,2a':>8} {'16/32':>6}   compact instrs, paired")


def row(name: str, c: Count, rodata: int, thumb: int) -> str:
    now = 4 * c.words + rodata
    ratios = [now, 4 * c.pairs + rodata, 4 * c.pairs_two_address + rodata,
              2 * c.halfwords + rodata]
    paired = 2 * (c.words - c.pairs)        # each pair saves one word
    return (f"{name:<20} {now:>10,} {thumb:>9,} "
            + " ".join(f"{r / thumb:>{w}.2f}" for r, w in zip(ratios, (6, 6, 8, 6)))
            + f"   {c.compact / c.instructions:>6.1%}, {paired / c.instructions:>6.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="the libraries only, without Lua (about a minute)")
    args = parser.parse_args()
    print(f"candidate: {len(COMPACT)} compact operations of 15 bits; "
          "ratios are HSX bytes / Thumb-2 bytes (code + rodata)")
    with tempfile.TemporaryDirectory(prefix="hsx-compact-") as temp:
        work = Path(temp)
        fetched, missing = density.third_party(work, quick=True)
        if missing:
            print(f"left out: {missing}")
        thumb = density.Foreign(work)
        print("Libraries, per object")
        print(HEADER)
        for code in density.libraries(fetched):
            c, rodata = library_count(code)
            print(row(code.name, c, rodata, thumb.objects("Thumb-2", code)), flush=True)
        if args.quick:
            return
        print("Programs, linked")
        print(HEADER)
        for code in density.programs(fetched):
            c, rodata, forced = program_count(code)
            print(row(code.name, c, rodata, thumb.program("Thumb-2", code, forced)), flush=True)


if __name__ == "__main__":
    main()
