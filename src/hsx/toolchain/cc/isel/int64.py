"""64-bit integer arithmetic on register pairs (low word first): add/sub with carry,
logic (one word's operation when an operand is zero-extended from 32 bits),
multiplication, shifts, and division through the VM's DIV64 family (fpu.py) or the
library's libgcc-named routines."""
from __future__ import annotations

from ..consts import mask, signed
from ..ir import Instr
from ..mir import SWAPPED, fits12
from . import fpu
from .core import SelectorBase, int_bits

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
        elif op in ("add", "sub", "and", "or", "xor"):
            ra = None                   # (_simple64: after looking for a constant)
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
        if op in ("add", "sub", "and", "or", "xor"):
            return self._simple64(op, a, b, bits)
        rb = self.get(b)
        if op == "mul":
            return fpu.multiply64(self, ra, rb) if self.hard_float else self.mul64(ra, rb)
        raise self.error(f"64-bit '{op}' is not supported", i)

    def _simple64(self, op: str, a, b, bits: int) -> list:
        """add, sub, and, or, xor; with a constant, word by word: the identities (`x | 0`
        is x, `x & 0` is 0, ...) cost nothing and a small word is an immediate."""
        imm = self.imm_of(b, bits, False)
        if imm is None and op != "sub":
            other = self.imm_of(a, bits, False)
            if other is not None:
                a, b, imm = b, a, other
        if imm is not None and op == "sub":
            op, imm = "add", -imm
        if imm is None and op not in ("add", "sub") and _zext_of_32(a):
            a, b = b, a
        ra = self.get(a)
        if imm is None:
            rb = self.get(b)
            if op in ("add", "sub"):
                d = [self.new(), self.new()]
                self.emit(op + "64", d, [ra[0], ra[1], rb[0], rb[1]], early=True)
                return d
            mnem = op.upper()
            if _zext_of_32(b):
                return [self.alu(mnem, ra[0], rb[0]), self._with_zero_word(op, ra[1])]
            return [self.alu(mnem, ra[0], rb[0]), self.alu(mnem, ra[1], rb[1])]
        imm = mask(imm, 64)
        words = [imm & 0xFFFFFFFF, imm >> 32]
        if op == "add":
            d = [self.new(), self.new()]
            low = signed(words[0], 32)
            if fits12(low):
                self.emit("add64i", d, [ra[0], ra[1], self.li(words[1])], (low,), early=True)
            else:
                self.emit("add64", d, [ra[0], ra[1], self.li(words[0]), self.li(words[1])],
                          early=True)
            return d
        return [self._logic_word(op, r, w) for r, w in zip(ra, words)]

    def _with_zero_word(self, op: str, r):
        """The high word of `x op y` when y's is 0 (a zero-extended word, narrow.py's
        counters): `x & 0` is 0, `x | 0` and `x ^ 0` are x.  x is copied by an `ORI`,
        not a `mov`: the result pairs with the new low word, and a copy that coalescing
        merged would give x's register two partners (pairs.py then copies both words)."""
        return self.li(0) if op == "and" else self.alui("ORI", r, 0)

    def _logic_word(self, op: str, r, word: int):
        if op == "and" and word == 0:
            return self.li(0)
        if (op == "and" and word == 0xFFFFFFFF) or (op != "and" and word == 0):
            return r
        if op == "or" and word == 0xFFFFFFFF:
            return self.li(-1)
        value = signed(word, 32)
        if fits12(value):
            return self.alui(op.upper() + "I", r, value)
        return self.alu(op.upper(), r, self.li(word))

    def mul64(self, ra: list, rb: list) -> list:
        """The low 64 bits of a 64 x 64-bit product."""
        lo = self.alu("MUL", ra[0], rb[0])
        hi = self.alu("MULHU", ra[0], rb[0])
        hi = self.alu("ADD", hi, self.alu("MUL", ra[0], rb[1]))
        hi = self.alu("ADD", hi, self.alu("MUL", ra[1], rb[0]))
        return [lo, hi]

    def binary128(self, i: Instr) -> list:
        """The 128-bit arithmetic clang forms from C's 64 x 64 -> 128-bit multiplication
        idiom (yyjson's number parsing): `mul` of two values zero-extended from 64 bits,
        and shifts by whole words.  An i128 is its words, low first; a zext keeps only
        its source's words (the rest are zero), which `trunc` and these read."""
        op, (a, b) = i.opcode, i.ops
        if op == "mul" and all(_zext_of_64(v) for v in (a, b)):
            return self._product128(self.get(a)[:2], self.get(b)[:2])
        amount = self.imm_of(b, 128, False) if op in ("shl", "lshr") else None
        if amount is not None and amount % 32 == 0 and amount < 128:
            words = self.get(a)
            words = words + [self.li(0) for _ in range(4 - len(words))]
            n = amount // 32
            zeros = [self.li(0) for _ in range(n)]
            return words[n:] + zeros if op == "lshr" else zeros + words[:4 - n]
        raise self.error(f"{int_bits(i.ty)}-bit integer arithmetic is not supported", i)

    def _product128(self, a: list, b: list) -> list:
        """The four words of the 128-bit product of the pairs `a` and `b`."""
        def product(x, y) -> list:
            return [self.alu("MUL", x, y), self.alu("MULHU", x, y)]

        def add(x: list, y: list) -> list:
            d = [self.new(), self.new()]
            self.emit("add64", d, [x[0], x[1], y[0], y[1]], early=True)
            return d
        low, cross1, cross2, high = (product(a[0], b[0]), product(a[0], b[1]),
                                     product(a[1], b[0]), product(a[1], b[1]))
        zero = self.li(0)
        middle = add(cross1, [low[1], zero])
        second = add(cross2, [middle[0], zero])
        top = add(add(high, [middle[1], zero]), [second[1], zero])
        return [low[0], second[0], top[0], top[1]]

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

    def compare64_operands(self, cmp: Instr) -> tuple[str, list, list]:
        """(condition, the pair of the first operand, the second's two words: a register
        or, for a constant word that fits, an int) of a 64-bit icmp (emit64.py)."""
        pred = cmp.pred
        a, b = cmp.ops
        bits = int_bits(a.ty)
        sign = pred.startswith("s")
        if self.imm_of(a, bits, sign) is not None and self.imm_of(b, bits, sign) is None:
            a, b, pred = b, a, SWAPPED[pred]
        ra = self.ext64(self.get(a), bits, sign)
        imm = self.imm_of(b, bits, sign)
        if imm is None:
            return pred, ra, self.ext64(self.get(b), bits, sign)
        value = mask(imm, 64)
        words = [signed(value & 0xFFFFFFFF, 32), signed(value >> 32, 32)]
        return pred, ra, [w if fits12(w) else self.li(w) for w in words]


def _zext_of_64(value) -> bool:
    return isinstance(value, Instr) and value.opcode == "zext" and \
        int_bits(value.ops[0].ty) <= 64


def _zext_of_32(value) -> bool:
    """Is `value` an integer zero-extended from 32 bits or fewer (its high word 0)?"""
    return isinstance(value, Instr) and value.opcode == "zext" and \
        int_bits(value.ops[0].ty) <= 32
