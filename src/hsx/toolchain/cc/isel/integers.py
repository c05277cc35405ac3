"""Integer instructions of up to 32 bits: binary arithmetic, `icmp` (fused into
branches when possible), `select`, `freeze` and the integer/pointer conversions
(`trunc`, `zext`, `sext`, `ptrtoint`, `inttoptr`, `bitcast`).  64-bit arithmetic is in
int64.py."""
from __future__ import annotations

from ..consts import mask, signed
from ..mir import SWAPPED, fits12
from ..ir import Instr, Value
from ..types import VectorT
from .core import SelectorBase, int_bits


class IntegerOps(SelectorBase):
    """Integer arithmetic, compares and conversions of up to 32 bits."""

    _IMM_FORMS = {"add": "ADDI", "and": "ANDI", "or": "ORI", "xor": "XORI", "mul": "MULI",
                  "shl": "LSLI"}
    _REG_FORMS = {"add": "ADD", "sub": "SUB", "mul": "MUL", "and": "AND", "or": "OR",
                  "xor": "XOR", "shl": "LSL", "lshr": "LSR", "ashr": "ASR", "sdiv": "DIV",
                  "udiv": "DIVU", "srem": "REM", "urem": "REMU"}
    _COMMUTATIVE = {"add", "mul", "and", "or", "xor"}

    def _binary(self, i: Instr) -> None:
        ty = i.ty
        if isinstance(ty, VectorT):
            raise self.error("vector arithmetic is not supported", i)
        bits = int_bits(ty)
        if bits > 64:
            self.define(i, self.binary128(i))
            return
        if bits > 32:
            self.define(i, self._binary64(i, bits))
            return
        op = i.opcode
        a, b = i.ops
        sign = op in ("ashr", "sdiv", "srem")
        needs_ext = op in ("lshr", "ashr", "sdiv", "udiv", "srem", "urem")
        if needs_ext:
            ra = self.operand_ext(a, bits, sign)
            rb = self.operand_ext(b, bits, sign) if op not in ("lshr", "ashr") \
                else self._shift_amount(b, bits)
        else:
            sign_imm = bits > 1                  # i1 stays exactly 0 or 1
            ra = self.imm_of(a, bits, sign_imm) if op in self._COMMUTATIVE else None
            ra = ra if ra is not None and fits12(ra) else self.get1(a)
            rb = self.imm_of(b, bits, sign_imm)
            rb = rb if rb is not None else self.get1(b)
            if op == "shl" and isinstance(rb, int):
                rb = mask(rb, 5)
        if isinstance(ra, int) and not isinstance(rb, int) and op in self._COMMUTATIVE:
            ra, rb = rb, ra
        d = self._alu_op(op, ra, rb)
        if bits == 1 and op in ("add", "sub", "mul", "shl"):
            d = self.alui("ANDI", d, 1)
        elif bits < 32 and op in ("lshr", "udiv", "urem") and not isinstance(d, int):
            self.known[d] = ("z", bits)
        if bits == 1:
            self.known[d] = ("z", 1)
        self.define(i, [d])

    def _shift_amount(self, value: Value, bits: int):
        imm = self.imm_of(value, bits, False)
        return mask(imm, 5) if imm is not None else self.get1(value)

    def _alu_op(self, op: str, a, b):
        """Emit `a op b` (a a register; b a register or an int)."""
        a = self.reg_of(a)
        if isinstance(b, int):
            if op == "sub" and fits12(-b):
                return self.alui("ADDI", a, -b)
            if op == "udiv" and b > 0 and b & (b - 1) == 0:
                return self.alui("LSRI", a, b.bit_length() - 1)
            if op == "urem" and b > 0 and b & (b - 1) == 0 and fits12(b - 1):
                return self.alui("ANDI", a, b - 1)
            if op == "mul" and b > 0 and b & (b - 1) == 0:
                return self.alui("LSLI", a, b.bit_length() - 1)
            if op in ("lshr", "ashr"):
                return self.alui("LSRI" if op == "lshr" else "ASRI", a, b)
            form = self._IMM_FORMS.get(op)
            if form and fits12(b):
                return self.alui(form, a, b)
            b = self.li(b)
        return self.alu(self._REG_FORMS[op], a, b)

    op_add = op_sub = op_mul = op_and = op_or = op_xor = _binary
    op_shl = op_lshr = op_ashr = op_sdiv = op_udiv = op_srem = op_urem = _binary

    # -- compares and select ------------------------------------------------------------

    def _compare_operands(self, cmp: Instr):
        """(condition, register, register-or-imm) for an integer icmp of <= 32 bits."""
        pred = cmp.pred
        a, b = cmp.ops
        bits = int_bits(a.ty)
        sign = pred.startswith("s")
        ia = self.imm_of(a, bits, sign)
        ib = self.imm_of(b, bits, sign)
        if ia is not None and ib is None:
            a, b, pred, ib = b, a, SWAPPED[pred], ia
        ra = self.ext(self.get1(a), bits, sign)
        if ib is not None and bits == 32:
            ib = signed(ib, 32)     # CMPI compares the word its immediate extends to
        if ib is not None and fits12(ib):
            return pred, ra, ib
        if ib is not None:
            return pred, ra, self.li(ib)
        return pred, ra, self.ext(self.get1(b), bits, sign)

    def _fusable(self, i: Instr) -> bool:
        """Is compare `i` computed only for the branch (or, for an integer compare of up
        to 32 bits, the select) right after it in its block?  Then the compare goes into
        that instruction (no 0 or 1 made first)."""
        users = self.users.get(i, [])
        if len(users) != 1 or users[0].block is not i.block or \
                isinstance(i.ops[0].ty, VectorT) or int_bits(i.ops[0].ty) > 64:
            return False
        user = users[0]
        if user.opcode == "br":
            return True
        return (user.opcode == "select" and i.opcode == "icmp" and user.ops[0] is i
                and int_bits(i.ops[0].ty) <= 32 and not isinstance(user.ty, VectorT))

    def op_icmp(self, i: Instr) -> None:
        if isinstance(i.ops[0].ty, VectorT):
            raise self.error("vector compares are not supported", i)
        bits = int_bits(i.ops[0].ty)
        if bits > 64:
            raise self.error(f"{bits}-bit compares are not supported", i)
        if self._fusable(i) and i not in self.vals:
            self.fused.add(i)
            return
        if bits > 32:
            sign = i.pred.startswith("s")
            a = self.ext64(self.get(i.ops[0]), bits, sign)
            b = self.ext64(self.get(i.ops[1]), bits, sign)
            d = self.new()
            self.emit("setcc64", [d], a + b, (i.pred,))
            self.known[d] = ("z", 1)
            self.define(i, [d])
            return
        cond, a, b = self._compare_operands(i)
        d = self.new()
        if isinstance(b, int):
            self.emit("setcc", [d], [a], (cond, b))
        else:
            self.emit("setcc", [d], [a, b], (cond, None))
        self.known[d] = ("z", 1)
        self.define(i, [d])

    def op_select(self, i: Instr) -> None:
        c, a, b = i.ops
        if isinstance(c.ty, VectorT) or isinstance(i.ty, VectorT):
            raise self.error("vector select is not supported", i)
        ra, rb = self.get(a), self.get(b)
        if c in self.fused:                 # `x cond y ? a : b`: the compare goes here
            cond, x, y = self._compare_operands(c)
            imm = y if isinstance(y, int) else None
            compared = [x] if imm is not None else [x, y]
            out = []
            for p, q in zip(ra, rb):
                d = self.new()
                self.emit("selcc", [d], compared + [p, q], (cond, imm))
                out.append(d)
            self.define(i, out)
            return
        rc = self.get1(c)
        out = []
        for x, y in zip(ra, rb):
            d = self.new()
            self.emit("select", [d], [rc, x, y])
            out.append(d)
        self.define(i, out)

    def op_freeze(self, i: Instr) -> None:
        self.define(i, self.get(i.ops[0]))

    # -- conversions --------------------------------------------------------------------

    def op_trunc(self, i: Instr) -> None:
        src = self.get(i.ops[0])
        bits = int_bits(i.ty)
        if bits <= 32:
            r = src[0]
            if bits == 1:
                k = self.known.get(r)
                if not (k and k[0] == "z" and k[1] == 1):
                    r = self.alui("ANDI", r, 1)
                    self.known[r] = ("z", 1)
            self.define(i, [r])
        else:
            self.define(i, src[:2])

    def op_zext(self, i: Instr) -> None:
        self._extend(i, sign=False)

    def op_sext(self, i: Instr) -> None:
        self._extend(i, sign=True)

    def _extend(self, i: Instr, sign: bool) -> None:
        if isinstance(i.ty, VectorT):
            raise self.error("vector conversions are not supported", i)
        sbits = int_bits(i.ops[0].ty)
        dbits = int_bits(i.ty)
        src = self.get(i.ops[0])
        if dbits > 64 and sign:             # (zext: int64.binary128's wide products)
            raise self.error(f"values of type {i.ty} are not supported", i)
        if sbits > 32:
            self.define(i, self.ext64(src, sbits, sign))
            return
        lo = self.ext(src[0], sbits, sign)
        if dbits <= 32:
            self.define(i, [lo])
        else:
            hi = self.alui("ASRI", lo, 31) if sign else self.li(0)
            self.define(i, [lo, hi])

    def op_ptrtoint(self, i: Instr) -> None:
        src = self.get(i.ops[0])
        bits = int_bits(i.ty)
        self.define(i, src if bits <= 32 else [src[0], self.li(0)])

    def op_inttoptr(self, i: Instr) -> None:
        bits = int_bits(i.ops[0].ty)
        self.define(i, [self.zext(self.get(i.ops[0])[0], bits)])

    def op_bitcast(self, i: Instr) -> None:
        if isinstance(i.ty, VectorT) or isinstance(i.ops[0].ty, VectorT):
            raise self.error("vector bit casts are not supported", i)
        self.define(i, self.get(i.ops[0]))

    op_addrspacecast = op_bitcast
