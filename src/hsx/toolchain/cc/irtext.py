"""LLVM IR text: the tokenizer, and a recursive-descent parser for types and constants
that the module and instruction readers (reader.py, instructions.py) build on."""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import NamedTuple

from .types import (ArrayT, FloatT, FuncT, IntT, LabelT, MetadataT, PtrT, StructT, TokenT,
                    Type, VectorT, VOID)


class IRSyntaxError(ValueError):
    """Text the fragment parsers do not understand (a compiler bug or unsupported IR)."""


# ---------------------------------------------------------------------------------------
# tokens

class Token(NamedTuple):
    kind: str          # word, local, global, meta, attr, int, float, str, cstr, punct, eof
    text: str
    value: object = None


_TOKEN = re.compile(r"""
    [ \t\r\n]+ | ;[^\n]*
  | (?P<cstr> c"[^"]*" )
  | (?P<str> "[^"]*" )
  | (?P<ref> [%@!\#] (?: "[^"]*" | [-a-zA-Z$._0-9]+ ) )
  | (?P<float> 0x[0-9a-fA-FKLMHR]+ | [-+]?[0-9]+ (?: [.][0-9]* (?: [eE][-+]?[0-9]+ )? | [eE][-+]?[0-9]+ ) )
  | (?P<int> [-+]?[0-9]+ )
  | (?P<dots> [.][.][.] )
  | (?P<word> [a-zA-Z_.$-][-a-zA-Z$._0-9]* )
  | (?P<punct> [=,()\[\]{}<>*:|!] )
  | (?P<bad> . )
""", re.VERBOSE)
_REF_KINDS = {"%": "local", "@": "global", "!": "meta", "#": "attr"}
_EOF = Token("eof", "")


def _unescape(raw: str) -> bytes:
    """LLVM string escapes: `\\XX` hex and `\\\\`; everything else is literal (UTF-8)."""
    data = raw.encode("utf-8")
    if b"\\" not in data:
        return data
    out = bytearray()
    i = 0
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


# The same split as _TOKEN, one string per token (blanks and comments give "").
_SPLIT = re.compile(r"""
    [ \t\r\n]+ | ;[^\n]*
  | ( c"[^"]*" | "[^"]*" | [%@!\#] (?: "[^"]*" | [-a-zA-Z$._0-9]+ )
    | 0x[0-9a-fA-FKLMHR]+ | [-+]?[0-9]+ (?: [.][0-9]* (?: [eE][-+]?[0-9]+ )? | [eE][-+]?[0-9]+ )?
    | [.][.][.] | [a-zA-Z_.$-][-a-zA-Z$._0-9]* | [=,()\[\]{}<>*:|!] | . )
""", re.VERBOSE)
# Tokens seen before, by text: IR repeats a few hundred words, names and numbers
# endlessly, so most lines are split and looked up without building a token.
_KNOWN: dict[str, Token] = {}
_KNOWN_LIMIT = 1 << 16


def tokenize(text: str) -> list[Token]:
    """Split IR text into tokens; comments (`;` to end of line) are dropped."""
    get = _KNOWN.get
    tokens = [get(s) for s in _SPLIT.findall(text) if s]
    if None in tokens:
        tokens = _classify(text)
    tokens.append(_EOF)
    return tokens


def _classify(text: str) -> list[Token]:
    tokens: list[Token] = []
    append = tokens.append
    if len(_KNOWN) > _KNOWN_LIMIT:
        _KNOWN.clear()
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind is None:
            continue                                  # blanks and comments
        s = m.group()
        tok = _KNOWN.get(s)
        if tok is not None:
            append(tok)
            continue
        if kind == "word" or kind == "punct":
            tok = Token(kind, s)
        elif kind == "ref":
            name = s[1:]
            if name[:1] == '"':
                name = _unescape(name[1:-1]).decode("utf-8", "replace")
            tok = Token(_REF_KINDS[s[0]], s[0] + name, name)
        elif kind == "int":
            tok = Token("int", s, int(s))
        elif kind == "float":
            tok = Token("float", s)
        elif kind == "str":
            append(Token("str", s[1:-1], _unescape(s[1:-1])))
            continue
        elif kind == "cstr":
            append(Token("cstr", s[2:-1], _unescape(s[2:-1])))
            continue
        elif kind == "dots":
            tok = Token("punct", "...")
        else:
            raise IRSyntaxError(f"unexpected character {s!r} in IR text")
        _KNOWN[s] = tok
        append(tok)
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
# Types named by one word, one instance each (types are immutable): `i32` or `ptr` is
# read thousands of times in a file.  Integer widths join when first read.
_WORD_TYPES: dict[str, Type] = {"ptr": PtrT(), "void": VOID, "label": LabelT(),
                                "metadata": MetadataT(), "token": TokenT(),
                                **{w: FloatT(w, bits) for w, bits in _FLOAT_KINDS.items()}}
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
    lazily and recursive types work); `rename` maps global names to the names the
    module's symbols get (reader.py renames a library unit's statics)."""

    def __init__(self, tokens: list[Token], named_types=None,
                 rename: dict[str, str] | None = None) -> None:
        self.tokens = tokens
        self.pos = 0
        self.named_types = named_types
        self.rename = rename or {}

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
        tok = self.tokens[self.pos]
        return tok.text == text and tok.kind in ("punct", "word")

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
            simple = _WORD_TYPES.get(w)
            if simple is not None and not (w == "ptr" and self.at("addrspace")):
                return simple
            if w == "ptr":                      # ptr addrspace(N): a pointer all the same
                self.next()
                self.skip_balanced()
                return PtrT()
            if w[:1] == "i" and w[1:].isdigit():
                simple = _WORD_TYPES[w] = IntT(int(w[1:]))
                return simple
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
            return CGlobal(self.rename.get(tok.value, tok.value))
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
                fn = self.rename.get(fn, fn)
                self.expect(")")
                return CBlockAddress(fn, block)
            if t == "dso_local_equivalent" or t == "no_cfi":
                name = self.next().value
                return CDSOLocalEquivalent(self.rename.get(name, name))
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
