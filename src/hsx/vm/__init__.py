"""hsx.vm layer (DESIGN.md §1, §3): one machine running task contexts.

    machine = Machine()                        # standalone SVCs; or Machine(handler)
    ctx = machine.create_context(image)        # image: hsx.image.model.HxeImage
    stop = machine.run(ctx, 10_000)            # -> Stop(reason, executed, pc, ...)

See docs/machine.md for the memory layout, the fault model and the interface.
`MemoryAccess` and `TraceRecord` are imported on first use: only a traced run builds them.
"""
from hsx.lazy import lazy_exports

from .context import Context, ContextState, SavedContext
from .errors import Fault, FaultKind, LoadError, MachineError
from .layout import Layout, Region
from .machine import Machine
from .stop import Stop, StopReason, SvcStop
from .svc import StandaloneSvc, SvcHandler

__getattr__, __dir__, _ = lazy_exports(__name__, {".trace": ("MemoryAccess", "TraceRecord")})

__all__ = [
    "Context", "ContextState", "Fault", "FaultKind", "Layout", "LoadError", "Machine",
    "MachineError", "MemoryAccess", "Region", "SavedContext", "StandaloneSvc", "Stop",
    "StopReason", "SvcHandler", "SvcStop", "TraceRecord",
]
