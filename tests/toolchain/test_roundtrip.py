"""Text round trips: ISA text form -> assembler, and disassembler --mvasm -> assembler."""
from __future__ import annotations

import textwrap

from hypothesis import given, settings, strategies as st

from hsx.image.hxe import read_hxe, write_hxe
from hsx.image.model import HxeImage
from hsx.isa import OPCODES, Form, Instruction, encode, format_instruction
from hsx.isa.encoding import FORM_FIELDS, IMM_RANGE, IMM_STEP
from hsx.toolchain.build import assemble_source, build_source, link_objects
from hsx.toolchain.disassembler import listing, to_mvasm

CODE_SPACE = 0x10000
registers = st.integers(0, 15)


@st.composite
def placed_instructions(draw):
    """A valid instruction of any opcode and a code address where its target is valid."""
    op = draw(st.sampled_from(OPCODES))
    used = FORM_FIELDS[op.form]
    fields = {name: (draw(registers.filter(lambda r: r < 15)) if name in op.pairs
                     else draw(registers)) if name in used else 0
              for name in ("rd", "rs1", "rs2")}
    pc = 4 * draw(st.integers(0, 4096))
    imm = 0
    if "imm" in used:
        lo, hi = IMM_RANGE[op.form]
        if op.form is Form.ABS12:                        # absolute targets are word aligned
            imm = 4 * draw(st.integers(0, hi // 4))
        elif op.form in (Form.REL24, Form.CALL12) and not fields["rs1"]:
            lo, hi = max(lo, -pc // 4), min(hi, (CODE_SPACE - 4 - pc) // 4)
            imm = draw(st.integers(lo, hi))
        else:
            step = IMM_STEP.get(op.form, 1)
            imm = step * draw(st.integers(-(-lo // step), hi // step))
    return Instruction(op, imm=imm, **fields), pc


@settings(max_examples=300, deadline=None)
@given(placed_instructions())
def test_formatted_instruction_assembles_to_the_same_words(placed):
    ins, pc = placed
    text = format_instruction(ins, pc)
    module = assemble_source(f".org {pc}\n{text}\n", "t.mvasm")
    assert module.relocs == []
    assert module.code[pc // 4:] == encode(ins), text


LIB = """\
    .export print, value, shared_buf
    print:  PUSH R7
            LDI32 R7, value
            LD R1, [R7+0]
            BEQ skip
    loop:   SVC MOD=1, FN=1
            ADDI R1, R1, -1
            CMPI R1, 0
            BNE loop
    skip:   POP R7
            RET
    .data
    value:  .word 3
    .bss
    shared_buf: .zero 32
"""

MAIN = """\
    .entry main
    .value {"group": 1, "id": 2, "name": "speed", "init": 2.5, "flags": "RO"}
    .cmd {"group": 1, "id": 1, "handler": "on_cmd", "name": "poke", "help": "poke it"}
    .mailbox {"target": "app:main", "capacity": 8, "mode": "rdwr|tap",
    """.rstrip() + """ "bindings": [{"pid": 2}]}
    main:   CALL print
            LCALL print
            LDI32 R2, message
            LDI32 R3, shared_buf
            JZ done
            CALL [R3+8]
            .word 0xFF000000
    loop:   BR loop
    done:   LDI R0, 0
            SVC MOD=1, FN=0
    on_cmd: RET
    .data
    message: .asciz "hello; world"
    .align 4
    table:  .word message, on_cmd
    .bss
    counter: .zero 4
"""


def _linked():
    lib = assemble_source(textwrap.dedent(LIB), "lib.mvasm")
    main = assemble_source(textwrap.dedent(MAIN), "main.mvasm")
    return link_objects([lib, main], app_name="demo")


def _same_program(a: HxeImage, b: HxeImage) -> None:
    assert a.code == b.code
    assert a.rodata == b.rodata
    assert (a.entry, a.bss_size) == (b.entry, b.bss_size)
    assert a.metadata == b.metadata


def test_disasm_mvasm_of_a_linked_multi_module_program_reassembles_identically():
    image, symbols = _linked()
    image = read_hxe(write_hxe(image))
    for table in (symbols, None):
        text = to_mvasm(image, table, "demo.hxe")
        again = build_source(text, "demo.mvasm")
        _same_program(image, again)


def test_disasm_mvasm_keeps_symbol_names_and_synthesizes_the_rest():
    image, symbols = _linked()
    with_symbols = to_mvasm(image, symbols)
    assert "print:" in with_symbols and "    CALL print" in with_symbols
    assert ".entry main" in with_symbols
    assert "    .word 0xFF000000" in with_symbols
    assert '"handler": "on_cmd"' in with_symbols
    # Both modules have a local label "loop": one keeps its name, the other is renamed.
    assert "loop:" in with_symbols and "loop_" in with_symbols
    bare = to_mvasm(image)
    assert "L_0000:" in bare and ".entry L_" in bare


def test_listing_shows_addresses_words_symbols_and_targets():
    image, symbols = _linked()
    text = listing(image, symbols, "demo.hxe")
    assert text.startswith('; demo.hxe  HXE v2  app "demo"')
    assert "print:\n  0000:  40070000" in text
    assert "LDI32 R7, 0x00004000" in text and "; value  lib.mvasm:3" in text
    assert "BNE loop" in text and "-> 0x0014" in text
    assert ".word 0xFF000000" in text and "illegal instruction" in text
    assert "message:" in text and "hello; world" in text
    assert "counter:" in text
    assert '; .value {"group": 1, "value": 2' in text
