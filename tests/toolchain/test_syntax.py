"""Every MVASM syntax form assembles to the words the ISA encoder gives."""
from __future__ import annotations

import pytest

from hsx.image.model import RODATA_BASE
from hsx.toolchain.build import assemble_file, build_file, build_source
from hsx.toolchain.diagnostics import ToolchainError
from hsx.toolchain.lexer import Kind, tokenize


# -- lexical rules ----------------------------------------------------------------------

def test_comments_do_not_end_inside_strings_or_char_literals():
    line = tokenize(""".ascii "a;b//c" ; comment""")
    assert [t.kind for t in line.tokens] == [Kind.IDENT, Kind.STRING]
    assert line.tokens[1].value == "a;b//c"
    assert [t.text for t in tokenize("LDI R1, ';' // x").tokens][-1] == "';'"


def test_both_comment_styles(tc):
    assert tc.code("""
        LDI R1, 1 ; semicolon
        LDI R2, 2 // slashes
        // whole line
    """) == tc.words_of(tc.w("LDI", rd=1, imm=1), tc.w("LDI", rd=2, imm=2))


def test_label_alone_and_with_statement_on_one_line(tc):
    module = tc.obj("""
    a:
    b: c: NOP
    d: RET
    """)
    assert {n: s.offset for n, s in module.symbols.items()} == {"a": 0, "b": 0, "c": 0, "d": 4}
    assert module.code == tc.words_of(tc.w("MOV"), tc.w("RET"))


def test_case_insensitive_mnemonics_registers_and_directives(tc):
    assert tc.code("""
        .TEXT
        ldi r1, 5
        Add R2, r1, R1
    """) == tc.words_of(tc.w("LDI", rd=1, imm=5), tc.w("ADD", rd=2, rs1=1, rs2=1))


@pytest.mark.parametrize("literal, value", [
    ("10", 10), ("0x1F", 31), ("0X1f", 31), ("0b101", 5), ("-7", -7), ("-0x10", -16),
    ("'A'", 65), ("'\\n'", 10), ("'\\x41'", 0x41), ("'\\\\'", 92), ("';'", 59),
    ("'\\0'", 0), ("3*4", 12), ("(1+2)*3", 9), ("10-3-2", 5),
])
def test_numbers_and_char_literals(tc, literal, value):
    assert tc.code(f"LDI R1, {literal}") == tc.w("LDI", rd=1, imm=value)


@pytest.mark.parametrize("operand, base, offset", [
    ("[R2+4]", 2, 4), ("[R2 + 4]", 2, 4), ("[R2-4]", 2, -4), ("[R2+-4]", 2, -4),
    ("[R2 - 4]", 2, -4), ("[R2]", 2, 0), ("[ r3 ]", 3, 0), ("[SP+8]", 15, 8),
    ("[R2+K]", 2, 12), ("[R2+K-2]", 2, 10),
])
def test_memory_operands(tc, operand, base, offset):
    assert tc.code(f"""
        .equ K, 12
        LD R1, {operand}
        ST {operand}, R1
    """) == tc.words_of(tc.w("LD", rd=1, rs1=base, imm=offset),
                        tc.w("ST", rs1=base, rs2=1, imm=offset))


def test_operands_separated_by_blanks_as_in_the_prior_syntax(tc):
    assert tc.code("ADD R1 R2 R3\nLDI R4 -4") == tc.words_of(
        tc.w("ADD", rd=1, rs1=2, rs2=3), tc.w("LDI", rd=4, imm=-4))


def test_sp_is_r15(tc):
    assert tc.code("MOV R7, SP\nPUSH sp\nADDI SP, SP, -8") == tc.words_of(
        tc.w("MOV", rd=7, rs1=15), tc.w("PUSH", rs1=15), tc.w("ADDI", rd=15, rs1=15, imm=-8))


# -- instructions of every form ---------------------------------------------------------

def test_one_instruction_of_each_form(tc):
    assert tc.code("""
    top: RET
        LDI R1, -2048
        LDI32 R2, 0xFFFFFFFF
        LDI32 R2, -1
        LDB R3, [R4+1]
        LDBS R3, [R4+1]
        LDHS R3, [R4+2]
        STH [R4+2], R3
        NOT R1, R2
        MULHS R1, R2, R3
        ANDI R1, R2, 0xFF
        CMPI R1, -1
        JMPR R5
        CALLR R6
        POP R7
        JMP top
        CALL top
        LCALL top
        BGEU top
        BRK
        BRK 7
    """) == tc.words_of(
        tc.w("RET"), tc.w("LDI", rd=1, imm=-2048),
        tc.w("LDI32", rd=2, imm=0xFFFFFFFF), tc.w("LDI32", rd=2, imm=0xFFFFFFFF),
        tc.w("LDB", rd=3, rs1=4, imm=1), tc.w("LDBS", rd=3, rs1=4, imm=1),
        tc.w("LDHS", rd=3, rs1=4, imm=2), tc.w("STH", rs1=4, rs2=3, imm=2),
        tc.w("NOT", rd=1, rs1=2), tc.w("MULHS", rd=1, rs1=2, rs2=3),
        tc.w("ANDI", rd=1, rs1=2, imm=0xFF), tc.w("CMPI", rs1=1, imm=-1),
        tc.w("JMPR", rs1=5), tc.w("CALLR", rs1=6), tc.w("POP", rd=7),
        tc.w("JMP", imm=0), tc.w("CALL", imm=-18), tc.w("LCALL", imm=-19),
        tc.w("BGEU", imm=-20), tc.w("BRK"), tc.w("BRK", imm=7))


@pytest.mark.parametrize("text", ["SVC 0x101", "SVC MOD=1 FN=1", "SVC MOD=1, FN=1",
                                  "SVC 1, 1", "SVC FN=1, MOD=1", "svc mod=0x1 fn=0x01",
                                  "SVC UART, WRITE"])
def test_svc_forms(tc, text):
    assert tc.code(f".equ UART, 1\n.equ WRITE, 1\n{text}") == tc.w("SVC", imm=0x101)


def test_svc_with_two_numbers_is_module_and_function_not_zero(tc):
    assert tc.code("SVC 0x05, 0x02") == tc.w("SVC", imm=0x502)


def test_nop_and_register_call(tc):
    assert tc.code("NOP\nCALL [R3+8]\nCALL [R4]\nCALL [R5-4]") == tc.words_of(
        tc.w("MOV"), tc.w("CALL", rs1=3, imm=2), tc.w("CALL", rs1=4),
        tc.w("CALL", rs1=5, imm=-1))


def test_branches_forward_and_backward(tc):
    assert tc.code("""
    start:  CMP R1, R2
            BEQ done
            JNZ start
            BR start
    done:   RET
    """) == tc.words_of(tc.w("CMP", rs1=1, rs2=2), tc.w("BEQ", imm=3), tc.w("JNZ", imm=0),
                        tc.w("BR", imm=-3), tc.w("RET"))


def test_numeric_branch_targets_are_code_addresses(tc):
    assert tc.code("""
        NOP
        CALL 0
        BR 0x10
        JMP 8
        NOP
    """) == tc.words_of(tc.w("MOV"), tc.w("CALL", imm=-1), tc.w("BR", imm=2), tc.w("JMP", imm=8),
                        tc.w("MOV"))


def test_word_in_text_emits_raw_words(tc):
    assert tc.code(".word 0x00000000, 0xDEADBEEF\nhere: .word here") == [0, 0xDEADBEEF, 8]


# -- expressions ------------------------------------------------------------------------

def test_symbol_plus_and_minus_constants(tc):
    image = build_source("""
        LDI32 R1, buf+4
        LDI32 R2, buf-4
        LDI32 R3, 4+buf
        LDI R4, end - buf
        .data
    buf: .zero 6
    end:
    """)
    assert image.code_words[1::2] == [RODATA_BASE + 4, RODATA_BASE - 4, RODATA_BASE + 4]
    assert image.code_words[6] == (0x01 << 24) | (4 << 20) | 6


def test_lo16_hi16_off16(tc):
    image = build_source("""
        .equ BIG, 0x12345678
        LDI32 R1, hi16(BIG)
        LDI32 R2, lo16(BIG)
        LDI R3, off16(second)
        LDI32 R4, lo16(second+2)
        .data
    first: .byte 1, 2, 3, 4
    second: .byte 5
    """)
    assert image.code_words[1] == 0x1234
    assert image.code_words[3] == 0x5678
    assert image.code_words[4] & 0xFFF == 4
    assert image.code_words[6] == RODATA_BASE + 6


def test_equ_and_set_may_be_used_before_their_definition(tc):
    assert tc.code("""
        LDI R1, SIZE*2
        .equ SIZE, HALF + HALF
        .set HALF, 3
    """) == tc.w("LDI", rd=1, imm=12)


# -- sections and data ------------------------------------------------------------------

def test_data_directives_little_endian():
    image = build_source("""
        RET
        .data
        .byte 1, 0xFF, -1, 'A', "hi"
        .half 0x1234, -2
        .hword 7
        .word 0xDEADBEEF, -1
        .ascii "ab"
        .asciz "c"
        .string "d\\n", 'e'
        .ascii 'f'
        .zero 2
        .space 1
        .skip 1
        RET_OK: .word RET_OK
    """)
    numbers = bytes([1, 0xFF, 0xFF, 0x41, 0x68, 0x69, 0x34, 0x12, 0xFE, 0xFF, 7, 0,
                     0xEF, 0xBE, 0xAD, 0xDE, 0xFF, 0xFF, 0xFF, 0xFF])
    strings = b"abc\0d\n\0e\0f"
    assert image.rodata == numbers + strings + bytes(4) + (RODATA_BASE + 34).to_bytes(4, "little")


def test_rodata_is_an_alias_of_data_and_align_pads_with_zeros():
    image = build_source("""
        NOP
        .rodata
        .byte 1
        .align 4
    x:  .byte 2
        .align 3
        .byte 3
        .text
        LDI32 R1, x
    """)
    assert image.rodata == bytes([1, 0, 0, 0, 2, 0, 3])
    assert image.code_words[2] == RODATA_BASE + 4


def test_align_in_text_pads_with_mov_r0_r0(tc):
    assert tc.code("RET\n.align 16\nRET") == tc.words_of(
        tc.w("RET"), tc.w("MOV"), tc.w("MOV"), tc.w("MOV"), tc.w("RET"))


def test_org_pads_text_with_zero_words(tc):
    assert tc.code("RET\n.org 12\nRET") == [tc.w("RET")[0], 0, 0, tc.w("RET")[0]]


def test_bss_labels_follow_rodata_and_set_bss_size():
    image = build_source("""
        LDI32 R1, counter
        LDI32 R2, table
        .data
        .byte 1, 2, 3, 4, 5
        .bss
    counter: .zero 4
        .align 8
    table: .space 16
    """)
    assert image.bss_size == 8 + 16
    # rodata (5 bytes) is padded so bss starts at a multiple of 8 after it.
    assert image.rodata == bytes([1, 2, 3, 4, 5, 0, 0, 0])
    assert image.code_words[1] == RODATA_BASE + 8
    assert image.code_words[3] == RODATA_BASE + 16


def test_entry_forms(tc):
    assert build_source("NOP\n.entry\nRET").entry == 4
    assert build_source(".entry 4\nNOP\nRET").entry == 4
    assert build_source(".entry main\nNOP\nmain: RET").entry == 4
    assert build_source("NOP\nmain: RET\n.entry main").entry == 4
    assert build_source("NOP\nRET").entry == 0


def test_export_extern_import_are_order_independent(tc):
    module = tc.obj("""
        .extern helper
        .import other
        CALL other
        JMP helper
    helper: RET
    late: RET
        .export late
        .global g
        .globl h
    g: h: RET
    """)
    assert module.exports == {"helper", "late", "g", "h"}
    assert module.imports == ("other",)
    assert module.externs == ()
    assert [(r.symbol, r.type, r.pc_relative) for r in module.relocs] == [
        ("other", "jump", True), ("helper", "jump", False)]


def test_same_module_call_is_resolved_by_the_assembler(tc):
    module = tc.obj("CALL f\nBR f\nf: RET")
    assert module.relocs == []
    assert module.code == tc.words_of(tc.w("CALL", imm=2), tc.w("BR", imm=1), tc.w("RET"))


def test_metadata_directives_with_aliases(tc):
    module = tc.obj("""
        .value {"group_id": 1, "valueId": 2, "name": "speed", "unitName": "rpm", "init": 1.5,
    """.rstrip() + """ "flags": "RO|persist", "authLevel": "ADMIN", "persist": 7, "rateMs": 100}
        .value [{"groupId": 2, "id": 1, "init_raw": 15360}]
        .cmd {"group": 1, "commandId": 3, "handler": "reset", "flags": "PIN|ASYNC", "help": "x; y"}
        .cmd {"group": 1, "cmd_id": 4, "handler": 8}
        .mailbox {"name": " app:tele ", "queue_depth": 4, "mode": "rdwr|tap"}
    reset: RET
    """)
    values, commands, mailboxes = (module.metadata[k] for k in ("values", "commands",
                                                                 "mailboxes"))
    assert values[0] == {"group": 1, "value": 2, "name": "speed", "unit": "rpm", "init": 1.5,
                         "flags": 3, "auth": 2, "persist_key": 7, "rate_ms": 100}
    assert values[1] == {"group": 2, "value": 1, "init_raw": 15360}
    assert commands[0] == {"group": 1, "cmd": 3, "handler": "reset", "flags": 3, "help": "x; y"}
    assert commands[1] == {"group": 1, "cmd": 4, "handler_offset": 8}
    assert mailboxes == [{"target": "app:tele", "capacity": 4, "mode_mask": 7}]


def test_metadata_reaches_the_image_with_floats_as_f16():
    image = build_source("""
        .value {"group": 1, "id": 2, "init": 1.0, "max": 60000, "min_raw": 5}
        .cmd {"group": 1, "id": 3, "handler": "go", "name": "go"}
        .mailbox {"target": "app:x", "capacity": 2}
        NOP
    go: RET
    """)
    value = image.metadata.values[0]
    assert (value.init_f16, value.max_f16, value.min_f16) == (0x3C00, 0x7B53, 5)
    assert image.metadata.commands[0].handler_offset == 4
    assert image.metadata.mailboxes[0].target == "app:x"


# -- includes ---------------------------------------------------------------------------

def test_include_relative_to_the_including_file_then_include_dirs(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "main.mvasm").write_text('.include "sub/a.inc"\nCALL f\nRET\n')
    (tmp_path / "sub" / "a.inc").write_text('.include "b.inc"\n.include "c.inc"\n')
    (tmp_path / "sub" / "b.inc").write_text(".equ N, 3\n")
    (tmp_path / "lib" / "c.inc").write_text("JMP skip\nf: LDI R0, N\nRET\nskip:\n")
    module = assemble_file(tmp_path / "main.mvasm", [str(tmp_path / "lib")])
    assert len(module.code) == 5
    assert module.files == ("main.mvasm", "lib/c.inc")
    assert module.symbols["f"].file == "lib/c.inc"
    image = build_file(tmp_path / "main.mvasm", [str(tmp_path / "lib")])
    assert image.app_name == "main"


def test_recursive_include_is_an_error(tmp_path):
    (tmp_path / "a.mvasm").write_text('.include "b.inc"\n')
    (tmp_path / "b.inc").write_text('NOP\n.include "a.mvasm"\n')
    with pytest.raises(ToolchainError) as info:
        assemble_file(tmp_path / "a.mvasm")
    message = str(info.value.diagnostics[0])
    assert message.endswith("b.inc:2:1: 'a.mvasm' includes itself (recursive .include)")
