"""Every assembler error path: message and `file:line:col`, several per run, no traceback."""
from __future__ import annotations

import pytest

from hsx.toolchain.build import assemble_source
from hsx.toolchain.diagnostics import MAX_ERRORS, ToolchainError

CASES = [
    ("FOO R1", "t.mvasm:1:1: unknown mnemonic 'FOO'"),
    ("LDI R1", "t.mvasm:1:1: LDI takes 2 operand(s): LDI Rd, imm"),
    ("LDI R1, 2, 3", "t.mvasm:1:12: LDI takes 2 operand(s)"),
    ("RET R1", "t.mvasm:1:5: RET takes 0 operand(s)"),
    ("NOP R1", "t.mvasm:1:5: NOP takes no operands"),
    ("ADD R1, R2, 5", "t.mvasm:1:13: ADD expects a register for Rb"),
    ("LDI 5, R1", "t.mvasm:1:5: LDI expects a register for Rd"),
    ("LD R1, R2", "t.mvasm:1:8: LD expects a memory operand [Ra+offset]"),
    ("JMP R1", "t.mvasm:1:5: JMP expects a branch target here"),
    ("LDI R16, 1", "t.mvasm:1:5: register R16 does not exist (R0..R15, SP)"),
    ("a: NOP\na: NOP", "t.mvasm:2:1: duplicate label 'a' (first defined at t.mvasm:1:1)"),
    (".equ a, 1\na: NOP", "t.mvasm:2:1: duplicate label 'a'"),
    ("R1: NOP", "t.mvasm:1:1: 'R1' is a register name and cannot be a label"),
    ("JMP nowhere", "t.mvasm:1:5: undefined symbol 'nowhere'"),
    ("LDI R1, 5000", "t.mvasm:1:9: LDI: immediate 5000 (0x1388) does not fit signed 12 bits "
                     "(-2048..2047); use LDI20"),
    ("LDI R1, 0x7FF00000", "t.mvasm:1:9: LDI: immediate 2146435072 (0x7FF00000) does not fit "
                           "signed 12 bits (-2048..2047); use LDIH"),
    ("LDI R1, 0x7FF00001", "use LDI32"),
    ("LDI20 R1, 524288", "t.mvasm:1:11: LDI20: immediate 524288 (0x80000) does not fit signed "
                         "20 bits (-524288..524287); use LDI32"),
    ("LDIH R1, 0x1001", "t.mvasm:1:10: LDIH: immediate 4097 (0x1001) is not a 32-bit multiple "
                        "of 0x1000; use LDI32"),
    ("LD R1, [R2+2048]", "t.mvasm:1:8: LD: offset 2048 (0x800) does not fit signed 12 bits"),
    ("ADDI R1, R1, 4096", "t.mvasm:1:14: ADDI: immediate 4096 (0x1000) does not fit"),
    ("LDI R1, msg\n.data\nmsg: .byte 1",
     "t.mvasm:1:9: LDI: immediate 16384 (0x4000) does not fit signed 12 bits (-2048..2047); "
     "use LDI20"),
    ("JMP 0x4000000", "t.mvasm:1:5: JMP target 0x4000000 is 16777216 words away from 0x0; "
                      "JMP reaches -8388608..8388607 words"),
    ("CALL 0x4000000", "t.mvasm:1:6: CALL target 0x4000000 is 16777216 words away from 0x0; "
                       "CALL reaches -8388608..8388607 words"),
    ("NOP\nJMP 2", "t.mvasm:2:5: JMP target 0x2 is not a multiple of 4"),
    ("BR 6", "t.mvasm:1:4: BR target 0x6 is not a multiple of 4"),
    ("BR msg\n.data\nmsg: .byte 0", "t.mvasm:1:4: branch target 'msg' is a data label"),
    ("BR lo16(x)\nx: NOP", "t.mvasm:1:4: a branch target cannot be lo16()"),
    (".value {bad json}", "t.mvasm:1:8: bad .value JSON: Expecting property name"),
    (".value", "t.mvasm:1:8: .value needs a JSON object or array on the same line"),
    (".value []", "t.mvasm:1:8: .value needs a JSON object or a non-empty array"),
    ('.value {"group": 1}', "t.mvasm:1:8: value needs 'value'"),
    ('.value {"group": 256, "id": 1}', "value 'group' must be an integer 0..255, got 256"),
    ('.value {"group": 1, "id": 1, "init": "x"}', "value 'init' must be a number"),
    ('.value {"group": 1, "id": 1, "colour": 3}', "unknown value key 'colour'"),
    ('.value {"group": 1, "id": 1, "init": 1e9}',
     "t.mvasm:1:8: value 'init' must be a number -65504..65504 (values are f16), got 1000000000.0"),
    ('.value {"group": 1, "id": 1, "max": 65520}', "value 'max' must be a number -65504..65504"),
    ('.value {"group": 1, "id": 1, "min": -1e400}', "value 'min' must be a number -65504..65504"),
    ('.value {"group": 1, "id": 1, "epsilon": NaN}', "value 'epsilon' must be a number -65504"),
    ('.value {"group": 1, "id": 1, "init": ' + "9" * 400 + '}', "value 'init' must be a number -"),
    ('.cmd {"group": 1, "id": 2, "flags": "FOO"}',
     "t.mvasm:1:6: unknown command flags 'FOO' (known: ASYNC, PIN)"),
    ('.cmd {"group": 1, "id": 2, "handler": "d"}\n.data\nd: .byte 0',
     "t.mvasm:1:1: command handler 'd' is not a code label"),
    ('.mailbox {"target": ""}', "t.mvasm:1:10: mailbox needs a non-empty 'target'"),
    ('.mailbox {"target": "x", "mode": "slow"}', "unknown mailbox mode 'slow'"),
    (".bogus 1", "t.mvasm:1:1: unknown directive '.bogus'"),
    (".data\nLDI R1, 1", "t.mvasm:2:1: instructions belong in .text (this is .data)"),
    (".byte 1", "t.mvasm:1:1: '.byte' is only allowed in .data (this is .text)"),
    (".bss\n.byte 1", "t.mvasm:2:1: '.byte' is only allowed in .data (this is .bss)"),
    (".data\n.org 4", "t.mvasm:2:1: '.org' is only allowed in .text"),
    (".text 1", "t.mvasm:1:7: '.text' takes no operands"),
    ("SVC 0x1000", "t.mvasm:1:5: SVC number 4096 is out of range 0..4095"),
    ("SVC MOD=16, FN=0", "t.mvasm:1:9: SVC module 16 is out of range 0..15"),
    ("SVC 1, 256", "t.mvasm:1:8: SVC function 256 is out of range 0..255"),
    ("SVC MOD=1", "t.mvasm:1:1: SVC takes a number, 'mod, fn' or 'MOD=m, FN=f'"),
    ("SVC MOD=1, X=2", "t.mvasm:1:1: SVC needs FN="),
    ("SVC MOD=1, 2", "t.mvasm:1:1: SVC: write either 'MOD=m, FN=f' or 'mod, fn'"),
    ("SVC label\nlabel: NOP", "t.mvasm:1:5: SVC number must be a constant, not the address "
                              "of 'label'"),
    ("BRK 300", "t.mvasm:1:5: BRK code 300 is out of range 0..255"),
    ("BRK 1, 2", "t.mvasm:1:8: BRK takes at most one operand"),
    ("CALL [R0+4]", "t.mvasm:1:7: CALL [R0+offset] is not available"),
    ("CALL [R1+2]", "t.mvasm:1:6: CALL offset 2 must be a multiple of 4"),
    (".entry nothere\nNOP", "t.mvasm:1:8: entry symbol 'nothere' is not a code label"),
    ("NOP\n.entry 2", "t.mvasm:2:8: entry offset 0x2 is not a multiple of 4"),
    ("NOP\n.entry 8", "t.mvasm:2:8: entry offset 0x8 is outside the code (4 bytes)"),
    ("NOP\n.entry\n.entry 0", "t.mvasm:3:1: entry point already set at t.mvasm:2:1"),
    (".export nothere\nNOP", "t.mvasm:1:9: cannot export 'nothere': not defined in this file"),
    (".equ K, 1\n.export K\nNOP", "t.mvasm:2:9: cannot export 'K': an .equ constant"),
    (".export 5", "t.mvasm:1:9: '.export' takes symbol names"),
    (".import x\nx: NOP", "t.mvasm:1:9: 'x' is declared .import but defined in this file"),
    (".ascii \"unterminated", "t.mvasm:1:8: unterminated string"),
    (".data\n.ascii \"\\x4\"", "t.mvasm:2:8: \\x needs two hex digits"),
    (".data\n.ascii \"\u20ac\"", "t.mvasm:2:8: character '\u20ac' does not fit a byte"),
    (".data\n.ascii R1", "t.mvasm:2:8: character must be a number"),
    (".data\n.ascii 256", "t.mvasm:2:8: character 256 is out of range 0..255"),
    (".data\n.word \"ab\"", "t.mvasm:2:7: strings are only allowed in .byte/.ascii"),
    ("LDI R1, @", "t.mvasm:1:9: unexpected character '@'"),
    ("LDI R1, 0xZZ", "t.mvasm:1:9: bad number '0xZZ'"),
    ("LD R1, [5]", "t.mvasm:1:9: expected a base register after '[', found '5'"),
    ("LD R1, [R2+4", "t.mvasm:1:13: expected ']' or '+offset', found end of line"),
    ("ADD R1, R2, R3,", "t.mvasm:1:15: expected an operand after ','"),
    ("LDI R1, (1", "t.mvasm:1:11: expected ')', found end of line"),
    ("LDI R1, R2 + 1", "t.mvasm:1:14: LDI takes 2 operand(s)"),
    ("LDI R1, 1 + R2", "t.mvasm:1:13: register R2 cannot be used in an expression"),
    ("5: NOP", "t.mvasm:1:1: expected a label, directive or mnemonic, found '5'"),
    (".data\n.byte 256", "t.mvasm:2:7: .byte: value 256 (0x100) does not fit 8 bits"),
    (".data\n.half 70000", "t.mvasm:2:7: .half: value 70000 (0x11170) does not fit 16 bits"),
    (".data\n.zero label\nlabel:", "t.mvasm:2:7: byte count must be a constant"),
    (".data\n.zero -1", "t.mvasm:2:7: byte count -1 is out of range"),
    (".equ A, B\n.equ B, A\nLDI R1, A", "'A' is defined in terms of itself"),
    (".equ A, 1\n.equ A, 2", "t.mvasm:2:6: 'A' is already defined at t.mvasm:1:6"),
    (".equ A", "t.mvasm:1:1: .equ takes NAME, expression"),
    (".org 2\nNOP", "t.mvasm:1:6: .org offset 0x2 is not a multiple of 4"),
    ("NOP\n.org 0", "t.mvasm:2:6: .org 0x0 is behind the current offset 0x4"),
    (".align 3\nNOP", "t.mvasm:1:8: .align 3 in .text: use a power of two"),
    ("LDI R1, lo16(x)+1\nx: NOP", "t.mvasm:1:16: cannot do arithmetic on lo16()"),
    ("LDI R1, lo16(hi16(x))\nx: NOP", "t.mvasm:1:9: cannot nest hi16() inside lo16()"),
    ("LDI R1, off16(4)", "t.mvasm:1:9: off16() needs a symbol"),
    ("LDI32 R1, a+b\na: b: NOP", "t.mvasm:1:12: cannot add two symbol addresses"),
    ("LDI32 R1, -a\na: NOP", "t.mvasm:1:11: cannot negate a symbol address"),
    ("LDI32 R1, 2*a\na: NOP", "t.mvasm:1:12: cannot multiply a symbol address"),
    ("LDI32 R1, 1-a\na: NOP", "t.mvasm:1:12: cannot subtract a symbol address from a number"),
    ("LDI R1, a-b\na: NOP\n.data\nb:", "t.mvasm:1:10: 'a - b' needs two labels of the same "
                                        "section of this file"),
    ('.include "missing.inc"', "t.mvasm:1:1: cannot find include file 'missing.inc'"),
    (".include", "t.mvasm:1:1: .include needs a file name"),
]


@pytest.mark.parametrize("source, expected", CASES, ids=[c[0][:30] for c in CASES])
def test_error_message_and_location(tc, source, expected):
    messages = tc.errors(source)
    assert any(expected in m for m in messages), messages
    if expected.startswith("t.mvasm:"):
        assert messages[0].startswith(expected.split(": ")[0] + ": ")


def test_several_errors_reported_in_one_run(tc):
    messages = tc.errors("""\
        FOO
        LDI R1, 99999
        ok: NOP
        ok: NOP
        JMP missing
    """)
    assert messages == [
        "t.mvasm:1:1: unknown mnemonic 'FOO'",
        "t.mvasm:4:1: duplicate label 'ok' (first defined at t.mvasm:3:1)",
        "t.mvasm:2:9: LDI: immediate 99999 (0x1869F) does not fit signed 12 bits (-2048..2047); "
        "use LDI20",
    ]


def test_error_count_is_limited():
    with pytest.raises(ToolchainError) as info:
        assemble_source("BAD\n" * 100, "t.mvasm")
    diagnostics = info.value.diagnostics
    assert len(diagnostics) == MAX_ERRORS + 1
    assert str(diagnostics[-1]).startswith("too many errors")


def test_undefined_symbols_are_relocations_in_object_mode(tc):
    module = tc.obj("JMP elsewhere\nLDI32 R1, data_elsewhere")
    assert [r.symbol for r in module.relocs] == ["elsewhere", "data_elsewhere"]
    assert module.relocs[0].at == "t.mvasm:1:5"
