"""DWARF expressions of computed variable locations: a variable kept as a function of
another value (`c = b * 3` as `b` and `DW_OP_constu 3, DW_OP_mul`), as -O2 builds
describe them (hsx.toolchain.cc.debuglocs), evaluated on 32-bit words."""
from __future__ import annotations

from . import ctype as C
from .cvalue import EvalError

_DWARF_BINARY = {
    "DW_OP_plus": lambda a, b: a + b, "DW_OP_minus": lambda a, b: a - b,
    "DW_OP_mul": lambda a, b: a * b, "DW_OP_and": lambda a, b: a & b,
    "DW_OP_or": lambda a, b: a | b, "DW_OP_xor": lambda a, b: a ^ b,
    "DW_OP_shl": lambda a, b: a << (b & 31), "DW_OP_shr": lambda a, b: a >> (b & 31),
    "DW_OP_shra": lambda a, b: C.decode(C.INT, a.to_bytes(4, "little")) >> (b & 31),
    "DW_OP_div": lambda a, b: _signed_div(a, b), "DW_OP_mod": lambda a, b: a % b if b else 0,
}


def _signed_div(a: int, b: int) -> int:
    sa, sb = (C.decode(C.INT, v.to_bytes(4, "little")) for v in (a, b))
    return 0 if sb == 0 else abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)


def compute(ops: list, value: int) -> int:
    """Apply the DWARF operations of a computed location (hsx.toolchain.cc.debuglocs)
    to the 32-bit `value`: the variable's value, as 32 bits."""
    stack, k = [value], 0
    while k < len(ops):
        op = ops[k]
        try:
            if op in ("DW_OP_constu", "DW_OP_consts"):
                stack.append(int(ops[k + 1]))
                k += 1
            elif op == "DW_OP_plus_uconst":
                stack.append(stack.pop() + int(ops[k + 1]))
                k += 1
            elif op in _DWARF_BINARY:
                b, a = stack.pop(), stack.pop()
                stack.append(_DWARF_BINARY[op](a, b))
            elif op == "DW_OP_neg":
                stack.append(-stack.pop())
            elif op == "DW_OP_not":
                stack.append(~stack.pop())
            elif op == "DW_OP_dup":
                stack.append(stack[-1])
            elif op == "DW_OP_swap":
                stack[-1], stack[-2] = stack[-2], stack[-1]
            elif op == "DW_OP_drop":
                stack.pop()
            else:
                raise EvalError(f"the location uses {op}, which this debugger cannot compute")
            stack[-1] &= 0xFFFFFFFF
        except (IndexError, ValueError):
            raise EvalError("a computed location is malformed") from None
        k += 1
    if not stack:
        raise EvalError("a computed location is malformed")
    return stack[-1]
