"""MVASM text of parsed statements: the inverse of parser.py.

A compiler can build statements directly and hand them to the assembler (no text to
re-parse, see `build.assemble_statements`), and still print the same program as MVASM
(`hsx cc -S`).  `parse(format(s))` gives back `s` up to source locations and how a
negative number is written (a test checks this on random statements).
"""
from __future__ import annotations

from .expressions import Call, Name, Negate, Number
from .parser import (Directive, KeyValue, Label, Memory, Operand, Register, SourceLine,
                     Statement, String)

# Directives that hold data are indented like instructions; the others are not.
DATA_DIRECTIVES = frozenset({".byte", ".half", ".hword", ".word", ".zero", ".space",
                             ".ascii", ".asciz", ".string"})
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}


def format_statement(statement: Statement | SourceLine) -> str:
    if isinstance(statement, SourceLine):
        return statement.text
    if isinstance(statement, Label):
        return f"{statement.name}:"
    if isinstance(statement, Directive):
        indent = "    " if statement.name in DATA_DIRECTIVES else ""
        if statement.raw:
            return f"{indent}{statement.name} {statement.raw}"
        return _with_operands(indent + statement.name, statement.args)
    return _with_operands("    " + statement.mnemonic, statement.operands)


def format_statements(statements) -> str:
    return "\n".join(format_statement(s) for s in statements) + "\n"


def _with_operands(head: str, operands) -> str:
    if not operands:
        return head
    return head + " " + ", ".join(format_operand(o) for o in operands)


def format_operand(operand: Operand) -> str:
    if isinstance(operand, Register):
        return f"R{operand.number}"
    if isinstance(operand, Memory):
        base = f"R{operand.base.number}"
        if operand.offset is None:
            return f"[{base}]"
        offset = operand.offset
        if isinstance(offset, Number) and offset.value < 0:
            return f"[{base}-{-offset.value}]"
        if isinstance(offset, Negate):          # `[Rn-e]` reads as Negate(e)
            return f"[{base}-{_expression(offset.operand, 0)}]"
        return f"[{base}+{_expression(offset, 0)}]"
    if isinstance(operand, KeyValue):
        return f"{operand.key}={_expression(operand.value, 0)}"
    if isinstance(operand, String):
        return '"' + "".join(_escape(c) for c in operand.text) + '"'
    return _expression(operand, 0)


def _escape(c: str) -> str:
    if c in _ESCAPES:
        return _ESCAPES[c]
    return f"\\x{ord(c):02x}" if ord(c) < 32 or ord(c) == 127 else c


def _expression(expr, need: int) -> str:
    """`expr` as text that parses back to it where an operand of precedence `need` or
    higher is expected (1 a sum, 2 a product, 3 a unary or atom)."""
    if isinstance(expr, Number):
        text, prec = str(expr.value), 3
    elif isinstance(expr, Name):
        text, prec = expr.name, 3
    elif isinstance(expr, Call):
        text, prec = f"{expr.function}({_expression(expr.argument, 0)})", 3
    elif isinstance(expr, Negate):
        text, prec = "-" + _expression(expr.operand, 3), 3
    elif expr.op == "*":
        text, prec = f"{_expression(expr.left, 2)}*{_expression(expr.right, 3)}", 2
    else:
        text, prec = f"{_expression(expr.left, 1)}{expr.op}{_expression(expr.right, 2)}", 1
    return text if prec >= need else f"({text})"
