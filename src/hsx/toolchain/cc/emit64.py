"""MVASM for the 64-bit integer pseudo-instructions on register pairs (the emitter's
part for them, emit.py): `add64`/`sub64`/`add64i` (ADD/ADC, SUB/SBC, ADDI/ADC), `setcc64` (0 or 1 from a
64-bit compare) and `cbr64` (a 64-bit compare and branch: the high words decide unless
they are equal, then the low words, always unsigned).  A compare's second operand words
may be immediates (CMPI)."""
from __future__ import annotations

from .mir import CONDITIONS

# For an order: the condition on the high words that decides it ("strictly"), and the
# one on the low words when the high words are equal.
_HIGH = {"slt": "slt", "sle": "slt", "sgt": "sgt", "sge": "sgt",
         "ult": "ult", "ule": "ult", "ugt": "ugt", "uge": "ugt"}
_LOW = {"slt": "ult", "ult": "ult", "sle": "ule", "ule": "ule",
        "sgt": "ugt", "ugt": "ugt", "sge": "uge", "uge": "uge"}


class Emit64:
    """64-bit integer instructions of FunctionEmitter."""

    def i_add64(self, inst, nxt):
        self._pair(inst, "ADD", "ADC")

    def i_sub64(self, inst, nxt):
        self._pair(inst, "SUB", "SBC")

    def i_add64i(self, inst, nxt):
        """A constant whose low word fits 12 bits: ADDI sets the carry as ADD does."""
        dlo, dhi = inst.defs
        alo, ahi, bhi = inst.uses
        self.ins("ADDI", dlo, alo, inst.args[0])
        self.ins("ADC", dhi, ahi, bhi)

    def _pair(self, inst, low: str, high: str) -> None:
        dlo, dhi = inst.defs
        alo, ahi, blo, bhi = inst.uses
        self.ins(low, dlo, alo, blo)
        self.ins(high, dhi, ahi, bhi)

    def _cmp_word(self, a, b) -> None:
        if isinstance(b, int):
            self.ins("CMPI", a, b)
        else:
            self.ins("CMP", a, b)

    def _branch(self, cond: str, label: str) -> None:
        self.ins(CONDITIONS[cond][0], label)

    def _compare64(self, cond: str, a: list, b: list, true: str, false: str,
                   fall: str | None) -> None:
        """Branch to `true` when `a cond b`, else to `false`; `fall` is whichever of the
        two comes next (no branch needed to it), or None."""
        (alo, ahi), (blo, bhi) = a, b
        self._cmp_word(ahi, bhi)
        if cond == "eq":
            self._branch("ne", false)
        elif cond == "ne":
            self._branch("ne", true)
        else:
            self._branch(_HIGH[cond], true)
            self._branch("ne", false)
        self._cmp_word(alo, blo)
        low = cond if cond in ("eq", "ne") else _LOW[cond]
        if fall == true:
            self._branch(CONDITIONS[low][1], false)
            return
        self._branch(low, true)
        if fall != false:
            self.ins("BR", false)

    def i_cbr64(self, inst, nxt):
        cond, blo, bhi, t, f = inst.args
        t, f = self.thread(t), self.thread(f)
        rest = iter(inst.uses[2:])
        b = [next(rest) if blo is None else blo, next(rest) if bhi is None else bhi]
        if t is not nxt and f is not nxt and self.prefer_false(t, f):
            cond, t, f = CONDITIONS[cond][1], f, t
        fall = t.label if t is nxt else f.label if f is nxt else None
        self._compare64(cond, inst.uses[:2], b, t.label, f.label, fall)

    def i_setcc64(self, inst, nxt):
        d = inst.defs[0]
        true, false, end = self.label(), self.label(), self.label()
        self._compare64(inst.args[0], inst.uses[:2], inst.uses[2:], true, false, false)
        self.out.label(false)
        self.ins("LDI", d, 0)
        self.ins("BR", end)
        self.out.label(true)
        self.ins("LDI", d, 1)
        self.out.label(end)
