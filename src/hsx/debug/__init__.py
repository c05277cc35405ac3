"""hsx.debug layer (DESIGN.md §1): breakpoints, run control, stack walks, symbolised
disassembly, symbols, memory, watches, trace and persisted debug state for the tasks of
one kernel.  The protocol handlers call `Debugger`; see docs/debugger.md.

    debugger = Debugger(kernel)                  # follows the kernel's tasks from now on
    bp = debugger.breakpoints.set(pid, "main", condition="R1 == 5")
    debugger.resume(pid); kernel.run(...)         # the task stops before main's first instruction
    debugger.stack_info(pid)["frames"]
"""
from hsx.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".conditions": ("Condition", "parse_condition"),
    ".debugger": ("Debugger",),
    ".errors": ("DebugError",),
    ".trace": ("TraceFile", "load_trace"),
})
