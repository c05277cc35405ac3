"""Compact pairs as text: each operation of a pair's " | " line assembles back to that
operation, `hsx disasm` lists a pair as one line with its branch target labelled, and
`--mvasm` keeps it as a `.word` that reassembles to the same image."""
from __future__ import annotations

from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from hsx.cli.main import cli
from hsx.image.hxe import read_hxe_file
from hsx.isa import Instruction, decode, encode, format_instruction, make
from hsx.isa.compact import COMPACT, Layout, expand, pack
from hsx.toolchain.build import assemble_source, build_source

# Operand bits that may be set in each layout (the others must be zero).
_FREE_BITS = {Layout.RR: 0x3FC, Layout.RI5: 0x3DF, Layout.R: 0x3C0, Layout.NONE: 0}


@st.composite
def operations(draw, transfers: bool) -> Instruction:
    c = draw(st.sampled_from([c for c in COMPACT if c.transfers_control == transfers]))
    return expand((c.code << 10) | (draw(st.integers(0, 0x3FF)) & _FREE_BITS.get(c.layout, 0x3FF)))


@st.composite
def placed_pairs(draw):
    """A pair (its second may branch) and a code address from which its target is valid."""
    first = draw(operations(False))
    second = draw(st.one_of(operations(False), operations(True)))
    pc = 4 * draw(st.integers(512, 2048))                 # every 10-bit offset lands >= 0
    return decode(pack(first, second)), pc


@settings(max_examples=300, deadline=None)
@given(placed_pairs())
def test_each_operation_of_a_pair_line_assembles_back_to_that_operation(placed):
    pair, pc = placed
    text = format_instruction(pair, pc)
    halves = text.split(" | ")
    assert len(halves) == 2
    for half, ins in zip(halves, pair.halves):
        module = assemble_source(f".org {pc}\n{half}\n", "t.mvasm")
        assert module.code[pc // 4:] == encode(ins), text


LOOP = pack(make("ADDI", rd=0, rs1=0, imm=1), make("ADDI", rd=1, rs1=1, imm=-1))
TAIL = pack(make("CMPI", rs1=1, imm=0), make("BNE", imm=-2))
SOURCE = f"""\
        .entry main
main:   LDI R1, 5
        LDI R0, 0
        .word 0x{LOOP:08X}
        .word 0x{TAIL:08X}
        .word 0xC0000000
        RET
"""


def test_hsx_disasm_lists_a_pair_as_one_line_and_mvasm_reassembles_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prog.mvasm").write_text(SOURCE)
    runner = CliRunner()
    assert runner.invoke(cli, ["asm", "prog.mvasm", "-o", "prog.hxe"]).exit_code == 0
    result = runner.invoke(cli, ["disasm", "prog.hxe"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "L_0004:" in lines                      # the second half's branch target
    pair_lines = [line for line in lines if " | " in line]
    assert pair_lines[0] == (f"  0008:  {LOOP:08X}           ADDI R0, R0, 1 | ADDI R1, R1, -1"
                             " ; prog.mvasm:4")
    assert pair_lines[1].startswith(f"  000C:  {TAIL:08X}           CMPI R1, 0 | BNE L_0004")
    assert pair_lines[1].endswith("; -> 0x0004  prog.mvasm:5") and len(pair_lines) == 2
    assert "  0010:  C0000000           .word 0xC0000000" in result.output   # not a pair

    result = runner.invoke(cli, ["disasm", "prog.hxe", "--mvasm", "-o", "again.mvasm"],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "again.mvasm").read_text()
    assert f"    .word 0x{TAIL:08X}  ; CMPI R1, 0 | BNE L_0004" in text
    again = build_source(text, "again.mvasm")
    assert again.code == read_hxe_file("prog.hxe").code
