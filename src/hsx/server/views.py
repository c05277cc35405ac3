"""JSON views of kernel objects that several command groups report the same way."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hsx.kernel.executive import Kernel
from hsx.kernel.task import Task

if TYPE_CHECKING:
    from .context import ServerContext

_FLAG_NAMES = (("Z", 1), ("C", 2), ("N", 4), ("V", 8))


def task_row(server: ServerContext, task: Task) -> dict[str, Any]:
    """A `ps` row plus who owns the PID (the owner's public handle)."""
    row = task.summary()
    owner = server.sessions.owner(task.pid)
    row["locked_by"] = owner.handle if owner is not None else None
    return row


def current_pid(kernel: Kernel) -> int | None:
    """The PID that ran last (the newest scheduler switch)."""
    trace = kernel.scheduler_trace
    return trace[-1][1] if trace else None


def scheduler_trace(kernel: Kernel, limit: int) -> list[dict[str, Any]]:
    entries = list(kernel.scheduler_trace)[-limit:] if limit else []
    return [{"from": prev, "to": pid, "instructions": count} for prev, pid, count in entries]


def registers(task: Task) -> dict[str, Any]:
    ctx, layout = task.ctx, task.ctx.layout
    psw = ctx.psw
    return {
        "pid": task.pid, "pc": ctx.pc, "psw": psw,
        "flags": "".join(name for name, bit in _FLAG_NAMES if psw & bit),
        "sp": ctx.regs[15], "regs": ctx.regs.tolist(), "steps": ctx.steps,
        "state": task.state.value if task.state else None, "exit_status": task.exit_status,
        "reg_base": layout.reg_base, "stack_base": layout.stack_base,
        "stack_top": layout.stack_top, "stack_size": layout.stack_top - layout.stack_base,
        "args_size": layout.args_end - layout.heap_end,
    }


def image_view(task: Task) -> dict[str, Any]:
    image = task.image
    meta = image.metadata
    return {
        "pid": task.pid, "app_name": task.app_name, "app_name_base": task.base_name,
        "program": task.source, "entry": image.entry, "code_len": len(image.code),
        "ro_len": len(image.rodata), "bss": image.bss_size, "version": image.version,
        "flags": image.flags, "req_caps": image.req_caps,
        "allow_multiple_instances": image.allow_multiple_instances,
        "metadata": {"values": len(meta.values), "commands": len(meta.commands),
                     "mailboxes": len(meta.mailboxes)},
        "symbols": str(task.symbols_path) if task.symbols_path else None,
    }
