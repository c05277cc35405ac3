"""Read an LLVM module (text IR from clang) into the back end's own small IR.

llvmlite parses the module and gives functions, blocks, instructions and operands;
`irtext` supplies the few facts llvmlite does not expose.  The result is plain Python
objects that instruction selection walks without touching llvmlite again.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import llvmlite.binding as llvm

from . import irtext
from .irtext import (CFloat, IRSyntaxError, CGlobal, CInt, CNull, CUndef, CZero, MDNode, MDRef, Parser,
                     tokenize)
from .types import FuncT, IntT, Layout, PtrT, StructT, Type


class CompileError(Exception):
    """A C construct the back end cannot compile; `where` is `file:line` or a function."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


# ---------------------------------------------------------------------------------------
# the IR

class Value:
    ty: Type


@dataclass(eq=False)
class Const(Value):
    ty: Type
    c: object                   # an irtext constant (CInt, CFloat, CGlobal, CExpr, ...)

    def __repr__(self) -> str:
        return f"Const({self.ty}, {self.c})"


@dataclass(eq=False)
class Argument(Value):
    ty: Type
    index: int
    name: str
    attrs: dict = field(default_factory=dict)


@dataclass(eq=False)
class Loc:
    file: str
    line: int
    col: int = 0


@dataclass(eq=False)
class Instr(Value):
    opcode: str
    ty: Type
    name: str = ""
    ops: list = field(default_factory=list)
    block: "Block | None" = None
    pred: str = ""              # icmp / fcmp predicate, atomicrmw operation
    src_ty: Type | None = None  # getelementptr source type, alloca type, load type
    fn_ty: FuncT | None = None  # call: the callee's function type
    arg_attrs: list = field(default_factory=list)
    targets: list = field(default_factory=list)    # successor blocks (br: true, false)
    cases: list = field(default_factory=list)      # switch: (value, Block)
    incoming: list = field(default_factory=list)   # phi: (Value, Block)
    indices: tuple = ()         # extractvalue / insertvalue
    asm: tuple | None = None    # inline asm: (template, constraints)
    loc: Loc | None = None
    volatile: bool = False

    def __repr__(self) -> str:
        return f"<{self.opcode} {self.name}>"


@dataclass(eq=False)
class Block:
    name: str
    instrs: list = field(default_factory=list)
    preds: list = field(default_factory=list)

    @property
    def succs(self) -> list:
        return self.instrs[-1].targets if self.instrs else []

    def __repr__(self) -> str:
        return f"<block {self.name}>"


@dataclass(eq=False)
class Function:
    name: str
    ty: FuncT
    local: bool
    params: list = field(default_factory=list)
    blocks: list = field(default_factory=list)
    is_declaration: bool = False
    subprogram: MDNode | None = None
    loc: "Loc | None" = None                              # where the definition starts
    debug_records: list = field(default_factory=list)   # (kind, Value, var MDNode, expr)


@dataclass(eq=False)
class GlobalVar:
    name: str
    ty: Type
    init: object | None         # None for an external declaration
    align: int
    local: bool
    constant: bool
    debug: list = field(default_factory=list)           # DIGlobalVariable nodes


@dataclass
class Module:
    source: str
    functions: list
    globals: list
    aliases: dict               # alias name -> aliasee constant
    layout: Layout
    asm: list                   # module-level inline asm lines
    metadata: dict

    def function(self, name: str) -> Function | None:
        for f in self.functions:
            if f.name == name:
                return f
        return None


# ---------------------------------------------------------------------------------------
# reading

_LOCAL_LINKAGE = {llvm.Linkage.internal, llvm.Linkage.private}
# clang's wasm32 target adds these aliases of main for its own start-up code.
WASM_MAIN_ALIASES = {"__main_void", "__main_argc_argv"}


def read_module(text: str, source_name: str = "<ir>") -> Module:
    context = llvm.create_context()          # own type namespace per module
    try:
        ref = llvm.parse_assembly(text, context=context)
        ref.verify()
    except RuntimeError as exc:
        raise CompileError(f"LLVM IR does not parse: {exc}", source_name) from None
    reader = _Reader(ref, source_name)
    try:
        return reader.read()
    except IRSyntaxError as exc:
        message = f"unsupported construct: {exc}"
    finally:
        reader.release()
    raise CompileError(message, source_name)


class _Reader:
    def release(self) -> None:
        """Drop every llvmlite reference now, in order, so none outlives the module
        (freed later by the garbage collector, after the module, they crash)."""
        for table in (self.values, self.blocks, self.struct_refs, self.bodies):
            table.clear()
        self.ref = None

    def __init__(self, ref, source_name: str) -> None:
        self.ref = ref
        self.source_name = source_name
        self.struct_refs = {t.name: t for t in ref.struct_types if t.name}
        self.named: dict[str, StructT] = {}
        self.layout = Layout(self._measure_structs(llvm.create_target_data(ref.data_layout)))
        self.type_cache: dict[str, Type] = {}
        self.values: dict = {}          # llvmlite ValueRef -> our Value
        self.blocks: dict = {}
        self._name_values()
        self.text = str(ref)
        self.metadata = irtext.parse_metadata(iter(self.text.splitlines()))
        self.bodies = self._function_texts()

    def _name_values(self) -> None:
        """Name unnamed instructions so debug records can refer to them by name."""
        for fn in self.ref.functions:
            counter = 0
            for b in fn.blocks:
                for ins in b.instructions:
                    if not ins.name and str(ins.type) != "void":
                        ins.name = f"hsx.v{counter}"
                        counter += 1

    def _function_texts(self) -> dict[str, list[str]]:
        """Each defined function's instruction lines (switches joined into one) and
        debug records, in order, from the module text: metadata numbers there are the
        module's, unlike in a single instruction printed on its own."""
        bodies: dict[str, list[str]] = {}
        current: list[str] | None = None
        pending = ""
        for line in self.text.splitlines():
            if current is None:
                if line.startswith("define "):
                    p = self.parser(line)
                    while p.tok.kind not in ("global", "eof"):
                        p.next()
                    current = bodies.setdefault(p.tok.value, [])
                continue
            if line == "}":
                current = None
                continue
            stripped = line.strip()
            if pending:
                pending += " " + stripped
                if stripped.startswith("]"):
                    current.append(pending)
                    pending = ""
                continue
            if not stripped or stripped.startswith(";") or not line.startswith(" "):
                continue                                  # blank, comment, block label
            if stripped.endswith("["):
                pending = stripped
                continue
            current.append(stripped)
        return bodies

    # -- types --------------------------------------------------------------------------

    def _measure_structs(self, td) -> dict:
        """Offsets, size and alignment of every named struct, from LLVM's target data."""
        measured = {}
        for name, ref in self.struct_refs.items():
            if ref.is_opaque_struct:
                continue
            count = len(list(ref.elements))
            measured[name] = ([td.get_element_offset(ref, i) for i in range(count)],
                              td.get_abi_size(ref), td.get_abi_alignment(ref))
        return measured

    def named_type(self, name: str) -> StructT:
        ty = self.named.get(name)
        if ty is None:
            ref = self.struct_refs.get(name)
            if ref is None or ref.is_opaque_struct:
                raise CompileError(f"use of opaque type %{name}")
            fields = tuple(self.type_of(e) for e in ref.elements)
            ty = StructT(fields, ref.is_packed_struct, name)
            self.named[name] = ty
        return ty

    def parse_type(self, text: str) -> Type:
        ty = self.type_cache.get(text)
        if ty is None:
            ty = irtext.parse_type_text(text, self.named_type)
            self.type_cache[text] = ty
        return ty

    def type_of(self, typeref) -> Type:
        if typeref.is_struct and typeref.name:
            return self.named_type(typeref.name)
        return self.parse_type(str(typeref))

    def parser(self, text: str) -> Parser:
        return Parser(tokenize(text), self.named_type)

    # -- module ---------------------------------------------------------------------------

    def read(self) -> Module:
        globals_ = [self._global(g) for g in self.ref.global_variables]
        pairs = [(self._function_header(fn), fn) for fn in self.ref.functions
                 if not (fn.is_declaration and fn.name.startswith("llvm."))]
        for f, fn in pairs:
            if not fn.is_declaration:
                self._function_body(f, fn)
        functions = [f for f, _ in pairs]
        return Module(self.source_name, functions, globals_, self._aliases(), self.layout,
                      self._module_asm(), self.metadata)

    def _module_asm(self) -> list[str]:
        lines = []
        for line in self.text.splitlines():
            if line.startswith("module asm "):
                p = self.parser(line)
                p.expect("module")
                p.expect("asm")
                lines.append(p.next().value.decode("utf-8"))
        return lines

    def _aliases(self) -> dict:
        aliases = {}
        for line in self.text.splitlines():
            if not line.startswith("@") or " alias " not in line:
                continue
            p = self.parser(line)
            name = p.next().value
            p.expect("=")
            while not p.at("alias"):
                p.next()
            p.next()
            p.parse_type()
            p.expect(",")
            if name in WASM_MAIN_ALIASES:
                continue
            aliases[name] = p.parse_typed_constant()[1]
        return aliases

    def _global(self, g) -> GlobalVar:
        ty = self.type_of(g.global_value_type)
        p = self.parser(str(g))
        p.next()                                    # @name
        p.expect("=")
        init = None
        constant = False
        while p.tok.kind == "word" and p.tok.text not in ("global", "constant"):
            p.next()
            if p.at("("):
                p.skip_balanced()
        constant = p.next().text == "constant"
        p.parse_type()
        if not g.is_declaration:
            init = p.parse_constant(ty)
        align = self.layout.align(ty)
        debug = []
        while p.tok.kind != "eof":
            tok = p.next()
            if tok.kind == "word" and tok.text == "align":
                align = p.next().value
            elif tok.kind == "meta" and tok.value == "dbg":
                ref = p.next()
                node = self.metadata.get(ref.value)
                if node is not None:
                    debug.append(node)
        return GlobalVar(g.name, ty, init, align, g.linkage in _LOCAL_LINKAGE, constant, debug)

    def _function_header(self, fn) -> Function:
        fty = self.type_of(fn.global_value_type)
        assert isinstance(fty, FuncT)
        f = Function(fn.name, fty, fn.linkage in _LOCAL_LINKAGE, is_declaration=fn.is_declaration)
        header = str(fn).split("\n")
        line = next(ln for ln in header if ln.startswith(("define", "declare")))
        attrs, sp = self._param_attrs(line, len(fty.params))
        for i, arg in enumerate(fn.arguments):
            a = Argument(self.type_of(arg.type), i, arg.name, attrs[i] if i < len(attrs) else {})
            self.values[arg] = a
            f.params.append(a)
        if sp is not None:
            f.subprogram = self.metadata.get(sp)
            if f.subprogram is not None:
                line = f.subprogram.fields.get("scopeLine") or f.subprogram.fields.get("line")
                f.loc = Loc(self.file_of(f.subprogram) or self.source_name, int(line or 0))
        return f

    def _param_attrs(self, line: str, count: int) -> tuple[list[dict], str | None]:
        """Attributes of each parameter (byval, sret, ...) and the `!dbg` subprogram."""
        p = self.parser(line)
        while not (p.tok.kind == "global"):
            p.next()
        p.next()
        p.expect("(")
        attrs: list[dict] = []
        while not p.at(")"):
            if p.accept("..."):
                continue
            p.parse_type()
            attrs.append(p.skip_param_attributes())
            if p.tok.kind == "local":
                p.next()
            p.accept(",")
        p.expect(")")
        sp = None
        while p.tok.kind != "eof":
            tok = p.next()
            if tok.kind == "meta" and tok.value == "dbg":
                sp = p.next().value
        return attrs, sp

    # -- bodies -----------------------------------------------------------------------------

    def _function_body(self, f: Function, fn) -> None:
        refs = []
        for n, b in enumerate(fn.blocks):
            block = Block(b.name or f"bb{n}")
            self.blocks[b] = block
            f.blocks.append(block)
            for ins in b.instructions:
                i = Instr(ins.opcode, self.type_of(ins.type), ins.name, block=block)
                self.values[ins] = i
                block.instrs.append(i)
                refs.append((ins, i))
        lines = self.bodies.get(fn.name, [])
        texts = [ln for ln in lines if not ln.startswith("#dbg_")]
        if len(texts) != len(refs):
            texts = [str(ins).strip() for ins, _ in refs]
        for (ins, i), text in zip(refs, texts):
            self._instruction(ins, i, f, text)
        for block in f.blocks:
            for succ in block.succs:
                if block not in succ.preds:
                    succ.preds.append(block)
        if f.subprogram is not None:
            self._debug_records(f, [ln for ln in lines if ln.startswith("#dbg_")])

    def operand(self, op) -> Value:
        known = self.values.get(op)
        if known is not None:
            return known
        kind = op.value_kind.name
        ty = self.type_of(op.type)
        if kind == "constant_int":
            value = op.get_constant_value(signed_int=False)
            return Const(ty, CInt(value))
        if kind in ("function", "global_variable", "global_alias", "global_ifunc"):
            return Const(PtrT(), CGlobal(op.name))
        if kind in ("undef_value", "poison_value"):
            return Const(ty, CUndef())
        if kind == "constant_pointer_null":
            return Const(ty, CNull())
        if kind == "constant_aggregate_zero":
            return Const(ty, CZero())
        if kind == "basic_block":
            return self.blocks[op]
        if kind in ("metadata_as_value", "inline_asm"):
            return Const(ty, None)
        p = self.parser(str(op))
        cty, c = p.parse_typed_constant()
        return Const(cty, c)

    def _instruction(self, ins, i: Instr, f: Function, text: str) -> None:
        ops = list(ins.operands)
        opc = ins.opcode
        i.ops = [self.operand(o) for o in ops]
        p = self.parser(text)
        if p.tok.kind == "local":
            p.next()
            p.expect("=")
        p.skip_words({"tail", "musttail", "notail"})
        p.next()                                  # the opcode itself
        if opc in ("icmp", "fcmp"):
            p.skip_words({"samesign", "fast", "nnan", "ninf", "nsz", "arcp", "contract",
                          "afn", "reassoc"})
            i.pred = p.next().text
        elif opc == "alloca":
            p.skip_words({"inalloca"})
            i.src_ty = p.parse_type()
        elif opc == "getelementptr":
            p.skip_words({"inbounds", "nuw", "nusw"})
            if p.at("inrange"):
                p.next()
                p.skip_balanced()
            i.src_ty = p.parse_type()
        elif opc in ("load", "store"):
            i.volatile = p.accept("volatile") or p.at("atomic")
        elif opc == "br":
            i.targets = [i.ops[0]] if len(ops) == 1 else [i.ops[2], i.ops[1]]
            i.ops = [] if len(ops) == 1 else [i.ops[0]]
        elif opc == "switch":
            self._switch(p, i)
        elif opc == "phi":
            i.incoming = [(self.operand(v), self.blocks[b])
                          for v, b in zip(ops, ins.incoming_blocks)]
            i.ops = [v for v, _ in i.incoming]
        elif opc in ("call", "invoke", "callbr"):
            self._call(p, i)
        elif opc in ("extractvalue", "insertvalue"):
            i.indices = self._trailing_indices(text)
        elif opc == "atomicrmw":
            p.skip_words({"volatile"})
            i.pred = p.next().text
        elif opc == "indirectbr":
            i.targets = [self.blocks[o] for o in ops[1:]]
            i.ops = i.ops[:1]
        i.loc = self._loc(p)

    def _switch(self, p: Parser, i: Instr) -> None:
        p.parse_type()
        p.next()
        p.expect(",")
        p.expect("label")
        p.next()
        p.expect("[")
        dests = i.ops[2:]
        values = []
        while not p.at("]"):
            ty = p.parse_type()
            c = p.parse_constant(ty)
            values.append(c.value if isinstance(c, CInt) else 0)
            p.expect(",")
            p.expect("label")
            p.next()
        default = i.ops[1]
        i.cases = list(zip(values, dests))
        i.targets = [default] + [b for b in dests if b is not default]
        i.targets = list(dict.fromkeys(i.targets))
        i.ops = [i.ops[0]]

    def _call(self, p: Parser, i: Instr) -> None:
        """Callee function type, per-argument attributes and inline asm of a call."""
        p.skip_words({"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc",
                      "ccc", "fastcc", "coldcc", "cc"})
        ret_attrs_end = False
        while not ret_attrs_end:
            before = p.pos
            p.skip_param_attributes()
            ret_attrs_end = p.pos == before
        ty = p.parse_type()
        callee = i.ops[-1]
        args = i.ops[:-1]
        if isinstance(ty, FuncT):
            fn_ty = ty
        elif isinstance(callee, Const) and isinstance(callee.c, CGlobal) and \
                self._function_type(callee.c.name) is not None:
            fn_ty = self._function_type(callee.c.name)
        else:
            fn_ty = FuncT(ty, tuple(a.ty for a in args), False)
        i.fn_ty = fn_ty
        if p.at("asm"):
            p.next()
            p.skip_words({"sideeffect", "alignstack", "inteldialect", "unwind"})
            template = p.next().value.decode("utf-8")
            p.expect(",")
            constraints = p.next().value.decode("utf-8")
            i.asm = (template, constraints)
        else:
            p.next()                            # callee
        p.expect("(")
        attrs = []
        while not p.at(")"):
            p.parse_type()
            attrs.append(p.skip_param_attributes())
            depth = 0
            while not (depth == 0 and (p.at(",") or p.at(")"))):
                t = p.next()
                if t.kind == "punct" and t.text in "([{<":
                    depth += 1
                elif t.kind == "punct" and t.text in ")]}>":
                    depth -= 1
            p.accept(",")
        p.expect(")")
        i.arg_attrs = attrs

    def _function_type(self, name: str) -> FuncT | None:
        try:
            fn = self.ref.get_function(name)
        except NameError:
            return None
        return self.type_of(fn.global_value_type)

    @staticmethod
    def _trailing_indices(text: str) -> tuple:
        toks = tokenize(text)
        out = []
        k = len(toks) - 2                        # before eof
        # drop trailing metadata attachments: ", !dbg !N"
        while k >= 1 and toks[k].kind == "meta" and toks[k - 1].kind == "meta":
            k -= 3
        while k >= 1 and toks[k].kind == "int" and toks[k - 1].text == ",":
            out.append(toks[k].value)
            k -= 2
        return tuple(reversed(out))

    def _loc(self, p: Parser) -> Loc | None:
        while p.tok.kind != "eof":
            tok = p.next()
            if tok.kind == "meta" and tok.value == "dbg":
                node = self.metadata.get(p.next().value)
                return self.location(node)
        return None

    # -- debug info ---------------------------------------------------------------------------

    def location(self, node: MDNode | None) -> Loc | None:
        if node is None or node.kind != "DILocation":
            return None
        scope = self.md(node.fields.get("scope"))
        file = self.file_of(scope)
        return Loc(file or self.source_name, int(node.fields.get("line", 0)),
                   int(node.fields.get("column", 0)))

    def md(self, ref) -> MDNode | None:
        return self.metadata.get(ref.id) if isinstance(ref, MDRef) else None

    def file_of(self, scope: MDNode | None) -> str | None:
        seen = 0
        while scope is not None and seen < 64:
            if scope.kind == "DIFile":
                return scope.fields.get("filename")
            f = self.md(scope.fields.get("file"))
            if f is not None:
                return f.fields.get("filename")
            scope = self.md(scope.fields.get("scope"))
            seen += 1
        return None

    def _debug_records(self, f: Function, records: list[str]) -> None:
        by_name = {i.name: i for b in f.blocks for i in b.instrs if i.name}
        by_name.update({a.name: a for a in f.params if a.name})
        for stripped in records:
            p = self.parser(stripped)
            kind = p.next().value
            p.expect("(")
            if p.at("!"):
                p.skip_balanced()               # !{} : an empty location
                p.skip_balanced()
                continue
            ty = p.parse_type()
            if p.tok.kind == "local":
                value = by_name.get(p.next().value)
            else:
                value = Const(ty, p.parse_constant(ty))
            p.expect(",")
            var = self.metadata.get(p.next().value)
            p.expect(",")
            expr = []
            if p.tok.kind == "meta" and p.tok.value == "DIExpression":
                p.next()
                p.expect("(")
                while not p.at(")"):
                    expr.append(p.next().text)
                    p.accept(",")
                p.expect(")")
            if value is not None and var is not None:
                f.debug_records.append((kind, value, var, tuple(expr)))


def const_int(value: Value) -> int | None:
    """The integer value of a constant operand, else None."""
    if isinstance(value, Const):
        c = value.c
        if isinstance(c, CInt):
            return c.value
        if isinstance(c, (CNull, CZero, CUndef)) and isinstance(value.ty, (IntT, PtrT)):
            return 0
        if isinstance(c, CFloat):
            return c.bits
    return None

