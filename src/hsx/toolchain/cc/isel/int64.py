"""64-bit integer arithmetic on register pairs (low word first): add/sub with carry,
logic, multiplication, shifts, and division through the VM's DIV64 family (fpu.py) or
the library's libgcc-named routines."""
from __future__ import annotations

from ..ir import Instr
from . import fpu
from .core import SelectorBase

I64_LIBCALLS = {"sdiv": "__divdi3", "udiv": "__udivdi3", "srem": "__moddi3",
                "urem": "__umoddi3", "shl": "__ashldi3", "lshr": "__lshrdi3",
                "ashr": "__ashrdi3"}


class Int64Ops(SelectorBase):
    """Integer arithmetic of 33 to 64 bits."""

    def _binary64(self, i: Instr, bits: int) -> list:
        op = i.opcode
        a, b = i.ops
        if op in ("sdiv", "srem", "ashr"):
            ra = self.ext64(self.get(a), bits, True)
        elif op in ("udiv", "urem", "lshr"):
            ra = self.ext64(self.get(a), bits, False)
        else:
            ra = self.get(a)
        if op in ("shl", "lshr", "ashr"):
            amount = self.imm_of(b, bits, False)
            if amount is not None:
                return self._shift64_const(op, ra, amount & 63)
            return self.libcall(I64_LIBCALLS[op], [ra[0], ra[1], self.get(b)[0]], 2)
        if op in ("sdiv", "srem", "udiv", "urem"):
            rb = self.ext64(self.get(b), bits, op[0] == "s")
            if self.hard_float:
                return fpu.divide64(self, op, ra, rb)
            return self.libcall(I64_LIBCALLS[op], [ra[0], ra[1], rb[0], rb[1]], 2)
        rb = self.get(b)
        if op in ("add", "sub"):
            d = [self.new(), self.new()]
            self.emit(op + "64", d, [ra[0], ra[1], rb[0], rb[1]], early=True)
            return d
        if op in ("and", "or", "xor"):
            mnem = op.upper()
            return [self.alu(mnem, ra[0], rb[0]), self.alu(mnem, ra[1], rb[1])]
        if op == "mul":
            return fpu.multiply64(self, ra, rb) if self.hard_float else self.mul64(ra, rb)
        raise self.error(f"64-bit '{op}' is not supported", i)

    def mul64(self, ra: list, rb: list) -> list:
        """The low 64 bits of a 64 x 64-bit product."""
        lo = self.alu("MUL", ra[0], rb[0])
        hi = self.alu("MULHU", ra[0], rb[0])
        hi = self.alu("ADD", hi, self.alu("MUL", ra[0], rb[1]))
        hi = self.alu("ADD", hi, self.alu("MUL", ra[1], rb[0]))
        return [lo, hi]

    def _shift64_const(self, op: str, a: list, n: int) -> list:
        lo, hi = a
        if n == 0:
            return [lo, hi]
        if op == "shl":
            if n >= 32:
                return [self.li(0), self.alui("LSLI", lo, n - 32) if n > 32 else lo]
            return [self.alui("LSLI", lo, n),
                    self.alu("OR", self.alui("LSLI", hi, n), self.alui("LSRI", lo, 32 - n))]
        if n >= 32:
            if op == "lshr":
                return [self.alui("LSRI", hi, n - 32) if n > 32 else hi, self.li(0)]
            return [self.alui("ASRI", hi, n - 32) if n > 32 else hi, self.alui("ASRI", hi, 31)]
        low = self.alu("OR", self.alui("LSRI", lo, n), self.alui("LSLI", hi, 32 - n))
        return [low, self.alui("LSRI" if op == "lshr" else "ASRI", hi, n)]
