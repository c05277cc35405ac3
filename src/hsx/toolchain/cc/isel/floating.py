"""Floating point: `fadd`..`frem`, `fneg`, `fcmp`, `fpext`, `fptrunc`, the int/float
conversions, and the float intrinsics (`fabs`, `copysign`, `sqrt`, `floor`, `ceil`,
`trunc`, `fmuladd`, the f16 conversions).  With `hard_float` the VM's instructions are
used (fpu.py); otherwise the soft-float library.  `half` is computed as float."""
from __future__ import annotations

from ..ir import Instr
from ..types import FloatT, IntT, Type
from . import fpu
from .core import SelectorBase, int_bits

# Soft-float helper routines in lib/ (standard libgcc names where one exists).
FLOAT_BINOPS = {
    ("fadd", 32): "__addsf3", ("fsub", 32): "__subsf3", ("fmul", 32): "__mulsf3",
    ("fdiv", 32): "__divsf3", ("frem", 32): "fmodf",
    ("fadd", 64): "__adddf3", ("fsub", 64): "__subdf3", ("fmul", 64): "__muldf3",
    ("fdiv", 64): "__divdf3", ("frem", 64): "fmod",
}
HALF_BINOPS = {"fadd": "FADD", "fsub": "FSUB", "fmul": "FMUL", "fdiv": "FDIV"}
# fcmp predicate -> bits of the __hsx_cmp?f2 result (1 less, 2 greater, 4 equal,
# 8 unordered) for which it is true.
FCMP_MASKS = {"oeq": 4, "ogt": 2, "oge": 6, "olt": 1, "ole": 5, "one": 3, "ord": 7,
              "ueq": 12, "ugt": 10, "uge": 14, "ult": 9, "ule": 13, "une": 11, "uno": 8}


# llvm.<name> intrinsics (from __builtin_round and friends) that are calls of the C
# library's function ("f" appended for float).
LIBM_INTRINSICS = {
    "round": "round", "rint": "rint", "nearbyint": "nearbyint", "roundeven": "roundeven",
    "lround": "lround", "llround": "llround", "lrint": "lrint", "llrint": "llrint",
    "minnum": "fmin", "maxnum": "fmax", "minimumnum": "fmin", "maximumnum": "fmax",
    "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "log10": "log10",
    "pow": "pow", "sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos",
    "atan": "atan", "atan2": "atan2", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
    "ldexp": "ldexp", "powi": "__powi",
}


class FloatOps(SelectorBase):
    """Floating-point instructions and intrinsics."""

    def _float_bits(self, ty: Type, i: Instr) -> int:
        if not isinstance(ty, FloatT) or ty.bits not in (16, 32, 64) or ty.name == "bfloat":
            raise self.error(f"floating-point type {ty} is not supported", i)
        return ty.bits

    def _float_binary(self, i: Instr) -> None:
        bits = self._float_bits(i.ty, i)
        a, b = (self.get(v) for v in i.ops)
        if bits == 16:
            if i.opcode == "frem":
                raise self.error("frem on half is not supported", i)
            self.define(i, [self.alu(HALF_BINOPS[i.opcode], a[0], b[0])])
            return
        self.define(i, self.float_op(i.opcode, bits, a, b))

    def float_op(self, opcode: str, bits: int, a: list, b: list) -> list:
        """fadd/fsub/fmul/fdiv/frem of two float (32) or double (64) values."""
        if self.hard_float and (opcode, bits) in fpu.ARITHMETIC:
            return fpu.arithmetic(self, opcode, bits, a, b)
        return self.libcall(FLOAT_BINOPS[(opcode, bits)], a + b, bits // 32)

    op_fadd = op_fsub = op_fmul = op_fdiv = op_frem = _float_binary

    def op_fneg(self, i: Instr) -> None:
        bits = self._float_bits(i.ty, i)
        regs = self.get(i.ops[0])
        sign = self.li(0x8000 if bits == 16 else -0x80000000)
        if bits == 64:
            self.define(i, [regs[0], self.alu("XOR", regs[1], sign)])
        else:
            self.define(i, [self.alu("XOR", regs[0], sign)])

    def op_fcmp(self, i: Instr) -> None:
        bits = self._float_bits(i.ops[0].ty, i)
        pred = i.pred
        if pred in ("true", "false"):
            self.define(i, [self.li(1 if pred == "true" else 0)])
            return
        if self.hard_float and pred in fpu.BRANCHES and bits != 16 and self._fusable(i) \
                and i not in self.vals:
            self.fused.add(i)               # FCMPS/DCMP and the branch (control.py)
            return
        a, b = (self._to_float(self.get(v), bits) for v in i.ops)
        if self.hard_float and pred in fpu.BRANCHES:
            self.define(i, [fpu.compare(self, pred, 64 if bits == 64 else 32, a, b)])
            return
        wide = bits == 64
        result = self.libcall("__hsx_cmpdf2" if wide else "__hsx_cmpsf2", a + b, 1)[0]
        masked = self.alui("ANDI", result, FCMP_MASKS[pred])
        d = self.new()
        self.emit("setcc", [d], [masked], ("ne", 0))
        self.known[d] = ("z", 1)
        self.define(i, [d])

    def _to_float(self, regs: list, bits: int) -> list:
        """f16 operands are compared as float."""
        if bits == 16:
            return self.libcall("__extendhfsf2", regs, 1)
        return regs

    def op_fpext(self, i: Instr) -> None:
        sbits = self._float_bits(i.ops[0].ty, i)
        dbits = self._float_bits(i.ty, i)
        regs = self.get(i.ops[0])
        if sbits == 16:
            regs = self.libcall("__extendhfsf2", regs, 1)
        if dbits == 64:
            regs = self.widen(regs)
        self.define(i, regs)

    def widen(self, regs: list) -> list:
        """float -> double."""
        if self.hard_float:
            return fpu.convert(self, "S2D", regs, 2)
        return self.libcall("__extendsfdf2", regs, 2)

    def op_fptrunc(self, i: Instr) -> None:
        sbits = self._float_bits(i.ops[0].ty, i)
        dbits = self._float_bits(i.ty, i)
        regs = self.get(i.ops[0])
        if sbits == 64 and dbits == 16:
            regs = self.libcall("__truncdfhf2", regs, 1)
        elif sbits == 64:
            regs = (fpu.convert(self, "D2S", regs, 1) if self.hard_float
                    else self.libcall("__truncdfsf2", regs, 1))
        elif dbits == 16:
            regs = self.libcall("__truncsfhf2", regs, 1)
        self.define(i, regs)

    def _fp_to_int(self, i: Instr, sign: bool) -> None:
        fbits = self._float_bits(i.ops[0].ty, i)
        ibits = int_bits(i.ty)
        regs = self.get(i.ops[0])
        if fbits == 16:
            regs = self.libcall("__extendhfsf2", regs, 1)
            fbits = 32
        if self.hard_float:
            self.define(i, fpu.convert(self, fpu.TO_INT[fbits, ibits > 32, sign], regs,
                                       2 if ibits > 32 else 1))
            return
        f = "sf" if fbits == 32 else "df"
        if ibits > 32:
            name = f"__fix{'' if sign else 'uns'}{f}di"
            self.define(i, self.libcall(name, regs, 2))
        else:
            name = f"__fix{'' if sign else 'uns'}{f}si"
            self.define(i, self.libcall(name, regs, 1))

    def op_fptosi(self, i: Instr) -> None:
        self._fp_to_int(i, True)

    def op_fptoui(self, i: Instr) -> None:
        self._fp_to_int(i, False)

    def _int_to_fp(self, i: Instr, sign: bool) -> None:
        fbits = self._float_bits(i.ty, i)
        ibits = int_bits(i.ops[0].ty)
        regs = self.get(i.ops[0])
        f = "sf" if fbits != 64 else "df"
        if ibits > 32:
            regs = self.ext64(regs, ibits, sign)
        else:
            regs = [self.ext(regs[0], ibits, sign)]
        if self.hard_float:
            out = fpu.convert(self, fpu.FROM_INT[64 if fbits == 64 else 32, ibits > 32, sign],
                              regs, 2 if fbits == 64 else 1)
        elif ibits > 32:
            out = self.libcall(f"__float{'' if sign else 'un'}di{f}", regs, 1 if f == "sf" else 2)
        else:
            out = self.libcall(f"__float{'' if sign else 'un'}si{f}", regs, 1 if f == "sf" else 2)
        if fbits == 16:
            out = self.libcall("__truncsfhf2", out, 1)
        self.define(i, out)

    def op_sitofp(self, i: Instr) -> None:
        self._int_to_fp(i, True)

    def op_uitofp(self, i: Instr) -> None:
        self._int_to_fp(i, False)

    def _float_call(self, i: Instr, args: list, name32: str, name64: str) -> None:
        bits = self._float_bits(i.ty, i)
        if bits == 16:
            raise self.error(f"{name32} on half is not supported", i)
        words = [w for a in args for w in self.get(a)]
        self.define(i, self.libcall(name32 if bits == 32 else name64, words, bits // 32))

    def libm_intrinsic(self, i: Instr, args: list, name: str) -> None:
        """A call of the library function an intrinsic stands for, typed by its first
        argument (lround's result is an integer); powi is libgcc's __powisf2/__powidf2."""
        bits = self._float_bits(args[0].ty, i)
        if bits == 16:
            raise self.error(f"{name} on half is not supported", i)
        if name == "__powi":
            func = "__powisf2" if bits == 32 else "__powidf2"
        else:
            func = name + ("f" if bits == 32 else "")
        words = [self.get(a) for a in args]
        self.define(i, self.call_words(("sym", func), words,
                                       [self.arg_align(a.ty) for a in args], len(args),
                                       self.words(i.ty)))

    def intr_fabs(self, i: Instr, args: list) -> None:
        bits = self._float_bits(i.ty, i)
        regs = self.get(args[0])
        keep = self.li(0x7FFF if bits == 16 else 0x7FFFFFFF)
        if bits == 64:
            self.define(i, [regs[0], self.alu("AND", regs[1], keep)])
        else:
            self.define(i, [self.alu("AND", regs[0], keep)])

    def intr_copysign(self, i: Instr, args: list) -> None:
        bits = self._float_bits(i.ty, i)
        a, b = self.get(args[0]), self.get(args[1])
        sign = self.li(0x8000 if bits == 16 else -0x80000000)
        keep = self.li(0x7FFF if bits == 16 else 0x7FFFFFFF)
        k = 1 if bits == 64 else 0
        word = self.alu("OR", self.alu("AND", a[k], keep), self.alu("AND", b[k], sign))
        self.define(i, [a[0], word] if bits == 64 else [word])

    def intr_is(self, i: Instr, args: list) -> None:
        """llvm.is.fpclass(x, mask) from the bits of x.  Mask bits: 0 signalling NaN,
        1 quiet NaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0, 7 +subnormal,
        8 +normal, 9 +inf (isnan, isinf, isfinite, fpclassify ... come out as these)."""
        bits = self._float_bits(args[0].ty, i)
        mask = self.imm_of(args[1], 32, False)
        if mask is None:
            raise self.error("llvm.is.fpclass with a variable mask", i)
        regs = self.get(args[0])
        expbits, mantbits = {16: (5, 10), 32: (8, 23), 64: (11, 20)}[bits]
        top = self.zext(regs[-1], 16) if bits == 16 else regs[-1]
        ones = (1 << expbits) - 1

        def test(cond, a, imm):
            flag = self.new()
            self.emit("setcc", [flag], [a], (cond, imm))
            self.known[flag] = ("z", 1)
            return flag

        exp = self.alui("ANDI", self.alui("LSRI", top, mantbits), ones)
        mant = self.alu("AND", top, self.li((1 << mantbits) - 1))
        if bits == 64:
            mant = self.alu("OR", mant, regs[0])
        e_max, e_zero, m_zero = test("eq", exp, ones), test("eq", exp, 0), test("eq", mant, 0)
        negative = self.alui("LSRI", top, 15 if bits == 16 else 31)
        classes = {                        # (negative bit, positive bit): value
            (2, 9): self.alu("AND", e_max, m_zero),
            (3, 8): test("eq", self.alu("OR", e_max, e_zero), 0),
            (4, 7): self.alui("XORI", self.alu("OR", self.alui("XORI", e_zero, 1), m_zero), 1),
            (5, 6): self.alu("AND", e_zero, m_zero),
        }
        terms = []
        for (neg_bit, pos_bit), flag in classes.items():
            want_neg, want_pos = mask >> neg_bit & 1, mask >> pos_bit & 1
            if want_neg and want_pos:
                terms.append(flag)
            elif want_neg:
                terms.append(self.alu("AND", flag, negative))
            elif want_pos:
                terms.append(self.alu("AND", flag, self.alui("XORI", negative, 1)))
        if mask & 3:
            nan = self.alu("AND", e_max, self.alui("XORI", m_zero, 1))
            if (mask & 3) != 3:                # only one kind: look at the quiet bit
                quiet = self.alui("ANDI", self.alui("LSRI", top, mantbits - 1), 1)
                nan = self.alu("AND", nan, quiet if mask & 2 else self.alui("XORI", quiet, 1))
            terms.append(nan)
        result = terms[0] if terms else self.li(0)
        for t in terms[1:]:
            result = self.alu("OR", result, t)
        self.known[result] = ("z", 1)
        self.define(i, [result])

    def intr_sqrt(self, i, args):
        self._float_call(i, args, "sqrtf", "sqrt")

    def intr_floor(self, i, args):
        self._float_call(i, args, "floorf", "floor")

    def intr_ceil(self, i, args):
        self._float_call(i, args, "ceilf", "ceil")

    def intr_trunc(self, i, args):
        self._float_call(i, args, "truncf", "trunc")

    def intr_fmuladd(self, i: Instr, args: list) -> None:
        bits = self._float_bits(i.ty, i)
        a, b, c = (self.get(x) for x in args)
        if bits == 16:
            self.define(i, [self.alu("FADD", self.alu("FMUL", a[0], b[0]), c[0])])
            return
        self.define(i, self.float_op("fadd", bits, self.float_op("fmul", bits, a, b), c))

    def intr_convert(self, i: Instr, args: list) -> None:
        """llvm.convert.to.fp16 / llvm.convert.from.fp16 (clang's __fp16 on wasm32)."""
        regs = self.get(args[0])
        if isinstance(i.ty, IntT):              # to.fp16: float/double -> i16 bits
            bits = self._float_bits(args[0].ty, i)
            self.define(i, self.libcall("__truncdfhf2" if bits == 64 else "__truncsfhf2",
                                        regs, 1))
        else:
            out = self.libcall("__extendhfsf2", [self.zext(regs[0], 16)], 1)
            if self._float_bits(i.ty, i) == 64:
                out = self.widen(out)
            self.define(i, out)
