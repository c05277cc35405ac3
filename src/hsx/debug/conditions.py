"""Breakpoint conditions: a small expression language over registers and memory.

Parsed once when the breakpoint is set (syntax errors are reported then) into a tree
of closures evaluated at each hit.  Nothing is ever passed to `eval`: the only things
an expression can touch are the task's registers, PC, PSW, memory reads and symbol
addresses.  docs/debugger.md has the grammar; in short::

    R1 == 5            [0x4000] > 3          byte[buf + 2] != 0
    SP < 0xE000 && counter != 0              signed(R0) < 0

Values are Python integers: registers and memory read as unsigned, arithmetic is
exact, `==`/`!=` compare modulo 2**32 (so `R1 == -1` works) and `signed(x)` reads x as
a two's-complement 32-bit number for ordered comparisons.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Protocol

from . import errors as E
from .errors import DebugError

MASK = 0xFFFFFFFF
_TOKEN = re.compile(r"""\s*(?:
    (?P<num>0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)
  | (?P<name>[A-Za-z_.$][\w.$]*)
  | (?P<op>\|\||&&|==|!=|<=|>=|<<|>>|[-+*/%&|^~!<>()\[\]])
)""", re.VERBOSE)
_REGISTERS = {**{f"R{i}": i for i in range(16)}, "SP": 15, "FP": 14}
_WIDTHS = {"byte": 1, "half": 2, "word": 4}
_WORDS = {"and": "&&", "or": "||", "not": "!"}
_BINARY = [  # lowest precedence first
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"<<", ">>"},
    {"+", "-"}, {"*", "/", "%"},
]


class Env(Protocol):
    """What a condition can see of a stopped task."""

    def register(self, index: int) -> int: ...
    def pc(self) -> int: ...
    def psw(self) -> int: ...
    def read(self, addr: int, width: int) -> int: ...
    def symbol(self, name: str) -> int: ...


class ConditionError(Exception):
    """Evaluation failed (memory out of range, unknown symbol, division by zero)."""


Node = Callable[[Env], int]


class TaskEnv:
    """A condition's view of one task: its context and its symbol table (or None)."""

    def __init__(self, ctx, table) -> None:
        self.ctx, self.table = ctx, table

    def register(self, index: int) -> int:
        return self.ctx.regs[index]

    def pc(self) -> int:
        return self.ctx.pc

    def psw(self) -> int:
        return self.ctx.psw

    def read(self, addr: int, width: int) -> int:
        if addr + width > len(self.ctx.mem):
            raise ConditionError(f"memory 0x{addr:X}+{width} is outside the task")
        return int.from_bytes(self.ctx.mem[addr:addr + width], "little")

    def symbol(self, name: str) -> int:
        symbol = self.table.symbol(name) if self.table is not None else None
        if symbol is None:
            raise ConditionError(f"unknown symbol {name!r}")
        return symbol.address


@dataclass(frozen=True)
class Condition:
    text: str
    _node: Node
    symbols: frozenset[str]           # names the expression uses, checked when it is set

    def holds(self, env: Env) -> bool:
        """True when the condition is non-zero; raises ConditionError."""
        return self._node(env) != 0


def parse_condition(text: str) -> Condition:
    if not isinstance(text, str) or not text.strip():
        raise DebugError(E.BAD_CONDITION, "a condition must be a non-empty string")
    parser = _Parser(text)
    node = parser.expression(0)
    if parser.peek() is not None:
        parser.fail(f"unexpected {parser.peek()!r}")
    return Condition(text.strip(), node, frozenset(parser.names))


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise DebugError(E.BAD_CONDITION, f"condition {text!r}: unexpected character "
                                 f"{text[pos:].lstrip()[0]!r} at column {pos + 1}")
            kind = match.lastgroup
            value = match.group(kind)
            if kind == "name" and value.lower() in _WORDS:
                kind, value = "op", _WORDS[value.lower()]
            self.tokens.append((kind, value, match.start(kind)))
            pos = match.end()
        self.i = 0
        self.names: set[str] = set()

    def fail(self, message: str) -> None:
        raise DebugError(E.BAD_CONDITION, f"condition {self.text!r}: {message}")

    def peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> tuple[str, str, int]:
        if self.i >= len(self.tokens):
            self.fail("unexpected end" + (f", expected {expected!r}" if expected else ""))
        token = self.tokens[self.i]
        if expected is not None and token[1] != expected:
            self.fail(f"expected {expected!r} at column {token[2] + 1}, found {token[1]!r}")
        self.i += 1
        return token

    def expression(self, level: int) -> Node:
        if level == len(_BINARY):
            return self.unary()
        node = self.expression(level + 1)
        while self.peek() in _BINARY[level]:
            op = self.take()[1]
            node = _binary(op, node, self.expression(level + 1))
        return node

    def unary(self) -> Node:
        if self.peek() in ("-", "~", "!"):
            op = self.take()[1]
            inner = self.unary()
            if op == "-":
                return lambda env: -inner(env)
            if op == "~":
                return lambda env: ~inner(env) & MASK
            return lambda env: int(inner(env) & MASK == 0)
        return self.primary()

    def primary(self) -> Node:
        kind, value, column = self.take()
        if kind == "num":
            number = int(value, 0)
            return lambda env: number
        if value == "(":
            node = self.expression(0)
            self.take(")")
            return node
        if value == "[":
            return self.memory(4)
        if kind != "name":
            self.fail(f"unexpected {value!r} at column {column + 1}")
        upper = value.upper()
        if upper in _REGISTERS:
            index = _REGISTERS[upper]
            return lambda env: env.register(index)
        if upper == "PC":
            return lambda env: env.pc()
        if upper == "PSW":
            return lambda env: env.psw()
        if value.lower() in _WIDTHS and self.peek() == "[":
            self.take("[")
            return self.memory(_WIDTHS[value.lower()])
        if value.lower() == "signed" and self.peek() == "(":
            self.take("(")
            inner = self.expression(0)
            self.take(")")
            return lambda env: _signed(inner(env))
        self.names.add(value)
        return lambda env: env.symbol(value)

    def memory(self, width: int) -> Node:
        address = self.expression(0)
        self.take("]")
        return lambda env: env.read(address(env) & MASK, width)


def _signed(value: int) -> int:
    value &= MASK
    return value - (1 << 32) if value & 0x80000000 else value


def _divide(a: int, b: int, remainder: bool) -> int:
    if b == 0:
        raise ConditionError("division by zero")
    quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)     # truncates, as C
    return a - quotient * b if remainder else quotient


def _binary(op: str, left: Node, right: Node) -> Node:
    if op == "||":
        return lambda env: int(left(env) != 0 or right(env) != 0)
    if op == "&&":
        return lambda env: int(left(env) != 0 and right(env) != 0)
    if op in ("==", "!="):
        equal = op == "=="
        return lambda env: int(((left(env) - right(env)) & MASK == 0) == equal)
    combine = _OPERATORS[op]
    return lambda env: combine(left(env), right(env))


_OPERATORS: dict[str, Callable[[int, int], int]] = {
    "|": lambda a, b: a | b, "^": lambda a, b: a ^ b, "&": lambda a, b: a & b,
    "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b),
    "<<": lambda a, b: (a << (b & 31)) & MASK, ">>": lambda a, b: (a & MASK) >> (b & 31),
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: _divide(a, b, False), "%": lambda a, b: _divide(a, b, True),
}
