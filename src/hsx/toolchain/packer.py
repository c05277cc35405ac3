"""Pack an object's code: adjacent instructions that have a compact form share a word
(hsx.isa.compact, docs/isa.md "Compact pairs").

It runs on an assembled module, whose branches within the module are resolved and whose
other references are relocations.  Instructions k and k+1 become one pair word when

- both have a compact form and the first transfers no control;
- nothing needs the address of k+1: no label is there, no branch of the module lands
  there, no relocation points there, and the caller's `keep_apart(k + 1)` is false
  (the compiler keeps C lines apart under -g, so a step never runs half a line);
- neither word is patched by the linker (a relocation's field is not a compact field).

Then the code is laid out again: labels, the entry, line entries and relocations move
with their instructions, and each branch within the module gets its new offset.
Distances only shrink, so a branch that fitted still fits.  Pairing is greedy from the
start of the code, which finds nearly every pair (compact_bench.py's estimate), except
that a compare pairs with the conditional branch after it rather than with the
instruction before it (the same number of words; the native engine fuses that pair).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from hsx.image.hxo import LineEntry, ObjectModule, SymbolDef
from hsx.isa.compact import COMPACT, compact, pair_word
from hsx.isa.encoding import Instruction, decode, encode
from hsx.isa.opcodes import BY_MNEMONIC, OPCODES, Form, Group

_BRANCH_HALF_BITS = 10                # a compact branch's signed word offset


def _local_target(ins: Instruction, index: int) -> int | None:
    """The word index a resolved PC-relative branch or call at `index` goes to."""
    if ins.op.form is Form.REL24 or (ins.op.form is Form.CALL12 and ins.rs1 == 0):
        return index + ins.imm
    return None


def _with_offset(ins: Instruction, offset: int) -> Instruction:
    return replace(ins, imm=offset)


# The opcodes packing looks at: those with a compact form, those with a code address
# (moved with the code) and LDI32 (two words); other words are passed over undecoded.
_READ = frozenset(BY_MNEMONIC[c.mnemonic].code for c in COMPACT) | frozenset(
    op.code for op in OPCODES if op.form in (Form.REL24, Form.CALL12, Form.ABS12,
                                             Form.RD_IMM32))


class _Code:
    """The module's instructions by word index, where packing needs them (None for an
    LDI32 literal word, a word that is not an instruction, or one of no interest)."""

    def __init__(self, words: list[int]) -> None:
        self.instructions: list[Instruction | None] = [None] * len(words)
        self.starts: list[int] = []
        k = 0
        while k < len(words):
            self.starts.append(k)
            if words[k] >> 24 in _READ:
                ins = decode(words[k], words[k + 1] if k + 1 < len(words) else 0)
                if isinstance(ins, Instruction):
                    self.instructions[k] = ins
                    k += ins.size // 4
                    continue
            k += 1


def _half(ins: Instruction, index: int, target: int | None) -> int | None:
    """The compact form of `ins` at `index`, if it has one wherever packing moves it (a
    branch's with offset 0: its offset is set once the code is laid out again)."""
    if target is not None:
        # packing only shortens distances: the offset from a pair starting at `index`
        # lies between 0 and (target - index), so that bound is what must fit
        bound = target - index
        if not -(1 << (_BRANCH_HALF_BITS - 1)) <= bound < (1 << (_BRANCH_HALF_BITS - 1)):
            return None
        return compact(_with_offset(ins, 0))
    return compact(ins)


def pack_module(module: ObjectModule,
                keep_apart: Callable[[int], bool] | None = None) -> int:
    """Pack `module`'s code in place; the number of pairs made.  A module with an
    absolute code address the assembler wrote in (a JMP to a constant) is left as it is:
    moving code would change what that address means."""
    words = module.code
    code = _Code(words)
    relocated = {r.position for r in module.relocs if r.section == "code"}
    for k in code.starts:
        ins = code.instructions[k]
        if ins is not None and ins.op.form is Form.ABS12 and k not in relocated:
            return 0
    targets: set[int] = {module.entry // 4}
    text_labels = {name: s.offset for name, s in module.symbols.items() if s.section == "text"}
    targets.update(offset // 4 for offset in text_labels.values())
    for r in module.relocs:
        if r.symbol in text_labels:
            targets.add((text_labels[r.symbol] + r.addend) // 4)
    static: dict[int, int] = {}                       # word index -> local target index
    for k in code.starts:
        ins = code.instructions[k]
        if ins is not None and k not in relocated:
            target = _local_target(ins, k)
            if target is not None:
                if not 0 <= target <= len(words):
                    return 0                          # a branch out of the module's code
                static[k] = target
                targets.add(target)

    halves: list[int | None] = [None] * len(words)     # each word's compact form, if any
    for k in code.starts:
        ins = code.instructions[k]
        if ins is not None and k not in relocated:
            halves[k] = _half(ins, k, static.get(k))

    # Choose the pairs, then number the new words.
    starts = code.starts

    def can_pair(i: int) -> bool:
        """Whether the instructions at starts[i] and starts[i + 1] can share a word."""
        if i + 1 >= len(starts):
            return False
        k, nxt = starts[i], starts[i + 1]
        return (nxt == k + 1 and halves[k] is not None and halves[nxt] is not None
                and code.instructions[k].op.group is not Group.BRANCH
                and nxt not in targets and not (keep_apart and keep_apart(nxt)))

    def compare_and_branch(i: int) -> bool:
        """A compare whose conditional branch follows and can pair with it: the native
        engine runs that pair fused, as it does the two unpaired."""
        ins = code.instructions[starts[i]]
        after = code.instructions[starts[i + 1]] if i + 1 < len(starts) else None
        return (ins is not None and ins.op.mnemonic in ("CMP", "CMPI") and after is not None
                and after.op.reads_flags and after.op.form is Form.REL24 and can_pair(i))

    # Greedy from the start, but an instruction before a compare and its branch is left
    # alone for the compare to pair with the branch (as many words: a branch never
    # starts a pair, so the branch would have stayed alone instead).
    paired: set[int] = set()                          # first halves
    i = 0
    while i < len(starts) - 1:
        if can_pair(i) and not compare_and_branch(i + 1):
            paired.add(starts[i])
            i += 2
        else:
            i += 1
    if not paired:
        return 0
    new_index = [0] * (len(words) + 1)
    n = 0
    for k in range(len(words)):
        if k - 1 in paired:
            new_index[k] = new_index[k - 1]
        else:
            new_index[k] = n
            n += 1
    new_index[len(words)] = n

    def moved(ins: Instruction, k: int) -> Instruction:
        if k in static:
            return _with_offset(ins, new_index[static[k]] - new_index[k])
        return ins

    out: list[int] = []
    k = 0
    while k < len(words):
        ins = code.instructions[k]
        if k in paired:
            second = halves[k + 1] if k + 1 not in static \
                else compact(moved(code.instructions[k + 1], k + 1))
            out.append(pair_word(halves[k], second))
            k += 2
        elif ins is not None and k in static:
            out.extend(encode(moved(ins, k)))
            k += ins.size // 4
        else:
            out.append(words[k])
            k += 1
    _move_references(module, new_index, text_labels)
    module.code = out
    return len(paired)


def _move_references(module: ObjectModule, new_index: list[int],
                     text_labels: dict[str, int]) -> None:
    """Labels, the entry, relocations and line entries to where their words went."""
    def address(offset: int) -> int:
        return 4 * new_index[offset // 4] + offset % 4
    module.symbols = {name: SymbolDef(s.section, address(s.offset), s.file, s.line)
                      if s.section == "text" else s for name, s in module.symbols.items()}
    module.entry = address(module.entry)
    relocs = []
    for r in module.relocs:
        if r.section == "code":
            r = replace(r, position=new_index[r.position])
        if r.symbol in text_labels and r.addend:
            old = text_labels[r.symbol]
            r = replace(r, addend=address(old + r.addend) - address(old))
        relocs.append(r)
    module.relocs = relocs
    lines: list[LineEntry] = []
    for entry in module.lines:
        index = new_index[entry.index]
        if lines and lines[-1].index == index:
            continue                                  # a second half: the pair's line is the first's
        lines.append(replace(entry, index=index))
    module.lines = lines
