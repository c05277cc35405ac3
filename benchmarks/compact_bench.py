"""What the compact operations could save in other encodings: `python
benchmarks/compact_bench.py [--quick]` (issue 30, docs/isa.md "Compact pairs").

`hsx cc` packs compact operations (hsx.isa.compact) two to a word; density_bench.py
measures the images it makes.  This counts, on the same code built unpacked (`hsx cc -Os
--no-compact`), what the same operations would give

- **pairs**: adjacent compact operations, the first transferring no control, the second
  no branch target, greedily paired (what the packer does, without its other limits:
  relocated words, labels);
- **pairs, two-address**: the same, if every ALU operation's result had its first
  source's register (an upper bound of what allocation can add);
- **16/32**: the variable-length form Thumb-2 and RISC-V's C extension use (each compact
  operation in 2 bytes, the program counter in halfwords, a branch's reach halved): the
  ceiling of this set of operations, and why pairs were chosen anyway (docs/isa.md).

It encodes nothing: it counts, from the decoded code of each object and image.  Thumb-2
sizes are density_bench.py's (the same builds).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import density_bench as density  # noqa: E402  (the corpus and the Thumb-2 builds)

from hsx.isa import decode_code  # noqa: E402
from hsx.isa.compact import COMPACT, compact  # noqa: E402
from hsx.isa.encoding import FORM_FIELDS, Instruction  # noqa: E402
from hsx.isa.opcodes import Form, Group  # noqa: E402
from hsx.toolchain.cc.driver import Options, build_c, compile_c_file  # noqa: E402

def compact_form(ins: Instruction | None, two_address: bool = False) -> int | None:
    """The compact encoding of `ins` (hsx.isa.compact), if it has one; with
    `two_address`, also if the allocator had given its result its first source's
    register."""
    if ins is None:
        return None
    found = compact(ins)
    if found is None and two_address and "rs1" in FORM_FIELDS[ins.op.form] \
            and "rd" in FORM_FIELDS[ins.op.form]:
        found = compact(replace(ins, rs1=ins.rd))
    return found


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
        short = form is not None and (ins.op.form is not Form.REL24
                                      or -512 <= 2 * ins.imm < 512)
        result.compact += form is not None
        result.halfwords += 1 if short else 2 * size
    result.pairs = _packed_words(code, [form is not None for form in forms], targets)
    result.pairs_two_address = _packed_words(
        code, [compact_form(ins, True) is not None for _, ins, _ in code], targets)
    return result


def library_count(code: density.Code) -> tuple[Count, int]:
    """The library's objects (hsx cc -Os -c): the count and their rodata bytes."""
    options = Options(opt="s", include_dirs=tuple(map(str, code.include)),
                      defines=tuple(code.defines), compact=False)
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
                      defines=tuple(code.defines), compact=False)
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
    print(f"{len(COMPACT)} compact operations of 15 bits; "
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
