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
"""
from __future__ import annotations

import struct
from typing import Callable

from hsx.isa import BY_MNEMONIC, Flags, Form, Group, Instruction
from hsx.isa.encoding import FORM_FIELDS
from hsx.isa.f16 import f16_add, f16_div, f16_mul, f16_sub, f16_to_int, int_to_f16

from .interp import MATH_FUNCTIONS, MEMORY_WIDTH, static_target, valid_target
from .signals import (BreakpointHit, Halt, Untranslated, divide_fault, memory_fault,
                      pc_fault, sp_fault, stack_fault)

Block = Callable[[int], tuple[int, int]]
M = 0xFFFFFFFF
MAX_BLOCK = 128


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
    op = ctx.ops[index]
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
    instrs = _collect(ctx, pc) if len(ctx.blocks) < MAX_BLOCKS_PER_CONTEXT else []
    op = ctx.ops[pc >> 2]
    if not instrs:
        def single(n: int) -> tuple[int, int]:
            return op(), n - 1
        ctx.btab[pc >> 2] = single
        return
    source = _Gen(ctx, instrs).source()
    make = _CACHE.get(source)
    if make is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        namespace = dict(_GLOBALS)
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


# --- what the translator knows about each instruction ---------------------------------

_STACK_USERS = frozenset({"PUSH", "POP", "CALL", "LCALL", "CALLR", "RET"})
_DIVIDES = frozenset({"DIV", "DIVU", "REM", "REMU", "DIV64", "DIVU64", "REM64", "REMU64"})
_CALLS = frozenset({"CALL", "LCALL"})
_COND = {"JZ": "EQ", "JNZ": "NE", "BEQ": "EQ", "BNE": "NE", "BLT": "LT", "BGE": "GE",
         "BGT": "GT", "BLE": "LE", "BLTU": "LTU", "BGEU": "GEU", "BGTU": "GTU",
         "BLEU": "LEU"}
assert set(_STACK_USERS | _DIVIDES | _CALLS | set(_COND)) <= set(BY_MNEMONIC)


def _translatable(ctx, pc: int, ins: Instruction | None) -> bool:
    """SVC, BRK, illegal words, a LDI32 cut off by the end of code and branches to
    impossible static targets are left to the interpreter."""
    if ins is None or ins.op.group is Group.SYSTEM:
        return False
    if ins.rd == 14 and "rd" in ins.op.pairs:       # a result pair ending in SP
        return False
    if pc + ins.size > ctx.code_len:
        return False
    target = static_target(ins, pc)
    return target is None or valid_target(target, ctx.code_len)


def _collect(ctx, start: int) -> list[tuple[int, Instruction]]:
    """The trace starting at `start` (see the module docstring)."""
    instrs: list[tuple[int, Instruction]] = []
    seen: set[int] = set()
    returns: list[int] = []                     # return addresses of followed calls
    pc = start
    while len(instrs) < MAX_BLOCK and pc < ctx.code_len and pc not in seen:
        if instrs and pc in ctx.breakpoints:
            break
        ins = ctx.decoded[pc >> 2]
        if not _translatable(ctx, pc, ins):
            break
        instrs.append((pc, ins))
        seen.add(pc)
        name = ins.op.mnemonic
        target = static_target(ins, pc)
        if name in _COND and target == start:
            break                               # a loop's back-edge: one iteration per pass
        if not ins.op.ends_block or name in _COND:
            pc += ins.size                      # straight on / fall-through side
            continue
        if name == "RET" and returns:
            pc = returns.pop()                  # predicted; checked when it runs
            continue
        if target is None:                      # RET, JMPR, CALLR, CALL Ra: ends here
            break
        if name in _CALLS:
            returns.append(pc + 4)
        pc = target                             # JMP, BR, CALL, LCALL: follow
    return instrs


def _reads(ins: Instruction) -> set[int]:
    fields = FORM_FIELDS[ins.op.form]
    regs = set()
    if "rs1" in fields and not (ins.op.form is Form.CALL12 and ins.rs1 == 0):
        regs.add(ins.rs1)
    if "rs2" in fields:
        regs.add(ins.rs2)
    regs |= {getattr(ins, f) + 1 for f in ins.op.pairs if f != "rd"}
    if ins.op.group is Group.FLOAT and ins.op.mnemonic != "F2I":
        regs.add(ins.rd)                  # only the low half of Rd is replaced
    if ins.op.mnemonic in _STACK_USERS:
        regs.add(15)
    return regs


def _writes(ins: Instruction) -> set[int]:
    regs = {ins.rd} if "rd" in FORM_FIELDS[ins.op.form] else set()
    if "rd" in ins.op.pairs:
        regs.add(ins.rd + 1)
    if ins.op.mnemonic in _STACK_USERS:
        regs.add(15)
    return regs


def _reads_flags(ins: Instruction) -> bool:
    """Reads PSW before updating it: branches, ADC/SBC, and shifts that may keep C."""
    if ins.op.reads_flags:
        return True
    if ins.op.flags is Flags.SHIFT:
        return ins.op.form is Form.RD_RS_RS or not ins.imm & 31
    return False


def _may_fault(ins: Instruction) -> bool:
    name = ins.op.mnemonic
    return (ins.op.group is Group.MEMORY or name in _STACK_USERS or name in _DIVIDES
            or name == "JMPR" or 15 in _writes(ins))


# --- lazily evaluated flags -------------------------------------------------------------

def _flip(y: str) -> str:
    """`y ^ 0x80000000`, folded when y is a literal (signed compare via unsigned)."""
    return str(int(y) ^ 0x80000000) if y.isdigit() else f"({y} ^ 0x80000000)"


class _Flags:
    """Where the current PSW comes from: a materialised value ("psw", name) or the
    operands of the last flag-setting instruction, as expressions over locals."""

    def __init__(self, kind: str, carried: _Flags | None = None, **names: str) -> None:
        self.kind, self.names, self.carried = kind, names, carried

    @classmethod
    def loop_top(cls, carried: _Flags) -> _Flags:
        """At the top of a loop body: the entry PSW `P` in the first iteration, after that
        either `P` (re-materialised at a back-edge) or, when P is None, `carried`."""
        return cls("either", carried)

    def _either(self, first: str, later: str) -> str:
        return f"({first} if P is not None else {later})"

    def parts(self) -> tuple[str, str, str, str]:
        """(Z, C, N, V) as expressions worth 0/1 (or False/True); "0" when constant."""
        k, f = self.kind, self.names
        if k == "either":
            return tuple(self._either(a, b) for a, b in zip(_Flags("psw", p="P").parts(),
                                                              self.carried.parts()))
        if k == "psw":
            p = f["p"]
            return f"({p} & 1)", f"(({p} >> 1) & 1)", f"(({p} >> 2) & 1)", f"(({p} >> 3) & 1)"
        if k == "mul":
            p = f["p"]
            hi = f"({p} > 0xFFFFFFFF)"
            return f"(({p} & 0xFFFFFFFF) == 0)", hi, f"(({p} >> 31) & 1)", hi
        if k == "sub":
            x, y = f["x"], f["y"]
            r = f.get("r") or f"(({x} - {y}) & 0xFFFFFFFF)"
            return (f"({x} == {y})", f"({x} >= {y})", f"({r} >> 31)",
                    f"((({x} ^ {y}) & ({x} ^ {r})) >> 31)")
        r = f["r"]
        z, n = f"({r} == 0)", f"({r} >> 31)"
        if k == "logic":
            return z, "0", n, "0"
        if k == "shift":
            return z, f["c"], n, "0"
        x, y = f["x"], f["y"]
        if k == "add":
            return z, f"(({x} + {y}) >> 32)", n, f"((({x} ^ {r}) & ({y} ^ {r})) >> 31)"
        if k == "adc":
            return (z, f"(({x} + {y} + {f['c']}) >> 32)", n,
                    f"((({x} ^ {r}) & ({y} ^ {r})) >> 31)")
        if k == "sbc":
            return (z, f"({x} + {f['c']} > {y})", n,
                    f"((({x} ^ {y}) & ({x} ^ {r})) >> 31)")
        raise AssertionError(k)

    def carry(self) -> str:
        return self.parts()[1]

    def psw(self) -> str:
        if self.kind == "either":
            return self._either("P", f"({self.carried.psw()})")
        if self.kind == "psw":
            return self.names["p"]
        terms = [part if shift == 0 else f"({part} << {shift})"
                 for part, shift in zip(self.parts(), (0, 1, 2, 3)) if part != "0"]
        return " | ".join(terms)

    def condition(self, cond: str) -> str:
        if self.kind == "either":
            return self._either(f"({_Flags('psw', p='P').condition(cond)})",
                                f"({self.carried.condition(cond)})")
        if self.kind == "sub":
            x, y = self.names["x"], self.names["y"]
            unsigned = {"EQ": "==", "NE": "!=", "LTU": "<", "GEU": ">=", "GTU": ">",
                        "LEU": "<="}
            if cond in unsigned:
                return f"{x} {unsigned[cond]} {y}"
            signed = {"LT": "<", "GE": ">=", "GT": ">", "LE": "<="}[cond]
            return f"{_flip(x)} {signed} {_flip(y)}"
        z, c, n, v = self.parts()
        return {
            "EQ": z, "NE": f"not {z}", "LT": f"{n} != {v}", "GE": f"{n} == {v}",
            "GT": f"not {z} and {n} == {v}", "LE": f"{z} or {n} != {v}",
            "LTU": f"not {c}", "GEU": c, "GTU": f"{c} and not {z}", "LEU": f"not {c} or {z}",
        }[cond]


# --- code generation ----------------------------------------------------------------------

class _Gen:
    """Generates the source of one block. Emission walks the instructions once, tracking
    which register locals are dirty and where the flags come from, so that every exit
    can write back exactly the architectural state at that point."""

    def __init__(self, ctx, instrs: list[tuple[int, Instruction]]) -> None:
        lay = ctx.layout
        self.SB, self.ST, self.MS, self.RB = (lay.stack_base, lay.stack_top, lay.mem_size,
                                              lay.reg_base)
        self.CL = ctx.code_len
        self.instrs = instrs
        self.L = len(instrs)
        self.start = instrs[0][0]
        last_pc, last = instrs[-1]
        self.fall = last_pc + last.size
        back_edges = [k for k in range(self.L) if self.start in self._static_exits(k)]
        self.loop = bool(back_edges)
        # One back-edge, at the end: every iteration is L instructions, so a
        # `for i in range(n // L)` does the budget counting; otherwise `while True` with
        # the count kept in n.
        self.counted = back_edges == [self.L - 1]
        self._analyse()

    # analysis

    def _static_exits(self, k: int) -> tuple[int, ...]:
        """Static PCs instruction k can leave the trace to (dynamic ones excluded)."""
        pc, ins = self.instrs[k]
        last = k == self.L - 1
        if not ins.op.ends_block:
            return (pc + ins.size,) if last else ()
        target = static_target(ins, pc)
        if target is None:
            return ()
        if ins.op.mnemonic in _COND:
            return (target, pc + 4) if last else (target,)
        return (target,) if last else ()

    def _analyse(self) -> None:
        ins = [i for _, i in self.instrs]
        L = self.L
        self.used = set().union(*(_reads(i) | _writes(i) for i in ins))
        first_access: dict[int, str] = {}
        for i in ins:
            for r in _reads(i):
                first_access.setdefault(r, "read")
            for r in _writes(i):
                first_access.setdefault(r, "write")
        # A loop may exit from anywhere with any register dirty: load them all.
        self.load = sorted(self.used if self.loop else
                           {r for r, how in first_access.items() if how == "read"})
        observes = [_reads_flags(i) or _may_fault(i) for i in ins]
        setters = [k for k, i in enumerate(ins) if i.op.flags is not Flags.NONE]
        self.live: dict[int, bool] = {}
        self.clobber: dict[int, set[int]] = {}
        for idx, k in enumerate(setters):
            nxt = setters[idx + 1] if idx + 1 < len(setters) else L
            if nxt < L:
                self.live[k] = any(observes[j] for j in range(k + 1, nxt + 1))
                span = range(k + 1, nxt)
            else:
                self.live[k] = True         # the block exit observes the flags
                span = range(k + 1, L)
            clobbered: set[int] = set()
            for j in span:
                clobbered |= _writes(ins[j])
                if ins[j].op.form is Form.MEM_RS:
                    clobbered |= set(range(16))    # may store into the register window
            self.clobber[k] = clobbered
        first = setters[0] if setters else L
        prefix = range(0, min(first + 1, L))
        prefix_reads = any(_reads_flags(ins[j]) for j in prefix)
        prefix_observes = any(observes[j] for j in prefix)
        self.has_setter = bool(setters)
        # P (the PSW as a local) is needed when flags are read before the block sets
        # them, or, in a loop, when later iterations must carry flags into that prefix.
        self.loop_carries_psw = self.loop and self.has_setter and prefix_observes
        self.need_p = prefix_reads or self.loop_carries_psw
        # A carrying loop hands the flags of its last setter to the next iteration as
        # that setter's operands, in locals nothing overwrites in between (see goto()).
        self.carried = None
        if self.loop_carries_psw:
            at_back_edges = [max((s for s in setters if s <= k), default=None)
                             for k in range(L) if self.start in self._static_exits(k)]
            self.carried = next((s for s in at_back_edges if s is not None), None)
        if self.carried is not None:
            # Its operands must also survive into the next iteration, up to the last
            # instruction of the prefix that observes them.
            last_observer = max(j for j in prefix if observes[j])
            for j in [*range(self.carried + 1, L), *range(0, last_observer)]:
                self.clobber[self.carried] |= _writes(ins[j])
                if ins[j].op.form is Form.MEM_RS:
                    self.clobber[self.carried] |= set(range(16))
        self.body_writes = set().union(*(_writes(i) for i in ins))

    # emission helpers

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def indent(self) -> _Indent:
        return _Indent(self)

    def writeback_regs(self) -> None:
        for r in sorted(self.dirty):
            self.emit(f"R[{r}] = r{r}")

    def writeback(self) -> None:
        self.writeback_regs()
        if self.psw_dirty:
            self.emit(f"ctx.psw = {self.flags.psw()}")

    def fault(self, exc: str) -> None:
        """Leave the block with the state before the current instruction; raise `exc`."""
        self.writeback()
        self.emit(f"raise {exc}")

    def operand(self, reg: int, tag: str) -> str:
        """A register operand the current instruction's flags will refer to later: the
        local itself when it stays unchanged while the flags are live, else a copy."""
        k, ins = self.k, self.ins
        if not self.live.get(k):
            return f"r{reg}"
        if reg in self.clobber[k] or reg in _writes(ins):
            name = f"{tag}{k}"
            self.emit(f"{name} = r{reg}")
            return name
        return f"r{reg}"

    def result(self, reg: int) -> str:
        """Name of the instruction's result for its flags (after it is written)."""
        if reg in self.clobber[self.k]:
            name = f"t{self.k}"
            self.emit(f"{name} = r{reg}")
            return name
        return f"r{reg}"

    def set_reg(self, reg: int, expr: str) -> None:
        if reg == 15:                      # SP: stay inside [stack_base, stack_top]
            v = f"v{self.k}"
            self.emit(f"{v} = {expr}")
            self.emit(f"if {v} < {self.SB} or {v} > {self.ST}:")
            with self.indent():
                self.fault(f"sp_fault({self.pc}, {v}, {self.SB}, {self.ST}, {self.rem(self.k)})")
            expr = v
        self.emit(f"r{reg} = {expr}")
        self.dirty.add(reg)

    def set_flags(self, kind: str, **names: str) -> None:
        self.flags = _Flags(kind, **names)
        self.flags_from = self.k
        self.psw_dirty = True

    def ea(self, ins: Instruction) -> None:
        base = f"r{ins.rs1}"
        self.emit(f"ea = {base}" if ins.imm == 0 else f"ea = ({base} + {ins.imm}) & {M}")

    def check_memory(self, width: int) -> None:
        """Opens `if` for an access outside plain data memory (register window or
        invalid); the caller fills in the window path."""
        self.emit(f"if ea < 256 or ea > {self.RB - width}:")
        self.depth += 1
        self.emit(f"if ea < 256 or ea > {self.MS - width}:")
        with self.indent():
            self.fault(f"memory_fault({self.pc}, ea, {width}, {self.MS}, {self.rem(self.k)})")

    def check_stack(self, sp: str) -> None:
        self.emit(f"if {sp} < {self.SB} or {sp} > {self.ST - 4}:")
        with self.indent():
            self.fault(f"stack_fault({self.pc}, {sp}, {self.SB}, {self.ST}, {self.rem(self.k)})")

    def check_target(self, t: str) -> None:
        self.emit(f"if {t} & 3 or {t} >= {self.CL}:")
        with self.indent():
            self.fault(f"pc_fault({self.pc}, {t}, {self.CL}, {self.rem(self.k)})")

    def push(self, value: str) -> None:
        self.emit("sp = r15 - 4")
        self.check_stack("sp")
        self.emit(f"if sp & 3: P32(mem, sp, {value})")
        self.emit(f"else: W[sp >> 2] = {value}")
        self.set_reg_unchecked(15, "sp")

    def set_reg_unchecked(self, reg: int, expr: str) -> None:
        self.emit(f"r{reg} = {expr}")
        self.dirty.add(reg)

    # block structure

    def source(self) -> str:
        if self.carried is None:
            return self._emit_all(None)
        self._emit_all(None)                   # first pass: learn the carried descriptor
        return self._emit_all(self.carried_flags)

    def _emit_all(self, carried: _Flags | None) -> str:
        self.lines = []
        self.dirty: set[int] = set(self.body_writes) if self.loop else set()
        self.psw_dirty = self.loop and self.has_setter
        self.flags_from: int | None = None
        if carried is not None:
            self.flags = _Flags.loop_top(carried)
        else:
            self.flags = _Flags("psw", p="P") if self.need_p or not self.has_setter else None
        head = ["def make(R, W, mem, ctx, OP0):", "    def blk(n):",
                f"        if n < {self.L}:", "            return OP0(), n - 1"]
        head += [f"        r{r} = R[{r}]" for r in self.load]
        if self.need_p:
            head.append("        P = ctx.psw")
        self.depth = 2
        if self.loop:
            head.append(f"        for i in range(n // {self.L}):" if self.counted
                        else "        while True:")
            self.depth = 3
        for k, (pc, ins) in enumerate(self.instrs):
            self.k, self.pc, self.ins = k, pc, ins
            if ins.op.ends_block:
                self.transfer(ins, last=k == self.L - 1)
            else:
                EMITTERS[ins.op.mnemonic](self, ins)
            if k == self.carried:
                self.carried_flags = self.flags
        if not self.instrs[-1][1].op.ends_block:
            self.goto(self.fall)
        if self.loop and self.counted:
            self.depth = 2
            self.dirty, self.flags, self.psw_dirty = self.exhausted
            self.writeback()
            self.emit(f"return {self.start}, n % {self.L}")
        return "\n".join(head + self.lines + ["    return blk", ""])

    def rem(self, executed: int) -> str:
        """The remaining budget after `executed` instructions of the current pass."""
        if self.loop and self.counted:
            return f"n - (i * {self.L} + {executed})"
        return f"n - {executed}"

    def exit(self, target: str) -> None:
        """Leave the block after the current instruction, to `target`."""
        self.writeback()
        self.emit(f"return {target}, {self.rem(self.k + 1)}")

    def goto(self, target: int) -> None:
        """Continue at a static `target` after the current instruction: around the loop
        when it is the block's own start, else out of the block."""
        if not (self.loop and target == self.start):
            self.exit(str(target))
            return
        if self.counted:
            self.carry_psw()
            self.emit("continue")
            # Where the for loop ends (budget spent): the state at this back-edge.
            self.exhausted = (set(self.dirty), self.flags, self.psw_dirty)
            return
        self.emit(f"n -= {self.k + 1}")
        self.emit(f"if n >= {self.L}:")
        with self.indent():
            self.carry_psw()
            self.emit("continue")
        self.writeback()
        self.emit(f"return {self.start}, n")

    def carry_psw(self) -> None:
        """At a back-edge of a loop whose next iteration observes flags before setting
        them: flags from the designated setter travel as its operands (P = None); any
        other setter's are materialised; with no setter since the top P is unchanged."""
        if self.loop_carries_psw and self.flags_from is not None:
            self.emit("P = None" if self.flags_from == self.carried
                      else f"P = {self.flags.psw()}")

    def transfer(self, ins: Instruction, last: bool) -> None:
        """A control transfer. Inside the trace only the followed side emits nothing."""
        name = ins.op.mnemonic
        target = static_target(ins, self.pc)
        if name in _COND:
            cond = self.flags.condition(_COND[name])
            fall = self.pc + 4
            if last and not (self.loop and self.start in (target, fall)):
                self.writeback()
                self.emit(f"return ({target} if {cond} else {fall}), {self.rem(self.k + 1)}")
                return
            self.emit(f"if {cond}:")
            with self.indent():
                self.goto(target)
            if last:
                self.goto(fall)
        elif name in ("JMP", "BR"):
            if last:
                self.goto(target)
        elif name == "JMPR":
            self.emit(f"t = r{ins.rs1}")
            self.check_target("t")
            self.exit("t")
        elif name == "RET":
            self.emit("sp = r15")
            self.emit(f"if sp == {self.ST}:")
            with self.indent():
                self.fault(f"Halt('returned', {self.pc}, {self.pc}, None, {self.rem(self.k + 1)})")
            self.check_stack("sp")
            self.emit("t = W[sp >> 2] if not sp & 3 else U32(mem, sp)[0]")
            if last:
                self.check_target("t")
                self.set_reg_unchecked(15, "sp + 4")
                self.exit("t")
                return
            predicted = self.instrs[self.k + 1][0]   # the trace went on at the return address
            self.emit(f"if t != {predicted}:")
            with self.indent():
                self.check_target("t")
                self.set_reg_unchecked(15, "sp + 4")
                self.exit("t")
            self.set_reg_unchecked(15, "sp + 4")
        elif target is None:                   # CALL through a register, CALLR
            self.emit(f"t = r{ins.rs1}" if name == "CALLR"
                      else f"t = (r{ins.rs1} + {4 * ins.imm}) & {M}")
            self.check_target("t")
            self.push(str(self.pc + 4))
            self.exit("t")
        else:                                  # CALL, LCALL: push, then follow or leave
            self.push(str(self.pc + 4))
            if last:
                self.goto(target)


class _Indent:
    def __init__(self, gen: _Gen) -> None:
        self.gen = gen

    def __enter__(self) -> None:
        self.gen.depth += 1

    def __exit__(self, *exc) -> None:
        self.gen.depth -= 1


# --- per-mnemonic emitters (straight-line instructions) ----------------------------------

def _y(g: _Gen, ins: Instruction) -> str:
    """Second operand: Rb for register forms, the immediate (as u32) for immediate forms."""
    if "rs2" in FORM_FIELDS[ins.op.form]:
        return g.operand(ins.rs2, "y")
    return str(ins.imm & M)


def _ldi(g: _Gen, ins: Instruction) -> None:
    g.set_reg(ins.rd, str(ins.imm & M))


def _mov(g: _Gen, ins: Instruction) -> None:
    g.set_reg(ins.rd, f"r{ins.rs1}")


_LOAD_VALUE = {
    "LD": "W[ea >> 2] if not ea & 3 else U32(mem, ea)[0]",
    "LDB": "mem[ea]",
    "LDBS": "mem[ea] - ((mem[ea] & 0x80) << 1) & 0xFFFFFFFF",
    "LDH": "mem[ea] | (mem[ea + 1] << 8)",
    "LDHS": "((mem[ea] | (mem[ea + 1] << 8)) ^ 0x8000) - 0x8000 & 0xFFFFFFFF",
}
_STORE = {
    "ST": ["if ea & 3: P32(mem, ea, {v})", "else: W[ea >> 2] = {v}"],
    "STB": ["mem[ea] = {v} & 0xFF"],
    "STH": ["mem[ea] = {v} & 0xFF", "mem[ea + 1] = ({v} >> 8) & 0xFF"],
}


def _load(g: _Gen, ins: Instruction) -> None:
    g.ea(ins)
    g.check_memory(MEMORY_WIDTH[ins.op.mnemonic])
    g.writeback_regs()                     # the window must show current registers
    g.emit("pass")
    g.depth -= 1
    g.set_reg(ins.rd, f"({_LOAD_VALUE[ins.op.mnemonic]})")


def _store(g: _Gen, ins: Instruction) -> None:
    g.ea(ins)
    value = f"r{ins.rs2}"
    lines = [line.format(v=value) for line in _STORE[ins.op.mnemonic]]
    g.check_memory(MEMORY_WIDTH[ins.op.mnemonic])
    g.writeback_regs()
    for line in lines:
        g.emit(line)
    for r in sorted(g.used):               # the store may have changed any register
        g.emit(f"r{r} = R[{r}]")
    g.depth -= 1
    g.emit("else:")
    with g.indent():
        for line in lines:
            g.emit(line)


def _binary(kind: str, op: str) -> Callable[[_Gen, Instruction], None]:
    """ADD/SUB/AND/OR/XOR and their immediate forms."""
    def emit(g: _Gen, ins: Instruction) -> None:
        x = g.operand(ins.rs1, "x")
        y = _y(g, ins)
        g.set_reg(ins.rd, op.format(x=x, y=y))
        if g.live.get(g.k):
            if kind == "logic":
                g.set_flags(kind, r=g.result(ins.rd))
            else:
                g.set_flags(kind, x=x, y=y, r=g.result(ins.rd))
    return emit


def _cmp(g: _Gen, ins: Instruction) -> None:
    if g.live.get(g.k):
        g.set_flags("sub", x=g.operand(ins.rs1, "x"), y=_y(g, ins))


def _with_carry(kind: str, op: str) -> Callable[[_Gen, Instruction], None]:
    """ADC/SBC: the incoming carry comes from the current flags."""
    def emit(g: _Gen, ins: Instruction) -> None:
        c = f"c{g.k}"
        g.emit(f"{c} = {g.flags.carry()}")
        x, y = g.operand(ins.rs1, "x"), g.operand(ins.rs2, "y")
        g.set_reg(ins.rd, op.format(x=x, y=y, c=c))
        if g.live.get(g.k):
            g.set_flags(kind, x=x, y=y, c=c, r=g.result(ins.rd))
    return emit


def _mul(g: _Gen, ins: Instruction) -> None:
    y = _y(g, ins)
    if g.live.get(g.k):
        p = f"p{g.k}"
        g.emit(f"{p} = r{ins.rs1} * {y}")
        g.set_reg(ins.rd, f"{p} & {M}")
        g.set_flags("mul", p=p)
    else:
        g.set_reg(ins.rd, f"(r{ins.rs1} * {y}) & {M}")


def _logic_result(op: str) -> Callable[[_Gen, Instruction], None]:
    """Instructions whose flags are Z/N of the result with C = V = 0 (NOT, MULH*)."""
    def emit(g: _Gen, ins: Instruction) -> None:
        g.set_reg(ins.rd, op.format(x=f"r{ins.rs1}", y=f"r{ins.rs2}"))
        if g.live.get(g.k):
            g.set_flags("logic", r=g.result(ins.rd))
    return emit


def _divide(op: str) -> Callable[[_Gen, Instruction], None]:
    def emit(g: _Gen, ins: Instruction) -> None:
        g.emit(f"if not r{ins.rs2}:")
        with g.indent():
            g.fault(f"divide_fault({g.pc}, {g.rem(g.k)})")
        g.set_reg(ins.rd, op.format(x=f"r{ins.rs1}", y=f"r{ins.rs2}"))
        if g.live.get(g.k):
            g.set_flags("logic", r=g.result(ins.rd))
    return emit


# Shift value and last-bit-out, given x (u32 operand) and s (count 1..31).
_SHIFTS = {
    "LSL": ("({x} << {s}) & 0xFFFFFFFF", "({x} >> (32 - {s})) & 1"),
    "LSR": ("{x} >> {s}", "({x} >> ({s} - 1)) & 1"),
    "ASR": ("(({x} ^ 0x80000000) - 0x80000000 >> {s}) & 0xFFFFFFFF",
            "(({x} ^ 0x80000000) - 0x80000000 >> ({s} - 1)) & 1"),
}


def _shift(base: str) -> Callable[[_Gen, Instruction], None]:
    value, carry = _SHIFTS[base]

    def emit(g: _Gen, ins: Instruction) -> None:
        k, x, live = g.k, f"r{ins.rs1}", g.live.get(g.k)
        if ins.op.form is Form.RD_RS_RS:
            s = f"s{k}"
            g.emit(f"{s} = r{ins.rs2} & 31")
            if live:
                g.emit(f"c{k} = ({carry.format(x=x, s=s)}) if {s} else {g.flags.carry()}")
            g.set_reg(ins.rd, f"({value.format(x=x, s=s)}) if {s} else {x}")
        else:
            s = str(ins.imm & 31)
            if live:
                g.emit(f"c{k} = " + (carry.format(x=x, s=s) if s != "0" else g.flags.carry()))
            g.set_reg(ins.rd, value.format(x=x, s=s) if s != "0" else x)
        if live:
            g.set_flags("shift", r=g.result(ins.rd), c=f"c{k}")
    return emit


def _float(fn: str) -> Callable[[_Gen, Instruction], None]:
    def emit(g: _Gen, ins: Instruction) -> None:
        g.set_reg(ins.rd, f"(r{ins.rd} & 0xFFFF0000) | {fn}(r{ins.rs1}, r{ins.rs2})")
    return emit


def _i2f(g: _Gen, ins: Instruction) -> None:
    g.set_reg(ins.rd, f"(r{ins.rd} & 0xFFFF0000) | int_to_f16(r{ins.rs1})")


def _f2i(g: _Gen, ins: Instruction) -> None:
    g.set_reg(ins.rd, f"f16_to_int(r{ins.rs1})")


def _math(expression: str, result: str, divides: bool = False
          ) -> Callable[[_Gen, Instruction], None]:
    """Floating point and 64-bit integer instructions: `expression` over {a} and {b}
    (a register, or a pair's 64-bit value) gives a register ("r32"), a pair ("r64") or
    the PSW of a compare ("flags"); the helpers are hsx.isa.fp's."""
    def operand(ins: Instruction, field: str) -> str:
        r = getattr(ins, field)
        return f"(r{r} | r{r + 1} << 32)" if field in ins.op.pairs else f"r{r}"

    def emit(g: _Gen, ins: Instruction) -> None:
        expr = expression.format(a=operand(ins, "rs1"), b=operand(ins, "rs2"))
        if divides:
            g.emit(f"if not {operand(ins, 'rs2')}:")
            with g.indent():
                g.fault(f"divide_fault({g.pc}, {g.rem(g.k)})")
        if result == "flags":
            if g.live.get(g.k):
                g.emit(f"f{g.k} = {expr}")
                g.set_flags("psw", p=f"f{g.k}")
        elif result == "r32":
            g.set_reg(ins.rd, expr)
        else:
            g.emit(f"v{g.k} = {expr}")
            g.set_reg(ins.rd, f"v{g.k} & {M}")
            g.set_reg(ins.rd + 1, f"v{g.k} >> 32")
    return emit


_S32 = "({a} - (({a} & 0x80000000) << 1))"
_S64 = "({a} - (({a} & 0x8000000000000000) << 1))"
_MATH_EMITTERS = {
    **{m: _math(f"{m.lower()}({{a}}, {{b}})", "r32") for m in ("FADDS", "FSUBS", "FMULS",
                                                             "FDIVS")},
    **{m: _math(f"{m.lower()}({{a}}, {{b}})", "r64") for m in ("DADD", "DSUB", "DMUL", "DDIV")},
    "FCMPS": _math("fcmps({a}, {b})", "flags"), "DCMP": _math("dcmp({a}, {b})", "flags"),
    "S2D": _math("s2d({a})", "r64"), "D2S": _math("d2s({a})", "r32"),
    "I2S": _math(f"int_to_s({_S32})", "r32"), "U2S": _math("int_to_s({a})", "r32"),
    "S2I": _math("float_to_int({a}, 32, True, False)", "r32"),
    "S2U": _math("float_to_int({a}, 32, False, False)", "r32"),
    "I2D": _math(f"int_to_d({_S32})", "r64"), "U2D": _math("int_to_d({a})", "r64"),
    "D2I": _math("float_to_int({a}, 32, True, True)", "r32"),
    "D2U": _math("float_to_int({a}, 32, False, True)", "r32"),
    "L2D": _math(f"int_to_d({_S64})", "r64"), "UL2D": _math("int_to_d({a})", "r64"),
    "D2L": _math("float_to_int({a}, 64, True, True)", "r64"),
    "D2UL": _math("float_to_int({a}, 64, False, True)", "r64"),
    "L2S": _math(f"int_to_s({_S64})", "r32"), "UL2S": _math("int_to_s({a})", "r32"),
    "S2L": _math("float_to_int({a}, 64, True, False)", "r64"),
    "S2UL": _math("float_to_int({a}, 64, False, False)", "r64"),
    "MUL64": _math("({a} * {b}) & 0xFFFFFFFFFFFFFFFF", "r64"),
    "DIV64": _math("div64({a}, {b}, True)", "r64", divides=True),
    "DIVU64": _math("{a} // {b}", "r64", divides=True),
    "REM64": _math("rem64({a}, {b}, True)", "r64", divides=True),
    "REMU64": _math("{a} % {b}", "r64", divides=True),
}


def _push(g: _Gen, ins: Instruction) -> None:
    g.emit(f"v = r{ins.rs1}")
    g.push("v")


def _pop(g: _Gen, ins: Instruction) -> None:
    g.emit("sp = r15")
    g.check_stack("sp")
    g.emit("v = W[sp >> 2] if not sp & 3 else U32(mem, sp)[0]")
    if ins.rd == 15:
        g.set_reg(15, "v")                 # POP R15: SP becomes the popped value
    else:
        g.set_reg_unchecked(15, "sp + 4")
        g.set_reg(ins.rd, "v")


def _sdiv(x: int, y: int) -> int:
    """Signed 32-bit division truncating toward zero (operands as u32, y != 0)."""
    x, y = (x ^ 0x80000000) - 0x80000000, (y ^ 0x80000000) - 0x80000000
    q = x // y
    if q < 0 and q * y != x:
        q += 1
    return q & M


def _srem(x: int, y: int) -> int:
    sx, sy = (x ^ 0x80000000) - 0x80000000, (y ^ 0x80000000) - 0x80000000
    q = (_sdiv(x, y) ^ 0x80000000) - 0x80000000
    return (sx - q * sy) & M


def _mulhs(x: int, y: int) -> int:
    return ((((x ^ 0x80000000) - 0x80000000) * ((y ^ 0x80000000) - 0x80000000)) >> 32) & M


EMITTERS: dict[str, Callable[[_Gen, Instruction], None]] = {
    "LDI": _ldi, "LDI32": _ldi, "MOV": _mov,
    **{name: _load for name in _LOAD_VALUE}, **{name: _store for name in _STORE},
    "ADD": _binary("add", "({x} + {y}) & 0xFFFFFFFF"),
    "ADDI": _binary("add", "({x} + {y}) & 0xFFFFFFFF"),
    "SUB": _binary("sub", "({x} - {y}) & 0xFFFFFFFF"),
    "AND": _binary("logic", "{x} & {y}"), "ANDI": _binary("logic", "{x} & {y}"),
    "OR": _binary("logic", "{x} | {y}"), "ORI": _binary("logic", "{x} | {y}"),
    "XOR": _binary("logic", "{x} ^ {y}"), "XORI": _binary("logic", "{x} ^ {y}"),
    "CMP": _cmp, "CMPI": _cmp,
    "ADC": _with_carry("adc", "({x} + {y} + {c}) & 0xFFFFFFFF"),
    "SBC": _with_carry("sbc", "({x} - {y} - 1 + {c}) & 0xFFFFFFFF"),
    "MUL": _mul, "MULI": _mul,
    "NOT": _logic_result("~{x} & 0xFFFFFFFF"),
    "MULHU": _logic_result("({x} * {y}) >> 32"),
    "MULHS": _logic_result("mulhs({x}, {y})"),
    "DIV": _divide("sdiv({x}, {y})"), "DIVU": _divide("{x} // {y}"),
    "REM": _divide("srem({x}, {y})"), "REMU": _divide("{x} % {y}"),
    "LSL": _shift("LSL"), "LSR": _shift("LSR"), "ASR": _shift("ASR"),
    "LSLI": _shift("LSL"), "LSRI": _shift("LSR"), "ASRI": _shift("ASR"),
    "FADD": _float("f16_add"), "FSUB": _float("f16_sub"), "FMUL": _float("f16_mul"),
    "FDIV": _float("f16_div"), "I2F": _i2f, "F2I": _f2i,
    "PUSH": _push, "POP": _pop,
    **_MATH_EMITTERS,
}
# Every non-system instruction is either straight-line (an emitter) or ends a block
# (compiled by _Gen.transfer).
_ENDERS = {m for m, op in BY_MNEMONIC.items() if op.ends_block and op.group is not Group.SYSTEM}
_missing = (set(BY_MNEMONIC) - _ENDERS - {m for m, op in BY_MNEMONIC.items()
                                         if op.group is Group.SYSTEM}) ^ set(EMITTERS)
assert not _missing, f"translator and opcode table disagree on {sorted(_missing)}"

_U32 = struct.Struct("<I")
_GLOBALS = {
    "U32": _U32.unpack_from, "P32": _U32.pack_into, "Halt": Halt,
    "memory_fault": memory_fault, "stack_fault": stack_fault, "sp_fault": sp_fault,
    "pc_fault": pc_fault, "divide_fault": divide_fault, "sdiv": _sdiv, "srem": _srem,
    "mulhs": _mulhs, "f16_add": f16_add, "f16_sub": f16_sub, "f16_mul": f16_mul,
    "f16_div": f16_div, "int_to_f16": int_to_f16, "f16_to_int": f16_to_int,
    **MATH_FUNCTIONS,
}
