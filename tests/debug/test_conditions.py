"""The breakpoint condition language: parsing, precedence, values, and errors."""
from __future__ import annotations

import pytest

from hsx.debug import DebugError, parse_condition
from hsx.debug.cvalue import EvalError
from hsx.debug.conditions import ConditionError
from hsx.debug.ctype import TypeTable


class Env:
    """A stopped task as a condition sees it (hsx.debug.cexpr.Scope), with no C types:
    labels stand for their addresses."""

    types = TypeTable([])

    def __init__(self):
        self.regs = [0] * 16
        self.regs[1], self.regs[2], self.regs[15] = 5, 0xFFFFFFFF, 0xFF00
        self.memory = bytearray(0x10000)
        self.memory[0x4000] = 7
        self.memory[0x4004] = 0x80

    def variable(self, name):
        return None

    def label(self, name):
        return 0x4000 if name == "counter" else None

    def register(self, index):
        return self.regs[index]

    def special(self, name):
        return {"pc": 0x20, "psw": 0b0101}[name]

    def read(self, addr, size):
        if addr + size > len(self.memory):
            raise EvalError("outside")
        return bytes(self.memory[addr:addr + size])


@pytest.mark.parametrize("text, expected", [
    ("R1 == 5", True), ("r1 != 5", False), ("R2 == -1", True), ("R2 < 0", False),
    ("signed(R2) < 0", True), ("SP == 0xFF00", True), ("FP == 0", True), ("PC == 32", True),
    ("PSW & 4", True), ("[0x4000] > 3", True), ("[counter] == 7", True), ("counter == 0x4000", True),
    ("byte[counter + 4] == 0x80", True), ("half[0x4004] == 128", True), ("word[0x4008] == 0", True),
    ("R1 + 1 * 2 == 7", True), ("(R1 + 1) * 2 == 12", True), ("R1 > 2 && R1 < 9", True),
    ("R1 > 7 || R1 == 5", True), ("not R0", True), ("!R1", False), ("~R0 == R2", True),
    ("R1 and R0", False), ("R1 or R0", True), ("1 << 4 == 16", True), ("R2 >> 28 == 15", True),
    ("R1 % 3 == 2", True), ("-7 / 2 == -3", True), ("-7 % 2 == -1", True), ("R1 ^ 1 == 4", True),
    ("R1 | 2 == 7", True), ("0b101 == R1", True),
])
def test_values_and_precedence(text, expected):
    assert parse_condition(text).holds(Env()) is expected


@pytest.mark.parametrize("text", ["", "   ", "R1 ==", "== 1", "R1 = 1", "(R1", "[1", "R1 5",
                                  "R1 @ 2", "signed(R1", "byte 3"])
def test_syntax_errors_name_the_problem(text):
    with pytest.raises(DebugError) as error:
        parse_condition(text)
    assert error.value.code == "bad_condition"


@pytest.mark.parametrize("text", ["R1 / R0", "[0x20000]", "other > 1"])
def test_evaluation_errors(text):
    with pytest.raises(ConditionError):
        parse_condition(text).holds(Env())


def test_names_used_are_collected():
    assert parse_condition("[counter] > limit && R1").symbols == {"counter", "limit"}
    assert parse_condition(" R1 == 5 ").text == "R1 == 5"
