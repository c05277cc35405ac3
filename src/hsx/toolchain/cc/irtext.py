"""A tokenizer and small recursive-descent parsers for fragments of LLVM IR text.

llvmlite gives us the module structure (functions, blocks, instructions, operands),
but some facts are only visible in the printed text: compare predicates, the source
type of a GEP, the allocated type of an alloca, the function type of a call, switch
case values, global initialisers, constant expressions and metadata.  This module reads
those fragments with a real tokenizer (no pattern matching over instruction lines).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Iterator

from .types import (ArrayT, FloatT, FuncT, IntT, LabelT, MetadataT, PtrT, StructT, TokenT,
                    Type, VectorT, VOID)


class IRSyntaxError(ValueError):
    """Text the fragment parsers do not understand (a compiler bug or unsupported IR)."""


# ---------------------------------------------------------------------------------------
# tokens

@dataclass(frozen=True)
class Token:
    kind: str          # word, local, global, meta, attr, int, float, str, cstr, punct, eof
    text: str
    value: object = None


_PUNCT = set("=,()[]{}<>*:|!")
_WORD_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$-")
_NAME_START = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.$-")


def _unescape(raw: str) -> bytes:
    """LLVM string escapes: `\\XX` hex and `\\\\`; everything else is literal (UTF-8)."""
    out = bytearray()
    i = 0
    data = raw.encode("utf-8")
    while i < len(data):
        c = data[i]
        if c == 0x5C and i + 1 < len(data):
            if data[i + 1] == 0x5C:
                out.append(0x5C)
                i += 2
                continue
            out.append(int(data[i + 1:i + 3], 16))
            i += 3
            continue
        out.append(c)
        i += 1
    return bytes(out)


def tokenize(text: str) -> list[Token]:
    """Split IR text into tokens; comments (`;` to end of line) are dropped."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif c == '"' or (c == "c" and i + 1 < n and text[i + 1] == '"'):
            start = i + (2 if c == "c" else 1)
            j = text.index('"', start)
            raw = text[start:j]
            tokens.append(Token("cstr" if c == "c" else "str", raw, _unescape(raw)))
            i = j + 1
        elif c in "%@!#" and i + 1 < n and (text[i + 1] in _WORD_CHARS or text[i + 1] == '"'):
            kind = {"%": "local", "@": "global", "!": "meta", "#": "attr"}[c]
            if text[i + 1] == '"':
                j = text.index('"', i + 2)
                name = _unescape(text[i + 2:j]).decode("utf-8", "replace")
                i = j + 1
            else:
                j = i + 1
                while j < n and text[j] in _WORD_CHARS:
                    j += 1
                name = text[i + 1:j]
                i = j
            tokens.append(Token(kind, c + name, name))
        elif c.isdigit() or (c in "-+" and i + 1 < n and text[i + 1].isdigit()):
            j = i + 1
            if text.startswith("0x", i):
                j = i + 2
                while j < n and text[j] in "0123456789abcdefABCDEFKLMHR":
                    j += 1
                tokens.append(Token("float", text[i:j]))
                i = j
                continue
            while j < n and (text[j].isdigit() or text[j] in ".eE" or
                             (text[j] in "+-" and text[j - 1] in "eE")):
                j += 1
            word = text[i:j]
            if any(ch in word for ch in ".eE"):
                tokens.append(Token("float", word))
            else:
                tokens.append(Token("int", word, int(word)))
            i = j
        elif c in _NAME_START:
            j = i + 1
            while j < n and text[j] in _WORD_CHARS:
                j += 1
            tokens.append(Token("word", text[i:j]))
            i = j
        elif c == "." and text.startswith("...", i):
            tokens.append(Token("punct", "..."))
            i += 3
        elif c in _PUNCT:
            tokens.append(Token("punct", c))
            i += 1
        else:
            raise IRSyntaxError(f"unexpected character {c!r} in IR text")
    tokens.append(Token("eof", ""))
    return tokens


# ---------------------------------------------------------------------------------------
# constants

@dataclass(frozen=True)
class CInt:
    value: int


@dataclass(frozen=True)
class CFloat:
    bits: int          # IEEE bits of the constant in its own type


@dataclass(frozen=True)
class CNull:
    pass


@dataclass(frozen=True)
class CUndef:          # undef and poison: any value will do
    pass


@dataclass(frozen=True)
class CZero:           # zeroinitializer
    pass


@dataclass(frozen=True)
class CGlobal:
    name: str


@dataclass(frozen=True)
class CBytes:          # c"..." string data
    data: bytes


@dataclass(frozen=True)
class CAggregate:      # [..], {..}, <{..}>, <..>: typed elements
    elems: tuple


@dataclass(frozen=True)
class CExpr:           # constant expression: opcode, result type, typed operands, extras
    op: str
    ty: Type
    args: tuple        # ((Type, constant), ...)
    extra: tuple = ()  # gep source type / cast target / predicate


@dataclass(frozen=True)
class CBlockAddress:
    function: str
    block: str


@dataclass(frozen=True)
class CDSOLocalEquivalent:
    name: str


Constant = object      # any of the classes above


_FLOAT_KINDS = {"half": 16, "bfloat": 16, "float": 32, "double": 64, "fp128": 128,
                "x86_fp80": 80, "ppc_fp128": 128}
_CAST_OPS = {"trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp",
             "sitofp", "ptrtoint", "inttoptr", "bitcast", "addrspacecast"}
_BINARY_OPS = {"add", "sub", "mul", "shl", "lshr", "ashr", "and", "or", "xor", "udiv",
               "sdiv", "urem", "srem"}
_WRAP_FLAGS = {"nuw", "nsw", "exact", "inbounds", "nusw", "disjoint", "samesign"}


def float_bits(text: str, ty: FloatT) -> int:
    """IEEE bits of an LLVM float literal in type `ty` (decimal or the hex forms)."""
    if text.startswith(("0xH", "0xR")):
        return int(text[3:], 16)
    if text.startswith(("0xK", "0xL", "0xM")):
        raise IRSyntaxError(f"{ty} constants are not supported")
    if text.startswith("0x"):
        # LLVM prints float and double constants as the bits of the equivalent double.
        as_double = struct.unpack("<d", int(text[2:], 16).to_bytes(8, "little"))[0]
        return _encode_float(as_double, ty)
    return _encode_float(float(text), ty)


def _encode_float(value: float, ty: FloatT) -> int:
    if ty.bits == 64:
        return int.from_bytes(struct.pack("<d", value), "little")
    if ty.bits == 32:
        return int.from_bytes(struct.pack("<f", value), "little")
    if ty.name == "half":
        return int.from_bytes(struct.pack("<e", value), "little")
    raise IRSyntaxError(f"{ty} constants are not supported")


class Parser:
    """Reads types and constants from a token list.

    `named_types` resolves `%struct.X` to its body (a callable, so bodies are parsed
    lazily and recursive types work)."""

    def __init__(self, tokens: list[Token], named_types=None) -> None:
        self.tokens = tokens
        self.pos = 0
        self.named_types = named_types

    # -- token helpers ------------------------------------------------------------------

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.pos + k, len(self.tokens) - 1)]

    def next(self) -> Token:
        tok = self.tokens[self.pos]
        if tok.kind != "eof":
            self.pos += 1
        return tok

    def at(self, text: str) -> bool:
        return self.tok.text == text and self.tok.kind in ("punct", "word")

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.pos += 1
            return True
        return False

    def expect(self, text: str) -> Token:
        if not self.at(text):
            raise IRSyntaxError(f"expected {text!r}, found {self.tok.text!r}")
        return self.next()

    def skip_words(self, words: set[str]) -> None:
        while self.tok.kind == "word" and self.tok.text in words:
            self.pos += 1

    def skip_balanced(self) -> None:
        """Skip one token, or a whole bracketed group if it opens one."""
        pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
        tok = self.next()
        if tok.kind == "punct" and tok.text in pairs:
            close = pairs[tok.text]
            depth = 1
            while depth:
                t = self.next()
                if t.kind == "eof":
                    raise IRSyntaxError("unbalanced brackets")
                if t.kind == "punct":
                    if t.text == tok.text:
                        depth += 1
                    elif t.text == close:
                        depth -= 1

    # -- types --------------------------------------------------------------------------

    def is_type_start(self) -> bool:
        tok = self.tok
        if tok.kind == "word":
            w = tok.text
            return (w in ("ptr", "void", "label", "metadata", "token")
                    or w in _FLOAT_KINDS or (w[:1] == "i" and w[1:].isdigit()))
        if tok.kind == "local":
            return True
        return tok.kind == "punct" and tok.text in ("[", "{", "<")

    def parse_type(self) -> Type:
        ty = self._base_type()
        while True:
            if self.at("("):                   # function type
                self.next()
                params, vararg = [], False
                while not self.at(")"):
                    if self.accept("..."):
                        vararg = True
                    else:
                        params.append(self.parse_type())
                        self.skip_param_attributes()
                    self.accept(",")
                self.expect(")")
                ty = FuncT(ty, tuple(params), vararg)
            elif self.at("*"):
                self.next()
                ty = PtrT()
            else:
                return ty

    def _base_type(self) -> Type:
        tok = self.next()
        if tok.kind == "word":
            w = tok.text
            if w == "ptr":
                if self.at("addrspace"):
                    self.next()
                    self.skip_balanced()
                return PtrT()
            if w == "void":
                return VOID
            if w == "label":
                return LabelT()
            if w == "metadata":
                return MetadataT()
            if w == "token":
                return TokenT()
            if w in _FLOAT_KINDS:
                return FloatT(w, _FLOAT_KINDS[w])
            if w[:1] == "i" and w[1:].isdigit():
                return IntT(int(w[1:]))
        elif tok.kind == "local":
            if self.named_types is None:
                raise IRSyntaxError(f"named type {tok.text} without a module")
            return self.named_types(tok.value)
        elif tok.text == "[":
            count = self.next().value
            self.expect("x")
            elem = self.parse_type()
            self.expect("]")
            return ArrayT(count, elem)
        elif tok.text == "{":
            return self._struct_body("}", packed=False)
        elif tok.text == "<":
            if self.at("{"):
                self.next()
                ty = self._struct_body("}", packed=True)
                self.expect(">")
                return ty
            if self.at("vscale"):
                raise IRSyntaxError("scalable vectors are not supported")
            count = self.next().value
            self.expect("x")
            elem = self.parse_type()
            self.expect(">")
            return VectorT(count, elem)
        raise IRSyntaxError(f"expected a type, found {tok.text!r}")

    def _struct_body(self, close: str, packed: bool) -> StructT:
        fields = []
        while not self.at(close):
            fields.append(self.parse_type())
            self.accept(",")
        self.expect(close)
        return StructT(tuple(fields), packed)

    _PARAM_ATTRS_WITH_ARG = {"align", "byval", "sret", "byref", "preallocated", "inalloca",
                             "elementtype", "dereferenceable", "dereferenceable_or_null",
                             "range", "nofpclass", "alignstack", "initializes", "captures",
                             "memory"}
    _PARAM_ATTRS = {"noundef", "signext", "zeroext", "inreg", "noalias", "nocapture",
                    "nonnull", "readonly", "writeonly", "readnone", "returned", "nest",
                    "swiftself", "swifterror", "immarg", "noext", "dead_on_unwind", "writable",
                    "nofree", "allocalign", "allocptr", "dead_on_return"}

    def skip_param_attributes(self) -> dict[str, object]:
        """Skip parameter attributes, returning those the back end cares about."""
        found: dict[str, object] = {}
        while self.tok.kind == "word":
            w = self.tok.text
            if w in self._PARAM_ATTRS:
                found[w] = True
                self.next()
            elif w in self._PARAM_ATTRS_WITH_ARG:
                self.next()
                if w == "align" and self.tok.kind == "int":
                    found[w] = self.next().value
                elif self.at("("):
                    if w in ("byval", "sret", "byref", "elementtype", "inalloca",
                             "preallocated"):
                        self.next()
                        found[w] = self.parse_type()
                        self.expect(")")
                    elif w == "align":
                        self.next()
                        found[w] = self.next().value
                        self.expect(")")
                    else:
                        self.skip_balanced()
                else:
                    found[w] = True
            else:
                break
        return found

    # -- constants ----------------------------------------------------------------------

    def parse_typed_constant(self) -> tuple[Type, Constant]:
        ty = self.parse_type()
        self.skip_param_attributes()
        return ty, self.parse_constant(ty)

    def parse_constant(self, ty: Type) -> Constant:
        tok = self.next()
        k, t = tok.kind, tok.text
        if k == "int":
            if isinstance(ty, FloatT):
                return CFloat(_encode_float(float(tok.value), ty))
            return CInt(tok.value)
        if k == "float":
            if isinstance(ty, FloatT):
                return CFloat(float_bits(t, ty))
            raise IRSyntaxError(f"float literal {t} for type {ty}")
        if k == "global":
            return CGlobal(tok.value)
        if k == "cstr":
            return CBytes(tok.value)
        if k == "word":
            if t in ("true", "false"):
                return CInt(1 if t == "true" else 0)
            if t == "null":
                return CNull()
            if t in ("undef", "poison"):
                return CUndef()
            if t == "zeroinitializer":
                return CZero()
            if t == "none":
                return CNull()
            if t == "blockaddress":
                self.expect("(")
                fn = self.next().value
                self.expect(",")
                block = self.next().value
                self.expect(")")
                return CBlockAddress(fn, block)
            if t == "dso_local_equivalent" or t == "no_cfi":
                return CDSOLocalEquivalent(self.next().value)
            if t == "splat":
                self.expect("(")
                elem = self.parse_typed_constant()
                self.expect(")")
                count = ty.count if isinstance(ty, VectorT) else 1
                return CAggregate(tuple([elem] * count))
            return self._constant_expression(t, ty)
        if t in ("[", "{", "<"):
            close = {"[": "]", "{": "}", "<": ">"}[t]
            packed = t == "<" and self.accept("{")
            elems = []
            while not self.at(close if not packed else "}"):
                elems.append(self.parse_typed_constant())
                self.accept(",")
            self.next()
            if packed:
                self.expect(">")
            return CAggregate(tuple(elems))
        raise IRSyntaxError(f"cannot read constant starting at {t!r}")

    def _constant_expression(self, op: str, ty: Type) -> CExpr:
        if op == "getelementptr":
            self.skip_words(_WRAP_FLAGS)
            if self.at("inrange"):
                self.next()
                self.skip_balanced()
            self.expect("(")
            source = self.parse_type()
            self.expect(",")
            args = []
            while not self.at(")"):
                if self.at("inrange"):
                    self.next()
                    self.skip_balanced()
                args.append(self.parse_typed_constant())
                self.accept(",")
            self.expect(")")
            return CExpr("getelementptr", ty, tuple(args), (source,))
        if op in _CAST_OPS:
            self.skip_words(_WRAP_FLAGS)
            self.expect("(")
            arg = self.parse_typed_constant()
            self.expect("to")
            target = self.parse_type()
            self.expect(")")
            return CExpr(op, target, (arg,), (target,))
        if op in _BINARY_OPS:
            self.skip_words(_WRAP_FLAGS)
            self.expect("(")
            a = self.parse_typed_constant()
            self.expect(",")
            b = self.parse_typed_constant()
            self.expect(")")
            return CExpr(op, ty, (a, b))
        if op in ("icmp", "fcmp"):
            pred = self.next().text
            self.expect("(")
            a = self.parse_typed_constant()
            self.expect(",")
            b = self.parse_typed_constant()
            self.expect(")")
            return CExpr(op, ty, (a, b), (pred,))
        raise IRSyntaxError(f"unsupported constant expression '{op}'")


def parse_type_text(text: str, named_types=None) -> Type:
    parser = Parser(tokenize(text), named_types)
    ty = parser.parse_type()
    if parser.tok.kind != "eof":
        raise IRSyntaxError(f"trailing text after type in {text!r}")
    return ty


# ---------------------------------------------------------------------------------------
# metadata

@dataclass
class MDNode:
    """`!N = [distinct] !DIKind(key: value, ...)` or a tuple `!{...}`."""

    kind: str                                  # "DILocation", ..., or "tuple"
    fields: dict[str, object] = field(default_factory=dict)
    items: list = field(default_factory=list)  # tuple elements


@dataclass(frozen=True)
class MDRef:
    id: str


def parse_metadata(lines: Iterator[str]) -> dict[str, MDNode]:
    """Parse the `!N = ...` definitions of a module's text (other lines are skipped)."""
    nodes: dict[str, MDNode] = {}
    for line in lines:
        if not line.startswith("!"):
            continue
        p = Parser(tokenize(line))
        head = p.next()
        if head.kind != "meta" or not p.accept("="):
            continue
        p.skip_words({"distinct"})
        value = _md_value(p)
        if isinstance(value, MDNode):
            nodes[head.value] = value
    return nodes


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
