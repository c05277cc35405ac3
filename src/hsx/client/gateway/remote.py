"""A task on a board, as hsx.debug's code sees a task: the task view (docs/debugger.md).

hsx.debug's stack walk, disassembler, inspector and symbol service read a task through
a few attributes, the task view (`hsx.debug.view.TaskView`): `task.pid/app_name/image/
ended/state`, and `task.ctx.pc/psw/regs/mem/layout/code_len/decoded`.  `RemoteTask` provides them for a
task on a device: registers from one `regs`, the code from the image the host loaded
(or `peek {space: code}`), and data memory read on demand in pages.

Reading is pure: a read of memory not fetched yet raises `NeedBytes`, and the gateway
fetches it (`peek`) and runs the computation again (`Gateway.computed`).  Writes (a
`set`) are recorded and sent as `poke`s once the computation is over.  The view is
kept while the task stays stopped; anything that may run it drops the view.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hsx.debug import DebugError
from hsx.image.model import HxeImage
from hsx.isa.encoding import decode_code
from hsx.kernel.states import TaskState
from hsx.vm.layout import Layout

PAGE = 256
REGISTER_WINDOW = 64
STOPPED = frozenset({"paused", "returned", "faulted", "killed"})


class NeedBytes(Exception):
    """A read of data memory that has not been fetched: [addr, addr + size)."""

    def __init__(self, addr: int, size: int) -> None:
        super().__init__(f"need 0x{addr:X}+{size}")
        self.addr, self.size = addr, size


class RemoteMemory:
    """A task's data memory as a bytearray-like object (`len`, slices) over pages
    fetched from the device; slice assignments are recorded as writes."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pages: dict[int, bytes] = {}
        self.writes: list[tuple[int, bytes]] = []

    def __len__(self) -> int:
        return self.size

    def fill(self, addr: int, data: bytes) -> None:
        """What a `peek` returned at `addr`: the pages it covers whole are kept."""
        first = -(-addr // PAGE) * PAGE
        for page in range(first, addr + len(data), PAGE):
            chunk = data[page - addr:page - addr + PAGE]
            if len(chunk) == min(PAGE, self.size - page):
                self.pages[page] = bytes(chunk)

    def __getitem__(self, key: Any) -> bytes:
        start, stop = self._bounds(key)
        out = bytearray()
        for page in range(start - start % PAGE, stop, PAGE):
            data = self.pages.get(page)
            if data is None:
                missing_end = page + PAGE
                while missing_end < stop and missing_end not in self.pages:
                    missing_end += PAGE
                raise NeedBytes(page, min(missing_end, self.size) - page)
            out += data
        base = start - start % PAGE
        return bytes(out[start - base:stop - base])

    def __setitem__(self, key: Any, data: bytes) -> None:
        start, stop = self._bounds(key)
        data = bytes(data)
        if len(data) != stop - start:
            raise DebugError("bad_argument", "a write must not change the memory's size")
        self.writes.append((start, data))
        for page in range(start - start % PAGE, stop, PAGE):
            if page in self.pages:
                old = bytearray(self.pages[page])
                lo, hi = max(start, page), min(stop, page + PAGE)
                old[lo - page:hi - page] = data[lo - start:hi - start]
                self.pages[page] = bytes(old)

    def _bounds(self, key: Any) -> tuple[int, int]:
        if not isinstance(key, slice) or key.step not in (None, 1):
            raise TypeError("remote memory is read in slices")
        start = 0 if key.start is None else max(0, min(key.start, self.size))
        stop = self.size if key.stop is None else max(start, min(key.stop, self.size))
        return start, stop


class RemoteRegisters(list):
    """R0..R15 as a list (with `tolist`, like the VM's word view); a register changed
    here is a write to the register window of data memory."""

    def __init__(self, values: list[int], memory: RemoteMemory, reg_base: int) -> None:
        super().__init__(values)
        self._memory, self._reg_base = memory, reg_base

    def tolist(self) -> list[int]:
        return list(self)

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value & 0xFFFFFFFF)
        addr = self._reg_base + 4 * index
        self._memory[addr:addr + 4] = (value & 0xFFFFFFFF).to_bytes(4, "little")


@dataclass
class RemoteContext:
    """The part of `hsx.vm.Context` the debugger reads."""

    image: HxeImage
    layout: Layout
    mem: RemoteMemory
    regs: RemoteRegisters
    decoded: list
    pc: int
    psw: int
    steps: int

    @property
    def code_len(self) -> int:
        return len(self.image.code)

    @property
    def skip_breakpoint(self) -> None:
        return None

    @skip_breakpoint.setter
    def skip_breakpoint(self, value: Any) -> None:
        """The device runs through a breakpoint at the PC by itself."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("pc", "psw") and name in self.__dict__:
            raise DebugError("unsupported", f"${name} cannot be changed on a board (it has no "
                             "command for it); change registers and memory instead")
        super().__setattr__(name, value)


@dataclass
class RemoteTask:
    """The part of `hsx.kernel.Task` the debugger reads, for a task on a device."""

    pid: int
    app_name: str
    image: HxeImage
    ctx: RemoteContext
    state: TaskState | None
    exit_status: int | None = None
    source: str | None = None          # the program file on this machine, if known
    symbols_path: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def base_name(self) -> str:
        return self.app_name.split("#", 1)[0]

    @property
    def ended(self) -> bool:
        return self.state is not None and self.state.ended

    @property
    def stopped(self) -> bool:
        return self.state is not None and self.state.value in STOPPED


def decode_image(image: HxeImage) -> list:
    """Each code word's instruction, as a task's `decoded` (a compact pair word gives a
    `Pair`, which hsx.debug's code map, stack walk and disassembly read as such)."""
    words = image.code_words
    return [decode_code(words, i) for i in range(len(words))]


def make_task(pid: int, registers: dict[str, Any], image: HxeImage, decoded: list,
              app_name: str, source: str | None) -> RemoteTask:
    """A view of task `pid` from its `regs` reply and its image."""
    reg_base = int(registers["reg_base"])
    mem_size = reg_base + REGISTER_WINDOW
    stack_base, stack_top = int(registers["stack_base"]), int(registers["stack_top"])
    try:
        layout = Layout.compute(mem_size, len(image.rodata), image.bss_size, stack_top - stack_base,
                                int(registers.get("args_size") or 0))
    except Exception:           # an image we only know the code of: the stack is what matters
        layout = Layout(mem_size, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000, stack_base - 16,
                        stack_base, stack_top, reg_base)
    memory = RemoteMemory(mem_size)
    regs = [int(r) for r in registers["regs"]]
    ctx = RemoteContext(image, layout, memory, RemoteRegisters(regs, memory, reg_base),
                        decoded, int(registers["pc"]), int(registers.get("psw") or 0),
                        int(registers.get("steps") or 0))
    state = registers.get("state")
    return RemoteTask(pid, app_name, image, ctx,
                      TaskState(state) if state in TaskState._value2member_map_ else None,
                      registers.get("exit_status"), source)
