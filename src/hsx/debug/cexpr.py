"""C expressions over a stopped task: what `evaluate`, `set`, watches and breakpoint
conditions read (docs/debugger.md, "Expressions").

    counter + 1        list->head->value       shape.pts[2].y      *(char *)buf
    (unsigned char)x   sizeof(struct point)    &global_shape.area  $r3 + $sp

Parsed once into a tree, evaluated against a `Scope` (one frame of one task: its
variables, registers and memory). Nothing reaches `eval`. Values are typed (`TValue`):
integer arithmetic wraps as C's does after the usual conversions, pointers scale by
their target's size, and an lvalue remembers where it lives (memory, a register, or a
bit-field) so `set` can write it. Extensions for registers and raw memory, which
breakpoint conditions have always had: `$r0`..`$r15`, `$sp`, `$fp`, `$pc`, `$psw` (and
bare `R0`..`R15`, `SP`, `FP`, `PC`, `PSW` when no variable has that name), `[addr]`,
`byte[addr]`, `half[addr]`, `word[addr]`, `signed(x)`, `and`/`or`/`not`; a label
without a C type (an MVASM symbol) stands for its address.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

from . import ctype as C
from .ctype import CType
from .cvalue import (
    EvalError,
    Location,
    Scope,
    TValue,
    address_of,
    arithmetic_type,
    cast,
    converted,
    integer,
    rvalue,
    scalar,
    truth,
)

MAX_DEPTH = 200           # nesting of the expression tree (hostile input stays bounded)


REGISTER_NAMES = {**{f"r{i}": i for i in range(16)}, "sp": 15, "fp": 14}
SPECIALS = ("pc", "psw")

# --- tokens ----------------------------------------------------------------------------

_TOKEN = re.compile(r"""\s*(?:
    (?P<float>(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?[fFlL]?|\d+[eE][-+]?\d+[fFlL]?)
  | (?P<int>(?:0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)[uUlL]*)
  | (?P<char>'(?:\\.|[^\\'])+')
  | (?P<name>\$?[A-Za-z_][\w]*)
  | (?P<op>->|\|\||&&|==|!=|<=|>=|<<|>>|[-+*/%&|^~!<>()\[\].?:,])
)""", re.VERBOSE)
_WORDS = {"and": "&&", "or": "||", "not": "!"}
_BINARY = [{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="},
           {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}]
_TYPE_WORDS = {"char", "short", "int", "long", "unsigned", "signed", "float", "double",
               "void", "_Bool", "bool", "struct", "union", "enum", "const", "volatile"}
_WIDTHS = {"byte": 1, "half": 2, "word": 4}
_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92,
            "'": 39, '"': 34}


def tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            raise EvalError(f"unexpected {text[pos:].strip()[:12]!r} at column {pos + 1}")
        kind = match.lastgroup
        value = match.group(kind)
        if kind == "name" and value in _WORDS:
            kind, value = "op", _WORDS[value]
        tokens.append((kind, value, match.start(kind)))
        pos = match.end()
    return tokens


# --- the tree ----------------------------------------------------------------------------

Node = Callable[["Scope"], TValue]


@dataclass(frozen=True)
class Expression:
    text: str
    node: Node
    names: frozenset[str]          # identifiers it uses (checked when a condition is set)

    def evaluate(self, scope: Scope) -> TValue:
        try:
            return self.node(scope)
        except RecursionError:
            raise EvalError("the expression is nested too deeply") from None


def parse(text: str) -> Expression:
    if not isinstance(text, str) or not text.strip():
        raise EvalError("an expression must be a non-empty string")
    parser = _Parser(text)
    try:
        node = parser.expression()
    except RecursionError:
        raise EvalError("the expression is nested too deeply") from None
    if parser.peek() is not None:
        parser.fail(f"unexpected {parser.peek()!r}")
    return Expression(text, node, frozenset(parser.names))


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.i = 0
        self.names: set[str] = set()
        self.depth = 0

    def fail(self, message: str) -> None:
        raise EvalError(message)

    def peek(self, ahead: int = 0) -> str | None:
        j = self.i + ahead
        return self.tokens[j][1] if j < len(self.tokens) else None

    def take(self, expected: str | None = None) -> tuple[str, str, int]:
        if self.i >= len(self.tokens):
            self.fail(f"expected {expected!r} at the end" if expected else "incomplete expression")
        token = self.tokens[self.i]
        if expected is not None and token[1] != expected:
            self.fail(f"expected {expected!r} at column {token[2] + 1}, found {token[1]!r}")
        self.i += 1
        return token

    def expression(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail("the expression is nested too deeply")
        condition = self.binary(0)
        if self.peek() == "?":
            self.take("?")
            yes = self.expression()
            self.take(":")
            no = self.expression()
            self.depth -= 1
            return lambda s: yes(s) if truth(condition(s), s) else no(s)
        self.depth -= 1
        return condition

    def binary(self, level: int) -> Node:
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in _BINARY[level] and self.tokens[self.i][0] == "op":
            op = self.take()[1]
            right = self.binary(level + 1)
            left = _binary(op, left, right)
        return left

    def unary(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail("the expression is nested too deeply")
        try:
            token = self.peek()
            if token in ("-", "+", "!", "~", "*", "&"):
                self.take()
                inner = self.unary()
                return _unary(token, inner)
            if token == "sizeof":
                self.take()
                if self.peek() == "(" and self._type_follows(1):
                    self.take("(")
                    t = self.type_name()
                    self.take(")")
                    return lambda s: rvalue(C.UINT, t(s).strip().size)
                inner = self.unary()
                return lambda s: rvalue(C.UINT, inner(s).type.strip().size)
            if token == "(" and self._type_follows(1):
                self.take("(")
                t = self.type_name()
                self.take(")")
                inner = self.unary()
                return lambda s: cast(t(s), inner(s), s)
            return self.postfix(self.primary())
        finally:
            self.depth -= 1

    def _type_follows(self, ahead: int) -> bool:
        token = self.peek(ahead)
        if token is None:
            return False
        if token in _TYPE_WORDS:
            return True
        return bool(re.fullmatch(r"[A-Za-z_]\w*_t", token))     # uint32_t and friends

    def type_name(self) -> Callable[[Scope], CType]:
        words = []
        while self.peek() in _TYPE_WORDS - {"struct", "union", "enum"}:
            words.append(self.take()[1])
        tag = None
        if self.peek() in ("struct", "union", "enum"):
            kind = self.take()[1]
            tag = (kind, self.take()[1])
        elif not words:
            tag = ("typedef", self.take()[1])
        stars = 0
        while self.peek() == "*":
            self.take("*")
            stars += 1
        spelled = " ".join(w for w in words if w not in ("const", "volatile"))

        def resolve(scope: Scope) -> CType:
            if tag is not None:
                t = scope.types.named(*tag)
                if t is None:
                    raise EvalError(f"unknown type {' '.join(tag) if tag[0] != 'typedef' else tag[1]}")
            elif spelled in C.BASE_TYPES:
                t = C.BASE_TYPES[spelled]
            elif spelled.startswith("unsigned ") and spelled[9:] in C.BASE_TYPES:
                t = C.BASE_TYPES["unsigned " + spelled[9:]]
            else:
                raise EvalError(f"unknown type {spelled!r}")
            for _ in range(stars):
                t = C.pointer_to(t)
            return t
        return resolve

    def postfix(self, node: Node) -> Node:
        while self.peek() in ("[", ".", "->"):
            op = self.take()[1]
            if op == "[":
                index = self.expression()
                self.take("]")
                node = _index(node, index)
            else:
                name = self.take()[1]
                node = _member(node, name, arrow=op == "->")
        return node

    def primary(self) -> Node:
        kind, value, column = self.take()
        if kind == "int":
            return _int_literal(value)
        if kind == "float":
            number = float(value.rstrip("fFlL"))
            t = C.FLOAT if value[-1] in "fF" else C.DOUBLE
            return lambda s: rvalue(t, number)
        if kind == "char":
            number = _char_value(value)
            return lambda s: rvalue(C.INT, number)
        if value == "(":
            node = self.expression()
            self.take(")")
            return node
        if value == "[":
            return self._memory(4)
        if kind != "name":
            self.fail(f"unexpected {value!r} at column {column + 1}")
        if value.lower() in _WIDTHS and self.peek() == "[":
            self.take("[")
            return self._memory(_WIDTHS[value.lower()])
        if value == "signed" and self.peek() == "(":
            self.take("(")
            inner = self.expression()
            self.take(")")
            return lambda s: cast(C.INT, inner(s), s)
        if value.startswith("$"):
            return _register(value[1:].lower(), value)
        self.names.add(value)
        return _name(value)

    def _memory(self, width: int) -> Node:
        address = self.expression()
        self.take("]")
        t = {1: C.BASE_TYPES["unsigned char"], 2: C.BASE_TYPES["unsigned short"],
             4: C.UINT}[width]
        return lambda s: TValue(t, Location("memory", integer(address(s), s) & 0xFFFFFFFF))


def _int_literal(text: str) -> Node:
    digits = text.rstrip("uUlL")
    suffix = text[len(digits):].lower()
    number = int(digits, 0)
    unsigned = "u" in suffix or (digits[:2].lower() in ("0x", "0b") and number >= 1 << 31)
    if number >= 1 << 32 or "ll" in suffix:
        t = C.ULONG_LONG if unsigned or number >= 1 << 63 else C.LONG_LONG
    else:
        t = C.UINT if unsigned or number >= 1 << 31 else C.INT
    return lambda s: rvalue(t, number)


def _char_value(text: str) -> int:
    body = text[1:-1]
    if body.startswith("\\"):
        if body[1] == "x":
            return int(body[2:], 16)
        if body[1] in _ESCAPES:
            return _ESCAPES[body[1]]
        if body[1:].isdigit():
            return int(body[1:], 8)
        raise EvalError(f"unknown escape in {text}")
    if len(body) != 1:
        raise EvalError(f"a character literal holds one character: {text}")
    return ord(body) if ord(body) < 128 else ord(body) - 256



def _element(v: TValue) -> CType:
    t = v.type.strip()
    target = t.target if t.target is not None else C.VOID
    return target


def _pointer_like(v: TValue) -> bool:
    return v.type.strip().kind in ("pointer", "array")


def _unary(op: str, inner: Node) -> Node:
    def evaluate(s: Scope) -> TValue:
        v = inner(s)
        if op == "*":
            if not _pointer_like(v):
                raise EvalError(f"cannot dereference a {v.type.display}")
            target = _element(v)
            if target.strip().kind == "void":
                raise EvalError("cannot dereference a void pointer (cast it first)")
            return TValue(target, Location("memory", integer(v, s) & 0xFFFFFFFF))
        if op == "&":
            return rvalue(C.pointer_to(v.type), address_of(v))
        if op == "!":
            return rvalue(C.INT, int(not truth(v, s)))
        value = scalar(v, s)
        t = arithmetic_type(v.type, C.INT)
        if op == "-":
            return rvalue(t, -value)
        if op == "+":
            return rvalue(t, value)
        if isinstance(value, float):
            raise EvalError("~ needs an integer")
        return rvalue(t, ~value)
    return evaluate


def _binary(op: str, left: Node, right: Node) -> Node:
    if op in ("&&", "||"):
        def logic(s: Scope) -> TValue:
            a = truth(left(s), s)
            if op == "&&":
                return rvalue(C.INT, int(a and truth(right(s), s)))
            return rvalue(C.INT, int(a or truth(right(s), s)))
        return logic

    def evaluate(s: Scope) -> TValue:
        a, b = left(s), right(s)
        if op in ("+", "-") and (_pointer_like(a) or _pointer_like(b)):
            return _pointer_arithmetic(op, a, b, s)
        if op in ("==", "!=", "<", "<=", ">", ">=") and (_pointer_like(a) or _pointer_like(b)):
            x, y = integer(a, s) & 0xFFFFFFFF, integer(b, s) & 0xFFFFFFFF
            return rvalue(C.INT, int(_compare(op, x, y)))
        t = arithmetic_type(a.type, b.type)
        x = converted(t, scalar(a, s))
        y = converted(t, scalar(b, s))
        if op in ("==", "!=", "<", "<=", ">", ">="):
            return rvalue(C.INT, int(_compare(op, x, y)))
        if t.is_float:
            if op in ("%", "<<", ">>", "&", "|", "^"):
                raise EvalError(f"{op} needs integers")
            return rvalue(t, _float_op(op, float(x), float(y)))
        if op in ("/", "%") and y == 0:
            raise EvalError("division by zero")
        if op == "/":
            q = abs(x) // abs(y)
            return rvalue(t, -q if (x < 0) != (y < 0) else q)
        if op == "%":
            m = abs(x) % abs(y)
            return rvalue(t, -m if x < 0 else m)
        if op in ("<<", ">>"):
            left_type = arithmetic_type(a.type, C.INT)
            count = y & (8 * left_type.size - 1)
            value = converted(left_type, scalar(a, s))
            return rvalue(left_type, value << count if op == "<<" else value >> count)
        return rvalue(t, {"+": x + y, "-": x - y, "*": x * y, "&": x & y, "|": x | y,
                          "^": x ^ y}[op])
    return evaluate


def _float_op(op: str, x: float, y: float) -> float:
    if op == "/":
        if y == 0:
            return math.nan if x == 0 or x != x else math.copysign(math.inf, x) * math.copysign(1, y)
        return x / y
    return {"+": x + y, "-": x - y, "*": x * y}[op]


def _compare(op: str, x, y) -> bool:
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y,
            ">=": x >= y}[op]


def _pointer_arithmetic(op: str, a: TValue, b: TValue, s: Scope) -> TValue:
    if _pointer_like(a) and _pointer_like(b):
        if op == "+":
            raise EvalError("cannot add two pointers")
        size = max(_element(a).strip().size, 1)
        return rvalue(C.INT, ((integer(a, s) - integer(b, s)) & 0xFFFFFFFF) // size
                      if integer(a, s) >= integer(b, s)
                      else -(((integer(b, s) - integer(a, s)) & 0xFFFFFFFF) // size))
    pointer, offset = (a, b) if _pointer_like(a) else (b, a)
    if op == "-" and pointer is b:
        raise EvalError("cannot subtract a pointer from a number")
    if not offset.type.is_integer:
        raise EvalError("a pointer moves by an integer")
    step = max(_element(pointer).strip().size, 1) * integer(offset, s)
    base = integer(pointer, s)
    t = C.pointer_to(_element(pointer))
    return rvalue(t, (base + step if op == "+" else base - step) & 0xFFFFFFFF)


def _index(node: Node, index: Node) -> Node:
    def evaluate(s: Scope) -> TValue:
        v = node(s)
        if not _pointer_like(v):
            raise EvalError(f"cannot index a {v.type.display}")
        t = v.type.strip()
        i = integer(index(s), s)
        if t.kind == "array" and t.count is not None and v.loc is not None \
                and not 0 <= i < t.count:
            raise EvalError(f"index {i} is outside {t.display}")
        element = _element(v)
        return TValue(element, Location("memory", (integer(v, s) + i * max(element.strip().size, 1))
                                        & 0xFFFFFFFF))
    return evaluate


def _member(node: Node, name: str, arrow: bool) -> Node:
    def evaluate(s: Scope) -> TValue:
        v = node(s)
        if arrow:
            if not _pointer_like(v):
                raise EvalError(f"-> needs a pointer, not a {v.type.display}")
            base, holder = integer(v, s) & 0xFFFFFFFF, _element(v).strip()
        else:
            holder = v.type.strip()
            base = address_of(v) if holder.kind in ("struct", "union") else 0
        if holder.kind not in ("struct", "union"):
            raise EvalError(f"a {holder.display} has no members")
        for f in holder.fields:
            if f.name == name:
                if f.bit_size is not None:
                    return TValue(f.type, Location("bitfield", base + f.offset, field=f))
                return TValue(f.type, Location("memory", base + f.offset))
        raise EvalError(f"{holder.display} has no member {name!r}")
    return evaluate


def _register(name: str, spelled: str) -> Node:
    if name in REGISTER_NAMES:
        index = REGISTER_NAMES[name]
        return lambda s: TValue(C.UINT, Location("register", reg=index))
    if name in SPECIALS:
        return lambda s: TValue(C.UINT, Location("special", special=name))
    raise EvalError(f"unknown register {spelled} ($r0..$r15, $sp, $fp, $pc, $psw)")


def _name(name: str) -> Node:
    def evaluate(s: Scope) -> TValue:
        found = s.variable(name)
        if found is not None:
            return found
        lower = name.lower()
        if lower in REGISTER_NAMES or lower in SPECIALS:
            return _register(lower, name)(s)
        addr = s.label(name)
        if addr is not None:
            return rvalue(C.UINT, addr)
        raise EvalError(f"no variable, register or symbol named {name!r} here")
    return evaluate


