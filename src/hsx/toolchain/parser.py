"""Turn MVASM source into a flat list of statements (labels, directives, instructions).

`.include` is expanded here, so later stages see one stream whose every node carries
the file, line and column it came from.  Operands may be separated by commas or
blanks (the prior syntax allowed both); brackets and expressions may contain blanks.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from .diagnostics import DiagnosticSink, SourceLocation
from .expressions import FUNCTIONS, Binary, Call, Expr, Name, Negate, Number
from .lexer import Kind, Line, Token, parse_number, tokenize

# Directives whose argument is the rest of the line taken verbatim (a JSON payload).
RAW_DIRECTIVES = frozenset({".value", ".cmd", ".mailbox"})
REGISTER_ALIASES = {"SP": 15}


@dataclass(frozen=True)
class Register:
    number: int
    loc: SourceLocation


@dataclass(frozen=True)
class Memory:
    """`[Rn]`, `[Rn+expr]` or `[Rn-expr]`; `offset` is None for `[Rn]`."""

    base: Register
    offset: Expr | None
    loc: SourceLocation


@dataclass(frozen=True)
class KeyValue:
    """`KEY=expr`, as in `SVC MOD=1 FN=0`; `key` is upper-case."""

    key: str
    value: Expr
    loc: SourceLocation


@dataclass(frozen=True)
class String:
    text: str
    loc: SourceLocation


Operand = Union[Register, Memory, KeyValue, String, Number, Name, Negate, Binary, Call]


@dataclass(frozen=True)
class Label:
    name: str
    loc: SourceLocation


@dataclass(frozen=True)
class Directive:
    """`name` is lower-case with its dot; `raw` is the verbatim rest of a metadata line."""

    name: str
    args: tuple[Operand, ...]
    loc: SourceLocation
    raw: str = ""


@dataclass(frozen=True)
class Instruction:
    mnemonic: str               # upper-case
    operands: tuple[Operand, ...]
    loc: SourceLocation


Statement = Union[Label, Directive, Instruction]


@dataclass(frozen=True)
class SourceLine:
    """A line of MVASM text inside a list of statements a compiler built (file-scope and
    inline `asm`, comments), parsed when the list is assembled, at `loc`'s line."""

    text: str
    loc: SourceLocation


class ParseError(Exception):
    def __init__(self, message: str, loc: SourceLocation) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc


class Parser:
    """Parses files and text into statements, reporting problems to a DiagnosticSink."""

    def __init__(self, sink: DiagnosticSink, include_dirs: tuple[str, ...] = ()) -> None:
        self.sink = sink
        self.include_dirs = tuple(include_dirs)
        self._open: list[str] = []       # real paths of the files being read (recursion check)

    def parse_file(self, path: str) -> list[Statement]:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.sink.error(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
            return []
        return self.parse_text(text, path)

    def parse_text(self, text: str, filename: str) -> list[Statement]:
        real = os.path.realpath(filename)
        self._open.append(real)
        try:
            statements: list[Statement] = []
            for number, line_text in enumerate(text.splitlines(), start=1):
                try:
                    self._parse_line(tokenize(line_text), filename, number, statements)
                except ParseError as exc:
                    self.sink.error(exc.message, exc.loc)
            return statements
        finally:
            self._open.pop()

    def parse_line(self, text: str, filename: str, number: int) -> list[Statement]:
        """The statements of one line (problems go to the sink)."""
        statements: list[Statement] = []
        try:
            self._parse_line(tokenize(text), filename, number, statements)
        except ParseError as exc:
            self.sink.error(exc.message, exc.loc)
        return statements

    # -- one line -------------------------------------------------------------------

    def _parse_line(self, line: Line, filename: str, number: int,
                    statements: list[Statement]) -> None:
        """Append the line's statements (labels first, so they survive a later error)."""
        cursor = _Cursor(line, filename, number)
        while cursor.peek_kind(Kind.IDENT) and cursor.peek_punct(":", ahead=1):
            token = cursor.next()
            cursor.next()
            statements.append(Label(token.text, cursor.loc(token)))
        if cursor.at_end():
            return
        head = cursor.next()
        if head.kind is not Kind.IDENT:
            raise ParseError(_unexpected(head, "a label, directive or mnemonic"), cursor.loc(head))
        loc = cursor.loc(head)
        if head.text.startswith("."):
            name = head.text.lower()
            if name == ".include":
                statements.extend(self._include(cursor, loc))
            elif name in RAW_DIRECTIVES:
                statements.append(Directive(name, (), loc, cursor.rest()))
            else:
                statements.append(Directive(name, tuple(_operands(cursor)), loc))
        else:
            statements.append(Instruction(head.text.upper(), tuple(_operands(cursor)), loc))

    def _include(self, cursor: "_Cursor", loc: SourceLocation) -> list[Statement]:
        if cursor.peek_kind(Kind.STRING):
            target = cursor.next().value
            if not cursor.at_end():
                token = cursor.next()
                raise ParseError(_unexpected(token, "end of line"), cursor.loc(token))
        else:
            target = cursor.rest()
        if not target:
            raise ParseError(".include needs a file name", loc)
        path = self._find_include(target, loc.file)
        if path is None:
            raise ParseError(f"cannot find include file '{target}'", loc)
        if os.path.realpath(path) in self._open:
            raise ParseError(f"'{target}' includes itself (recursive .include)", loc)
        return self.parse_file(path)

    def _find_include(self, target: str, including_file: str) -> str | None:
        candidates = [os.path.join(os.path.dirname(including_file), target)]
        candidates += [os.path.join(directory, target) for directory in self.include_dirs]
        return next((os.path.normpath(c) for c in candidates if os.path.isfile(c)), None)


class _Cursor:
    """Position in one tokenized line."""

    def __init__(self, line: Line, filename: str, number: int) -> None:
        self.line = line
        self.tokens = line.tokens
        self.filename = filename
        self.number = number
        self.index = 0

    def loc(self, token: Token | None = None) -> SourceLocation:
        col = token.col if token else self.line.code_end + 1
        return SourceLocation(self.filename, self.number, col)

    def at_end(self) -> bool:
        return self.index >= len(self.tokens)

    def peek(self, ahead: int = 0) -> Token | None:
        i = self.index + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def peek_kind(self, kind: Kind, ahead: int = 0) -> bool:
        token = self.peek(ahead)
        return token is not None and token.kind is kind

    def peek_punct(self, text: str, ahead: int = 0) -> bool:
        token = self.peek(ahead)
        return token is not None and token.kind is Kind.PUNCT and token.text == text

    def next(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect_punct(self, text: str, what: str) -> Token:
        token = self.peek()
        if token is None or token.kind is not Kind.PUNCT or token.text != text:
            raise ParseError(_unexpected(token, what), self.loc(token))
        return self.next()

    def rest(self) -> str:
        """The remaining source text of the line, without its comment."""
        if self.at_end():
            return ""
        start = self.tokens[self.index].col - 1
        self.index = len(self.tokens)
        return self.line.text[start:self.line.code_end].strip()


def _unexpected(token: Token | None, wanted: str) -> str:
    if token is None:
        return f"expected {wanted}, found end of line"
    if token.kind is Kind.ERROR:
        return token.value
    return f"expected {wanted}, found '{token.text}'"


def register_number(text: str) -> int | None:
    """`R0`..`R15` / `SP` (any case) -> number; None if `text` is not a register name.

    `R16` and up are still register names (so they are reported as out of range
    rather than taken for a symbol)."""
    upper = text.upper()
    if upper in REGISTER_ALIASES:
        return REGISTER_ALIASES[upper]
    if len(upper) > 1 and upper[0] == "R" and upper[1:].isdigit():
        return int(upper[1:])
    return None


def _operands(cursor: _Cursor) -> list[Operand]:
    operands: list[Operand] = []
    while not cursor.at_end():
        operands.append(_operand(cursor))
        if cursor.peek_punct(","):
            comma = cursor.next()
            if cursor.at_end():
                raise ParseError("expected an operand after ','", cursor.loc(comma))
    return operands


def _operand(cursor: _Cursor) -> Operand:
    token = cursor.peek()
    assert token is not None
    if token.kind is Kind.IDENT:
        number = register_number(token.text)
        if number is not None:
            cursor.next()
            return _register(token, number, cursor)
        if cursor.peek_punct("=", ahead=1):
            cursor.next()
            cursor.next()
            return KeyValue(token.text.upper(), _expression(cursor), cursor.loc(token))
    if token.kind is Kind.PUNCT and token.text == "[":
        return _memory(cursor)
    if token.kind is Kind.STRING and not _is_char_literal(token):
        cursor.next()
        return String(token.value, cursor.loc(token))
    return _expression(cursor)


def _register(token: Token, number: int, cursor: _Cursor) -> Register:
    if number > 15:
        raise ParseError(f"register {token.text} does not exist (R0..R15, SP)", cursor.loc(token))
    return Register(number, cursor.loc(token))


def _memory(cursor: _Cursor) -> Memory:
    open_bracket = cursor.next()
    token = cursor.peek()
    number = register_number(token.text) if token and token.kind is Kind.IDENT else None
    if number is None:
        raise ParseError(_unexpected(token, "a base register after '['"), cursor.loc(token))
    cursor.next()
    base = _register(token, number, cursor)
    offset: Expr | None = None
    if cursor.peek_punct("+") or cursor.peek_punct("-"):
        sign = cursor.next()
        offset = _expression(cursor)
        if sign.text == "-":
            offset = Negate(offset, cursor.loc(sign))
    cursor.expect_punct("]", "']' or '+offset'")
    return Memory(base, offset, cursor.loc(open_bracket))


def _is_char_literal(token: Token) -> bool:
    return token.quote == "'" and len(token.value) == 1


def _expression(cursor: _Cursor) -> Expr:
    left = _term(cursor)
    while cursor.peek_punct("+") or cursor.peek_punct("-"):
        op = cursor.next()
        left = Binary(op.text, left, _term(cursor), cursor.loc(op))
    return left


def _term(cursor: _Cursor) -> Expr:
    left = _unary(cursor)
    while cursor.peek_punct("*"):
        op = cursor.next()
        left = Binary("*", left, _unary(cursor), cursor.loc(op))
    return left


def _unary(cursor: _Cursor) -> Expr:
    if cursor.peek_punct("-"):
        sign = cursor.next()
        return Negate(_unary(cursor), cursor.loc(sign))
    if cursor.peek_punct("+"):
        cursor.next()
        return _unary(cursor)
    return _primary(cursor)


def _primary(cursor: _Cursor) -> Expr:
    token = cursor.peek()
    if token is None:
        raise ParseError("expected an expression, found end of line", cursor.loc())
    loc = cursor.loc(token)
    if token.kind is Kind.NUMBER:
        cursor.next()
        value = parse_number(token.text)
        if value is None:
            raise ParseError(f"bad number '{token.text}'", loc)
        return Number(value, loc)
    if token.kind is Kind.STRING and _is_char_literal(token):
        cursor.next()
        return Number(ord(token.value), loc)
    if token.kind is Kind.IDENT:
        cursor.next()
        if register_number(token.text) is not None:
            raise ParseError(f"register {token.text} cannot be used in an expression", loc)
        if cursor.peek_punct("(") and token.text.lower() in FUNCTIONS:
            cursor.next()
            argument = _expression(cursor)
            cursor.expect_punct(")", "')'")
            return Call(token.text.lower(), argument, loc)
        return Name(token.text, loc)
    if token.kind is Kind.PUNCT and token.text == "(":
        cursor.next()
        inner = _expression(cursor)
        cursor.expect_punct(")", "')'")
        return inner
    raise ParseError(_unexpected(token, "an expression"), loc)
