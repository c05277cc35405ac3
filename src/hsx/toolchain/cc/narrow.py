"""Loop counters clang widened to 64 bits, narrowed back to 32, before instruction selection.

wasm32's data layout declares i64 a native integer, so clang's IndVarSimplify widens an
`int` counter that the loop uses as a 64-bit value (`h ^ (uint64_t)i` in
benchmarks/peers/mix.c) to an i64 phi.  On HSX an i64 is a register pair: the counter
took two registers across the loop and its step and exit test were a pair's
(`ADDI; ADC` with a zero register, `CMPI hi, 0; BNE; CMP lo, C; BNE`).

`narrow_counters` gives such a counter (or a `long long` one) 32 bits when it can prove
that every value it and its step take lies in [0, 2^32 - 1]:

- the phi is in a loop header entered from one block outside the loop with a constant
  start, and from one latch (the only back edge) with `%next = add %i, s`, s a nonzero
  constant (clang's partial unrolling makes s 2, 4, ...);
- the latch ends in `br` on `icmp %next (or %i), C`, C a constant, one side back to the
  header, the other out of the loop.  Counting from the start by s, the first value
  that leaves the loop is then known (for eq/ne only if the count meets C exactly,
  for the ordered compares only as s moves towards C), and with it every value of the
  phi and of the step (but for the step's last one, if only the phi reads the step: it
  is computed for the back edge not taken).  Exits elsewhere in the loop only end it
  sooner.

The phi and its step become i32, and so does an instruction computing from one of them
and a constant (`%i + 1` in an unrolled body, `i | 1`, `i * 5`) whose values the
counter's range keeps in [0, 2^32 - 1] too.  Every such value is non-negative and
below 2^32, so a compare of it with a constant in [0, 2^32 - 1] gives the same answer
on the low words with the unsigned form of its predicate (signed ones included), and so
does a conversion to floating point (`uitofp` of the word); every other use (64-bit
arithmetic, stores, calls, phis) reads `zext i32 ... to i64`, inserted next to it, the
64-bit value exactly: its high word is a 0 made at the use (and int64.py does `and`,
`or` and `xor` with such a word on one word), not a register kept across the loop.
Anything that does not match keeps its 64 bits, and so does a value that a `#dbg_value`
makes a variable's whole location (-g: a `long long` counter is 8 bytes where the
debugger reads it).
"""
from __future__ import annotations

from .consts import mask, signed
from .debuglocs import named_whole
from .ir import Block, Const, Function, Instr, Value
from .irtext import CInt
from .mir import CONDITIONS, SWAPPED
from .types import I32, I64

WORD = (1 << 32) - 1
NEGATED = {pred: negated for pred, (_, negated) in CONDITIONS.items()}
UNSIGNED = {pred: "u" + pred[1:] if pred[0] == "s" else pred for pred in CONDITIONS}
COMMUTATIVE = frozenset({"add", "mul", "and", "or", "xor"})
Range = tuple[int, int]


def narrow_counters(fn: Function) -> None:
    phis = [(block, i) for block in fn.blocks for i in _leading_phis(block)
            if i.ty == I64 and len(i.incoming) == 2]
    if not phis:
        return
    whole = named_whole(fn)            # -g: a `long long` variable's value keeps 64 bits
    users: dict[Value, list[Instr]] = {}
    for block in fn.blocks:
        for i in block.instrs:
            for op in dict.fromkeys(i.ops):
                if isinstance(op, Instr):
                    users.setdefault(op, []).append(i)
    for header, phi in phis:
        counter = _counter(fn.blocks[0], header, phi, users)
        if counter is not None and id(counter[0]) not in whole and id(counter[1]) not in whole:
            _narrow(*counter, users, whole)


def _leading_phis(block: Block):
    for i in block.instrs:
        if i.opcode != "phi":
            return
        yield i


def _counter(entry: Block, header: Block, phi: Instr, users: dict) -> tuple | None:
    """(phi, its step, the range of each) if both fit a word, else None."""
    (v0, pre), (v1, latch) = phi.incoming
    if isinstance(v0, Instr):
        (v0, pre), (v1, latch) = (v1, latch), (v0, pre)
    start = _int(v0, signed_=True)
    step = v1
    if start is None or pre is latch or set(header.preds) != {pre, latch} or \
            not isinstance(step, Instr) or step.opcode != "add" or step.ty != I64:
        return None
    a, b = step.ops
    delta = _int(b, signed_=True) if a is phi else _int(a, signed_=True) if b is phi else None
    if not delta:
        return None
    loop = _natural_loop(header, latch)
    if entry in loop or pre in loop:
        return None
    branch = latch.instrs[-1] if latch.instrs else None
    if branch is None or branch.opcode != "br" or len(branch.targets) != 2:
        return None
    compare = branch.ops[0]
    if not isinstance(compare, Instr) or compare.opcode != "icmp" or \
            compare.pred not in SWAPPED:
        return None
    x, c = compare.ops
    pred = compare.pred
    if x not in (phi, step):
        x, c, pred = c, x, SWAPPED[pred]
    bound = _int(c, signed_=pred[0] == "s")
    if x not in (phi, step) or bound is None or not 0 <= bound <= WORD:
        return None
    into, out = branch.targets
    if into is not header:
        into, out, pred = out, into, NEGATED[pred]
    if into is not header or out in loop:
        return None
    first = start + delta if x is step else start
    leaving = _leaving_value(pred[1:] if pred[0] in "su" else pred, first, bound, delta)
    if leaving is None:
        return None
    last = leaving if x is phi else leaving - delta        # the phi's last value
    phi_range = _span(start, last)
    if x is phi and users.get(step) == [phi]:   # its value at the exit is read by nobody
        step_range = _span(start + delta, last) if last != start else phi_range
    else:
        step_range = _span(start + delta, last + delta)
    if not (_fits(phi_range) and _fits(step_range)):
        return None
    return phi, step, phi_range, step_range


def _leaving_value(cont: str, first: int, bound: int, delta: int) -> int | None:
    """The first value of first, first + delta, first + 2 delta ... for which
    `value cont bound` (the condition to stay in the loop) is false; None when the
    count would run past the bound instead."""
    if cont == "ne":
        return bound if (bound - first) % delta == 0 and (bound - first) * delta >= 0 \
            else None
    if delta > 0:                       # stays while value < limit
        limit = {"lt": bound, "le": bound + 1}.get(cont)
        if limit is None:
            return None
        return first if first >= limit else first + -(-(limit - first) // delta) * delta
    limit = {"gt": bound, "ge": bound - 1}.get(cont)        # stays while value > limit
    if limit is None:
        return None
    return first if first <= limit else first - -(-(first - limit) // -delta) * -delta


def _natural_loop(header: Block, latch: Block) -> set[Block]:
    """The header and the blocks from which the latch is reached without passing the
    header: the loop of the back edge latch -> header, if the function's entry block
    is not among them (else the loop can be entered elsewhere)."""
    loop = {header, latch}
    work = [latch] if latch is not header else []
    while work:
        for p in work.pop().preds:
            if p not in loop:
                loop.add(p)
                work.append(p)
    return loop


def _span(a: int, b: int) -> Range:
    return (a, b) if a <= b else (b, a)


def _fits(r: Range | None) -> bool:
    return r is not None and 0 <= r[0] and r[1] <= WORD


def _int(value: Value, signed_: bool = False) -> int | None:
    if isinstance(value, Const) and value.ty == I64 and isinstance(value.c, CInt):
        return signed(mask(value.c.value, 64), 64) if signed_ else mask(value.c.value, 64)
    return None


def _narrow(phi: Instr, step: Instr, phi_range: Range, step_range: Range,
            users: dict, whole: set[int]) -> None:
    phi.ty = step.ty = I32
    phi.incoming = [(v if isinstance(v, Instr) else _word(v), b) for v, b in phi.incoming]
    phi.ops = [v for v, _ in phi.incoming]
    step.ops = [v if v is phi else _word(v) for v in step.ops]
    work = [(phi, phi_range), (step, step_range)]
    while work:
        value, known = work.pop()
        for user in users.get(value, ()):
            if user is phi or user is step:
                continue
            derived = _derived_range(user, value, known)
            if _fits(derived) and id(user) not in whole:
                user.ty = I32
                user.ops = [v if v is value else _word(v) for v in user.ops]
                work.append((user, derived))
            else:
                _use_narrow(user, value)


def _derived_range(user: Instr, value: Instr, known: Range) -> Range | None:
    """The values of `user` if it computes from `value` (in `known`) and a constant."""
    if user.ty != I64 or len(user.ops) != 2:
        return None
    op = user.opcode
    a, b = user.ops
    if a is not value:
        if op not in COMMUTATIVE:
            return None
        a, b = b, a
    k = _int(b, signed_=op in ("add", "sub"))
    if a is not value or k is None:
        return None
    lo, hi = known
    if op in ("add", "sub"):
        k = k if op == "add" else -k
        return lo + k, hi + k
    if op in ("or", "xor"):                         # x | k and x ^ k are <= x + k
        return (lo if op == "or" else 0), hi + k
    if op == "and":
        return 0, min(hi, k)
    if op == "mul":
        return lo * k, hi * k
    if op == "shl" and k < 32:
        return lo << k, hi << k
    if op == "lshr" and k < 32:
        return lo >> k, hi >> k
    if op == "udiv" and 0 < k <= WORD:
        return lo // k, hi // k
    if op == "urem" and 0 < k <= WORD:
        return 0, min(hi, k - 1)
    return None


def _use_narrow(user: Instr, value: Instr) -> None:
    """Let `user` read the now 32-bit `value` (every value in [0, 2^32 - 1])."""
    if user.opcode == "icmp":
        a, b = user.ops
        other = b if a is value else a
        k = _int(other, signed_=user.pred[0] == "s")
        if other is not value and k is not None and 0 <= k <= WORD:
            user.ops = [value if v is value else _word(v) for v in user.ops]
            user.pred = UNSIGNED[user.pred]
            return
    elif user.opcode in ("uitofp", "sitofp"):
        user.opcode, user.ops = "uitofp", [value]
        return
    if user.opcode == "phi":                        # at the end of the incoming block
        user.incoming = [(_widened(value, b, len(b.instrs) - 1, user) if v is value else v, b)
                         for v, b in user.incoming]
        user.ops = [v for v, _ in user.incoming]
        return
    wide = _widened(value, user.block, user.block.instrs.index(user), user)
    user.ops = [wide if v is value else v for v in user.ops]


def _widened(value: Instr, block: Block, at: int, user: Instr) -> Instr:
    """`zext i32 value to i64`, inserted at `block.instrs[at]` for `user`."""
    wide = Instr("zext", I64, ops=[value], block=block, loc=user.loc)
    block.instrs.insert(at, wide)
    return wide


def _word(value: Value) -> Const:
    return Const(I32, CInt(mask(value.c.value, 32)))
