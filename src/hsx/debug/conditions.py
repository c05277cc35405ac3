"""Breakpoint conditions: C expressions (hsx.debug.cexpr) evaluated in the stopped
frame, so a condition reads the variables people see (`n->value > 3 && counter`).

Parsed once when the breakpoint is set (syntax errors are reported then), evaluated at
each hit; the task stops when the value is non-zero. The register and raw-memory forms
conditions always had keep working (`R1 == 5`, `[counter] > 3`, `signed(R0) < 0`): a
label without a C type stands for its address.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import cexpr, cvalue
from . import errors as E
from .cexpr import REGISTER_NAMES, SPECIALS
from .cvalue import EvalError, Scope
from .errors import DebugError, quoted


class ConditionError(Exception):
    """Evaluation failed (memory out of range, unknown name, division by zero)."""


@dataclass(frozen=True)
class Condition:
    text: str
    expression: cexpr.Expression

    @property
    def symbols(self) -> frozenset[str]:
        """The names it uses that are not registers (checked when it is set)."""
        return frozenset(n for n in self.expression.names
                         if n.lower() not in REGISTER_NAMES and n.lower() not in SPECIALS)

    def holds(self, scope: Scope) -> bool:
        """True when the condition is non-zero; raises ConditionError."""
        try:
            return cvalue.truth(self.expression.evaluate(scope), scope)
        except EvalError as error:
            raise ConditionError(str(error)) from None


def parse_condition(text: str) -> Condition:
    if not isinstance(text, str) or not text.strip():
        raise DebugError(E.BAD_CONDITION, "a condition must be a non-empty string")
    try:
        return Condition(text.strip(), cexpr.parse(text.strip()))
    except EvalError as error:
        raise DebugError(E.BAD_CONDITION, f"condition {quoted(text.strip())}: {error}") from None
