"""The native engine: `Machine` semantics with the C core of port/c/ doing the work.

`NativeMachine` is a `Machine` whose contexts keep PC, PSW, the step count and the
breakpoint-resume address in the C task record (`NativeContext`), with task memory
shared with C (registers included: they live in that memory), so the kernel, SVC
handlers and the debugger read and write a task exactly as with the Python engine.
What the core reports (SVC, BRK, fault, breakpoint, return) becomes the same `Stop`,
`Fault` and state changes as in `Machine`. Tracing runs the Python reference
interpreter on the same state, one instruction at a time, as the Python engine does.
"""
from __future__ import annotations

import ctypes
from operator import attrgetter

from hsx.image.model import HxeImage
from hsx.isa import OPCODES

from ..context import Context, ContextState
from ..errors import FaultKind, MachineError
from ..layout import DEFAULT_MEM_SIZE, DEFAULT_STACK_SIZE, Layout
from ..machine import Machine
from ..signals import (GuestFault, divide_fault, illegal_fault, literal_fault, memory_fault,
                       off_end_fault, pc_fault, sp_fault, stack_fault)
from ..stop import Stop, StopReason
from .build import BuildError, find_or_build

ABI = 8
NO_SKIP = 0xFFFFFFFF
MAX_BUDGET = 0xFFFFFFFF

# enum hsx_stop
_BUDGET, _RETURNED, _FAULT, _BRK, _BREAKPOINT, _SVC = range(6)
_READY = ContextState.READY


class Insn(ctypes.Structure):
    _fields_ = [("imm", ctypes.c_uint32), ("target", ctypes.c_uint32),
                ("link", ctypes.c_int32), ("handler", ctypes.c_uint16), ("saved", ctypes.c_uint16),
                ("opcode", ctypes.c_uint8), ("flags", ctypes.c_uint8),
                ("rd", ctypes.c_uint8), ("rs1", ctypes.c_uint8), ("rs2", ctypes.c_uint8),
                ("size", ctypes.c_uint8), ("first_code", ctypes.c_uint8),
                ("second_handler", ctypes.c_uint8), ("first_imm", ctypes.c_uint32),
                ("first_opcode", ctypes.c_uint8), ("first_rd", ctypes.c_uint8),
                ("first_rs1", ctypes.c_uint8), ("first_rs2", ctypes.c_uint8)]


class Task(ctypes.Structure):
    _fields_ = [("mem", ctypes.c_void_p), ("mem_size", ctypes.c_uint64),
                ("code", ctypes.c_void_p), ("code_bytes", ctypes.c_void_p),
                ("breakpoints", ctypes.c_void_p), ("code_len", ctypes.c_uint32),
                ("reg_base", ctypes.c_uint32), ("stack_base", ctypes.c_uint32),
                ("stack_top", ctypes.c_uint32), ("pc", ctypes.c_uint32),
                ("psw", ctypes.c_uint32), ("steps", ctypes.c_uint64),
                ("skip_breakpoint", ctypes.c_uint32), ("stop_pc", ctypes.c_uint32),
                ("executed", ctypes.c_uint32), ("brk_code", ctypes.c_uint32),
                ("svc_module", ctypes.c_uint32), ("svc_function", ctypes.c_uint32),
                ("fault", ctypes.c_uint32), ("fault_detail", ctypes.c_uint32),
                ("fault_addr", ctypes.c_int64)]


def _open(variant: str = "") -> ctypes.CDLL:
    lib = ctypes.CDLL(str(find_or_build(variant)))
    for name in ("hsx_abi", "hsx_sizeof_task", "hsx_sizeof_insn"):
        getattr(lib, name).restype = ctypes.c_uint32
    if lib.hsx_abi() != ABI or lib.hsx_sizeof_task() != ctypes.sizeof(Task) \
            or lib.hsx_sizeof_insn() != ctypes.sizeof(Insn):
        raise BuildError("the library does not match this version of hsx (ABI or "
                         "struct sizes differ)")
    task_p = ctypes.POINTER(Task)
    lib.hsx_decode.argtypes = [ctypes.c_char_p, ctypes.c_uint32, ctypes.c_void_p]
    lib.hsx_run.argtypes = [task_p, ctypes.c_uint32]
    lib.hsx_run_interleaved.argtypes = [ctypes.POINTER(task_p), ctypes.c_uint32,
                                        ctypes.c_uint32, ctypes.POINTER(ctypes.c_int32)]
    lib.hsx_run_interleaved.restype = ctypes.c_uint32
    lib.hsx_breakpoint.argtypes = [task_p, ctypes.c_uint32, ctypes.c_int]
    lib.hsx_implements.argtypes = [ctypes.c_uint32]
    missing = [op.mnemonic for op in OPCODES if not lib.hsx_implements(op.code)]
    if missing:
        raise BuildError(f"the native core does not implement {', '.join(missing)}")
    return lib


_LIBRARIES: dict[str, ctypes.CDLL | str] = {}     # variant -> library, or why not


def library(variant: str = "") -> ctypes.CDLL | None:
    """The loaded core, building it on first use; None when it cannot be had here.
    `variant` "fetch" is the microcontrollers' build (decode at fetch), for tests."""
    if variant not in _LIBRARIES:
        try:
            _LIBRARIES[variant] = _open(variant)
        except (BuildError, OSError) as error:
            _LIBRARIES[variant] = str(error)
    found = _LIBRARIES[variant]
    return None if isinstance(found, str) else found


def unavailable_reason(variant: str = "") -> str | None:
    """Why the native engine cannot run here (None: it can)."""
    return None if library(variant) is not None else str(_LIBRARIES[variant])


class NativeContext(Context):
    """A context whose PC, PSW, step count and breakpoint-resume address live in the C
    task record, and whose decoded code is the C core's."""

    __slots__ = ("task", "task_ref", "insns", "_code", "_breakpoint_bits", "_mem_view")

    def __init__(self, image: HxeImage, layout: Layout, lib: ctypes.CDLL) -> None:
        self.task = Task()
        self.task_ref = ctypes.pointer(self.task)
        super().__init__(image, layout)
        self._code = code = bytes(image.code)
        # Zeroed records: the core decodes each when it first runs (hsx_vm.h), and pages
        # of the array that no running code touches are never made resident.
        self.insns = (Insn * (len(code) // 4 + 1))()
        self._breakpoint_bits = (ctypes.c_uint8 * (len(code) // 32 + 1))()
        self._mem_view = (ctypes.c_uint8 * len(self.mem)).from_buffer(self.mem)
        task = self.task
        task.mem = ctypes.addressof(self._mem_view)
        task.mem_size = layout.mem_size
        task.code = ctypes.addressof(self.insns)
        task.code_bytes = ctypes.cast(ctypes.c_char_p(code), ctypes.c_void_p)
        task.breakpoints = ctypes.addressof(self._breakpoint_bits)
        task.code_len = self.code_len
        task.reg_base, task.stack_base = layout.reg_base, layout.stack_base
        task.stack_top = layout.stack_top

    pc = property(lambda self: self.task.pc,
                  lambda self, value: setattr(self.task, "pc", value))
    psw = property(lambda self: self.task.psw,
                   lambda self, value: setattr(self.task, "psw", value))
    steps = property(lambda self: self.task.steps,
                     lambda self, value: setattr(self.task, "steps", value))
    step_counter = property(attrgetter("task"))     # its `steps`, without the property

    @property
    def skip_breakpoint(self) -> int | None:
        skip = self.task.skip_breakpoint
        return None if skip == NO_SKIP else skip

    @skip_breakpoint.setter
    def skip_breakpoint(self, value: int | None) -> None:
        self.task.skip_breakpoint = NO_SKIP if value is None else value


class NativeMachine(Machine):
    """A Machine running contexts on the C core (see the module docstring)."""

    engine = "native"

    def __init__(self, *args, variant: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        lib = library(variant)
        if lib is None:
            raise MachineError("the native engine is not available: "
                               f"{unavailable_reason(variant)}")
        self._lib = lib
        # hsx_run without argtypes: ctypes passes the task pointer as it is and the budget
        # as a C int masked to its 32 bits (the core's uint32_t), with no conversion
        # objects -- 0.3 instead of 0.8 us a call, and a task returns here at every SVC.
        self._run_task = lib["hsx_run"]

    def create_context(self, image: HxeImage, *, mem_size: int = DEFAULT_MEM_SIZE,
                       stack_size: int = DEFAULT_STACK_SIZE, args_size: int = 0) -> NativeContext:
        layout = Layout.compute(mem_size, len(image.rodata), image.bss_size, stack_size,
                                args_size)
        ctx = NativeContext(image, layout, self._lib)
        self._attach_tables(ctx)
        return ctx

    # --- execution ---

    def run_plain(self, ctx: NativeContext, budget: int) -> Stop:
        if ctx.state is not _READY:
            self._check_ready(ctx)
        if budget <= 0:
            return Stop(StopReason.BUDGET, 0, ctx.pc)
        if ctx.trace is not None:
            return self._run_traced(ctx, budget, ctx.itab)
        return self._native(ctx, budget)

    def step_plain(self, ctx: NativeContext) -> Stop:
        self._check_ready(ctx)
        if ctx.trace is not None:
            return self._run_traced(ctx, 1, ctx.ops)
        ctx.task.skip_breakpoint = ctx.task.pc     # a debugger's step ignores a breakpoint
        return self._native(ctx, 1)

    def _native(self, ctx: NativeContext, budget: int) -> Stop:
        task, ref, run = ctx.task, ctx.task_ref, self._run_task
        executed = 0
        while True:
            reason = run(ref, min(budget - executed, MAX_BUDGET))
            executed += task.executed
            if reason == _BUDGET:
                if executed < budget:
                    continue
                return Stop(StopReason.BUDGET, executed, task.pc)
            pc = task.stop_pc
            if reason == _SVC:
                try:
                    request = self.svc(ctx, task.svc_module, task.svc_function)
                except GuestFault as fault:        # un-retire the SVC
                    task.pc = pc
                    task.steps -= 1
                    return self._fault(ctx, fault, pc, ctx.steps - executed + 1, executed - 1)
                if request is not None:
                    return self._svc_stop(ctx, request, pc, executed)
                if executed >= budget:
                    return Stop(StopReason.BUDGET, executed, task.pc)
                continue
            if reason == _BREAKPOINT:
                return Stop(StopReason.BREAKPOINT, executed, pc)
            if reason == _BRK:
                return Stop(StopReason.BRK, executed, pc, code=task.brk_code)
            if reason == _RETURNED:
                ctx.state, ctx.exit_status = ContextState.RETURNED, ctx.regs[0]
                return Stop(StopReason.RETURNED, executed, pc, status=ctx.exit_status)
            fault = self._guest_fault(ctx)
            return self._fault(ctx, fault, fault.pc, ctx.steps - executed, executed)

    def run_interleaved(self, contexts: list[NativeContext], rounds: int) -> tuple[int, int]:
        refs = (ctypes.POINTER(Task) * len(contexts))(*(ctx.task_ref for ctx in contexts))
        stopped = ctypes.c_int32()
        done = 0
        while True:             # the core counts rounds in 32 bits
            chunk = min(rounds - done, MAX_BUDGET)
            done += self._lib.hsx_run_interleaved(refs, len(contexts), chunk,
                                                  ctypes.byref(stopped))
            if stopped.value >= 0 or done >= rounds:
                return done, stopped.value

    @staticmethod
    def _guest_fault(ctx: NativeContext) -> GuestFault:
        """The GuestFault the Python engine raises for the fault the core recorded."""
        task, lay = ctx.task, ctx.layout
        pc, addr, kind = task.stop_pc, task.fault_addr, task.fault
        if kind == 1:
            return memory_fault(pc, addr, task.fault_detail, lay.mem_size)
        if kind == 2:
            return stack_fault(pc, addr, lay.stack_base, lay.stack_top)
        if kind == 3:
            return sp_fault(pc, addr, lay.stack_base, lay.stack_top)
        if kind == 4:
            return pc_fault(pc, addr, ctx.code_len)
        if kind == 5:
            return divide_fault(pc)
        if kind == 6:
            return illegal_fault(pc, task.fault_detail)
        if kind == 7:
            return literal_fault(pc, ctx.code_len)
        if kind == 8:
            return off_end_fault(ctx.code_len)
        return GuestFault(FaultKind.ILLEGAL_OPCODE, pc, None,
                          f"the native core reported an unknown fault {kind}")

    # --- breakpoints ---

    def add_breakpoint(self, ctx: NativeContext, addr: int) -> None:
        super().add_breakpoint(ctx, addr)
        self._lib.hsx_breakpoint(ctx.task_ref, addr, 1)

    def remove_breakpoint(self, ctx: NativeContext, addr: int) -> None:
        super().remove_breakpoint(ctx, addr)
        self._lib.hsx_breakpoint(ctx.task_ref, addr, 0)


__all__ = ["NativeContext", "NativeMachine", "library", "unavailable_reason"]
