"""What `hsx run` says when a task faults, traps or the tasks are stuck: where (function,
`file:line`, a backtrace when symbols exist) and why (what each stuck task waits for,
what put the trap there)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from hsx.kernel.executive import Kernel
from hsx.kernel.states import TaskState
from hsx.kernel.task import MailboxWait, SendWait, SleepWait, Task

if TYPE_CHECKING:
    from hsx.debug.code import CodeMap
    from hsx.image.sym import SymbolTable

MAX_FRAMES = 16
# The debugger's code map, stack walk and symbol places are imported by the reports
# that use them: a run that ends well does not load hsx.debug.


def fault_report(task: Task, symbols: SymbolTable | None) -> list[str]:
    """`fault: …` with the task, then one line per frame when there are symbols."""
    lines = [f"{task.app_name} (pid {task.pid}): {task.fault.describe()}"]
    if symbols is None:
        return lines + ["  (no symbols: build with `hsx cc -g` or keep the .sym beside the "
                        ".hxe for function names and source lines)"]
    return lines + backtrace(task, symbols, task.fault.pc)


def trap_report(task: Task, symbols: SymbolTable | None, pc: int,
                code: int) -> tuple[str, list[str], str]:
    """(what happened, backtrace lines, what to do) for a BRK that no debugger took.  In
    compiled C (its line is in a C file) the code says who put the trap there
    (hsx.toolchain.cc.traps): clang, after undefined behaviour; abort(); else a BRK."""
    from hsx.debug.symbols import code_place
    from hsx.toolchain.cc.traps import MEANINGS    # (the compiler loads only for a trap)
    place = code_place(_code(task, symbols), symbols, pc) if symbols is not None else {}
    frames = backtrace(task, symbols, pc) if symbols is not None else []
    at = f" at {place['file']}:{place['line']}" if place.get("file") else ""
    debug = "debug it with `hsx dbg` to stop there"
    holder = symbols.symbol_at(pc) if symbols is not None else None
    source = place.get("file") or (holder.file if holder is not None else None) or ""
    meaning = MEANINGS.get(code) if source.endswith((".c", ".h")) else None
    if meaning is None:
        where = f" in {place['symbol']}{at}" if place.get("symbol") else ""
        return (f"BRK {code} at pc 0x{pc:04X}{where} with no debugger attached", frames,
                debug)
    if meaning.undefined:
        head = f"the program hit {meaning.what}{at} (clang inserted a trap)"
    else:
        head = f"the program stopped{at}: {meaning.what}"
    return head, frames, f"{meaning.why} (BRK {code}); {debug}"


def running_at(task: Task, symbols: SymbolTable | None) -> str:
    """Where a task that has not ended is (for a program stopped from outside)."""
    from hsx.debug.symbols import code_place
    pc = task.ctx.pc
    place = code_place(_code(task, symbols), symbols, pc) if symbols is not None else {}
    where = f" in {place['symbol']}" if place.get("symbol") else ""
    line = f" at {place['file']}:{place['line']}" if place.get("file") else ""
    return f"{task.app_name} (pid {task.pid}) was at pc 0x{pc:04X}{where}{line}"


def backtrace(task: Task, symbols: SymbolTable, pc: int) -> list[str]:
    """One line per frame of the task's stack walked from `pc` (the faulting or
    trapping instruction), and why the walk stopped when it ends early."""
    from hsx.debug.stack import walk
    from hsx.debug.symbols import code_place
    ctx = task.ctx
    code = _code(task, symbols)
    saved_pc = ctx.pc
    ctx.pc = pc
    try:
        stack = walk(ctx, code, lambda at: code_place(code, symbols, at), MAX_FRAMES)
    finally:
        ctx.pc = saved_pc
    lines = []
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


def _code(task: Task, symbols: SymbolTable | None) -> CodeMap:
    from hsx.debug.code import CodeMap
    ctx = task.ctx
    return CodeMap(ctx.decoded, ctx.code_len, task.image.entry, symbols)


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
