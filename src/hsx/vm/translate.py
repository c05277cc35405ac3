"""Translation: guest code becomes compiled Python functions, one per entry PC.

A block is a *trace* from an entry PC: straight-line code that also follows static
jumps and calls (a call pushes its return address and the trace continues in the
callee), the RET of a followed call (to the predicted return address, checked when it
runs: a mismatch leaves the block) and the fall-through side of conditional branches,
whose taken side leaves the block. It ends at a dynamic transfer (JMPR, CALLR, CALL
through a register, an unpredicted RET), at an instruction already in the trace, before
an SVC/BRK/illegal word/breakpoint (those stay with the interpreter), after a
conditional branch back to the entry (so a loop block is exactly one iteration), or at a
length limit. Its function `blk(n) -> (next_pc, n')`:

* holds registers in locals, loaded once and written back at every exit;
* keeps flags lazily: each flag-setting instruction leaves only its operands, and PSW is
  computed from them at an exit, or not at all when a later instruction overwrites the
  flags first; a conditional branch after CMP compiles to a plain comparison;
* turns every transfer back to its own entry into the `continue` of a `while` loop with
  a budget check per iteration (counted loops, but also the descent of a recursion);
* checks everything the interpreter checks (memory bounds, stack bounds, SP writes,
  division by zero, branch targets) and on a fault writes back exactly the state before
  the faulting instruction, then raises with the remaining budget;
* writes locals back before reading the register window and reloads them after a store
  into it, so guest code that pokes its own registers stays exact.

A block runs only when the remaining budget covers its longest path (else one
instruction is interpreted). Translation is lazy (first execution) and per context;
identical source is compiled once per process.

The parts: tracescan.py finds a block's instructions and what they touch, blockgen.py
writes its Python source (registers, lazy flags, exits), blockops.py holds the source
of each straight-line instruction.  The last two are imported when the first block is
compiled: a program that ends before any of its code is hot needs neither (start-up).
"""
from __future__ import annotations

from typing import Callable

from .interp import decode_op
from .signals import BreakpointHit, Untranslated
from .tracescan import collect_trace

Block = Callable[[int], tuple[int, int]]


def untranslated(n: int) -> tuple[int, int]:
    """Block-table filler: tells the run loop to translate this PC first."""
    raise Untranslated


def breakpoint_entry(pc: int) -> Block:
    def hit(n: int) -> tuple[int, int]:
        raise BreakpointHit(pc)
    return hit


def invalidate(ctx, addr: int) -> None:
    """Forget every block containing `addr` (a breakpoint must split it)."""
    for start, covered in list(ctx.blocks.items()):
        if addr in covered:
            del ctx.blocks[start]
            ctx.btab[start >> 2] = untranslated


HOT_AFTER = 200       # arrivals at a block start before it is worth compiling


def install(ctx, pc: int, hot_after: int = HOT_AFTER) -> None:
    """First arrival at `pc`: interpret it and count arrivals; translate once it is hot.

    Compiling a block costs about as much as interpreting it a few hundred times, so
    code that runs once (start-up, a long straight path) is never compiled.
    """
    if hot_after <= 1:
        translate(ctx, pc)
        return
    index = pc >> 2
    op = decode_op(ctx, index)
    warmth = ctx.warmth
    warmth[pc] = hot_after

    def warming(n: int) -> tuple[int, int]:
        left = warmth[pc] - 1
        if left > 0:
            warmth[pc] = left
            return op(), n - 1
        del warmth[pc]
        translate(ctx, pc, hot_after)
        return ctx.btab[index](n)

    ctx.btab[index] = warming


def translate(ctx, pc: int, hot_after: int = 1) -> None:
    """Fill the block-table entry for `pc`: a translated block, or one interpreted step.

    The instructions inside the new block were being counted as entries too, one
    arrival at a time while `pc` warmed up; they start counting again, so that only a
    real entry (a branch target, not a run that happened to stop there) becomes hot."""
    from .blockgen import BlockCompiler
    from .blockops import BLOCK_GLOBALS
    instrs = collect_trace(ctx, pc) if len(ctx.blocks) < MAX_BLOCKS_PER_CONTEXT else []
    op = decode_op(ctx, pc >> 2)
    if not instrs:
        def single(n: int) -> tuple[int, int]:
            return op(), n - 1
        ctx.btab[pc >> 2] = single
        return
    source = BlockCompiler(ctx, instrs).source()
    make = _CACHE.get(source)
    if make is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        namespace = dict(BLOCK_GLOBALS)
        exec(compile(source, f"<hsx block 0x{pc:04X}>", "exec"), namespace)
        make = _CACHE[source] = namespace["make"]
    ctx.btab[pc >> 2] = make(ctx.regs, ctx.words, ctx.mem, ctx, op)
    covered = ctx.blocks[pc] = frozenset(a for at, ins in instrs
                                         for a in range(at, at + ins.size, 4))
    for inside in covered & ctx.warmth.keys():
        ctx.warmth[inside] = hot_after


_CACHE: dict[str, Callable[..., Block]] = {}
_CACHE_LIMIT = 4096             # compiled block factories kept per process
MAX_BLOCKS_PER_CONTEXT = 2048   # then further entries stay interpreted: memory is bounded
