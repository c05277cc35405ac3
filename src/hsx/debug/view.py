"""The task view: what the debugger's reading code needs of a task, and all it needs.

The stack walk, the unwinder, the disassembler, the inspector (variables, expressions,
`set`) and the symbol service read a task only through these attributes.  The
executive's `Task` and `hsx.vm.Context` have them; so does the client gateway's view of
a task on a board (`hsx.client.gateway.remote`), which fetches registers and memory
over the link as they are read — the same code serves both.
"""
from __future__ import annotations

from typing import Any, Protocol, Sequence

from hsx.image.model import HxeImage
from hsx.vm.layout import Layout


class ContextView(Protocol):
    image: HxeImage              # the code (big-endian words), rodata, entry, metadata
    layout: Layout               # stack bounds, register window, regions
    decoded: Sequence[Any]       # the instruction at each code word (None: not one)
    pc: int
    psw: int
    steps: int

    @property
    def code_len(self) -> int: ...

    @property
    def regs(self) -> Any: ...   # R0..R15: index, assign, tolist()

    @property
    def mem(self) -> Any: ...    # data memory: len(), slices, slice assignment


class TaskView(Protocol):
    pid: int
    app_name: str
    image: HxeImage
    ctx: ContextView
    state: Any                   # hsx.kernel.states.TaskState (None before it starts)
    source: str | None           # the program's file, where sources are looked for
    symbols_path: Any

    @property
    def base_name(self) -> str: ...

    @property
    def ended(self) -> bool: ...
