"""Machine IR: HSX instructions (and a few pseudos) over virtual registers.

Instruction selection produces it, the register allocator rewrites virtual registers to
physical ones (inserting spill code), and the emitter prints it as MVASM.  Every
instruction lists the registers it reads (`uses`) and writes (`defs`) so liveness needs
no knowledge of individual opcodes; `clobbers` are the registers a call destroys.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..fixups import wider_load


class VReg:
    """A virtual 32-bit register.  `tiny` ones are spill reloads: never spilled again."""

    __slots__ = ("id", "tiny")

    def __init__(self, id: int, tiny: bool = False) -> None:
        self.id = id
        self.tiny = tiny

    def __repr__(self) -> str:
        return f"%{self.id}"


class PReg:
    """A physical register R0..R15 (interned: compare with `is`)."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"R{self.n}"


R = [PReg(n) for n in range(16)]
FP = R[14]
SP = R[15]
ARG_REGS = R[1:6]
CALLER_SAVED = tuple(R[0:6])
CALLEE_SAVED = tuple(R[6:14])
ALLOCATABLE = tuple(R[0:14])

Reg = VReg | PReg


@dataclass(eq=False)
class FrameSlot:
    """A piece of the frame: an alloca, a spill slot or a by-value argument copy.

    `offset` (bytes below R14) is filled in by frame layout."""

    size: int
    align: int
    kind: str = "local"          # local, spill
    offset: int | None = None
    name: str = ""


@dataclass(eq=False)
class MInst:
    """One machine instruction.

    `op` names the form (see emit.py for each one's MVASM), `args` holds its
    non-register operands.  `early` marks defs written before all uses are read.
    `pairs` lists the operands that are register pairs `Rn:Rn+1` (a 64-bit value of the
    VM's float and 64-bit instructions): ("d" or "u", k) for defs or uses k and k+1."""

    op: str
    defs: list = field(default_factory=list)
    uses: list = field(default_factory=list)
    args: tuple = ()
    clobbers: tuple = ()
    early: bool = False
    loc: object = None
    pairs: tuple = ()

    def __repr__(self) -> str:
        return f"{self.op} {self.defs} <- {self.uses} {self.args}"


@dataclass(eq=False)
class MBlock:
    label: str
    insts: list = field(default_factory=list)
    succs: list = field(default_factory=list)
    loc: object = None

    def __repr__(self) -> str:
        return f"<mblock {self.label}>"


@dataclass(eq=False)
class MFunction:
    name: str
    symbol: str
    exported: bool
    blocks: list = field(default_factory=list)
    slots: list = field(default_factory=list)
    outgoing: int = 0                 # bytes of the outgoing-argument area at SP
    incoming_stack: int = 0           # bytes of fixed stack arguments (va_start)
    next_vreg: int = 0
    saved: list = field(default_factory=list)    # callee-saved registers used
    frame_size: int = 0               # bytes below the saved registers
    sp_moves: bool = True             # SP may move after the prologue (frame.py)
    unframed: frozenset = frozenset()  # blocks that run without the frame (shrinkwrap.py)
    frame_at: "MBlock | None" = None  # the block that starts with the prologue, if not
                                      # the entry

    @property
    def frameless(self) -> bool:
        return len(self.unframed) == len(self.blocks)
    jump_tables: list = field(default_factory=list)   # (label, [MBlock])
    imports: set = field(default_factory=set)         # symbols to `.import` (link pulls)
    pairs: dict = field(default_factory=dict)  # low vreg -> high vreg of a pair (pairs.py)
    loc: object = None
    debug: dict = field(default_factory=dict)

    def vreg(self, tiny: bool = False) -> VReg:
        self.next_vreg += 1
        return VReg(self.next_vreg, tiny)

    def slot(self, size: int, align: int, kind: str = "local", name: str = "") -> FrameSlot:
        s = FrameSlot(max(size, 1), max(align, 1), kind, name=name)
        self.slots.append(s)
        return s


# Branch conditions: name -> (MVASM branch, negated condition name).
CONDITIONS = {
    "eq": ("BEQ", "ne"), "ne": ("BNE", "eq"),
    "slt": ("BLT", "sge"), "sge": ("BGE", "slt"), "sgt": ("BGT", "sle"), "sle": ("BLE", "sgt"),
    "ult": ("BLTU", "uge"), "uge": ("BGEU", "ult"), "ugt": ("BGTU", "ule"),
    "ule": ("BLEU", "ugt"),
}

# Swapping the operands of a compare: a < b  <=>  b > a.
SWAPPED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle",
           "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule"}


def fits12(value: int) -> bool:
    return -2048 <= value <= 2047


def load_constant(value: int) -> str:
    """The one instruction that puts `value` in a register: LDI, LDI20 or LDIH in one
    word where they hold it, else LDI32 in two."""
    return "LDI" if fits12(value) else wider_load(value)
