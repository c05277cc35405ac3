"""Read an LLVM module (clang's IR text) into the back end's own IR (ir.py).

llvmlite's parser checks the text first, so IR that does not parse or verify is an
error carrying LLVM's own message; no llvmlite object outlives that check (`check_ir`
disposes the module and then its context).  IR that clang has just written (it starts
with clang's `; ModuleID` line, has no NUL) is checked only if the back end cannot read
it: it is clang's own module, printed, and loading LLVM (a 180 MB library) cost each
`hsx cc` ~50 ms of CPU, more than the check itself.
The back end then reads the text itself:
one pass sorts the lines (named types, globals, aliases, function headers and bodies,
metadata), the module-level lines are parsed here and the bodies by instructions.py.
Reading the text directly is several times faster than walking the module through
llvmlite, one foreign call per operand.
"""
from __future__ import annotations

from .instructions import read_body
from .ir import Argument, CompileError, Function, GlobalVar, Loc, Module
from .irmeta import MDNode, Metadata
from .irtext import IRSyntaxError, Parser, Token, tokenize
from .naming import symbol_name
from .types import FuncT, Layout, StructT

_LOCAL_LINKAGE = {"internal", "private"}
# clang's wasm32 target adds these aliases of main for its own start-up code.
WASM_MAIN_ALIASES = {"__main_void", "__main_argc_argv"}
CLANG_HEADER = "; ModuleID = "     # the first line of the IR clang prints


def check_ir(text: str, source_name: str) -> None:
    """Parse and verify `text` with LLVM, releasing everything before returning."""
    import llvmlite.binding as llvm
    if "\0" in text:                # LLVM would read only up to it
        raise CompileError("LLVM IR does not parse: it contains a NUL character",
                           source_name)
    context = llvm.create_context()
    try:
        try:
            module = llvm.parse_assembly(text, context=context)
        except RuntimeError as exc:
            raise CompileError(f"LLVM IR does not parse: {_llvm_message(exc)}",
                               source_name) from None
        try:
            module.verify()
        except RuntimeError as exc:
            raise CompileError(f"LLVM IR is not valid: {_llvm_message(exc)}",
                               source_name) from None
        finally:
            module.close()
    finally:
        context.close()


def _llvm_message(exc: RuntimeError) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines()
             if ln.strip() and not ln.startswith("LLVM IR parsing error")]
    return " / ".join(lines) or "unknown error"


def read_module(text: str, source_name: str = "<ir>",
                local_prefix: str | None = None, from_clang: bool = False) -> Module:
    """The module in `text`.  With `local_prefix`, module-local functions and variables
    are renamed `local_prefix + name` and exported, so that the unit can be split into
    one object per symbol (see driver.py).  `from_clang`: the text is clang's output,
    checked by LLVM only when it does not look like it or the back end cannot read it."""
    if not from_clang or not text.startswith(CLANG_HEADER) or "\0" in text:
        check_ir(text, source_name)
    reader = _ModuleReader(text, source_name, local_prefix)
    try:
        return reader.read()
    except IRSyntaxError as exc:
        if from_clang:              # LLVM's own words, when LLVM cannot read it either
            check_ir(text, source_name)
        raise CompileError(f"unsupported construct: {exc}", reader.where) from None


class _ModuleReader:
    def __init__(self, text: str, source_name: str, local_prefix: str | None) -> None:
        self.source_name = source_name
        self.where = source_name             # for errors: the function being read
        self.metadata = Metadata()
        self.struct_lines: dict[str, list[Token]] = {}
        self.named: dict[str, StructT] = {}
        self.value_lines: list[list[Token]] = []       # globals and aliases
        self.function_lines: list[tuple[list[Token], list[str] | None]] = []
        self.asm: list[str] = []
        self.weak: set[str] = set()
        self.layout = Layout()
        self._sort_lines(text)
        self.rename = self._local_names(local_prefix)
        self.function_types: dict[str, FuncT] = {}
        self.entry_names: dict[str, str] = {}    # function -> its unlabelled entry block's

    def _sort_lines(self, text: str) -> None:
        lines = text.split("\n")
        k, n = 0, len(lines)
        while k < n:
            line = lines[k]
            k += 1
            head = line[:1]
            if head == "!":
                self.metadata.add_line(line)
            elif head == "@":
                self.value_lines.append(tokenize(line))
            elif head == "%":
                tokens = tokenize(line)
                if len(tokens) > 2 and tokens[1].text == "=" and tokens[2].text == "type":
                    self.struct_lines[tokens[0].value] = tokens
            elif line.startswith("define "):
                body = []
                while k < n and lines[k] != "}":
                    body.append(lines[k])
                    k += 1
                k += 1
                self.function_lines.append((tokenize(line.rstrip().rstrip("{")), body))
            elif line.startswith("declare "):
                self.function_lines.append((tokenize(line), None))
            elif line.startswith("module asm "):
                p = Parser(tokenize(line))
                p.expect("module")
                p.expect("asm")
                self.asm.append(p.next().value.decode("utf-8"))

    def _local_names(self, prefix: str | None) -> dict[str, str]:
        """Module-local names to rename (with a prefix) and the weak references."""
        rename = {}
        for tokens, body in self.function_lines:
            words, name = _words_before_name(tokens)
            if body is not None and prefix is not None and _LOCAL_LINKAGE & words:
                rename[name] = prefix + name
            if body is None and "extern_weak" in words:
                self.weak.add(symbol_name(name))
        for tokens in self.value_lines:
            words = {t.text for t in tokens[2:8] if t.kind == "word"}
            name = tokens[0].value
            if prefix is not None and _LOCAL_LINKAGE & words and "alias" not in words:
                rename[name] = prefix + name
            if "extern_weak" in words:
                self.weak.add(symbol_name(name))
        return rename

    # -- types --------------------------------------------------------------------------

    def named_type(self, name: str) -> StructT:
        ty = self.named.get(name)
        if ty is None:
            tokens = self.struct_lines.get(name)
            if tokens is None or tokens[3].text == "opaque":
                raise CompileError(f"use of opaque type %{name}")
            p = self.parser(tokens)
            p.pos = 3
            body = p.parse_type()
            if not isinstance(body, StructT):
                raise IRSyntaxError(f"type %{name} is not a struct")
            ty = StructT(body.fields, body.packed, name)
            self.named[name] = ty
        return ty

    def parser(self, tokens: list[Token]) -> Parser:
        return Parser(tokens, self.named_type, self.rename)

    # -- module -------------------------------------------------------------------------

    def read(self) -> Module:
        aliases = {}
        globals_ = []
        for tokens in self.value_lines:
            if any(t.kind == "word" and t.text == "alias" for t in tokens[2:10]):
                name, target = self._alias(tokens)
                if name not in WASM_MAIN_ALIASES:
                    aliases[name] = target
            else:
                globals_.append(self._global(tokens))
        headers = []
        for tokens, body in self.function_lines:
            f = self._function_header(tokens, body is None)
            self.function_types[f.name] = f.ty
            if not (f.is_declaration and f.name.startswith("llvm.")):
                headers.append((f, body))
        for f, body in headers:
            if body is not None:
                self.where = f"{f.loc.file}:{f.loc.line}" if f.loc else \
                    f"in function '{f.name}'"
                read_body(self, f, body)
        self.where = self.source_name
        return Module(self.source_name, [f for f, _ in headers], globals_, aliases,
                      self.layout, self.asm, self.metadata, frozenset(self.weak))

    def _alias(self, tokens: list[Token]):
        p = self.parser(tokens)
        name = p.next().value
        p.expect("=")
        while not p.at("alias"):
            p.next()
        p.next()
        p.parse_type()
        p.expect(",")
        return self.rename.get(name, name), p.parse_typed_constant()[1]

    def _global(self, tokens: list[Token]) -> GlobalVar:
        p = self.parser(tokens)
        name = p.next().value
        p.expect("=")
        words = set()
        while p.tok.kind == "word" and p.tok.text not in ("global", "constant"):
            words.add(p.next().text)
            if p.at("("):
                p.skip_balanced()
        constant = p.next().text == "constant"
        ty = p.parse_type()
        init = None
        if not words & {"external", "extern_weak"}:
            init = p.parse_constant(ty)
        align = self.layout.align(ty)
        debug = []
        while p.tok.kind != "eof":
            tok = p.next()
            if tok.kind == "word" and tok.text == "align":
                align = p.next().value
            elif tok.kind == "meta" and tok.value == "dbg":
                node = self.metadata.get(p.next().value)
                if node is not None:
                    debug.append(node)
        local = bool(words & _LOCAL_LINKAGE) and name not in self.rename
        return GlobalVar(self.rename.get(name, name), ty, init, align, local, constant, debug)

    def _function_header(self, tokens: list[Token], declaration: bool) -> Function:
        """`define`/`declare` line: linkage, return type, name, parameters, `!dbg`."""
        words, name = _words_before_name(tokens)
        p = self.parser(tokens)
        p.next()
        ret = None
        while ret is None:                   # linkage and return attributes, return type
            if p.is_type_start():
                start = p.pos
                ty = p.parse_type()
                if p.tok.kind == "global":
                    ret = ty
                    break
                p.pos = start
            if p.tok.kind == "eof":
                raise IRSyntaxError(f"no return type in the header of @{name}")
            if p.tok.kind == "word" and p.peek().text == "(":
                p.next()
                p.skip_balanced()
            else:
                p.next()
        p.next()                                  # @name
        p.expect("(")
        params: list[Argument] = []
        vararg = False
        unnamed = 0
        while not p.at(")"):
            if p.accept("..."):
                vararg = True
                continue
            ty = p.parse_type()
            attrs = p.skip_param_attributes()
            if p.tok.kind == "local":
                pname = p.next().value
            else:
                pname = str(unnamed)
            if pname.isdigit():
                unnamed += 1
            params.append(Argument(ty, len(params), pname, attrs))
            p.accept(",")
        p.expect(")")
        subprogram = None
        while p.tok.kind != "eof":
            tok = p.next()
            if tok.kind == "meta" and tok.value == "dbg":
                subprogram = self.metadata.get(p.next().value)
        local = bool(words & _LOCAL_LINKAGE) and name not in self.rename
        fty = FuncT(ret, tuple(a.ty for a in params), vararg)
        f = Function(self.rename.get(name, name), fty, local, params,
                     is_declaration=declaration)
        self.entry_names[f.name] = str(unnamed)       # numbered after the parameters
        if subprogram is not None:
            f.subprogram = subprogram
            line = subprogram.fields.get("scopeLine") or subprogram.fields.get("line")
            f.loc = Loc(self.file_of(subprogram) or self.source_name, int(line or 0))
        return f

    # -- debug info ---------------------------------------------------------------------

    def location(self, node: MDNode | None) -> Loc | None:
        if node is None or node.kind != "DILocation":
            return None
        file = self.file_of(self.metadata.node(node.fields.get("scope")))
        return Loc(file or self.source_name, int(node.fields.get("line", 0)),
                   int(node.fields.get("column", 0)))

    def file_of(self, scope: MDNode | None) -> str | None:
        return self.metadata.file_of(scope)


def _words_before_name(tokens: list[Token]) -> tuple[set[str], str]:
    """The keywords of a `define`/`declare` line before the function's name, and the
    name (the first `@` token)."""
    words = set()
    for tok in tokens:
        if tok.kind == "global":
            return words, tok.value
        if tok.kind == "word":
            words.add(tok.text)
    raise IRSyntaxError("a function header without a name")
