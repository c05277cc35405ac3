"""Where a function's frame goes: only on the paths that need it.

A call costs the frame (`PUSH R14; MOV R14, R15`, the pushes of the R6..R13 it uses, and
all of it undone before `RET`) on every path through the function, also on a quick way
out that touches none of it -- `fib`'s `n < 2`.  So, after register allocation, the
blocks that need no frame (no call, no stack, no R14, no R6..R13) and that the entry
reaches through such blocks only run without one:

- all of them: the function has no prologue or epilogue at all;
- some, among them a return, and one block outside them that only they branch to: they
  come first, that block starts with the prologue, and their returns are a plain RET.

Before allocation, `copy_return_tails` gives each block that jumps to a small return
block a copy of it, with the values it computes renamed, so a quick path does not share
registers (R6..R13, chosen for values that live across calls on another path) with the
rest.  Debuggers find where such a function starts only from a CALL to it or from the
symbols (code.py of hsx.debug): it is done for exported functions and for functions only
ever called directly (`address_taken`); its prologue is then found where it is.
"""
from __future__ import annotations

from .ir import Const, Module
from .irtext import CAggregate, CDSOLocalEquivalent, CExpr, CGlobal
from .mir import CALLEE_SAVED, FP, SP, MBlock, MFunction, VReg

# machine instructions that use the frame or move SP (emit.py)
FRAME_OPS = frozenset({"call", "callr", "frameaddr", "vastart", "asm", "dynalloc",
                       "stackrestore"})
TAIL_MAX = 4            # instructions of a return block copied into its predecessors
_FRAME_REGS = frozenset(CALLEE_SAVED) | {FP, SP}


def address_taken(module: Module) -> set[str]:
    """The functions of `module` used other than as the callee of a direct call (a
    debugger sees no CALL to them, so it finds them only by their prologue)."""
    names = {f.name for f in module.functions}
    found: set[str] = set(module.aliases) | {n for c in module.aliases.values()
                                             for n in _globals_in(c)}
    for g in module.globals:
        found |= _globals_in(g.init)
    for f in module.functions:
        for block in f.blocks:
            for i in block.instrs:
                ops = i.ops[:-1] if i.opcode == "call" else i.ops
                for op in ops:
                    if isinstance(op, Const):
                        found |= _globals_in(op.c)
    return found & names


def _globals_in(c) -> set[str]:
    if isinstance(c, (CGlobal, CDSOLocalEquivalent)):
        return {c.name}
    if isinstance(c, CExpr):
        c = c.args
    elif isinstance(c, CAggregate):
        c = c.elems
    if isinstance(c, tuple):
        return set().union(*(_globals_in(x) for x in c))
    return set()


# -- before register allocation ----------------------------------------------------------

def copy_return_tails(mf: MFunction) -> None:
    """Replace each `br X` to a small return block X by a copy of X, the values the
    predecessor then defines that are defined elsewhere too (phis' copies) renamed: it
    ends in the return, so nothing else sees them.
    Not where a debug record (-g) takes effect in X: its marker has one place.  The
    renamed values have no debug homes: a variable held in one is "optimised out" there
    (debuglocs.py), never shown from a stale register."""
    if mf.jump_tables:
        return
    defined: dict[VReg, int] = {}
    for block in mf.blocks:
        for inst in block.insts:
            for r in inst.defs:
                defined[r] = defined.get(r, 0) + 1
    shared = {r for r, n in defined.items() if n > 1 and isinstance(r, VReg)}   # phis'
    for tail in list(mf.blocks):
        code = tail.insts
        if not code or code[-1].op != "ret" or len(code) > TAIL_MAX or \
                any(i.op in FRAME_OPS or i.op == "dbg" for i in code):
            continue
        copied = False
        for block in mf.blocks:
            last = block.insts[-1] if block.insts else None
            if block is tail or last is None or last.op != "br" or last.args[0] is not tail:
                continue
            copies = [_copy(i) for i in code]
            block.insts[-1:] = copies
            block.succs = []
            _rename(mf, block, shared | {r for i in copies for r in i.defs
                                         if isinstance(r, VReg)})
            if "values" not in mf.debug:        # -g: keep the values the records name
                _fold(block)
            copied = True
        if copied and not any(tail in b.succs for b in mf.blocks) and tail is not mf.blocks[0]:
            mf.blocks.remove(tail)


def _copy(inst):
    return type(inst)(inst.op, list(inst.defs), list(inst.uses), inst.args, inst.clobbers,
                      inst.early, inst.loc, inst.pairs)


def _rename(mf: MFunction, block: MBlock, which: set[VReg]) -> None:
    """New names for the values in `which` that `block` defines, from their definition
    to the block's end (the values defined once keep theirs, and their debug homes)."""
    names: dict[VReg, VReg] = {}
    for inst in block.insts:
        inst.uses = [names.get(r, r) for r in inst.uses]
        for k, r in enumerate(inst.defs):
            if r in which:
                names[r] = inst.defs[k] = mf.vreg(r.tiny)


def _fold(block: MBlock) -> None:
    """Tidy a block that now ends in a return: a copy of a value is that value, `x + 0`
    (`- 0`, `| 0`, `^ 0`, as a register or an immediate) is `x`, and a constant or copy nobody reads goes.  (A phi's
    constant on the quick path is where this comes from: fib's `return n + 0`.)  Every
    value the block defines is read only in it, and none is defined twice (_rename)."""
    const: dict[VReg, int] = {}
    same: dict[VReg, VReg] = {}
    for inst in block.insts:
        inst.uses = [same.get(r, r) for r in inst.uses]
        d = inst.defs[0] if len(inst.defs) == 1 else None
        if not isinstance(d, VReg):
            continue
        if inst.op == "li":
            const[d] = inst.args[0]
        elif inst.op == "mov" and isinstance(inst.uses[0], VReg):
            same[d] = inst.uses[0]
        elif inst.op == "alu" and inst.args[0] in ("ADD", "SUB", "OR", "XOR") and \
                const.get(inst.uses[1]) == 0:
            inst.op, inst.uses, inst.args = "mov", inst.uses[:1], ()
        elif inst.op == "alu" and inst.args[0] in ("ADD", "OR", "XOR") and \
                const.get(inst.uses[0]) == 0:
            inst.op, inst.uses, inst.args = "mov", inst.uses[1:], ()
        elif inst.op == "alui" and inst.args in (("ADDI", 0), ("ORI", 0), ("XORI", 0)):
            inst.op, inst.args = "mov", ()
    while True:
        read = {r for inst in block.insts for r in inst.uses}
        kept = [inst for inst in block.insts if not (
            inst.op in ("li", "mov") and isinstance(inst.defs[0], VReg)
            and inst.defs[0] not in read)]
        if len(kept) == len(block.insts):
            return
        block.insts = kept


# -- after register allocation -----------------------------------------------------------

def place_frame(mf: MFunction, findable: bool) -> None:
    """Decide which blocks run without the frame (`mf.unframed`, `mf.frame_at`) and put
    them first.  `findable`: a debugger can tell where the function starts without a
    prologue there."""
    if not findable or not mf.blocks:
        return
    light = {id(b) for b in mf.blocks if not _needs_frame(b)}
    preds: dict[int, list[MBlock]] = {id(b): [] for b in mf.blocks}
    for b in mf.blocks:
        for s in b.succs:
            preds[id(s)].append(b)
    entry = mf.blocks[0]
    if not (mf.saved or mf.slots or mf.outgoing) and len(light) == len(mf.blocks):
        mf.unframed = frozenset(mf.blocks)
        return
    if id(entry) not in light:
        return
    quick = _closed_region(entry, light, preds)
    if not quick:
        return
    exits = {id(s): s for b in quick for s in b.succs if s not in quick}
    if len(exits) != 1 or not any(b.insts and b.insts[-1].op == "ret" for b in quick) or \
            any(b.insts and b.insts[-1].op == "jmpr" for b in quick):
        return
    (head,) = exits.values()
    if any(p not in quick for p in preds[id(head)]):
        return                      # entered from the framed part too: no place to set it up
    mf.unframed = frozenset(quick)
    mf.frame_at = head
    mf.blocks = [b for b in mf.blocks if b in quick] + \
        [head] + [b for b in mf.blocks if b not in quick and b is not head]


def _needs_frame(block: MBlock) -> bool:
    for inst in block.insts:
        if inst.op in FRAME_OPS or not _FRAME_REGS.isdisjoint(inst.defs) or \
                not _FRAME_REGS.isdisjoint(inst.uses):
            return True
        if inst.op in ("load", "store") and inst.args[2] is not None:   # a frame slot
            return True
    return False


def _closed_region(entry: MBlock, light: set[int], preds: dict) -> set[MBlock]:
    """The light blocks the entry reaches through light blocks, less any that another
    block can branch to (so that no framed path ever enters them); empty when that
    would be the entry itself."""
    while True:
        region, todo = {entry}, [entry]
        while todo:
            for s in todo.pop().succs:
                if id(s) in light and s not in region:
                    region.add(s)
                    todo.append(s)
        outside = {id(b) for b in region if any(p not in region for p in preds[id(b)])}
        if id(entry) in outside:
            return set()
        if not outside:
            return region
        light -= outside
