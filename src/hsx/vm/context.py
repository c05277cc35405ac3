"""One task's machine state: its address space, register window and run bookkeeping.

A context owns everything that differs between tasks, including its pre-decoded and
translated code tables, so switching tasks is passing a different `Context` to
`Machine.run`: nothing is copied and the cost does not depend on memory size or on how
many contexts exist.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable

from hsx.image.model import HxeImage
from hsx.isa import Instruction, Pair, decode

from .errors import Fault, LoadError
from .layout import REGISTER_WINDOW, Layout
from .signals import memory_fault
from .words import word_view


class ContextState(str, Enum):
    READY = "ready"              # can run
    EXITED = "exited"            # SVC EXIT
    RETURNED = "returned"        # RET from the entry frame
    FAULTED = "faulted"          # see `fault`

    def __str__(self) -> str:
        return self.value


class DecodedCode(Sequence):
    """The instruction at each code word (a `Pair` for a compact pair word, None for an
    illegal one), decoded when first asked for: creating a task for a large image costs
    nothing for code it never runs or shows."""

    __slots__ = ("_code", "_cache")

    _UNREAD = object()

    def __init__(self, code: bytes) -> None:
        self._code = code
        self._cache: list = [self._UNREAD] * (len(code) // 4)

    def __len__(self) -> int:
        return len(self._cache)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        ins = self._cache[index]
        if ins is self._UNREAD:
            index %= len(self._cache)
            pair = self._code[4 * index:4 * index + 8]        # the word and LDI32's literal
            ins = self._cache[index] = decode(int.from_bytes(pair[:4], "big"),
                                              int.from_bytes(pair[4:], "big"))
        return ins


@dataclass(frozen=True)
class SavedContext:
    """A task's architectural state as `Machine.save_context` took it, for
    `Machine.restore_context` to put back: the executive borrows a task (to run a
    command's handler in it) and returns it exactly as it was.  The step count is not
    part of it: instructions a task ran stay counted."""

    registers: tuple[int, ...]
    pc: int
    psw: int
    state: "ContextState"
    exit_status: int | None
    fault: Fault | None
    skip_breakpoint: int | None


class Context:
    """Architectural state of one task plus the machine's per-task caches.

    `regs` is a live view of R0..R15 *in* `mem` at `layout.reg_base`: writing
    `regs[1]` changes memory and a store into the window changes the register.
    """

    __slots__ = (
        "image", "layout", "mem", "regs", "words", "code_len", "decoded",
        "pc", "psw", "steps", "state", "exit_status", "fault",
        "ops", "itab", "btab", "blocks", "warmth", "breakpoints", "skip_breakpoint", "trace",
        "history",
    )

    @property
    def step_counter(self) -> Any:
        """What holds `steps` as a plain attribute (here the context itself; the native
        engine's task struct): read by a timeline recorder inside system calls, where
        a property's two Python calls would be the dear part."""
        return self

    def __init__(self, image: HxeImage, layout: Layout) -> None:
        code_len = len(image.code)
        if code_len == 0 or code_len % 4:
            raise LoadError(f"code length {code_len} is not a positive multiple of 4")
        if image.entry % 4 or not 0 <= image.entry < code_len:
            raise LoadError(f"entry 0x{image.entry:X} is not an instruction in the code")
        self.image = image
        self.layout = layout
        self.code_len = code_len
        mem = bytearray(layout.mem_size)
        mem[layout.rodata_start:layout.rodata_end] = image.rodata
        self.mem = mem
        self.words = word_view(mem, 0, layout.mem_size // 4)
        self.regs = word_view(mem, layout.reg_base, REGISTER_WINDOW // 4)
        self.regs[15] = layout.stack_top
        # decoded[i]: the instruction at byte address 4*i (a Pair: both operations of a
        # compact pair word; None: an illegal word).
        self.decoded: Sequence[Instruction | Pair | None] = DecodedCode(image.code)
        self.pc = image.entry
        self.psw = 0
        self.steps = 0
        self.state = ContextState.READY
        self.exit_status: int | None = None
        self.fault: Fault | None = None
        # Filled by the machine: pristine interpreter closures (one per word, built when
        # the word first runs, plus the fall-off-the-end sentinel), the dispatch tables
        # breakpoints patch, and the translated blocks {entry pc: code addresses they
        # cover}.
        self.ops: list[Callable[[], int]] = []
        self.itab: list[Callable[[], int]] = []
        self.btab: list[Callable[[int], tuple[int, int]]] = []
        self.blocks: dict[int, frozenset[int]] = {}
        self.warmth: dict[int, int] = {}          # arrivals still to go before translating
        self.breakpoints: set[int] = set()
        self.skip_breakpoint: int | None = None   # resume from this PC without re-hitting
        self.trace: deque | None = None           # TraceRecord ring buffer when tracing
        # A run interceptor (`run(ctx, budget)`, `step(ctx)`) while a debugger records the
        # task for reverse execution (hsx.debug.history); None otherwise.
        self.history = None

    # --- guest memory as SVC handlers see it: bounds-checked like loads and stores ---

    def check_guest_range(self, addr: int, length: int) -> None:
        """Raise a memory fault (pc filled in by the machine) unless the guest may access
        `length` bytes at `addr`."""
        if length <= 0:
            return
        if addr < 0x100 or addr + length > self.layout.mem_size:
            raise memory_fault(None, addr, length, self.layout.mem_size)

    def guest_read(self, addr: int, length: int) -> bytes:
        self.check_guest_range(addr, length)
        return bytes(self.mem[addr:addr + length])

    def guest_write(self, addr: int, data: bytes) -> None:
        self.check_guest_range(addr, len(data))
        self.mem[addr:addr + len(data)] = data

    def __repr__(self) -> str:
        name = self.image.app_name or "?"
        return f"<Context {name} pc=0x{self.pc:04X} {self.state.value} steps={self.steps}>"
