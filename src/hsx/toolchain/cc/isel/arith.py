"""Integer arithmetic intrinsics for every width from i1 to i64: min/max
(llvm.smin/smax/umin/umax), three-way compares (scmp/ucmp), abs, the with-overflow
arithmetic ({s,u}{add,sub,mul}.with.overflow) and the saturating arithmetic
({s,u}{add,sub}.sat).  Narrow values are extended first and computed in 32 bits; 64-bit
ones on register pairs (a compare of pairs is `setcc64`, a select is one per word)."""
from __future__ import annotations

from ..ir import Instr
from .core import SelectorBase, int_bits

_ALU = {"add": "ADD", "sub": "SUB", "mul": "MUL"}


class ArithIntrinsicOps(SelectorBase):
    """The intrinsics above; `_overflow` and `_saturating` are reached through the
    dispatch in intrinsics.py (their names carry the operation)."""

    # -- helpers --------------------------------------------------------------------------

    def _operands(self, args: list, bits: int, sign: bool) -> tuple[list, list]:
        """Both operands, extended to their registers' width (one word or a pair)."""
        if bits > 32:
            return (self.ext64(self.get(args[0]), bits, sign),
                    self.ext64(self.get(args[1]), bits, sign))
        return [self.ext(self.get1(args[0]), bits, sign)], [self.ext(self.get1(args[1]), bits, sign)]

    def _flag(self, op: str, regs: list, cond: str, imm: int | None = None):
        """A 0/1 register: `regs` compared by `cond` (a pair compare for 4 registers)."""
        flag = self.new()
        if len(regs) == 4:
            self.emit("setcc64", [flag], regs, (cond,))
        else:
            self.emit(op, [flag], regs, (cond, imm))
        self.known[flag] = ("z", 1)
        return flag

    def _select_words(self, flag, yes: list, no: list) -> list:
        out = []
        for x, y in zip(yes, no):
            d = self.new()
            self.emit("select", [d], [flag, x, y])
            out.append(d)
        return out

    def _signed_overflow(self, kind: str, a, b, result):
        """1 when a signed add/sub of the words a and b to `result` overflowed: for add
        the operands' signs agree and the result's differs, for sub they differ and the
        result's differs from a's."""
        x = self.alu("XOR", result, a)
        y = self.alu("XOR", result, b) if kind == "add" else self.alu("XOR", a, b)
        return self._flag("setcc", [self.alu("AND", x, y)], "slt", 0)

    def _arith64(self, kind: str, a: list, b: list) -> list:
        result = [self.new(), self.new()]
        self.emit(kind + "64", result, a + b, early=True)
        return result

    # -- min / max, three-way compares, abs -----------------------------------------------

    def _minmax(self, i: Instr, args: list, cond: str) -> None:
        bits = int_bits(i.ty)
        a, b = self._operands(args, bits, cond[0] == "s")
        if bits > 32:
            self.define(i, self._select_words(self._flag("setcc64", a + b, cond), a, b))
            return
        d = self.new()
        self.emit("selcc", [d], a + b + a + b, (cond, None))
        self.define(i, [d])

    def intr_smax(self, i, args):
        self._minmax(i, args, "sgt")

    def intr_smin(self, i, args):
        self._minmax(i, args, "slt")

    def intr_umax(self, i, args):
        self._minmax(i, args, "ugt")

    def intr_umin(self, i, args):
        self._minmax(i, args, "ult")

    def _three_way(self, i: Instr, args: list, sign: bool) -> None:
        """llvm.scmp/ucmp: -1, 0 or 1 as a < b, a == b, a > b."""
        prefix = "s" if sign else "u"
        a, b = self._operands(args, int_bits(args[0].ty), sign)
        gt = self._flag("setcc", a + b, prefix + "gt")
        lt = self._flag("setcc", a + b, prefix + "lt")
        low = self.alu("SUB", gt, lt)
        self.define(i, [low, self.alui("ASRI", low, 31)] if int_bits(i.ty) > 32 else [low])

    def intr_scmp(self, i, args):
        self._three_way(i, args, True)

    def intr_ucmp(self, i, args):
        self._three_way(i, args, False)

    def intr_abs(self, i: Instr, args: list) -> None:
        bits = int_bits(i.ty)
        if bits > 32:
            lo, hi = self.ext64(self.get(args[0]), bits, True)
            sign = self.alui("ASRI", hi, 31)
            x = [self.alu("XOR", lo, sign), self.alu("XOR", hi, sign)]
            self.define(i, self._arith64("sub", x, [sign, sign]))
            return
        a = self.sext(self.get1(args[0]), bits)
        sign = self.alui("ASRI", a, 31)
        self.define(i, [self.alu("SUB", self.alu("XOR", a, sign), sign)])

    # -- with overflow ----------------------------------------------------------------------

    def _overflow(self, i: Instr, args: list, op: str) -> None:
        """llvm.{s,u}{add,sub,mul}.with.overflow: {result, overflow bit}."""
        bits = int_bits(i.ty.fields[0])
        sign, kind = op[0] == "s", op[1:]
        if bits == 64:
            self._overflow64(i, args, sign, kind)
            return
        if bits > 32:
            raise self.error(f"{i.opcode} on {bits}-bit values is not supported", i)
        (a,), (b,) = self._operands(args, bits, sign)
        result = self.alu(_ALU[kind], a, b)
        if bits < 32:                        # exact in 32 bits: does it fit `bits`?
            flag = self._flag("setcc", [self.ext(result, bits, sign), result], "ne")
        elif kind == "mul":
            high = self.alu("MULHS" if sign else "MULHU", a, b)
            expect = self.alui("ASRI", result, 31) if sign else self.li(0)
            flag = self._flag("setcc", [high, expect], "ne")
        elif not sign:
            flag = self._flag("setcc", [result, a], "ult" if kind == "add" else "ugt")
        else:
            flag = self._signed_overflow(kind, a, b, result)
        self.define(i, [result, flag])

    def _overflow64(self, i: Instr, args: list, sign: bool, kind: str) -> None:
        a, b = self.get(args[0]), self.get(args[1])
        if kind == "mul":
            result = self.mul64(a, b)
            flag = self.libcall("__hsx_smulo64" if sign else "__hsx_umulo64", a + b, 1)[0]
            self.known[flag] = ("z", 1)
        else:
            result = self._arith64(kind, a, b)
            if sign:                         # as for 32 bits, on the high words
                flag = self._signed_overflow(kind, a[1], b[1], result[1])
            else:
                flag = self._flag("setcc64", result + a, "ult" if kind == "add" else "ugt")
        self.define(i, result + [flag])

    # -- saturating -------------------------------------------------------------------------

    def _saturating(self, i: Instr, args: list, op: str) -> None:
        """llvm.{s,u}{add,sub}.sat: the result clamped to the type's range."""
        bits = int_bits(i.ty)
        sign, kind = op[0] == "s", op[1:]
        if kind not in ("add", "sub") or bits > 64 or 32 < bits < 64:
            raise self.error(f"llvm.{op}.sat on {bits}-bit values is not supported", i)
        a, b = self._operands(args, bits, sign)
        if bits == 64:
            result = self._arith64(kind, a, b)
            high = [a[1], b[1], result[1]]
        else:
            result = [self.alu(_ALU[kind], a[0], b[0])]
            high = [a[0], b[0], result[0]]
        if sign and bits < 32:               # exact in 32 bits: clamp it
            top, bottom = self.li((1 << (bits - 1)) - 1), self.li(-(1 << (bits - 1)))
            clamped = self.new()
            self.emit("selcc", [clamped], [result[0], top, top, result[0]], ("sgt", None))
            d = self.new()
            self.emit("selcc", [d], [clamped, bottom, bottom, clamped], ("slt", None))
            self.define(i, [d])
            return
        if sign:                             # overflowed: the limit on a's side of zero
            flag = self._signed_overflow(kind, *high)
            side = self.alui("ASRI", high[0], 31)
            limit = [self.alu("XOR", side, self.li(0x7FFFFFFF))]
            if bits == 64:
                limit = [self.alui("XORI", side, -1)] + limit
        elif kind == "sub":                  # below zero: 0
            flag = self._flag("setcc", a + b, "ult")
            limit = [self.li(0)] * len(result)
        elif bits < 32:                      # above the type's maximum: the maximum
            limit = [self.li((1 << bits) - 1)]
            flag = self._flag("setcc", result + limit, "ugt")
        else:                                # wrapped around: all ones
            flag = self._flag("setcc", result + a, "ult")
            limit = [self.li(-1)] * len(result)
        self.define(i, self._select_words(flag, limit, result))
