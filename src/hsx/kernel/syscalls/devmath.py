"""Module 0x0E: a few math functions on f16 for apps without a math library."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

from hsx.isa.f16 import f16_to_float, float_to_f16
from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import SvcStop

if TYPE_CHECKING:
    from hsx.kernel.task import Task


def _periodic(fn: Callable[[float], float]) -> Callable[[float], float]:
    return lambda x: math.nan if math.isinf(x) or math.isnan(x) else fn(x)


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _sqrt(x: float) -> float:
    return math.nan if x < 0 else math.sqrt(x)


def _log(x: float) -> float:
    if x == 0:
        return -math.inf
    return math.nan if x < 0 else math.log(x)


FUNCTIONS: dict[int, Callable[[float], float]] = {
    0x00: _periodic(math.sin), 0x01: _periodic(math.cos), 0x02: _exp, 0x03: _sqrt, 0x04: _log,
}


class DevMathModule:
    """R1 low 16 bits in (f16), R0 low 16 bits out; the upper half of R0 is kept."""

    number = 0x0E

    def call(self, task: "Task", function: int) -> SvcStop | None:
        regs = task.ctx.regs
        fn = FUNCTIONS.get(function)
        if fn is None:
            regs[0] = HSX_ERR_ENOSYS
        else:
            regs[0] = (regs[0] & 0xFFFF0000) | float_to_f16(fn(f16_to_float(regs[1])))
        return None
