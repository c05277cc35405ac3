"""Instruction selection: one IR function to machine IR over virtual registers.

`Selector` lowers an IR instruction with its `op_<opcode>` method and an intrinsic call
with `intr_<name>`; the methods live in one module per concern:

    core        state, registers for IR values, constants, zero/sign extension
    control     phi, br, switch, ret, unreachable, indirectbr
    integers    add..urem, icmp, select, freeze, trunc/zext/sext, ptr<->int, bitcast
    int64       the same arithmetic on 64-bit register pairs
    memory      load, store, alloca, getelementptr, atomics, extractvalue/insertvalue
    calls       call (and the ABI: arguments, results, the function's entry)
    floating    fadd..frem, fneg, fcmp, fpext/fptrunc, fp<->int, float intrinsics
    fpu         the VM's floating-point and 64-bit division instructions
    intrinsics  memcpy/memset, varargs, stack, funnel shifts, bit counts, byte swaps, ...
    arith       min/max, three-way compares, abs, overflow and saturating arithmetic
    inline_asm  asm statements (HSX's register convention)
"""
from __future__ import annotations

from ..consts import ConstEvaluator
from ..mir import MBlock, MFunction
from ..naming import block_label
from ..ir import Function, Instr, Module
from .arith import ArithIntrinsicOps
from .calls import CallOps
from .control import ControlFlow
from .floating import FloatOps
from .inline_asm import InlineAsm
from .int64 import Int64Ops
from .integers import IntegerOps
from .intrinsics import IntrinsicOps
from .memory import MemoryOps


class Selector(ControlFlow, IntegerOps, Int64Ops, MemoryOps, CallOps, FloatOps,
               IntrinsicOps, ArithIntrinsicOps, InlineAsm):
    """Lowers one IR function."""

    def run(self) -> MFunction:
        fn = self.fn
        for block in fn.blocks:
            self.mblocks[block] = MBlock(block_label(fn.name, len(self.mblocks)))
            for i in block.instrs:
                for op in i.ops:
                    if isinstance(op, Instr):
                        self.users.setdefault(op, []).append(i)
        self._plan_allocas()
        self._plan_address_folding()
        self.cur = self.mblocks[fn.blocks[0]]
        self.loc = fn.loc                    # the arguments' arrival: the function's line
        self._entry()
        records: dict[Instr, list[int]] = {}
        for k, record in enumerate(fn.debug_records):
            records.setdefault(record[4], []).append(k)
        markers = {}
        for block in fn.blocks:
            self.cur = self.mblocks[block]
            self.mf.blocks.append(self.cur)
            self._phis(block)
            for instr in block.instrs:
                if instr in records:          # -g: where the records before it take effect
                    marker = self.emit("dbg")
                    markers.update((k, marker) for k in records[instr])
                if instr.opcode == "phi" or instr in self.fused or instr in self.folded:
                    continue
                self.loc = instr.loc
                self.lower(instr)
        tracked = {value: list(self.vals[value]) for _, value, _, _, _ in fn.debug_records
                   if value in self.vals}
        if tracked or markers:       # -g: where values named by #dbg_value records live
            self.mf.debug.update(values=tracked, markers=markers)
        return self.mf


def select_function(module: Module, fn: Function, evaluator: ConstEvaluator,
                    hard_float: bool = True) -> MFunction:
    return Selector(module, fn, evaluator, hard_float).run()
