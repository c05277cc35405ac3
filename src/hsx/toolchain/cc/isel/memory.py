"""Memory: `load`, `store` (constant-offset GEPs folded into their addressing),
`alloca` (frame slots, or dynamic), `getelementptr`, `atomicrmw`, `cmpxchg`, `fence`,
and the aggregate value instructions `extractvalue`/`insertvalue`."""
from __future__ import annotations

from ..consts import mask, signed
from ..frame import MAX_ALIGN
from ..mir import fits12
from ..stackcolor import colour
from ..ir import CompileError, Instr, Value
from ..types import ArrayT, IntT, StructT, Type, VectorT
from .core import SelectorBase, int_bits


class MemoryOps(SelectorBase):
    """Loads, stores, addresses, frame slots, atomics and aggregate values."""

    def _plan_allocas(self) -> None:
        """Allocas of a constant size become frame slots, shared by allocas that are never
        live together (stackcolor.py); dynamic ones, and those aligned above the frame's
        16 bytes, are lowered in place."""
        sizes, aligns = {}, {}
        for block in self.fn.blocks:
            for i in block.instrs:
                if i.opcode != "alloca":
                    continue
                count = self.imm_of(i.ops[0], int_bits(i.ops[0].ty), False)
                if count is None or i.align > MAX_ALIGN:
                    continue                       # dynamic: lowered in place
                sizes[i] = self.layout.size(i.src_ty) * count
                aligns[i] = max(self.layout.align(i.src_ty), i.align, 4)
        for group in colour(self.fn, list(sizes), sizes):
            slot = self.mf.slot(max(sizes[a] for a in group), max(aligns[a] for a in group),
                                name=group[0].name)
            for alloca in group:
                self.slots[alloca] = slot
                self.mf.debug.setdefault("alloca_slots", {})[alloca] = slot

    def _plan_address_folding(self) -> None:
        """GEPs with constant offsets used only as load/store addresses are not computed
        on their own: the offset goes into each access."""
        for block in self.fn.blocks:
            for i in block.instrs:
                if i.opcode != "getelementptr" or isinstance(i.ty, VectorT):
                    continue
                users = self.users.get(i, [])
                if not users or self._gep_constant_offset(i) is None:
                    continue
                if all((u.opcode == "load" and u.ops[0] is i) or
                       (u.opcode == "store" and u.ops[1] is i and u.ops[0] is not i)
                       for u in users):
                    self.folded.add(i)


    # -- memory -------------------------------------------------------------------------

    def address(self, ptr: Value) -> tuple:
        """(base register or None, frame slot or None, byte offset) for a pointer."""
        if isinstance(ptr, Instr):
            if ptr.opcode == "alloca" and ptr in self.slots:
                return None, self.slots[ptr], 0
            if ptr in self.folded:
                base, slot, off = self.address(ptr.ops[0])
                return base, slot, off + self._gep_constant_offset(ptr)
        return self.get1(ptr), None, 0

    def _gep_constant_offset(self, gep: Instr) -> int | None:
        words = []
        for idx in gep.ops[1:]:
            w = self.const_of(idx)
            if w is None or not w.number:
                return None
            words.append(w)
        try:
            return self.ev.gep_offset(gep.src_ty, words, [v.ty for v in gep.ops[1:]])
        except CompileError:
            return None

    def _mem(self, kind: str, mnem: str, value, base, slot, off: int) -> None:
        if kind == "load":
            if slot is not None:
                self.emit("load", [value], [], (mnem, off, slot))
            else:
                self.emit("load", [value], [base], (mnem, off, None))
        elif slot is not None:
            self.emit("store", [], [value], (mnem, off, slot))
        else:
            self.emit("store", [], [value, base], (mnem, off, None))

    def _pieces(self, ty: Type) -> list[tuple[int, Type]]:
        """Scalars of `ty` with their offsets, for loads and stores."""
        if isinstance(ty, (StructT, ArrayT)):
            return self.scalars(ty)
        if isinstance(ty, VectorT):
            raise self.error("vector loads and stores are not supported")
        return [(0, ty)]

    def op_load(self, i: Instr) -> None:
        base, slot, off = self.address(i.ops[0])
        if base is not None and not fits12(off):
            base, off = self._add_imm(base, off), 0
        out = []
        sign_users = self._all_users_sext(i)
        for poff, pty in self._pieces(i.ty):
            out.extend(self._load_scalar(pty, base, slot, off + poff, sign_users))
        self.define(i, out)

    def _all_users_sext(self, i: Instr) -> bool:
        users = self.users.get(i, [])
        return bool(users) and all(u.opcode == "sext" for u in users)

    def _load_scalar(self, ty: Type, base, slot, off: int, sign: bool) -> list:
        size = self.layout.store_size(ty)
        if size == 1:
            d = self.new()
            self._mem("load", "LDBS" if sign else "LDB", d, base, slot, off)
            self.known[d] = ("s" if sign else "z", 8)
            return [d]
        if size == 2:
            d = self.new()
            self._mem("load", "LDHS" if sign else "LDH", d, base, slot, off)
            self.known[d] = ("s" if sign else "z", 16)
            return [d]
        if size == 4:
            d = self.new()
            self._mem("load", "LD", d, base, slot, off)
            return [d]
        if size == 8:
            lo, hi = self.new(), self.new()
            self._mem("load", "LD", lo, base, slot, off)
            self._mem("load", "LD", hi, base, slot, off + 4)
            return [lo, hi]
        if isinstance(ty, IntT) and size < 8:
            return self._load_odd(size, base, slot, off)
        raise self.error(f"loads of {ty} are not supported")

    def _load_odd(self, size: int, base, slot, off: int) -> list:
        """Little-endian load of a 3, 5, 6 or 7 byte integer."""
        words = []
        for start in range(0, size, 4):
            chunk = min(4, size - start)
            acc = None
            pos = 0
            for width, mnem in ((4, "LD"), (2, "LDH"), (1, "LDB")):
                while chunk - pos >= width:
                    d = self.new()
                    self._mem("load", mnem, d, base, slot, off + start + pos)
                    part = d if pos == 0 else self.alui("LSLI", d, 8 * pos)
                    acc = part if acc is None else self.alu("OR", acc, part)
                    pos += width
            words.append(acc)
        return words

    def op_store(self, i: Instr) -> None:
        value, ptr = i.ops
        base, slot, off = self.address(ptr)
        if base is not None and not fits12(off):
            base, off = self._add_imm(base, off), 0
        regs = self.get(value)
        k = 0
        for poff, pty in self._pieces(value.ty):
            n = self.words(pty)
            self._store_scalar(pty, regs[k:k + n], base, slot, off + poff)
            k += n

    def _store_scalar(self, ty: Type, regs: list, base, slot, off: int) -> None:
        size = self.layout.store_size(ty)
        if size in (1, 2, 4):
            self._mem("store", {1: "STB", 2: "STH", 4: "ST"}[size], regs[0], base, slot, off)
            return
        if size == 8:
            self._mem("store", "ST", regs[0], base, slot, off)
            self._mem("store", "ST", regs[1], base, slot, off + 4)
            return
        if isinstance(ty, IntT) and size < 8:
            for start in range(0, size, 4):
                word = regs[start // 4]
                chunk = min(4, size - start)
                pos = 0
                for width, mnem in ((4, "ST"), (2, "STH"), (1, "STB")):
                    while chunk - pos >= width:
                        part = word if pos == 0 else self.alui("LSRI", word, 8 * pos)
                        self._mem("store", mnem, part, base, slot, off + start + pos)
                        pos += width
            return
        raise self.error(f"stores of {ty} are not supported")

    def op_alloca(self, i: Instr) -> None:
        if i in self.slots:
            return                                  # addresses are rematerialised at uses
        count = self.get1(i.ops[0])
        size = self.layout.size(i.src_ty)
        total = count if size == 1 else self.alu("MUL", count, self.li(size))
        # room to align the address up from SP + outgoing, which is only 4-aligned
        extra = i.align - 4 if i.align > MAX_ALIGN else 0
        total = self.alui("ANDI", self.alui("ADDI", total, 15 + extra), -16)   # SP: 16-aligned
        d = self.new()
        self.emit("dynalloc", [d], [total])
        if extra:
            d = self.alui("ANDI", self.alui("ADDI", d, i.align - 1), -i.align)
        self.define(i, [d])

    def op_getelementptr(self, i: Instr) -> None:
        if isinstance(i.ty, VectorT):
            raise self.error("vector getelementptr is not supported", i)
        const = self._gep_constant_offset(i)
        if const is not None:
            base, slot, off = self.address(i.ops[0])
            off += const
            if slot is not None:
                d = self.new()
                self.emit("frameaddr", [d], [], (slot, off))
                self.define(i, [d])
                return
            self.define(i, [self._add_imm(base, off) if off else base])
            return
        addr = self.get1(i.ops[0])
        ty = i.src_ty
        const_off = 0
        for n, idx in enumerate(i.ops[1:]):
            bits = int_bits(idx.ty)
            if n == 0:
                elem = ty
            elif isinstance(ty, StructT):
                field_no = self.imm_of(idx, bits, False)
                const_off += self.layout.offsets(ty)[field_no]
                ty = ty.fields[field_no]
                continue
            elif isinstance(ty, (ArrayT, VectorT)):
                ty = elem = ty.elem
            else:
                raise self.error(f"cannot index into {ty}", i)
            size = self.layout.size(elem)
            imm = self.imm_of(idx, bits, True)
            if imm is not None:
                const_off += imm * size
                continue
            r = self.get(idx)[0]
            if bits < 32:
                r = self.sext(r, bits)
            if size == 0:
                continue
            if size != 1:
                if size & (size - 1) == 0:
                    r = self.alui("LSLI", r, size.bit_length() - 1)
                elif fits12(size):
                    r = self.alui("MULI", r, size)
                else:
                    r = self.alu("MUL", r, self.li(size))
            addr = self.alu("ADD", addr, r)
        if const_off:
            addr = self._add_imm(addr, signed(mask(const_off, 32), 32))
        self.define(i, [addr])

    def op_fence(self, i: Instr) -> None:
        pass

    def op_atomicrmw(self, i: Instr) -> None:
        ptr, val = i.ops
        base, slot, off = self.address(ptr)
        ty = i.ty
        bits = int_bits(ty)
        if bits > 32:
            raise self.error("64-bit atomics are not supported", i)
        old = self._load_scalar(ty, base, slot, off, False)[0]
        v = self.get1(val)
        op = i.pred
        if op == "xchg":
            new = v
        elif op in ("add", "sub", "and", "or", "xor"):
            new = self.alu(self._REG_FORMS[op], old, v)
        elif op == "nand":
            new = self.alu("XOR", self.alu("AND", old, v), self.li(-1))
        elif op in ("max", "min", "umax", "umin"):
            sign = op in ("max", "min")
            a, b = self.ext(old, bits, sign), self.ext(v, bits, sign)
            cond = ("sgt" if op == "max" else "slt") if sign else \
                ("ugt" if op == "umax" else "ult")
            c = self.new()
            self.emit("setcc", [c], [a, b], (cond, None))
            new = self.new()
            self.emit("select", [new], [c, old, v])
        else:
            raise self.error(f"atomicrmw {op} is not supported", i)
        self._store_scalar(ty, [new], base, slot, off)
        self.define(i, [old])

    def op_cmpxchg(self, i: Instr) -> None:
        ptr, expected, new = i.ops
        vty = expected.ty
        bits = int_bits(vty)
        if bits > 32:
            raise self.error("64-bit atomics are not supported", i)
        base, slot, off = self.address(ptr)
        old = self._load_scalar(vty, base, slot, off, False)[0]
        a = self.zext(old, bits)
        b = self.zext(self.get1(expected), bits)
        ok = self.new()
        self.emit("setcc", [ok], [a, b], ("eq", None))
        value = self.new()
        self.emit("select", [value], [ok, self.get1(new), old])
        self._store_scalar(vty, [value], base, slot, off)
        self.define(i, [old, ok])

    # -- aggregates ---------------------------------------------------------------------

    def _field_range(self, ty: Type, indices: tuple) -> tuple[int, int, Type]:
        """Word range [start, end) of the field at `indices` inside a value of `ty`."""
        start = 0
        for index in indices:
            if isinstance(ty, StructT):
                start += sum(self.words(f) for f in ty.fields[:index])
                ty = ty.fields[index]
            elif isinstance(ty, ArrayT):
                start += index * self.words(ty.elem)
                ty = ty.elem
            else:
                raise self.error(f"cannot index into {ty}")
        return start, start + self.words(ty), ty

    def op_extractvalue(self, i: Instr) -> None:
        regs = self.get(i.ops[0])
        start, end, _ = self._field_range(i.ops[0].ty, i.indices)
        self.define(i, regs[start:end])

    def op_insertvalue(self, i: Instr) -> None:
        regs = list(self.get(i.ops[0]))
        start, end, _ = self._field_range(i.ops[0].ty, i.indices)
        regs[start:end] = self.get(i.ops[1])
        self.define(i, regs)
