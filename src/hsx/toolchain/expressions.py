"""Operand expressions: their syntax tree and evaluation to `symbol + addend`.

An expression evaluates to a `Value`: a plain constant, or the address of one
symbol plus a constant, optionally passed through `lo16`/`hi16`/`off16`.  That is
exactly what a relocation can express, so anything else (two symbols added, a symbol
multiplied, arithmetic on `lo16(sym)`) is rejected with the column of the culprit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from .diagnostics import SourceLocation

FUNCTIONS = ("lo16", "hi16", "off16")


@dataclass(frozen=True)
class Number:
    value: int
    loc: SourceLocation


@dataclass(frozen=True)
class Name:
    name: str
    loc: SourceLocation


@dataclass(frozen=True)
class Negate:
    operand: "Expr"
    loc: SourceLocation


@dataclass(frozen=True)
class Binary:
    op: str                     # '+', '-' or '*'
    left: "Expr"
    right: "Expr"
    loc: SourceLocation


@dataclass(frozen=True)
class Call:
    function: str               # one of FUNCTIONS
    argument: "Expr"
    loc: SourceLocation


Expr = Union[Number, Name, Negate, Binary, Call]


@dataclass(frozen=True)
class Value:
    """`kind(address(symbol) + addend)`, or the constant `addend` when symbol is None."""

    addend: int
    symbol: str | None = None
    kind: str = "symbol"

    @property
    def is_constant(self) -> bool:
        return self.symbol is None


class ExpressionError(Exception):
    def __init__(self, message: str, loc: SourceLocation) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc


# Resolves a name to a Value (a constant, or a symbolic reference to keep for later).
NameResolver = Callable[[Name], Value]
# Distance between two symbols if both are labels of the same section here, else None.
Difference = Callable[[str, str], "int | None"]


def _no_difference(_a: str, _b: str) -> None:
    return None


def evaluate(expr: Expr, resolve: NameResolver, difference: Difference = _no_difference) -> Value:
    """Fold `expr` to a Value, raising ExpressionError at the offending node."""
    if isinstance(expr, Number):
        return Value(expr.value)
    if isinstance(expr, Name):
        return resolve(expr)
    if isinstance(expr, Negate):
        inner = evaluate(expr.operand, resolve, difference)
        if not inner.is_constant:
            raise ExpressionError("cannot negate a symbol address", expr.loc)
        return Value(-inner.addend)
    if isinstance(expr, Call):
        inner = evaluate(expr.argument, resolve, difference)
        if inner.kind != "symbol":
            raise ExpressionError(f"cannot nest {inner.kind}() inside {expr.function}()",
                                  expr.loc)
        if inner.is_constant:
            if expr.function == "off16":
                raise ExpressionError("off16() needs a symbol", expr.loc)
            return Value(_apply_constant(expr.function, inner.addend))
        return Value(inner.addend, inner.symbol, expr.function)
    return _binary(expr, evaluate(expr.left, resolve, difference),
                   evaluate(expr.right, resolve, difference), difference)


def _apply_constant(function: str, value: int) -> int:
    return (value & 0xFFFF) if function == "lo16" else (value >> 16) & 0xFFFF


def _binary(expr: Binary, left: Value, right: Value, difference: Difference) -> Value:
    for side in (left, right):
        if side.kind != "symbol":
            raise ExpressionError(f"cannot do arithmetic on {side.kind}(); "
                                  f"put the arithmetic inside the parentheses", expr.loc)
    if left.is_constant and right.is_constant:
        a, b = left.addend, right.addend
        return Value(a + b if expr.op == "+" else a - b if expr.op == "-" else a * b)
    if expr.op == "+":
        if not left.is_constant and not right.is_constant:
            raise ExpressionError("cannot add two symbol addresses", expr.loc)
        symbolic, constant = (left, right) if right.is_constant else (right, left)
        return Value(symbolic.addend + constant.addend, symbolic.symbol)
    if expr.op == "-":
        if right.is_constant:
            return Value(left.addend - right.addend, left.symbol)
        if left.is_constant:
            raise ExpressionError("cannot subtract a symbol address from a number", expr.loc)
        distance = difference(left.symbol, right.symbol)
        if distance is None:
            raise ExpressionError(
                f"'{left.symbol} - {right.symbol}' needs two labels of the same section "
                f"of this file", expr.loc)
        return Value(distance + left.addend - right.addend)
    raise ExpressionError("cannot multiply a symbol address", expr.loc)
