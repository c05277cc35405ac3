"""Function bodies: every instruction line of clang's IR text into an `Instr`.

Operands become the function's arguments, instructions and blocks (forward references
too: each named instruction is created before any line is parsed) or constants.  The
result type of each instruction is worked out from its text, which always spells the
types an instruction needs.  `#dbg_*` records (-g) are collected for debuginfo.py.
Instructions the back end has no lowering for are kept with their opcode only;
instruction selection reports them with their source line.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .ir import Block, Const, Function, Instr, Value
from .irtext import CInt, IRSyntaxError, Parser, Token, tokenize
from .types import I1, I32, PTR, VOID, FuncT, MetadataT, StructT, Type, VectorT

if TYPE_CHECKING:
    from .reader import _ModuleReader

_FAST_MATH = {"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"}
_FLAGS = {"nuw", "nsw", "exact", "disjoint", "nneg", "samesign"} | _FAST_MATH
_CALL_PREFIX = {"tail", "musttail", "notail"}
_CALL_WORDS = _FAST_MATH | {"ccc", "fastcc", "coldcc", "cc"}
_BINARY = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr",
           "and", "or", "xor", "fadd", "fsub", "fmul", "fdiv", "frem"}
_CASTS = {"trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp",
          "sitofp", "ptrtoint", "inttoptr", "bitcast", "addrspacecast"}


def read_body(module: "_ModuleReader", f: Function, lines: list[str]) -> None:
    _BodyReader(module, f).read(lines)


class _BodyReader:
    def __init__(self, module: "_ModuleReader", f: Function) -> None:
        self.m = module
        self.f = f
        self.values: dict[str, Value] = {a.name: a for a in f.params}
        self.blocks: dict[str, Block] = {}

    def block(self, name: str) -> Block:
        block = self.blocks.get(name)
        if block is None:
            block = self.blocks[name] = Block(name)
        return block

    def read(self, lines: list[str]) -> None:
        statements: list[tuple[Instr, list[Token], int]] = []
        records: list[list[Token]] = []
        current: Block | None = None
        pending = ""
        for line in lines:
            text = line.strip()
            if not text or text[0] == ";":
                continue
            if pending:                              # a switch spans several lines
                pending += " " + text
                if text[0] != "]":
                    continue
                text, pending = pending, ""
            elif line[0] not in " \t":               # a block label: `name:` or `"name":`
                current = self.block(tokenize(text)[0].text.strip('"') if text[0] == '"'
                                     else text[:text.index(":")])
                self.f.blocks.append(current)
                continue
            elif text[-1] == "[":
                pending = text
                continue
            tokens = tokenize(text)
            if tokens[0].kind == "attr":             # #dbg_declare(...), #dbg_value(...)
                records.append((tokens, len(statements)))
                continue
            if current is None:
                current = self.block(self.m.entry_names[self.f.name])
                self.f.blocks.append(current)
            statements.append(self._shell(tokens, current))
        for instr, tokens, start in statements:
            self._parse(instr, tokens, start)
        for block in self.f.blocks:
            for succ in block.succs:
                if block not in succ.preds:
                    succ.preds.append(block)
        if self.f.subprogram is not None:
            self._debug_records(records, [instr for instr, _, _ in statements])

    def _shell(self, tokens: list[Token], block: Block) -> tuple[Instr, list[Token], int]:
        """The instruction, named and placed, its opcode known (at tokens[k]), the
        rest still to parse."""
        k = 0
        name = ""
        if tokens[0].kind == "local" and tokens[1].text == "=":
            name = tokens[0].value
            k = 2
        while tokens[k].text in _CALL_PREFIX:
            k += 1
        instr = Instr(tokens[k].text, VOID, name, block=block)
        if name:
            self.values[name] = instr
        block.instrs.append(instr)
        return instr, tokens, k + 1

    # -- operands -----------------------------------------------------------------------

    def value(self, p: Parser, ty: Type) -> Value:
        tok = p.tok
        if tok.kind == "local":
            p.pos += 1
            found = self.values.get(tok.value)
            if found is None:
                raise IRSyntaxError(f"use of undefined value %{tok.value}")
            return found
        if isinstance(ty, MetadataT):
            _skip_metadata(p)
            return Const(ty, None)
        return Const(ty, p.parse_constant(ty))

    def typed(self, p: Parser) -> tuple[Type, Value]:
        """A type and a value.  Result types come from the written type, not from the
        value: a value defined in a later block is still an empty shell here."""
        ty = p.parse_type()
        return ty, self.value(p, ty)

    def typed_value(self, p: Parser) -> Value:
        return self.typed(p)[1]

    def label(self, p: Parser) -> Block:
        p.expect("label")
        return self.block(p.next().value)

    # -- instructions -------------------------------------------------------------------

    def _parse(self, i: Instr, tokens: list[Token], start: int) -> None:
        p = self.m.parser(tokens)
        p.pos = start
        op = i.opcode
        if op in _BINARY:
            p.skip_words(_FLAGS)
            ty = p.parse_type()
            a = self.value(p, ty)
            p.expect(",")
            i.ops = [a, self.value(p, ty)]
            i.ty = ty
        elif op in _CASTS:
            p.skip_words(_FLAGS)
            i.ops = [self.typed_value(p)]
            p.expect("to")
            i.ty = p.parse_type()
        else:
            handler = _HANDLERS.get(op)
            if handler is None:
                return                               # no lowering: isel says so
            handler(self, p, i)
        i.loc = self._loc(p)

    def _icmp(self, p: Parser, i: Instr) -> None:
        p.skip_words(_FLAGS)
        i.pred = p.next().text
        ty = p.parse_type()
        a = self.value(p, ty)
        p.expect(",")
        i.ops = [a, self.value(p, ty)]
        i.ty = VectorT(ty.count, I1) if isinstance(ty, VectorT) else I1

    def _fneg(self, p: Parser, i: Instr) -> None:
        p.skip_words(_FLAGS)
        i.ty, value = self.typed(p)
        i.ops = [value]

    def _select(self, p: Parser, i: Instr) -> None:
        p.skip_words(_FLAGS)
        c = self.typed_value(p)
        p.expect(",")
        ty = p.parse_type()
        a = self.value(p, ty)
        p.expect(",")
        i.ops = [c, a, self.typed_value(p)]
        i.ty = ty

    def _freeze(self, p: Parser, i: Instr) -> None:
        ty = p.parse_type()
        i.ops = [self.value(p, ty)]
        i.ty = ty

    def _load(self, p: Parser, i: Instr) -> None:
        i.volatile = p.at("atomic") or p.at("volatile")
        p.skip_words({"atomic", "volatile"})
        i.ty = p.parse_type()
        p.expect(",")
        i.ops = [self.typed_value(p)]

    def _store(self, p: Parser, i: Instr) -> None:
        i.volatile = p.at("atomic") or p.at("volatile")
        p.skip_words({"atomic", "volatile"})
        v = self.typed_value(p)
        p.expect(",")
        i.ops = [v, self.typed_value(p)]

    def _alloca(self, p: Parser, i: Instr) -> None:
        p.skip_words({"inalloca"})
        i.src_ty = p.parse_type()
        i.ty = PTR
        count = Const(I32, CInt(1))
        if p.at(",") and p.peek().kind != "meta" and p.peek().text not in ("align",
                                                                          "addrspace"):
            p.next()
            count = self.typed_value(p)
        i.ops = [count]
        if p.at(",") and p.peek().text == "align":
            p.next()
            p.next()
            i.align = int(p.next().text)

    def _getelementptr(self, p: Parser, i: Instr) -> None:
        p.skip_words({"inbounds", "nuw", "nusw"})
        if p.at("inrange"):
            p.next()
            p.skip_balanced()
        i.src_ty = p.parse_type()
        p.expect(",")
        typed = [self.typed(p)]
        while p.at(",") and p.peek().kind != "meta":
            p.next()
            if p.at("inrange"):
                p.next()
                p.skip_balanced()
            typed.append(self.typed(p))
        i.ops = [v for _, v in typed]
        vector = next((t for t, _ in typed if isinstance(t, VectorT)), None)
        i.ty = VectorT(vector.count, PTR) if vector is not None else PTR

    def _extractvalue(self, p: Parser, i: Instr) -> None:
        ty, agg = self.typed(p)
        i.ops = [agg]
        i.indices = _indices(p)
        for index in i.indices:
            ty = ty.fields[index] if isinstance(ty, StructT) else ty.elem
        i.ty = ty

    def _insertvalue(self, p: Parser, i: Instr) -> None:
        i.ty, agg = self.typed(p)
        p.expect(",")
        i.ops = [agg, self.typed_value(p)]
        i.indices = _indices(p)

    def _atomicrmw(self, p: Parser, i: Instr) -> None:
        p.skip_words({"volatile"})
        i.pred = p.next().text
        ptr = self.typed_value(p)
        p.expect(",")
        i.ty, value = self.typed(p)
        i.ops = [ptr, value]

    def _cmpxchg(self, p: Parser, i: Instr) -> None:
        p.skip_words({"weak", "volatile"})
        ptr = self.typed_value(p)
        p.expect(",")
        expected_ty, expected = self.typed(p)
        p.expect(",")
        i.ops = [ptr, expected, self.typed_value(p)]
        i.ty = StructT((expected_ty, I1))

    def _va_arg(self, p: Parser, i: Instr) -> None:
        i.ops = [self.typed_value(p)]
        p.expect(",")
        i.ty = p.parse_type()

    def _ret(self, p: Parser, i: Instr) -> None:
        if p.accept("void"):
            return
        i.ops = [self.typed_value(p)]

    def _br(self, p: Parser, i: Instr) -> None:
        if p.at("label"):
            i.targets = [self.label(p)]
            return
        cond = self.typed_value(p)
        p.expect(",")
        t = self.label(p)
        p.expect(",")
        i.targets = [t, self.label(p)]
        i.ops = [cond]

    def _switch(self, p: Parser, i: Instr) -> None:
        cond = self.typed_value(p)
        p.expect(",")
        default = self.label(p)
        p.expect("[")
        cases = []
        while not p.at("]"):
            ty = p.parse_type()
            c = p.parse_constant(ty)
            p.expect(",")
            cases.append((c.value if isinstance(c, CInt) else 0, self.label(p)))
        p.next()
        i.ops = [cond]
        i.cases = cases
        i.targets = list(dict.fromkeys([default] + [b for _, b in cases]))

    def _indirectbr(self, p: Parser, i: Instr) -> None:
        i.ops = [self.typed_value(p)]
        p.expect(",")
        p.expect("[")
        targets = []
        while not p.at("]"):
            targets.append(self.label(p))
            p.accept(",")
        p.next()
        i.targets = list(dict.fromkeys(targets))

    def _phi(self, p: Parser, i: Instr) -> None:
        p.skip_words(_FAST_MATH)
        ty = p.parse_type()
        incoming = []
        while p.accept("["):
            v = self.value(p, ty)
            p.expect(",")
            incoming.append((v, self.block(p.next().value)))
            p.expect("]")
            if not (p.at(",") and p.peek().text == "["):
                break
            p.next()
        i.ty = ty
        i.incoming = incoming
        i.ops = [v for v, _ in incoming]

    def _call(self, p: Parser, i: Instr) -> None:
        """Callee function type, arguments with their attributes, inline asm."""
        p.skip_words(_CALL_WORDS)
        if p.tok.kind == "int":                  # cc <n>
            p.next()
        while True:                              # return attributes
            before = p.pos
            p.skip_param_attributes()
            if p.pos == before:
                break
        ty = p.parse_type()
        if p.at("asm"):
            p.next()
            p.skip_words({"sideeffect", "alignstack", "inteldialect", "unwind"})
            template = p.next().value.decode("utf-8")
            p.expect(",")
            i.asm = (template, p.next().value.decode("utf-8"))
            callee: Value = Const(PTR, None)
        else:
            callee = self.value(p, PTR)
        p.expect("(")
        args, attrs, arg_types = [], [], []
        while not p.at(")"):
            aty = p.parse_type()
            attrs.append(p.skip_param_attributes())
            args.append(self.value(p, aty))
            arg_types.append(aty)
            p.accept(",")
        p.expect(")")
        if isinstance(ty, FuncT):
            fn_ty = ty
        elif isinstance(callee, Const) and getattr(callee.c, "name", None) in \
                self.m.function_types:
            fn_ty = self.m.function_types[callee.c.name]
        else:
            fn_ty = FuncT(ty, tuple(arg_types), False)
        i.fn_ty = fn_ty
        i.ty = fn_ty.ret
        i.ops = args + [callee]
        i.arg_attrs = attrs

    # -- debug information --------------------------------------------------------------

    def _loc(self, p: Parser):
        tokens = p.tokens
        for k in range(p.pos, len(tokens) - 1):
            tok = tokens[k]
            if tok.kind == "meta" and tok.value == "dbg":
                return self.m.location(self.m.metadata.get(tokens[k + 1].value))
        return None

    def _debug_records(self, records: list[tuple[list[Token], int]], instrs: list[Instr]) -> None:
        """(kind, value, variable node, expression, the instruction it precedes) of each
        `#dbg_*` record whose location is one value (a `!DIArgList` of several is left
        out).  A `#dbg_assign` of a whole variable also gives a `dbg_declare` of its
        address: the variable lives there."""
        for tokens, before in records:
            at = instrs[before] if before < len(instrs) else None
            p = self.m.parser(tokens)
            kind = p.next().value
            p.expect("(")
            if p.at("!") or p.tok.kind == "meta":
                continue                            # !{} (no location), !DIArgList(...)
            value = self.typed_value(p)
            p.expect(",")
            var = self.m.metadata.get(p.next().value)
            p.expect(",")
            expr = []
            if p.tok.kind == "meta" and p.tok.value == "DIExpression":
                p.next()
                p.expect("(")
                while not p.at(")"):
                    expr.append(p.next().text)
                    p.accept(",")
                p.expect(")")
            if var is None:
                continue
            self.f.debug_records.append((kind, value, var, tuple(expr), at))
            if kind == "dbg_assign" and "DW_OP_LLVM_fragment" not in expr:
                p.expect(",")                       # , !DIAssignID, address, address expr
                p.next()
                p.expect(",")
                address = self.typed_value(p)
                p.expect(",")
                if isinstance(address, Instr) and address.opcode == "alloca" and \
                        p.tok.kind == "meta" and p.peek().text == "(" and \
                        p.peek(2).text == ")":
                    self.f.debug_records.append(("dbg_declare", address, var, (), at))


def _indices(p: Parser) -> tuple:
    out = []
    while p.at(",") and p.peek().kind == "int":
        p.next()
        out.append(p.next().value)
    return tuple(out)


def _skip_metadata(p: Parser) -> None:
    """A metadata operand: `!12`, `!{...}`, `!"text"`, `!DIExpression(...)` or a typed
    value wrapped as metadata."""
    if p.tok.kind == "meta":
        p.next()
        if p.at("("):
            p.skip_balanced()
    elif p.at("!"):
        p.next()
        p.skip_balanced()
    elif p.is_type_start():
        p.parse_type()
        p.next()


_HANDLERS = {
    "icmp": _BodyReader._icmp, "fcmp": _BodyReader._icmp, "fneg": _BodyReader._fneg,
    "select": _BodyReader._select, "freeze": _BodyReader._freeze,
    "load": _BodyReader._load, "store": _BodyReader._store, "alloca": _BodyReader._alloca,
    "getelementptr": _BodyReader._getelementptr,
    "extractvalue": _BodyReader._extractvalue, "insertvalue": _BodyReader._insertvalue,
    "atomicrmw": _BodyReader._atomicrmw, "cmpxchg": _BodyReader._cmpxchg,
    "va_arg": _BodyReader._va_arg, "fence": lambda self, p, i: None,
    "ret": _BodyReader._ret, "br": _BodyReader._br, "switch": _BodyReader._switch,
    "indirectbr": _BodyReader._indirectbr, "unreachable": lambda self, p, i: None,
    "phi": _BodyReader._phi, "call": _BodyReader._call,
}
