"""What `hsx run` says when a task faults or the tasks are stuck: where (function,
`file:line`, a backtrace when symbols exist) and why (what each stuck task waits for)."""
from __future__ import annotations

from hsx.debug.code import CodeMap
from hsx.debug.stack import walk
from hsx.debug.symbols import code_place
from hsx.image.sym import SymbolTable
from hsx.kernel.executive import Kernel
from hsx.kernel.states import TaskState
from hsx.kernel.task import MailboxWait, SendWait, SleepWait, Task

MAX_FRAMES = 16


def fault_report(task: Task, symbols: SymbolTable | None) -> list[str]:
    """`fault: …` with the task, then one line per frame when there are symbols."""
    fault = task.fault
    lines = [f"{task.app_name} (pid {task.pid}): {fault.describe()}"]
    if symbols is None:
        lines.append("  (no symbols: build with `hsx cc -g` or keep the .sym beside the "
                     ".hxe for function names and source lines)")
        return lines
    ctx = task.ctx
    code = CodeMap(ctx.decoded, ctx.code_len, task.image.entry, symbols)
    saved_pc = ctx.pc
    ctx.pc = fault.pc                       # the walk starts at the faulting instruction
    try:
        stack = walk(ctx, code, lambda pc: code_place(code, symbols, pc), MAX_FRAMES)
    finally:
        ctx.pc = saved_pc
    for frame in stack["frames"]:
        where = f" at {frame['file']}:{frame['line']}" if frame.get("file") else ""
        name = frame.get("function") or "??"
        lines.append(f"  #{frame['index']} 0x{frame['pc']:04X} in {name}{where}")
    entry = code.function_at(task.image.entry)
    frames = stack["frames"]
    at_entry = bool(frames) and entry is not None and entry.start <= frames[-1]["pc"] < entry.end
    if stack.get("note") and not at_entry:  # the entry has no caller: nothing was cut short
        lines.append(f"  (backtrace stops: {stack['note']})")
    return lines


def waits(kernel: Kernel, task: Task) -> str:
    """What a task that cannot go on is waiting for, in words."""
    wait = task.wait
    state = task.state
    if state is TaskState.PAUSED:
        return "is paused"
    if isinstance(wait, MailboxWait):
        target = kernel.mailboxes.target_of(task.pid, wait.handle) or f"handle {wait.handle}"
        if target.startswith("svc:stdio.in"):
            return "waits for input on stdin (which has ended)"
        return f"waits to receive from mailbox {target}, which nobody sends to"
    if isinstance(wait, SendWait):
        target = kernel.mailboxes.target_of(task.pid, wait.handle) or f"handle {wait.handle}"
        return f"waits to send to mailbox {target}, which is full and nobody reads"
    if isinstance(wait, SleepWait):
        return f"sleeps ({wait.ms} ms)"
    return f"is {state.value if state else 'stuck'}"


def deadlock_report(kernel: Kernel, tasks: list[Task]) -> list[str]:
    stuck = [t for t in tasks if not t.ended]
    lines = ["no task can go on (deadlock):" if stuck else "no task can go on"]
    lines += [f"  {t.app_name} (pid {t.pid}) {waits(kernel, t)}" for t in stuck]
    return lines
