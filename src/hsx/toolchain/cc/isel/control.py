"""Control flow: phis (parallel copies on edges), `br` (fused with its compare),
`switch` (jump table or compare chain), `ret`, `unreachable`, `indirectbr` (computed
goto)."""
from __future__ import annotations

from .. import traps
from ..consts import mask, signed
from ..mir import R, MBlock, fits12
from ..ir import Block, Instr
from . import fpu
from .core import SelectorBase, int_bits


def _leading_phis(block: Block):
    for i in block.instrs:
        if i.opcode != "phi":
            return
        yield i


class ControlFlow(SelectorBase):
    """Phis, branches, switches and returns."""

    # -- phis and edges -----------------------------------------------------------------

    def _phis(self, block: Block) -> None:
        for i in block.instrs:
            if i.opcode != "phi":
                break
            if i not in self.vals:
                self.vals[i] = [self.new() for _ in range(self.words(i.ty))]

    def edge_copies(self, pred: Block, *succs: Block) -> None:
        """Parallel copies for the phis of `succs` on the edges from `pred` (emitted at
        the current position)."""
        pairs = []
        for i in (i for succ in succs for i in _leading_phis(succ)):
            incoming = [v for v, b in i.incoming if b is pred]
            if not incoming:
                continue
            dst = self.get(i)
            pairs.append((dst, incoming[0]))
        if not pairs:
            return
        phi_regs = {id(r) for dst, _ in pairs for r in dst}
        staged = []
        for dst, value in pairs:
            src = self.get(value)
            if any(id(r) in phi_regs for r in src):
                tmp = [self.new() for _ in src]
                for t, s in zip(tmp, src):
                    self.mov(t, s)
                src = tmp
            staged.append((dst, src))
        for dst, src in staged:
            for d, s in zip(dst, src):
                self.mov(d, s)

    def has_phis(self, block: Block) -> bool:
        return bool(block.instrs) and block.instrs[0].opcode == "phi"

    def target(self, pred: Block, succ: Block, multi: bool) -> MBlock:
        """The machine block to branch to for the edge pred -> succ (a new edge block
        holding the phi copies when the edge is critical)."""
        if not multi or not self.has_phis(succ):
            return self.mblocks[succ]
        edge = self.new_block()
        saved = self.cur
        self.cur = edge
        self.edge_copies(pred, succ)
        self.emit("br", [], [], (self.mblocks[succ],))
        edge.succs = [self.mblocks[succ]]
        self.cur = saved
        self.pending_edges.append(edge)
        return edge

    # -- terminators --------------------------------------------------------------------

    def _finish(self, succs: list[MBlock], edges: list[MBlock]) -> None:
        self.cur.succs = succs
        index = self.mf.blocks.index(self.cur)
        for k, edge in enumerate(edges):
            self.mf.blocks.insert(index + 1 + k, edge)

    def op_br(self, i: Instr) -> None:
        block = i.block
        self.pending_edges: list[MBlock] = []
        if len(i.targets) == 1:
            succ = i.targets[0]
            self.edge_copies(block, succ)
            self.emit("br", [], [], (self.mblocks[succ],))
            self._finish([self.mblocks[succ]], [])
            return
        t_ir, f_ir = i.targets
        t = self.target(block, t_ir, True)
        f = self.target(block, f_ir, True)
        cond = i.ops[0]
        if cond in self.fused:
            self._compare_branch(cond, t, f)
        else:
            c = self.get1(cond)
            self.emit("cbr", [], [c], ("ne", 0, t, f))
        self._finish([t, f], self.pending_edges)

    def _compare_branch(self, cmp: Instr, t: MBlock, f: MBlock) -> None:
        self.loc = cmp.loc or self.loc
        if cmp.opcode == "fcmp":
            a, b = (self.get(v) for v in cmp.ops)
            fpu.compare_branch(self, cmp.pred, int_bits(cmp.ops[0].ty), a, b, t, f)
            return
        if int_bits(cmp.ops[0].ty) > 32:
            cond, a, b = self.compare64_operands(cmp)
            self.emit("cbr64", [], a + [w for w in b if not isinstance(w, int)],
                      (cond, *(w if isinstance(w, int) else None for w in b), t, f))
            return
        cond, a, b = self._compare_operands(cmp)
        if isinstance(b, int):
            self.emit("cbr", [], [a], (cond, b, t, f))
        else:
            self.emit("cbr", [], [a, b], (cond, None, t, f))

    def op_switch(self, i: Instr) -> None:
        """A jump table when the cases are dense, else a chain of compares."""
        self.pending_edges = []
        block = i.block
        bits = int_bits(i.ops[0].ty)
        if bits > 64:
            raise self.error(f"switch on a {bits}-bit value is not supported", i)
        default = self.target(block, i.targets[0], True)
        if bits > 32:
            value = self.ext64(self.get(i.ops[0]), bits, False)
            for v, b in i.cases:
                case = mask(v, bits)
                equal = self.new()
                self.emit("setcc64", [equal], value + [self.li(case & 0xFFFFFFFF),
                                                       self.li(case >> 32)], ("eq",))
                nxt = self.new_block()
                self.emit("cbr", [], [equal], ("ne", 0, self.target(block, b, True), nxt))
                self._continue_in(nxt, [self.cur.insts[-1].args[2], nxt])
            self.emit("br", [], [], (default,))
            self.cur.succs = [default]
            self._finish(self.cur.succs, self.pending_edges)
            return
        value = self.zext(self.get1(i.ops[0]), bits)
        cases = [(mask(v, bits), self.target(block, b, True)) for v, b in i.cases]
        values = sorted(v for v, _ in cases)
        if values and len(cases) >= 4 and values[-1] - values[0] < min(3 * len(cases) + 8, 4096):
            self._jump_table(value, cases, default)
        else:
            for v, b in cases:
                self._chain_link(value, v, b)
            self.emit("br", [], [], (default,))
            self.cur.succs = [default]
        self._finish(self.cur.succs, self.pending_edges)

    def _chain_link(self, value, case: int, dest: MBlock) -> None:
        """`if value == case goto dest`, continuing in a new block."""
        nxt = self.new_block()
        imm = signed(case, 32)
        if fits12(imm):
            self.emit("cbr", [], [value], ("eq", imm, dest, nxt))
        else:
            self.emit("cbr", [], [value, self.li(case)], ("eq", None, dest, nxt))
        self._continue_in(nxt, [dest, nxt])

    def _continue_in(self, nxt: MBlock, succs: list) -> None:
        self.cur.succs = succs
        self.mf.blocks.insert(self.mf.blocks.index(self.cur) + 1, nxt)
        self.cur = nxt

    def _jump_table(self, value, cases: list, default: MBlock) -> None:
        low = min(v for v, _ in cases)
        span = max(v for v, _ in cases) - low + 1
        table = [default] * span
        for v, b in cases:
            table[v - low] = b
        index = value if low == 0 else self._add_imm(value, -low)
        cont = self.new_block()
        if fits12(span):
            self.emit("cbr", [], [index], ("uge", span, default, cont))
        else:
            self.emit("cbr", [], [index, self.li(span)], ("uge", None, default, cont))
        self._continue_in(cont, [default, cont])
        label = f"{self.mf.symbol}$jt{len(self.mf.jump_tables)}"
        self.mf.jump_tables.append((label, table))
        base = self.new()
        self.emit("la", [base], [], (label, 0))
        addr = self.alu("ADD", self.alui("LSLI", index, 2), base)
        dest = self.new()
        self.emit("load", [dest], [addr], ("LD", 0, None))
        targets = list(dict.fromkeys(table))
        self.emit("jmpr", [], [dest], (tuple(targets),))
        self.cur.succs = targets


    def op_indirectbr(self, i: Instr) -> None:
        """`goto *p`: the phi copies of every possible target (they have distinct
        destinations), then a jump to the address (a block label, see consts.py)."""
        dest = self.get1(i.ops[0])
        targets = list(dict.fromkeys(i.targets))
        self.edge_copies(i.block, *targets)
        succs = [self.mblocks[t] for t in targets]
        self.emit("jmpr", [], [dest], (tuple(succs),))
        self.cur.succs = succs

    def op_ret(self, i: Instr) -> None:
        uses = []
        if i.ops:
            regs = self.get(i.ops[0])
            if len(regs) > 2:
                raise self.error("returning an aggregate of more than 64 bits in registers "
                                 "is not supported", i)
            for k, r in enumerate(regs):
                self.mov(R[k], r)
                uses.append(R[k])
        self.emit("ret", [], uses)
        self.cur.succs = []

    def op_unreachable(self, i: Instr) -> None:
        self.emit("trap", [], [], (traps.UNDEFINED,))
        self.cur.succs = []
