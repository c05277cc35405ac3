"""LLVM metadata (`!N = ...` lines): debug-info nodes with their fields by name.

A module with `-g` has thousands of metadata lines, most of them `DILocation`s; the
table parses a node only when someone looks it up."""
from __future__ import annotations

from dataclasses import dataclass, field

from .irtext import Parser, tokenize
from .sourcenames import source_name


@dataclass
class MDNode:
    """`!N = [distinct] !DIKind(key: value, ...)` or a tuple `!{...}`."""

    kind: str                                  # "DILocation", ..., or "tuple"
    fields: dict[str, object] = field(default_factory=dict)
    items: list = field(default_factory=list)  # tuple elements


@dataclass(frozen=True)
class MDRef:
    id: str


class Metadata:
    """The module's metadata nodes by id (`"12"` for `!12`), each parsed from its line
    on first use.  `get(id)` returns None for an unknown id or a line that is not a
    node (a plain value)."""

    def __init__(self) -> None:
        self._lines: dict[str, str] = {}
        self._nodes: dict[str, MDNode | None] = {}
        self._files: dict[int, str | None] = {}

    def add_line(self, line: str) -> None:
        """Remember a `!id = ...` line of the module text."""
        end = line.find(" = ")
        if end > 1:
            self._lines[line[1:end]] = line[end + 3:]

    def get(self, key: str) -> MDNode | None:
        try:
            return self._nodes[key]
        except KeyError:
            pass
        text = self._lines.get(key)
        node = None
        if text is not None:
            p = Parser(tokenize(text))
            p.skip_words({"distinct"})
            value = _md_value(p)
            node = value if isinstance(value, MDNode) else None
        self._nodes[key] = node
        return node

    def node(self, value) -> MDNode | None:
        """`value` itself if it is a node, the node an `MDRef` names, else None."""
        if isinstance(value, MDRef):
            return self.get(value.id)
        return value if isinstance(value, MDNode) else None

    def file_of(self, scope: MDNode | None) -> str | None:
        """The source file (named as in sourcenames.py) of a scope, variable or type:
        its own `file`, else its enclosing scope's."""
        if scope is None:
            return None
        key = id(scope)
        if key not in self._files:
            self._files[key] = self._find_file(scope)
        return self._files[key]

    def _find_file(self, scope: MDNode) -> str | None:
        seen = 0
        node: MDNode | None = scope
        while node is not None and seen < 64:
            difile = node if node.kind == "DIFile" else self.node(node.fields.get("file"))
            if difile is not None:
                return source_name(str(difile.fields.get("filename") or ""),
                                   difile.fields.get("directory"))
            node = self.node(node.fields.get("scope"))
            seen += 1
        return None


def _md_value(p: Parser) -> object:
    tok = p.tok
    if tok.kind == "meta" and p.peek().text == "(" and tok.value[:1].isalpha() \
            and not tok.value.isdigit():
        p.next()
        p.next()
        node = MDNode(tok.value)
        while not p.at(")"):
            if p.peek().text != ":":            # positional: DIExpression(DW_OP_..., 4)
                node.items.append(_md_field(p))
                p.accept(",")
                continue
            key = p.next().text
            p.expect(":")
            node.fields[key] = _md_field(p)
            p.accept(",")
        p.expect(")")
        return node
    if tok.kind == "punct" and tok.text == "!" and p.peek().text == "{":
        p.next()
        p.next()
        node = MDNode("tuple")
        while not p.at("}"):
            node.items.append(_md_item(p))
            p.accept(",")
        p.expect("}")
        return node
    return _md_item(p)


def _md_field(p: Parser) -> object:
    tok = p.tok
    if tok.kind == "meta":
        if tok.value.isdigit():
            p.next()
            return MDRef(tok.value)
        if p.peek().text == "(":
            return _md_value(p)
        p.next()
        return tok.value
    if tok.kind == "str":
        p.next()
        return tok.value.decode("utf-8", "replace")
    if tok.kind == "int":
        p.next()
        return tok.value
    if tok.kind == "word":
        p.next()
        words = [tok.text]
        while p.accept("|"):
            words.append(p.next().text)
        if len(words) == 1 and p.tok.kind == "int" and tok.text[:1] == "i" \
                and tok.text[1:].isdigit():
            return p.next().value              # a typed integer: extraData: i64 0
        return words[0] if len(words) == 1 else words
    if tok.kind == "punct" and tok.text == "!" and p.peek().kind == "str":
        p.next()
        return p.next().value.decode("utf-8", "replace")
    p.skip_balanced()
    return None


def _md_item(p: Parser) -> object:
    tok = p.tok
    if tok.kind == "meta" and tok.value.isdigit():
        p.next()
        return MDRef(tok.value)
    if tok.kind == "punct" and tok.text == "!" and p.peek().kind == "str":
        p.next()
        return p.next().value.decode("utf-8", "replace")
    if tok.kind == "meta" and p.peek().text == "(":
        return _md_value(p)
    if p.is_type_start():
        ty = p.parse_type()
        return p.parse_constant(ty)
    p.skip_balanced()
    return None
