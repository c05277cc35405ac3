"""The Python source of one translated block: registers held in locals, flags kept
lazily, a loop back to the entry as `while`, and exact state at every exit and fault
(see translate.py for what a block is).
"""
from __future__ import annotations

from hsx.isa import Flags, Form, Instruction

from .blockops import EMITTERS, M
from .interp import static_target
from .tracescan import CONDITIONS, may_fault, reads, reads_flags, writes

# --- lazily evaluated flags -------------------------------------------------------------

def flip(y: str) -> str:
    """`y ^ 0x80000000`, folded when y is a literal (signed compare via unsigned)."""
    return str(int(y) ^ 0x80000000) if y.isdigit() else f"({y} ^ 0x80000000)"


class LazyFlags:
    """Where the current PSW comes from: a materialised value ("psw", name) or the
    operands of the last flag-setting instruction, as expressions over locals."""

    def __init__(self, kind: str, carried: LazyFlags | None = None, **names: str) -> None:
        self.kind, self.names, self.carried = kind, names, carried

    @classmethod
    def loop_top(cls, carried: LazyFlags) -> LazyFlags:
        """At the top of a loop body: the entry PSW `P` in the first iteration, after that
        either `P` (re-materialised at a back-edge) or, when P is None, `carried`."""
        return cls("either", carried)

    def _either(self, first: str, later: str) -> str:
        return f"({first} if P is not None else {later})"

    def parts(self) -> tuple[str, str, str, str]:
        """(Z, C, N, V) as expressions worth 0/1 (or False/True); "0" when constant."""
        k, f = self.kind, self.names
        if k == "either":
            return tuple(self._either(a, b) for a, b in zip(LazyFlags("psw", p="P").parts(),
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
            return self._either(f"({LazyFlags('psw', p='P').condition(cond)})",
                                f"({self.carried.condition(cond)})")
        if self.kind == "sub":
            x, y = self.names["x"], self.names["y"]
            unsigned = {"EQ": "==", "NE": "!=", "LTU": "<", "GEU": ">=", "GTU": ">",
                        "LEU": "<="}
            if cond in unsigned:
                return f"{x} {unsigned[cond]} {y}"
            signed = {"LT": "<", "GE": ">=", "GT": ">", "LE": "<="}[cond]
            return f"{flip(x)} {signed} {flip(y)}"
        z, c, n, v = self.parts()
        return {
            "EQ": z, "NE": f"not {z}", "LT": f"{n} != {v}", "GE": f"{n} == {v}",
            "GT": f"not {z} and {n} == {v}", "LE": f"{z} or {n} != {v}",
            "LTU": f"not {c}", "GEU": c, "GTU": f"{c} and not {z}", "LEU": f"not {c} or {z}",
        }[cond]


# --- code generation ----------------------------------------------------------------------

class BlockCompiler:
    """Generates the source of one block. Emission walks the instructions once, tracking
    which register locals are dirty and where the flags come from, so that every exit
    can write back exactly the architectural state at that point.

    `instrs` holds operations (k indexes them); the budget counts steps, one per code
    word, so a compact pair's two operations are one step: `steps_at[k]` is the steps a
    block has completed when it has run operations 0..k-1 (a fault in a pair's second
    operation counts neither half; the first half's effects stay, as in the
    interpreter)."""

    def __init__(self, ctx, instrs: list[tuple[int, Instruction]]) -> None:
        lay = ctx.layout
        self.SB, self.ST, self.MS, self.RB = (lay.stack_base, lay.stack_top, lay.mem_size,
                                              lay.reg_base)
        self.CL = ctx.code_len
        self.instrs = instrs
        self.count = len(instrs)
        self.steps_at = [0]
        for k, (pc, _) in enumerate(instrs):
            ends_word = k + 1 == len(instrs) or instrs[k + 1][0] != pc
            self.steps_at.append(self.steps_at[-1] + ends_word)
        self.L = self.steps_at[-1]            # steps on the longest path
        self.start = instrs[0][0]
        last_pc, last = instrs[-1]
        self.fall = last_pc + last.size
        back_edges = [k for k in range(self.count) if self.start in self._static_exits(k)]
        self.loop = bool(back_edges)
        # One back-edge, at the end: every iteration is L steps, so a
        # `for i in range(n // L)` does the budget counting; otherwise `while True` with
        # the count kept in n.
        self.counted = back_edges == [self.count - 1]
        self._analyse()

    # analysis

    def _static_exits(self, k: int) -> tuple[int, ...]:
        """Static PCs instruction k can leave the trace to (dynamic ones excluded)."""
        pc, ins = self.instrs[k]
        last = k == self.count - 1
        if not ins.op.ends_block:
            return (pc + ins.size,) if last else ()
        target = static_target(ins, pc)
        if target is None:
            return ()
        if ins.op.mnemonic in CONDITIONS:
            return (target, pc + 4) if last else (target,)
        return (target,) if last else ()

    def _analyse(self) -> None:
        ins = [i for _, i in self.instrs]
        L = self.count
        self.used = set().union(*(reads(i) | writes(i) for i in ins))
        first_access: dict[int, str] = {}
        for i in ins:
            for r in reads(i):
                first_access.setdefault(r, "read")
            for r in writes(i):
                first_access.setdefault(r, "write")
        # A loop may exit from anywhere with any register dirty: load them all.
        self.load = sorted(self.used if self.loop else
                           {r for r, how in first_access.items() if how == "read"})
        observes = [reads_flags(i) or may_fault(i) for i in ins]
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
                clobbered |= writes(ins[j])
                if ins[j].op.form is Form.MEM_RS:
                    clobbered |= set(range(16))    # may store into the register window
            self.clobber[k] = clobbered
        first = setters[0] if setters else L
        prefix = range(0, min(first + 1, L))
        prefix_reads = any(reads_flags(ins[j]) for j in prefix)
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
                self.clobber[self.carried] |= writes(ins[j])
                if ins[j].op.form is Form.MEM_RS:
                    self.clobber[self.carried] |= set(range(16))
        self.body_writes = set().union(*(writes(i) for i in ins))

    # emission helpers

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def indent(self) -> Indented:
        return Indented(self)

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
        if reg in self.clobber[k] or reg in writes(ins):
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
        self.flags = LazyFlags(kind, **names)
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

    def _emit_all(self, carried: LazyFlags | None) -> str:
        self.lines = []
        self.dirty: set[int] = set(self.body_writes) if self.loop else set()
        self.psw_dirty = self.loop and self.has_setter
        self.flags_from: int | None = None
        if carried is not None:
            self.flags = LazyFlags.loop_top(carried)
        else:
            self.flags = LazyFlags("psw", p="P") if self.need_p or not self.has_setter else None
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
                self.transfer(ins, last=k == self.count - 1)
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

    def rem(self, ops: int) -> str:
        """The remaining budget once the first `ops` operations of the current pass ran."""
        executed = self.steps_at[ops]
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
        self.emit(f"n -= {self.steps_at[self.k + 1]}")
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
        if name in CONDITIONS:
            cond = self.flags.condition(CONDITIONS[name])
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


class Indented:
    def __init__(self, gen: BlockCompiler) -> None:
        self.gen = gen

    def __enter__(self) -> None:
        self.gen.depth += 1

    def __exit__(self, *exc) -> None:
        self.gen.depth -= 1
