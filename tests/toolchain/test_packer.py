"""The packer (hsx.toolchain.packer): compact pairs made from compiled C are exactly the
unpacked code, two instructions to a word, with every reference moved along.

The oracle is unpacking: each pair written out again as its two instructions, each
branch within the module given back its offset in the old layout, must give the
module the compiler assembles with packing off, word for word, and the same labels,
relocations and line table."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from hsx.image.hxo import ObjectModule
from hsx.isa import decode, encode
from hsx.isa.compact import COMMUTATIVE, Pair
from hsx.isa.encoding import Instruction
from hsx.isa.opcodes import Form
from hsx.toolchain.cc.driver import Options, compile_c_file
from hsx.toolchain.packer import pack_module

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "examples" / "c" / "wc.c", ROOT / "benchmarks" / "peers" / "coremark.c",
           ROOT / "benchmarks" / "peers" / "mix.c"]


def _static(ins: Instruction) -> bool:
    return ins.op.form is Form.REL24 or (ins.op.form is Form.CALL12 and ins.rs1 == 0)


def unpack(module: ObjectModule) -> tuple[list[int], list[int]]:
    """(the code with every pair written as two words and branch offsets for that
    layout, the unpacked index of each packed word)."""
    old_of = _old_indices(module.code)
    relocated = {r.position for r in module.relocs if r.section == "code"}
    out: list[int] = []
    k = 0
    while k < len(module.code):
        ins = decode(module.code[k], module.code[k + 1] if k + 1 < len(module.code) else 0)
        if not isinstance(ins, (Pair, Instruction)):
            out.append(module.code[k])
            k += 1
            continue
        for half in ins.halves if isinstance(ins, Pair) else (ins,):
            if _static(half) and k not in relocated:
                half = replace(half, imm=old_of[k + half.imm] - len(out))
            out.extend(encode(half))
        k += ins.size // 4
    return out, old_of


def _old_indices(code: list[int]) -> list[int]:
    """For each packed word (and one past the end), the unpacked index of its first
    instruction."""
    old, n, k = [], 0, 0
    while k < len(code):
        ins = decode(code[k], code[k + 1] if k + 1 < len(code) else 0)
        size = ins.size // 4 if isinstance(ins, Instruction) else 1
        old += [n + j for j in range(size)]          # (LDI32's literal: its own word)
        n += 2 if isinstance(ins, Pair) else size
        k += size
    old.append(n)
    return old


def _canonical(word: int) -> int:
    """The word with a commutative operation's sources in the order its compact form
    keeps (`ADD R1, R2, R1` is `C.ADD R1, R2`, which is `ADD R1, R1, R2`)."""
    ins = decode(word)
    if isinstance(ins, Instruction) and ins.op.mnemonic in COMMUTATIVE \
            and ins.rd == ins.rs2 != ins.rs1:
        return encode(replace(ins, rs1=ins.rs2, rs2=ins.rs1))[0]
    return word


def _modules(source: Path, **options) -> tuple[ObjectModule, ObjectModule]:
    plain = compile_c_file(str(source), Options(compact=False, **options)).module
    packed = compile_c_file(str(source), Options(compact=True, **options)).module
    return plain, packed


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
@pytest.mark.parametrize("opt", [0, 2, "s"])
def test_packed_code_unpacks_to_the_plain_code(source, opt):
    plain, packed = _modules(source, opt=opt)
    code, old_of = unpack(packed)
    pairs = old_of[-1] - len(packed.code)
    assert pairs > len(plain.code) // 8          # most code is compactable
    assert [_canonical(w) for w in code] == [_canonical(w) for w in plain.code]
    assert len(packed.code) == len(plain.code) - pairs
    back = {name: replace(s, offset=4 * old_of[s.offset // 4]) if s.section == "text" else s
            for name, s in packed.symbols.items()}
    assert back == plain.symbols
    assert [replace(r, position=old_of[r.position]) if r.section == "code" else r
            for r in packed.relocs] == plain.relocs


def test_labels_and_branch_targets_start_words():
    """Nothing needs the address of a second half: every label and every branch lands
    on the start of a word (a pair's own address)."""
    plain, packed = _modules(SOURCES[1], opt=2)
    starts = set(range(len(packed.code)))
    for s in packed.symbols.values():
        if s.section == "text":
            assert s.offset % 4 == 0 and s.offset // 4 in starts
    for k, word in enumerate(packed.code):
        ins = decode(word)
        halves = ins.halves if isinstance(ins, Pair) else (ins,)
        for half in halves:
            if isinstance(half, Instruction) and half.op.form is Form.REL24:
                assert 0 <= k + half.imm <= len(packed.code)


def test_debug_builds_keep_c_lines_apart():
    """Under -g a pair never holds code of two C lines: the packed line table is the
    plain one with the entries of second halves left out, and no C line is lost."""
    plain, packed = _modules(SOURCES[0], opt=2, debug=True)
    old_of = _old_indices(packed.code)
    seconds = {old_of[k] + 1 for k, w in enumerate(packed.code) if isinstance(decode(w), Pair)}
    line_at = {e.index: (e.file, e.line) for e in plain.lines}
    for second in seconds:
        assert line_at.get(second, line_at.get(second - 1)) == line_at.get(second - 1)
    assert {(e.file, e.line) for e in packed.lines} == {(e.file, e.line) for e in plain.lines}
    assert [(old_of[e.index], e.file, e.line) for e in packed.lines] == \
        [(e.index, e.file, e.line) for e in plain.lines if e.index not in seconds]


def test_a_constant_code_address_leaves_the_module_as_it_is():
    from hsx.toolchain.build import assemble_source
    module = assemble_source("""
        .text
        start:  LDI R1, 1
                ADD R1, R1, R1
                JMP 8
        """, "abs.mvasm")
    before = list(module.code)
    assert pack_module(module) == 0 and module.code == before


def test_a_packed_branch_reaches_its_target_in_the_new_layout():
    from hsx.toolchain.build import assemble_source
    module = assemble_source("""
        .text
        top:    ADD R1, R1, R2
                ADDI R3, R3, 1
                CMP R3, R4
                BNE top
                MOV R0, R1
                RET
        """, "loop.mvasm")
    assert pack_module(module) == 3
    words = [decode(w) for w in module.code]
    assert all(isinstance(w, Pair) for w in words)
    assert words[1].second.op.mnemonic == "BNE" and words[1].second.imm == -1
    assert (words[2].first.op.mnemonic, words[2].second.op.mnemonic) == ("MOV", "RET")
