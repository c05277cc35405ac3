"""The BRK codes of compiled C (docs/c-compiler.md, "Traps"): who put each trap in the
code and why, so `hsx run` (and a debugger) can say what a program hit instead of a
bare "BRK n".  MVASM written by hand may use any code; these meanings hold for code the
C compiler and its runtime emit."""
from __future__ import annotations

from dataclasses import dataclass

BREAKPOINT = 0        # __builtin_debugtrap(): a breakpoint the program asks for
TRAP = 1              # __builtin_trap(), which abort() calls
UNDEFINED = 2         # clang's `unreachable` (code that runs only after undefined
                      # behaviour, or a __builtin_unreachable() reached) and its checks'
                      # traps (llvm.ubsantrap)
EXIT_RETURNED = 3     # crt0: exit() returned, which it cannot


@dataclass(frozen=True)
class Trap:
    what: str                  # what the program hit
    why: str                   # who put the trap there, and what to know about it
    undefined: bool = False    # clang inserted it: the program's behaviour is undefined


MEANINGS = {
    TRAP: Trap("abort() or __builtin_trap()", "the program stopped itself"),
    UNDEFINED: Trap("undefined behaviour",
                    "clang compiled code that can only go on after undefined behaviour "
                    "(a null pointer written or read, say) into a trap; -O0 keeps the "
                    "operation itself", undefined=True),
}
