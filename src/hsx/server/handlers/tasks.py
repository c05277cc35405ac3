"""Task lifecycle: load (whole or streamed), kill, pause, resume, sched, restart.

Pause and resume go through the debugger (`server.debugger`), which knows about
breakpoints and pending steps; the rest talks to the kernel."""
from __future__ import annotations

import asyncio
import base64
import binascii
from typing import Any

from hsx.kernel.task import Task
from hsx.kernel.taskargs import TaskOptions, check_env

from ..dispatch import Call, Group
from ..errors import RequestError, bad_argument
from ..images import (OPT_LEVELS, Program, cc_flags, load_file, load_program, needs_thread,
                      read_program)
from ..schema import NAME, PID, Bool, Encoded, FilePath, Int, ListOf, Obj, Str
from ..views import image_view, scheduler_trace, task_row

group = Group("tasks")
MAX_STREAMS_PER_CONNECTION = 4
MAX_IMAGE = 1 << 20             # bytes of one image (or one streamed chunk)
MAX_QUANTUM = 1_000_000
STREAM = Int(0, 0xFFFF_FFFF)


def _b64(call: Call, name: str) -> bytes:
    try:
        return base64.b64decode(call.str(name), validate=True)
    except (binascii.Error, ValueError):
        raise bad_argument(f"'{name}' must be base64") from None


def _loaded(call: Call, task: Task) -> dict[str, Any]:
    """Finish a load: symbols to the debugger, and pause it first if asked (before the
    clock can run it)."""
    call.server.attach_symbols(task)
    if call.bool("paused"):
        call.kernel.pause(task.pid)
    call.server.log.log("info", f"loaded {task.app_name} as pid {task.pid}", pid=task.pid)
    return {"pid": task.pid, "image": image_view(task), "task": task_row(call.server, task)}


CC_OPTIONS = Obj({"opt": Str(1, choices=OPT_LEVELS), "debug": Bool(),
                  "include": ListOf(FilePath(), 64), "define": ListOf(Str(1024), 256)})
# What a task gets besides its image (hsx.kernel.taskargs): sizes and its command line.
TASK_OPTIONS = {"stack_size": Int(4, 0xFFFF_FFFC), "memory": Int(16, 0xFFFF_FFF0),
                "args": ListOf(Str(4096, empty=True), 1024, single=False),
                "env": ListOf(Str(4096), 1024, single=False)}


def _task_options(call: Call, program: str | None) -> TaskOptions:
    """What the load asks for besides the image; `program` becomes argv[0] (None: the
    task's app name)."""
    stack, memory = call.field("stack_size"), call.field("memory")
    if stack is not None and stack % 4:
        raise bad_argument(f"'stack_size' must be a multiple of 4, not {stack}")
    if memory is not None and memory % 16:
        raise bad_argument(f"'memory' must be a multiple of 16, not {memory}")
    env = tuple(call.field("env") or ())
    try:
        check_env(env)
    except ValueError as error:
        raise bad_argument(f"'env': {error}") from None
    return TaskOptions(stack, memory, tuple(call.field("args") or ()), env, program)


# argv[0] of a task loaded from bytes: the file the client read them from (hsx.client's
# gateway sends a board's or a remote executive's program this way); else the app name.
PROGRAM = {"program": Str(4096)}


@group.command("load", "exec", writes=True, args={
    "name": NAME, "path": FilePath(), "image": Encoded("base64", MAX_IMAGE), "paused": Bool(),
    "cc": CC_OPTIONS, **TASK_OPTIONS, **PROGRAM})
def load(call: Call) -> Any:
    name = call.str("name", None)
    if call.has("program") and not call.has("image"):
        raise bad_argument("'program' names the file an 'image' came from; a 'path' is "
                           "its own argv[0]")
    if call.has("image"):
        options = _task_options(call, call.str("program", None))
        return _loaded(call, call.kernel.load(_b64(call, "image"), name=name, options=options))
    path = call.str("path")
    options = _task_options(call, path)
    if needs_thread(path):
        return _build_then_load(call, path, name, cc_flags(call.field("cc")), options)
    if call.has("cc"):
        raise bad_argument("'cc' gives compiler options for a .c file")
    return _loaded(call, load_file(call.kernel, path, name=name, options=options))


async def _build_then_load(call: Call, path: str, name: str | None, flags: tuple[str, ...],
                           options: TaskOptions) -> dict[str, Any]:
    """Compile off the loop (other clients and the clock keep going), load on it."""
    program = await asyncio.to_thread(read_program, path, flags)
    return _loaded(call, load_program(call.kernel, program, path, name=name, flags=flags,
                                      options=options))


@group.command("load.begin", writes=True, feature="load_stream", args={"name": NAME})
def load_begin(call: Call) -> dict[str, Any]:
    if len(call.conn.load_streams) >= MAX_STREAMS_PER_CONNECTION:
        raise RequestError("too_many_streams", f"at most {MAX_STREAMS_PER_CONNECTION} "
                           "streamed loads per connection")
    sid = call.kernel.load_begin(call.str("name", None))
    call.conn.load_streams.add(sid)
    return {"stream": sid}


def _stream(call: Call) -> int:
    sid = call.int("stream", min=0)
    if sid not in call.conn.load_streams:
        raise RequestError("unknown_stream", f"no streamed load {sid} on this connection")
    return sid


@group.command("load.write", writes=True, feature="load_stream", args={
    "stream": STREAM, "data": Encoded("base64", MAX_IMAGE)})
def load_write(call: Call) -> dict[str, Any]:
    sid = _stream(call)
    data = _b64(call, "data")
    try:
        call.kernel.load_write(sid, data)
    except Exception:
        call.conn.load_streams.discard(sid)      # the kernel dropped a refused stream
        raise
    return {"stream": sid, "received": len(data)}


@group.command("load.end", writes=True, feature="load_stream",
               args={"stream": STREAM, "paused": Bool(), **TASK_OPTIONS, **PROGRAM})
def load_end(call: Call) -> dict[str, Any]:
    sid = _stream(call)
    options = _task_options(call, call.str("program", None))
    call.conn.load_streams.discard(sid)
    return _loaded(call, call.kernel.load_end(sid, options))


@group.command("load.abort", writes=True, feature="load_stream", args={"stream": STREAM})
def load_abort(call: Call) -> dict[str, Any]:
    sid = _stream(call)
    call.conn.load_streams.discard(sid)
    call.kernel.load_abort(sid)
    return {"aborted": sid}


@group.command("kill", writes=True, args={"pid": PID})
def kill(call: Call) -> dict[str, Any]:
    task = call.task()
    call.control(task.pid)
    call.kernel.kill(task.pid)
    return {"task": task_row(call.server, task)}


def _targets(call: Call) -> list[Task]:
    """The task named by `pid`, or every live task; all must be the caller's to change."""
    tasks = [call.task()] if call.has("pid") else call.kernel.live_tasks()
    for task in tasks:
        call.control(task.pid)
    return tasks


@group.command("pause", writes=True, args={"pid": PID})
def pause(call: Call) -> dict[str, Any]:
    """Through the debugger, which abandons a pending step.over/out/line of the task."""
    tasks = _targets(call)
    call.server.debugger.pause(tasks[0].pid if call.has("pid") else None)
    return _rows(call, tasks)


@group.command("resume", "continue", writes=True, args={"pid": PID})
def resume(call: Call) -> dict[str, Any]:
    """Through the debugger: the instruction at each PC runs first, even under a
    breakpoint, so a task parked on one continues instead of hitting it again."""
    tasks = _targets(call)
    call.server.debugger.resume(tasks[0].pid if call.has("pid") else None)
    return _rows(call, tasks)


def _rows(call: Call, tasks: list[Task]) -> dict[str, Any]:
    rows = [task_row(call.server, t) for t in tasks]
    return {"task": rows[0]} if call.has("pid") else {"tasks": rows}


@group.command("sched", args={
    "pid": PID, "limit": Int(0, 4096), "quantum": Int(1, MAX_QUANTUM), "priority": Int(0, 255)})
def sched(call: Call) -> dict[str, Any]:
    """With a PID, set its quantum and/or priority; without, show the scheduler."""
    kernel = call.kernel
    if not call.has("pid"):
        return {"scheduler": {"queued": kernel.scheduler.queued(),
                              "trace": scheduler_trace(kernel, call.int("limit", 32, min=0))}}
    task = call.task()
    call.control(task.pid)
    if call.has("quantum"):
        kernel.set_quantum(task.pid, call.int("quantum", min=1))
    if call.has("priority"):
        kernel.set_priority(task.pid, call.int("priority", min=0, max=255))
    return {"task": task_row(call.server, task)}


@group.command("restart", "reload", writes=True, args={"pid": PID, "paused": Bool()})
def restart(call: Call) -> Any:
    """Load a task's image again as a new task (from its file when it has one, so a
    rebuilt program is picked up), ending the old one; the caller's lock follows.  The
    new image is read (or compiled) before the old task is killed."""
    if not call.has("pid"):
        raise RequestError("unsupported", "restart needs 'pid': the executive itself is "
                           "restarted by whatever supervises it")
    old = call.task()
    call.control(old.pid)
    if old.restarted_as is not None:
        raise RequestError("already_restarted", f"task {old.pid} was restarted as pid "
                           f"{old.restarted_as}: restart that one", new_pid=old.restarted_as)
    if old.restarting:
        raise RequestError("restart_in_progress", f"task {old.pid} is already being "
                           "restarted (its program is building)")
    if old.source and needs_thread(old.source):
        return _restart_after_build(call, old)
    return _restart(call, old, read_program(old.source) if old.source else None)


async def _restart_after_build(call: Call, old: Task) -> dict[str, Any]:
    """Build first, one restart of a task at a time: a second one meanwhile would make a
    second copy of the program, without the breakpoints the first carried over."""
    old.restarting = True
    try:
        program = await asyncio.to_thread(read_program, old.source, old.build_flags)
    finally:
        old.restarting = False
    call.control(old.pid)                  # the lock may have changed while compiling
    return _restart(call, old, program)


def _restart(call: Call, old: Task, program: Program | None) -> dict[str, Any]:
    """`program`: read again from the task's file; None for an image sent as bytes."""
    kernel = call.kernel
    if not old.ended:
        kernel.kill(old.pid)
    if program is not None:
        task = load_program(kernel, program, old.source, name=old.base_name,
                            flags=old.build_flags, options=old.options)
    else:
        task = kernel.load(old.image, name=old.base_name, options=old.options)
    session = call.session
    if session is not None and old.pid in session.locks:
        call.server.sessions.lock(session, task.pid)
    old.restarted_as = task.pid
    reply = _loaded(call, task)
    warnings = call.server.debugger.carry_over(old.pid, task.pid)
    reply["reload"] = {"old_pid": old.pid, "new_pid": task.pid, "program": task.source,
                       "image": reply["image"], "task": reply["task"]}
    if warnings:
        reply["warnings"] = warnings
    return reply
