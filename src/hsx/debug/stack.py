"""Call stacks: frame 0 from the code at PC, callers from the R14 frame chain.

The ABI frame (docs/debugger.md, "Stack walk"): a call pushes its return address, the
prologue `PUSH R14; MOV R14, R15` then leaves `[R14]` = the caller's R14 and
`[R14 + 4]` = the return address; crt0 starts with R14 = 0.  Frame 0 may be caught
before its prologue has run (also on a quick path the compiler placed before it), at
its final RET, or in a leaf function that has no frame at all; the code map says which,
so the walk never trusts R14 where it does not hold the frame yet.  A damaged chain ends the walk with a `note`; it never raises.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import errors as E
from .code import SP, CodeMap, frame_code_pc, sp_move
from .errors import DebugError
from .view import ContextView

DEFAULT_FRAMES = 16
MAX_FRAMES = 256


@dataclass(frozen=True)
class FrameBase:
    """Where the function executing at some PC keeps its return address."""

    entry_sp: int | None      # SP at the function's first instruction: [entry_sp] = return PC
    caller_fp: int | None     # the caller's R14
    problem: str | None = None


def locate(ctx: ContextView, code: CodeMap, pc: int, sp: int, fp: int, *, outer: bool = False) -> FrameBase:
    """The frame base of the function at `pc`, given its SP and R14 there.  `outer` is
    set for callers (not frame 0), where R14 = 0 ends the chain (crt0's convention)."""
    if code.returns_at(pc):
        return FrameBase(sp, fp)
    function = code.function_at(pc)
    if function is None:
        return FrameBase(None, None, f"pc 0x{pc:04X} is not in the code")
    name = function.name or f"0x{function.start:04X}"
    if pc == function.start:
        return FrameBase(sp, fp)
    if fp == 0 and outer:
        return FrameBase(None, None)                 # the outermost frame (crt0): a clean end
    if function.in_frame(pc):
        if not _in_stack(ctx, fp, 8) or fp < sp:
            return FrameBase(None, None, f"frame pointer 0x{fp:X} of {name} is not in the "
                             f"stack between SP 0x{sp:X} and 0x{ctx.layout.stack_top:X}")
        return FrameBase(fp + 4, _word(ctx, fp))
    delta = _sp_delta(code, function.start, pc)     # no frame (yet): a straight read
    if delta is None:
        return FrameBase(None, None, f"{name} has no frame and moves SP in a way the walk "
                         "cannot follow")
    return FrameBase(sp - delta, fp)


def _sp_delta(code: CodeMap, start: int, pc: int) -> int | None:
    """How far SP has moved from the function's start to `pc`, reading the code in a
    straight line (enough for functions without a frame, which only push and pop)."""
    moves = stack_moves(code, start, pc)
    return moves[-1][1] if moves is not None else None


def stack_moves(code: CodeMap, start: int, pc: int) -> list[tuple[Any, int]] | None:
    """The operations from `start` to `pc` read in a straight line (both of a compact
    pair), each with how far SP has moved from `start` before it, and a last (None,
    delta) at `pc`; None when SP moves in a way such a reading cannot follow."""
    if start > pc or not (code.is_instruction(pc) or pc == code.code_len):
        return None
    moves: list[tuple[Any, int]] = []
    delta = 0
    for _, op in code.operations(start, pc):
        move = sp_move(op) if op is not None else None
        if move is None:
            return None
        moves.append((op, delta))
        delta += move
    return moves + [(None, delta)]


def frame0(ctx: ContextView, code: CodeMap) -> FrameBase:
    regs = ctx.regs
    return locate(ctx, code, ctx.pc, regs[SP], regs[14])


def return_address(ctx: ContextView, code: CodeMap) -> tuple[int, int] | None:
    """(return PC, entry SP) of the function executing now; None in the entry frame or
    when the frame cannot be located."""
    base = frame0(ctx, code)
    entry = base.entry_sp
    if entry is None or entry >= ctx.layout.stack_top or not _in_stack(ctx, entry, 4):
        return None
    ret = _word(ctx, entry)
    return (ret, entry) if code.follows_call(ret) else None


def walk(ctx: ContextView, code: CodeMap, describe: Callable[[int], dict[str, Any]],
         max_frames: int = DEFAULT_FRAMES) -> dict[str, Any]:
    """`stack.info`: frames innermost first, and a `note` when the walk had to stop early.
    A caller's pc is its return address, and `offset` is that pc's in its function;
    its function and line are those of its call instruction (`frame_code_pc`)."""
    layout = ctx.layout
    pc, sp, fp = ctx.pc, ctx.regs[SP], ctx.regs[14]
    frames: list[dict[str, Any]] = []
    note, truncated = None, False
    while True:
        index = len(frames)
        at = frame_code_pc(pc, index)               # a caller: where it called from
        frame = {"index": index, "pc": pc, "sp": sp, "fp": fp, **describe(at)}
        frame["function"] = frame.pop("symbol", None)
        offset = frame.get("offset")
        frame["offset"] = None if offset is None else offset + pc - at   # of pc itself
        frames.append(frame)
        if not layout.stack_base <= sp <= layout.stack_top:
            note = f"SP 0x{sp:X} is outside the stack 0x{layout.stack_base:X}..0x{layout.stack_top:X}"
            break
        base = locate(ctx, code, at, sp, fp, outer=index > 0)
        entry = base.entry_sp
        if entry is None:
            note = base.problem
            break
        if entry == layout.stack_top:
            break                                    # the entry function: nothing to return to
        if entry < sp or entry % 4 or not _in_stack(ctx, entry, 4):
            note = (f"return address slot 0x{entry:X} of frame {len(frames) - 1} is not in the "
                    f"stack above SP 0x{sp:X}")
            break
        ret = _word(ctx, entry)
        frame["return_pc"] = ret
        if not code.follows_call(ret):
            where = "outside the code" if not 0 <= ret < code.code_len else "not after a call"
            note = f"return address 0x{ret:X} of frame {len(frames) - 1} is {where}"
            break
        if len(frames) >= max_frames:
            note, truncated = f"stopped after {max_frames} frames", True
            break
        pc, sp, fp = ret, entry + 4, base.caller_fp
    return {"frames": frames, "truncated": truncated, "note": note}


def info(symbols, pid: int, max_frames: int = DEFAULT_FRAMES) -> dict[str, Any]:
    """`stack.info` of a task of `symbols` (a SymbolService: the local executive's, or
    the client gateway's over a task on a board)."""
    if not isinstance(max_frames, int) or isinstance(max_frames, bool) or not (
            1 <= max_frames <= MAX_FRAMES):
        raise DebugError(E.BAD_ARGUMENT, f"max_frames must be 1..{MAX_FRAMES}")
    entry = symbols.get(pid)
    ctx = entry.task.ctx
    walked = walk(ctx, entry.code, lambda pc: symbols.describe(pid, pc), max_frames)
    return {"pid": pid, **walked, "sp": ctx.regs[15], "stack_base": ctx.layout.stack_base,
            "stack_top": ctx.layout.stack_top, "warnings": list(entry.warnings)}


def _in_stack(ctx: ContextView, addr: int, width: int) -> bool:
    layout = ctx.layout
    return layout.stack_base <= addr and addr + width <= layout.stack_top


def _word(ctx: ContextView, addr: int) -> int:
    return int.from_bytes(ctx.mem[addr:addr + 4], "little")
