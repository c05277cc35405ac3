"""LLVM intrinsics other than floating point (floating.py) and integer arithmetic
(arith.py): the dispatch of every `llvm.*` call, memcpy/memmove/memset, varargs, stack
save/restore, frame and return addresses, traps, funnel shifts and rotates, bit counts,
byte swaps and bit reversal.  Math intrinsics without a handler of their own are calls
of the library (floating.py's LIBM_INTRINSICS)."""
from __future__ import annotations

from .. import traps
from ..mir import FP, SP, fits12
from ..ir import Instr
from ..types import Type
from .core import SelectorBase, int_bits
from .floating import LIBM_INTRINSICS

IGNORED_INTRINSICS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.va_end",
                      "llvm.experimental.noalias.scope.decl", "llvm.invariant.",
                      "llvm.donothing", "llvm.sideeffect", "llvm.prefetch",
                      "llvm.var.annotation", "llvm.codeview.", "llvm.pseudoprobe")


class IntrinsicOps(SelectorBase):
    """Calls of `llvm.*` functions (dispatch, and the integer and memory ones)."""

    def _intrinsic(self, i: Instr, name: str, args: list) -> None:
        if name.startswith(IGNORED_INTRINSICS):
            return
        base = name.split(".")[1]
        if ".with.overflow." in name:
            handler = lambda i, args: self._overflow(i, args, base)   # noqa: E731
        elif ".sat." in name:
            handler = lambda i, args: self._saturating(i, args, base)  # noqa: E731
        elif name.startswith("llvm.is.constant."):
            handler = self.intr_is_constant
        else:
            handler = getattr(self, "intr_" + base, None)
        if handler is None and base in LIBM_INTRINSICS:
            handler = lambda i, args: self.libm_intrinsic(i, args, LIBM_INTRINSICS[base])  # noqa: E731
        if handler is None:
            raise self.error(f"unsupported intrinsic {name}", i)
        handler(i, args)

    def intr_memcpy(self, i: Instr, args: list) -> None:
        self._mem_intrinsic(i, args, "memcpy")

    def intr_memmove(self, i: Instr, args: list) -> None:
        self._mem_intrinsic(i, args, "memmove")

    def intr_memset(self, i: Instr, args: list) -> None:
        self._mem_intrinsic(i, args, "memset")

    def _mem_intrinsic(self, i: Instr, args: list, func: str) -> None:
        dst, src, length = args[:3]
        size = self.imm_of(length, int_bits(length.ty), False)
        if func == "memcpy" and size is not None and size <= 32:
            self.copy_memory(self.get1(dst), self.get1(src), size)
            return
        byte = self.imm_of(src, 8, False) if func == "memset" else None
        if byte is not None and size is not None and size <= 32:
            d = self.get1(dst)
            fill = self.li(byte * 0x01010101)
            off = 0
            for width, store in ((4, "ST"), (2, "STH"), (1, "STB")):
                while size - off >= width:
                    self.emit("store", [], [fill, d], (store, off, None))
                    off += width
            return
        n = self.get(length)[0]
        value = self.get1(src) if func != "memset" else self.zext(self.get1(src), 8)
        self.libcall(func, [self.get1(dst), value, n], 1)

    def intr_va_start(self, i: Instr, args: list) -> None:
        base, slot, off = self.address(args[0])
        area = self.new()
        self.emit("vastart", [area], [], (8 + self.mf.incoming_stack,))
        self._mem("store", "ST", area, base, slot, off)

    def intr_va_copy(self, i: Instr, args: list) -> None:
        dst, src = args[:2]
        t = self.new()
        sb, ss, so = self.address(src)
        self._mem("load", "LD", t, sb, ss, so)
        db, ds, do = self.address(dst)
        self._mem("store", "ST", t, db, ds, do)

    def intr_ptrmask(self, i: Instr, args: list) -> None:
        p = self.get1(args[0])
        m = self.imm_of(args[1], 32, True)
        if m is not None and fits12(m):
            self.define(i, [self.alui("ANDI", p, m)])
        else:
            self.define(i, [self.alu("AND", p, self.get(args[1])[0])])

    def intr_stacksave(self, i: Instr, args: list) -> None:
        d = self.new()
        self.emit("mov", [d], [SP])
        self.define(i, [d])

    def _frame_of(self, level_arg) -> object:
        """R14 of the frame `level` calls up: reading R14 gives this function a frame
        (shrinkwrap.py), and every caller has one at its call; [R14] is the caller's R14
        (docs/abi.md, "Frames")."""
        level = self.imm_of(level_arg, 32, False)
        if level is None:
            raise self.error("__builtin_frame_address/__builtin_return_address need a "
                             "constant level")
        frame = self.new()
        self.emit("mov", [frame], [FP])
        for _ in range(level):
            up = self.new()
            self._mem("load", "LD", up, frame, None, 0)
            frame = up
        return frame

    def intr_frameaddress(self, i: Instr, args: list) -> None:
        self.define(i, [self._frame_of(args[0])])

    def intr_returnaddress(self, i: Instr, args: list) -> None:
        pc = self.new()
        self._mem("load", "LD", pc, self._frame_of(args[0]), None, 4)
        self.define(i, [pc])

    def intr_stackrestore(self, i: Instr, args: list) -> None:
        self.emit("stackrestore", [], [self.get1(args[0])])

    def intr_trap(self, i: Instr, args: list) -> None:
        self.emit("trap", [], [], (traps.TRAP,))

    def intr_debugtrap(self, i: Instr, args: list) -> None:
        self.emit("trap", [], [], (traps.BREAKPOINT,))

    def intr_ubsantrap(self, i: Instr, args: list) -> None:
        """A check clang inserted (-fsanitize-trap) failed: undefined behaviour."""
        self.emit("trap", [], [], (traps.UNDEFINED,))

    def intr_expect(self, i: Instr, args: list) -> None:
        self.define(i, self.get(args[0]))

    def intr_is_constant(self, i: Instr, args: list) -> None:
        self.define(i, [self.li(0)])

    def intr_objectsize(self, i: Instr, args: list) -> None:
        minimum = self.imm_of(args[1], 1, False)
        self.define(i, self._int_result(i.ty, 0 if minimum else -1))

    def _int_result(self, ty: Type, value: int) -> list:
        if int_bits(ty) > 32:
            return [self.li(value & 0xFFFFFFFF), self.li((value >> 32) & 0xFFFFFFFF)]
        return [self.li(value)]

    def _funnel(self, i: Instr, args: list, left: bool) -> None:
        """llvm.fshl / llvm.fshr (rotates are funnel shifts of a value with itself)."""
        bits = int_bits(i.ty)
        amount = self.imm_of(args[2], bits, False)
        if bits > 32:
            self._funnel64(i, args, left, amount)
            return
        hi = self.get1(args[0])
        lo = self.zext(self.get1(args[1]), bits)
        if amount is not None:
            n = amount % bits
            if n == 0:
                self.define(i, [hi if left else lo])
                return
            if not left:
                n = bits - n
            self.define(i, [self.alu("OR", self.alui("LSLI", hi, n),
                                     self.alui("LSRI", lo, bits - n))])
            return
        n = self.get1(args[2])
        n = self.alui("ANDI", n, bits - 1) if bits & (bits - 1) == 0 else \
            self.alu("REMU", self.zext(n, bits), self.li(bits))
        inv = self.alu("SUB", self.li(bits), n)
        if left:
            shifted = self.alu("OR", self.alu("LSL", hi, n), self.alu("LSR", lo, inv))
            keep = hi
        else:
            shifted = self.alu("OR", self.alu("LSR", lo, n), self.alu("LSL", hi, inv))
            keep = lo
        if bits < 32:                 # a shift by `bits` already gives zero
            self.define(i, [shifted])
            return
        zero = self.new()
        self.emit("setcc", [zero], [n], ("eq", 0))
        d = self.new()
        self.emit("select", [d], [zero, keep, shifted])
        self.define(i, [d])

    def _funnel64(self, i: Instr, args: list, left: bool, amount: int | None) -> None:
        if int_bits(i.ty) != 64:
            raise self.error(f"funnel shifts of {int_bits(i.ty)}-bit values are not "
                             "supported", i)
        hi, lo = self.get(args[0]), self.get(args[1])
        if amount is None:
            self._funnel64_variable(i, hi, lo, self.get(args[2])[0], left)
            return
        n = amount % 64
        if n == 0:
            self.define(i, hi if left else lo)
            return
        if not left:
            n = 64 - n
        a = self._shift64_const("shl", hi, n)
        b = self._shift64_const("lshr", lo, 64 - n)
        self.define(i, [self.alu("OR", a[0], b[0]), self.alu("OR", a[1], b[1])])

    def _funnel64_variable(self, i: Instr, hi: list, lo: list, amount, left: bool) -> None:
        """fshl = (hi << n) | ((lo >> 1) >> (63 - n)), fshr = (lo >> n) | ((hi << 1) <<
        (63 - n)), n = amount mod 64: the pre-shift by one keeps every shift below 64,
        so n = 0 needs no special case.  Shifts by the runtime's __ashldi3/__lshrdi3."""
        n = self.alui("ANDI", amount, 63)
        rest = self.alu("SUB", self.li(63), n)
        if left:
            a = self.libcall("__ashldi3", [hi[0], hi[1], n], 2)
            t = self._shift64_const("lshr", lo, 1)
            b = self.libcall("__lshrdi3", [t[0], t[1], rest], 2)
        else:
            a = self.libcall("__lshrdi3", [lo[0], lo[1], n], 2)
            t = self._shift64_const("shl", hi, 1)
            b = self.libcall("__ashldi3", [t[0], t[1], rest], 2)
        self.define(i, [self.alu("OR", a[0], b[0]), self.alu("OR", a[1], b[1])])

    def intr_fshl(self, i, args):
        self._funnel(i, args, True)

    def intr_fshr(self, i, args):
        self._funnel(i, args, False)

    def _bit_count(self, i: Instr, args: list, routine: str) -> None:
        """ctlz / cttz through runtime routines (lib/src/bits.mvasm)."""
        bits = int_bits(i.ty)
        regs = self.get(args[0])
        if bits <= 32:
            r = self.zext(regs[0], bits)
            out = self.libcall(f"__hsx_{routine}si2", [r], 1)[0]
            if routine == "clz" and bits < 32:
                out = self.alui("ADDI", out, bits - 32)
            elif routine == "ctz" and bits < 32:
                limit = self.new()
                self.emit("setcc", [limit], [out], ("ugt", bits))
                d = self.new()
                self.emit("select", [d], [limit, self.li(bits), out])
                out = d
            self.define(i, [out])
            return
        out = self.libcall(f"__hsx_{routine}di2", list(regs), 1)[0]
        self.define(i, [out, self.li(0)])

    def intr_ctlz(self, i, args):
        self._bit_count(i, args, "clz")

    def intr_cttz(self, i, args):
        self._bit_count(i, args, "ctz")

    def _popcount32(self, x):
        """Population count of a 32-bit register, inline (parallel bit sums)."""
        t = self.alu("AND", self.alui("LSRI", x, 1), self.li(0x55555555))
        x = self.alu("SUB", x, t)
        m = self.li(0x33333333)
        x = self.alu("ADD", self.alu("AND", x, m), self.alu("AND", self.alui("LSRI", x, 2), m))
        x = self.alu("AND", self.alu("ADD", x, self.alui("LSRI", x, 4)), self.li(0x0F0F0F0F))
        return self.alui("LSRI", self.alu("MUL", x, self.li(0x01010101)), 24)

    def intr_ctpop(self, i: Instr, args: list) -> None:
        bits = int_bits(i.ty)
        regs = self.get(args[0])
        if bits <= 32:
            self.define(i, [self._popcount32(self.zext(regs[0], bits))])
        else:
            total = self.alu("ADD", self._popcount32(regs[0]), self._popcount32(regs[1]))
            self.define(i, [total, self.li(0)])

    def _bswap32(self, x):
        """Byte swap of a 32-bit register, inline."""
        high = self.alu("OR", self.alui("LSRI", x, 24), self.alui("LSLI", x, 24))
        mid = self.li(0xFF00)
        low = self.alu("OR", self.alu("AND", self.alui("LSRI", x, 8), mid),
                       self.alui("LSLI", self.alu("AND", x, mid), 8))
        return self.alu("OR", high, low)

    def intr_bswap(self, i: Instr, args: list) -> None:
        bits = int_bits(i.ty)
        regs = self.get(args[0])
        if bits == 16:
            r = regs[0]
            self.define(i, [self.alu("OR", self.alui("ANDI", self.alui("LSRI", r, 8), 255),
                                     self.alui("LSLI", r, 8))])
        elif bits == 32:
            self.define(i, [self._bswap32(regs[0])])
        elif bits == 64:
            self.define(i, [self._bswap32(regs[1]), self._bswap32(regs[0])])
        else:
            raise self.error(f"{bits}-bit bswap is not supported", i)

    def _bitreverse32(self, x):
        """The bits of a 32-bit register in reverse order: swap neighbouring bits, pairs
        and nibbles, then the bytes."""
        for shift, mask in ((1, 0x55555555), (2, 0x33333333), (4, 0x0F0F0F0F)):
            keep = self.li(mask)
            x = self.alu("OR", self.alu("AND", self.alui("LSRI", x, shift), keep),
                         self.alui("LSLI", self.alu("AND", x, keep), shift))
        return self._bswap32(x)

    def intr_bitreverse(self, i: Instr, args: list) -> None:
        bits = int_bits(i.ty)
        regs = self.get(args[0])
        if bits == 64:
            self.define(i, [self._bitreverse32(regs[1]), self._bitreverse32(regs[0])])
        elif bits <= 32:
            reversed_ = self._bitreverse32(regs[0])
            self.define(i, [self.alui("LSRI", reversed_, 32 - bits) if bits < 32 else reversed_])
        else:
            raise self.error(f"{bits}-bit bitreverse is not supported", i)

