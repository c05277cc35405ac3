"""Debug facts of a compiled module (-g): where functions and globals are declared.

Filled in from the DWARF-like metadata clang puts in the IR."""
from __future__ import annotations

from .mir import MFunction
from .naming import symbol_name
from .reader import Function, Module


class DebugCollector:
    def __init__(self, module: Module) -> None:
        self.module = module
        self.declarations: dict[str, tuple[str, int]] = {}

    def function(self, fn: Function, mf: MFunction) -> None:
        if fn.loc is not None:
            mf.debug["decl_loc"] = fn.loc           # the prologue's line
            line = fn.subprogram.fields.get("line") or fn.loc.line
            self.declarations[mf.symbol] = (fn.loc.file, int(line))

    def placed(self, mf: MFunction, start: int, end: int) -> None:
        pass

    def finish(self) -> dict:
        return {"declarations": self.declarations}
