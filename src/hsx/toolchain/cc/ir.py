"""The back end's own small IR: what `reader` builds from clang's LLVM IR text and
instruction selection walks (plain Python objects, nothing of llvmlite)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .irmeta import MDNode, Metadata
from .types import FuncT, Layout, Type


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
    align: int = 0              # alloca: the alignment asked for (0: the type's)

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
    debug_records: list = field(default_factory=list)   # (kind, Value, var, expr, at)


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
    metadata: Metadata
    weak: frozenset = frozenset()   # symbols of weak references (extern_weak)

    def function(self, name: str) -> Function | None:
        for f in self.functions:
            if f.name == name:
                return f
        return None
