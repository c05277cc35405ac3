"""Where things live in a task's data memory (docs/machine.md has the picture).

Computed once per context from the image and two sizes; every bound the machine checks
(null page, stack guards, register window) comes from here.
"""
from __future__ import annotations

from dataclasses import dataclass

from hsx.image.model import RODATA_BASE

from .errors import LoadError

NULL_PAGE_END = 0x100         # data accesses below this fault
REGISTER_WINDOW = 64          # R0..R15, 16 little-endian u32
GUARD = 16                    # bytes between the stack and its neighbours
DEFAULT_MEM_SIZE = 0x10000
DEFAULT_STACK_SIZE = 0x2000
MAX_MEM_SIZE = 1 << 32


def _align(value: int, to: int) -> int:
    return (value + to - 1) & -to


@dataclass(frozen=True)
class Region:
    """A named range of a task's address space (`Layout.regions`)."""

    name: str
    start: int
    end: int                  # exclusive

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class Layout:
    """The fixed map of one task's address space."""

    mem_size: int
    rodata_start: int
    rodata_end: int
    bss_start: int
    bss_end: int
    heap_start: int
    heap_end: int
    args_end: int             # the arguments block (argv and environment) is
                              # heap_end..args_end, empty when the task has none
    stack_base: int           # lowest legal SP
    stack_top: int            # initial SP; SP == stack_top means "empty stack"
    reg_base: int             # R0 at reg_base, R15 at reg_base + 60

    @classmethod
    def compute(cls, mem_size: int, ro_len: int, bss_size: int, stack_size: int,
                args_size: int = 0) -> Layout:
        """Lay out a task (with `args_size` bytes for its arguments block, below the
        stack's low guard); LoadError when the pieces do not fit in `mem_size`."""
        if not isinstance(mem_size, int) or mem_size % 16 or not 0 < mem_size <= MAX_MEM_SIZE:
            raise LoadError(f"mem_size must be a positive multiple of 16 up to 4 GiB, "
                            f"got {mem_size!r}")
        if not isinstance(stack_size, int) or stack_size <= 0 or stack_size % 4:
            raise LoadError(f"stack_size must be a positive multiple of 4, got {stack_size!r}")
        reg_base = mem_size - REGISTER_WINDOW
        stack_top = reg_base - GUARD
        stack_base = stack_top - stack_size
        args_end = stack_base - GUARD
        heap_end = args_end - args_size
        rodata_end = RODATA_BASE + ro_len
        bss_start = _align(rodata_end, 4)
        bss_end = bss_start + bss_size
        heap_start = _align(bss_end, 8)
        if heap_start > heap_end:
            args = f"the {args_size}-byte arguments, " if args_size else ""
            top = mem_size - heap_end
            raise LoadError(
                f"image does not fit in 0x{mem_size:X} bytes of memory: rodata and bss end "
                f"at 0x{bss_end:X}, and {args}the 0x{stack_size:X}-byte stack with its guards "
                f"and the register window take 0x{top:X} bytes above them: it needs at "
                f"least 0x{_align(heap_start + top, 16):X}")
        return cls(mem_size, RODATA_BASE, rodata_end, bss_start, bss_end, heap_start,
                   heap_end, args_end, stack_base, stack_top, reg_base)

    def regions(self) -> list[Region]:
        """Every named range of the address space, in address order, covering it all."""
        parts = [
            Region("null", 0, NULL_PAGE_END),
            Region("low", NULL_PAGE_END, self.rodata_start),
            Region("rodata", self.rodata_start, self.rodata_end),
            Region("pad", self.rodata_end, self.bss_start),
            Region("bss", self.bss_start, self.bss_end),
            Region("pad", self.bss_end, self.heap_start),
            Region("heap", self.heap_start, self.heap_end),
            Region("args", self.heap_end, self.args_end),
            Region("stack_guard_low", self.args_end, self.stack_base),
            Region("stack", self.stack_base, self.stack_top),
            Region("stack_guard_high", self.stack_top, self.reg_base),
            Region("registers", self.reg_base, self.mem_size),
        ]
        return [r for r in parts if r.end > r.start]
