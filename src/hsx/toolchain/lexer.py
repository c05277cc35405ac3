"""Split one line of MVASM into tokens.

The lexer never fails: characters it does not understand become `ERROR` tokens, so
the parser decides what is wrong and where.  Comments (`;` or `//`) end the line only
outside string and character literals, and `Line.code_end` marks where code stops so
that metadata directives can take the rest of the line verbatim as JSON.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    IDENT = "identifier"
    NUMBER = "number"
    STRING = "string"
    PUNCT = "punctuation"
    ERROR = "error"


PUNCTUATION = frozenset(",:[]()+-={}*")
_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.")
_IDENT_CHARS = _IDENT_START | frozenset("0123456789$")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "\\": "\\"}


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str          # source text as written (a string keeps its quotes)
    col: int           # 1-based column of the first character
    value: str = ""    # decoded characters of a STRING; the message of an ERROR

    @property
    def quote(self) -> str:
        return self.text[0] if self.kind is Kind.STRING else ""


@dataclass(frozen=True)
class Line:
    text: str
    tokens: tuple[Token, ...]
    code_end: int      # index in `text` where the comment (or the line) ends


def tokenize(text: str) -> Line:
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\r\f\v":
            i += 1
        elif ch == ";" or text.startswith("//", i):
            break
        elif ch in "\"'":
            end, value, problem = _scan_string(text, i)
            kind = Kind.ERROR if problem else Kind.STRING
            tokens.append(Token(kind, text[i:end], i + 1, problem or value))
            i = end
        elif ch.isdigit():
            end = i + 1
            while end < n and (text[end].isalnum() or text[end] in "_."):
                end += 1
            tokens.append(Token(Kind.NUMBER, text[i:end], i + 1))
            i = end
        elif ch in _IDENT_START:
            end = i + 1
            while end < n and text[end] in _IDENT_CHARS:
                end += 1
            tokens.append(Token(Kind.IDENT, text[i:end], i + 1))
            i = end
        elif ch in PUNCTUATION:
            tokens.append(Token(Kind.PUNCT, ch, i + 1))
            i += 1
        else:
            tokens.append(Token(Kind.ERROR, ch, i + 1, f"unexpected character {ch!r}"))
            i += 1
    return Line(text, tuple(tokens), i)


def _scan_string(text: str, start: int) -> tuple[int, str, str]:
    """Scan a quoted literal -> (end index, decoded value, problem or '')."""
    quote = text[start]
    out: list[str] = []
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == quote:
            return i + 1, "".join(out), ""
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(text):
            break
        esc = text[i + 1]
        if esc == "x":
            digits = text[i + 2:i + 4]
            if len(digits) != 2 or not all(c in "0123456789abcdefABCDEF" for c in digits):
                return _skip_to_quote(text, i, quote), "", "\\x needs two hex digits"
            out.append(chr(int(digits, 16)))
            i += 4
        else:
            out.append(_ESCAPES.get(esc, esc))
            i += 2
    return len(text), "", "unterminated string"


def _skip_to_quote(text: str, i: int, quote: str) -> int:
    end = text.find(quote, i)
    return len(text) if end < 0 else end + 1


def parse_number(text: str) -> int | None:
    """Decimal, 0x hex or 0b binary; None if `text` is not such a number."""
    lowered = text.lower()
    try:
        if lowered.startswith("0x"):
            return int(lowered[2:], 16)
        if lowered.startswith("0b"):
            return int(lowered[2:], 2)
        if lowered.isdigit():
            return int(lowered, 10)
    except ValueError:
        return None
    return None
