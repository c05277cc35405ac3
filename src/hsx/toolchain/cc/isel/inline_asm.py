"""Inline assembly with HSX's register convention (docs/c-compiler.md, "SVCs and
inline assembly")."""
from __future__ import annotations

from ..mir import CALLER_SAVED, R
from ..naming import symbol_name
from ..ir import Instr
from .core import SelectorBase, int_bits


class InlineAsm(SelectorBase):
    """`call asm` instructions."""

    def _inline_asm(self, i: Instr, args: list) -> None:
        """HSX inline-asm convention (docs/c-compiler.md): the k-th output is in R(k)
        from R0 up, register inputs in R1..R5 in order (or tied to an output), `i`
        inputs are substituted as numbers; R0..R5 are clobbered."""
        template, constraints = i.asm
        outputs, inputs = [], []
        for part in constraints.split(","):
            part = part.strip()
            if not part or part.startswith("~"):
                continue
            if part.startswith("="):
                if "m" in part or "*" in part:
                    raise self.error("inline asm memory outputs are not supported", i)
                outputs.append(part)
            else:
                inputs.append(part)
        if len(outputs) > 6:
            raise self.error("inline asm with more than 6 outputs is not supported", i)
        operands: list[str] = [f"R{k}" for k in range(len(outputs))]
        uses: list = []
        next_reg = 1
        for text, arg in zip(inputs, args):
            if text.isdigit():
                preg = R[int(text)]
            elif text in ("i", "n"):
                imm = self.imm_of(arg, int_bits(arg.ty), True)
                if imm is None:
                    word = self.const_of(arg)
                    if word is None or word.symbol is None or word.minus is not None:
                        raise self.error("inline asm 'i' operand is not a constant", i)
                    operands.append(symbol_name(word.symbol) + (f"+{word.value}" if word.value
                                                                 else ""))
                    continue
                operands.append(str(imm))
                continue
            elif "r" in text:
                if next_reg > 5:
                    raise self.error("inline asm with more than 5 register inputs is not "
                                     "supported", i)
                preg = R[next_reg]
                next_reg += 1
            else:
                raise self.error(f"inline asm constraint '{text}' is not supported", i)
            self.mov(preg, self.get1(arg))
            uses.append(preg)
            operands.append(f"R{preg.n}")
        lines = _substitute_asm(template, operands)
        defs = [R[k] for k in range(len(outputs))]
        self.emit("asm", defs, uses, (lines,), clobbers=CALLER_SAVED)
        if outputs:
            out = []
            for preg in defs:
                d = self.new()
                self.mov(d, preg)
                out.append(d)
            self.define(i, out)


def _substitute_asm(template: str, operands: list[str]) -> tuple[str, ...]:
    """Replace `$N` / `${N}` / `${N:mod}` with operand text; `$$` is a dollar sign."""
    out = []
    k = 0
    while k < len(template):
        ch = template[k]
        if ch == "$" and k + 1 < len(template):
            nxt = template[k + 1]
            if nxt == "$":
                out.append("$")
                k += 2
                continue
            if nxt == "{":
                end = template.index("}", k)
                index = int(template[k + 2:end].split(":")[0])
                out.append(operands[index])
                k = end + 1
                continue
            if nxt.isdigit():
                j = k + 1
                while j < len(template) and template[j].isdigit():
                    j += 1
                out.append(operands[int(template[k + 1:j])])
                k = j
                continue
        out.append(ch)
        k += 1
    text = "".join(out)
    return tuple(line.strip() for line in text.split("\n") if line.strip())
