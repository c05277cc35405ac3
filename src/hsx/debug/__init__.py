"""hsx.debug layer (DESIGN.md §1): breakpoints, run control, stack walks, symbolised
disassembly, symbols, memory, watches, trace and persisted debug state for the tasks of
one kernel.  The protocol handlers call `Debugger`; see docs/debugger.md.

    debugger = Debugger(kernel)                  # follows the kernel's tasks from now on
    bp = debugger.breakpoints.set(pid, "main", condition="R1 == 5")
    debugger.resume(pid); kernel.run(...)         # the task stops before main's first instruction
    debugger.stack_info(pid)["frames"]
"""
from .conditions import Condition, parse_condition
from .debugger import Debugger
from .errors import DebugError
from .trace import FORMAT as TRACE_FORMAT
from .trace import TraceFile, load_trace

__all__ = ["Condition", "DebugError", "Debugger", "TRACE_FORMAT", "TraceFile", "load_trace",
           "parse_condition"]
