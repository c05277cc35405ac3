"""hsx.vm layer (DESIGN.md §1, §3): one machine running task contexts.

    machine = Machine()                        # standalone SVCs; or Machine(handler)
    ctx = machine.create_context(image)        # image: hsx.image.model.HxeImage
    stop = machine.run(ctx, 10_000)            # -> Stop(reason, executed, pc, ...)

See docs/machine.md for the memory layout, the fault model and the interface.
"""
from .context import Context, ContextState, SavedContext
from .errors import Fault, FaultKind, LoadError, MachineError
from .layout import Layout, Region
from .machine import Machine
from .stop import Stop, StopReason, SvcStop
from .svc import StandaloneSvc, SvcHandler
from .trace import MemoryAccess, TraceRecord

__all__ = [
    "Context", "ContextState", "Fault", "FaultKind", "Layout", "LoadError", "Machine",
    "MachineError", "MemoryAccess", "Region", "SavedContext", "StandaloneSvc", "Stop",
    "StopReason", "SvcHandler", "SvcStop", "TraceRecord",
]
