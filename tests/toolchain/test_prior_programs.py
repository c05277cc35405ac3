"""Test programs of the prior implementation (vm_isa_hxe.md §8), written in the prior
syntax (one statement per line, labels alone, no blanks in brackets), give the words
the prior assembler produced (apart from its defects, e.g. `SVC a, b`)."""
from __future__ import annotations

import pytest

PROGRAMS = {
    "T1": ("""
main:
LDI R5,0
CALL foo
ADD R5,R5,R13
RET
foo:
LDI R13,1
RET
""", [("LDI", dict(rd=5)), ("CALL", dict(imm=3)), ("ADD", dict(rd=5, rs1=5, rs2=13)),
      ("RET", {}), ("LDI", dict(rd=13, imm=1)), ("RET", {})]),
    "T2": ("""
main:
CALL foo
RET
foo:
CALL bar
RET
bar:
LDI R0,42
RET
""", [("CALL", dict(imm=2)), ("RET", {}), ("CALL", dict(imm=2)), ("RET", {}),
      ("LDI", dict(imm=42)), ("RET", {})]),
    "T3": ("""
.entry main
prologue:
LDI R2,7
RET
main:
CALL prologue
RET
""", [("LDI", dict(rd=2, imm=7)), ("RET", {}), ("CALL", dict(imm=-2)), ("RET", {})]),
    "T5": ("""
start:
CALL start
RET
""", [("CALL", {}), ("RET", {})]),
    "T6": ("""
LDI R1,10
LDI R2,3
DIV R3,R1,R2
LDI R4,-7
BRK 0
""", [("LDI", dict(rd=1, imm=10)), ("LDI", dict(rd=2, imm=3)),
      ("DIV", dict(rd=3, rs1=1, rs2=2)), ("LDI", dict(rd=4, imm=-7)), ("BRK", {})]),
    "T9": ("""
.entry
LDI R0,42
SVC MOD=1 FN=0
""", [("LDI", dict(imm=42)), ("SVC", dict(imm=0x100))]),
    "T10": ("""
SVC MOD=0xF FN=0x7F
RET
""", [("SVC", dict(imm=0xF7F)), ("RET", {})]),
    "T11": ("""
LDI R1,0
SVC MOD=14 FN=0
RET
""", [("LDI", dict(rd=1)), ("SVC", dict(imm=0xE00)), ("RET", {})]),
    "T12": ("""
LDI32 R1,0xFFFFFFFF
LDI R2,1
ADD R3,R1,R2
BRK 0
""", [("LDI32", dict(rd=1, imm=0xFFFFFFFF)), ("LDI", dict(rd=2, imm=1)),
      ("ADD", dict(rd=3, rs1=1, rs2=2)), ("BRK", {})]),
    "T17": ("""
LDI R1,4
LDI R2,4
SUB R3,R1,R2
JZ taken
LDI32 R0,0xBAD
BRK 0
taken:
LDI32 R0,0x123
BRK 0
""", [("LDI", dict(rd=1, imm=4)), ("LDI", dict(rd=2, imm=4)),
      ("SUB", dict(rd=3, rs1=1, rs2=2)), ("JZ", dict(imm=28)), ("LDI32", dict(imm=0xBAD)),
      ("BRK", {}), ("LDI32", dict(imm=0x123)), ("BRK", {})]),
    "T22": ("""
LSL R6,R1,R2
LSR R7,R6,R2
ASR R8,R3,R2
ADC R9,R1,R4
SBC R10,R6,R4
""", [("LSL", dict(rd=6, rs1=1, rs2=2)), ("LSR", dict(rd=7, rs1=6, rs2=2)),
      ("ASR", dict(rd=8, rs1=3, rs2=2)), ("ADC", dict(rd=9, rs1=1, rs2=4)),
      ("SBC", dict(rd=10, rs1=6, rs2=4))]),
    "T24": ("""
LDI32 R1,0xFFFE
LD R2,[R1+0]
RET
""", [("LDI32", dict(rd=1, imm=0xFFFE)), ("LD", dict(rd=2, rs1=1)), ("RET", {})]),
    "T26": ("""
LD R2,[R1+0]
LD R3,[R1+1]
LDH R4,[R1+2]
LD R5,[R7+-4]
""", [("LD", dict(rd=2, rs1=1)), ("LD", dict(rd=3, rs1=1, imm=1)),
      ("LDH", dict(rd=4, rs1=1, imm=2)), ("LD", dict(rd=5, rs1=7, imm=-4))]),
    "T29": ("""
BRK
BRK 5
""", [("BRK", {}), ("BRK", dict(imm=5))]),
    "T30": ("""
LDI R1,5
BRK 7
LDI R1,6
""", [("LDI", dict(rd=1, imm=5)), ("BRK", dict(imm=7)), ("LDI", dict(rd=1, imm=6))]),
    "T31": ("""
LDI32 R1,0x2000
LDI R2,-1
STB [R1+0],R2
LDB R3,[R1+0]
STH [R1+4],R2
LDH R4,[R1+4]
""", [("LDI32", dict(rd=1, imm=0x2000)), ("LDI", dict(rd=2, imm=-1)),
      ("STB", dict(rs1=1, rs2=2)), ("LDB", dict(rd=3, rs1=1)),
      ("STH", dict(rs1=1, rs2=2, imm=4)), ("LDH", dict(rd=4, rs1=1, imm=4))]),
    "T32": ("""
FDIV R3,R1,R2
FADD R4,R1,R1
I2F R5,R1
F2I R8,R7
FSUB R1,R2,R3
FMUL R1,R2,R3
""", [("FDIV", dict(rd=3, rs1=1, rs2=2)), ("FADD", dict(rd=4, rs1=1, rs2=1)),
      ("I2F", dict(rd=5, rs1=1)), ("F2I", dict(rd=8, rs1=7)),
      ("FSUB", dict(rd=1, rs1=2, rs2=3)), ("FMUL", dict(rd=1, rs1=2, rs2=3))]),
    "T33": ("""
LDI R1,77
PUSH R1
MOV R2,R15
POP R3
MOV R4,R15
""", [("LDI", dict(rd=1, imm=77)), ("PUSH", dict(rs1=1)), ("MOV", dict(rd=2, rs1=15)),
      ("POP", dict(rd=3)), ("MOV", dict(rd=4, rs1=15))]),
    "T35": ("""
start:
LDI R1,1
ADD R0,R0,R1
JMP start
""", [("LDI", dict(rd=1, imm=1)), ("ADD", dict(rs2=1)), ("JMP", {})]),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_prior_program_words(tc, name):
    source, expected = PROGRAMS[name]
    assert tc.code(source) == tc.words_of(*(tc.w(m, **f) for m, f in expected))


def test_prior_encodings_by_value(tc):
    """Fixed words quoted by the reference (§2.7, §8 T27/T29)."""
    assert tc.code("BRK\nBRK 5\nLDI32 R13, 0") == [0x7F000000, 0x7F000005, 0x60D00000, 0]
    assert tc.code(".org 0xA10\nRET")[-1] == 0x25000000
    assert tc.code("JMP 0xA10")[0] == 0x21000A10


def test_prior_data_section_and_entry_symbol(tc):
    module = tc.obj("""
.entry main
main:
LDI32 R1,msg
LDI R2,lo16(x)
RET
x:
.data
msg:
.asciz "Hi\\n"
.byte 1,2
.half 0x1234
.word msg
.align 4
.zero 2
""")
    assert module.entry_symbol == "main" and "main" in module.exports
    assert module.rodata == b"Hi\n\0\x01\x02\x34\x12" + bytes(4 + 2)
    assert [(r.type, r.symbol, r.kind) for r in module.relocs] == [
        ("imm32", "msg", "symbol"), ("imm12", "x", "lo16"), ("data_word", "msg", "symbol")]
