"""Loading images as tasks (a part of `Kernel`): whole, or streamed in chunks by a
client, then provisioned with stdio and the mailboxes, values and commands the image
declares before its first instruction."""
from __future__ import annotations

import os
from pathlib import Path

from hsx.image.errors import ImageError
from hsx.image.hxe import read_hxe, read_hxe_file
from hsx.image.model import HxeImage
from hsx.kernel.constants import MbxStatus
from hsx.vm import LoadError

from .errors import KernelError
from .loader import StreamLoad, instance_name
from .states import Reason
from .task import Task
from .taskargs import (MAX_ARGS_BYTES, TaskOptions, argument_block, block_size,
                       memory_for_stack)


class TaskLoading:
    """Mixed into `Kernel`: uses its machine, profile, task table, services and state
    changes."""

    def load(self, source: str | os.PathLike | bytes | HxeImage, *, name: str | None = None,
             options: TaskOptions | None = None) -> Task:
        """Load an image (a path, its bytes, or a parsed image) as a new ready task, with
        the stack, memory, arguments and environment `options` ask for."""
        path = None
        try:
            if isinstance(source, HxeImage):
                image = source
            elif isinstance(source, (bytes, bytearray)):
                image = read_hxe(bytes(source))
            else:
                path = Path(source)
                image = read_hxe_file(path)
        except ImageError as error:
            raise KernelError(f"bad_image:{error.code}", str(error)) from None
        return self._create_task(image, name, path, options or TaskOptions())

    def load_begin(self, label: str | None = None) -> int:
        sid = self._next_stream
        self._next_stream += 1
        self._streams[sid] = StreamLoad(sid, label)
        return sid

    def load_write(self, sid: int, chunk: bytes) -> None:
        stream = self._stream(sid)
        try:
            stream.write(chunk)
        except KernelError:
            del self._streams[sid]     # a refused stream is over; nothing is kept
            raise

    def load_end(self, sid: int, options: TaskOptions | None = None) -> Task:
        stream = self._streams.pop(sid, None)
        if stream is None:
            raise KernelError("unknown_stream", f"no streamed load with id {sid}")
        return self.load(stream.finish(), name=stream.label, options=options)

    def load_abort(self, sid: int) -> None:
        if self._streams.pop(sid, None) is None:
            raise KernelError("unknown_stream", f"no streamed load with id {sid}")

    def _stream(self, sid: int) -> StreamLoad:
        stream = self._streams.get(sid)
        if stream is None:
            raise KernelError("unknown_stream", f"no streamed load with id {sid}")
        return stream

    def _create_task(self, image: HxeImage, name: str | None, path: Path | None,
                     options: TaskOptions) -> Task:
        live = [t for t in self.tasks.values() if not t.ended]
        if len(live) >= self.profile.max_tasks:
            raise KernelError("too_many_tasks",
                              f"task limit reached ({self.profile.max_tasks}, profile "
                              f"{self.profile.name})")
        base = name or image.app_name or (path.stem if path else None) or f"task_{self._next_pid}"
        app_name = instance_name(base, image.allow_multiple_instances, {t.app_name for t in live})
        ctx = self._context(image, app_name, options)
        pid = self._next_pid
        self._next_pid += 1
        task = Task(pid, app_name, base, image, ctx, quantum=1, source=str(path) if path else None,
                    options=options)
        try:
            self._provision(task)
        except KernelError:
            self._release(task)
            raise
        sym = path.with_suffix(".sym") if path else None
        task.symbols_path = sym if sym is not None and sym.exists() else None
        self.tasks[pid] = task
        self._transition(task, Reason.LOADED, app_name=app_name)
        return task

    def _context(self, image: HxeImage, app_name: str, options: TaskOptions):
        """The task's machine context: the stack and memory the load asks for, else the
        image, else the profile (docs/machine.md); argc, argv and envp in R1..R3 and
        their block in memory below the stack (docs/abi.md)."""
        profile = self.profile
        stack = options.stack_size or image.stack_size or profile.stack_size
        memory = options.memory or image.mem_size or \
            memory_for_stack(profile.task_memory, profile.stack_size, stack)
        if memory > profile.max_task_memory:
            raise KernelError("task_memory_limit",
                              f"{app_name}: {memory} bytes of task memory asked for; profile "
                              f"{profile.name} allows at most {profile.max_task_memory} "
                              f"(its max_task_memory)")
        argv, env = [options.program or app_name, *options.args], list(options.env)
        size = block_size(argv, env)
        if size > MAX_ARGS_BYTES:
            raise KernelError("args_too_large", f"{app_name}: the arguments and environment "
                              f"take {size} bytes; at most {MAX_ARGS_BYTES} can be passed")
        try:
            ctx = self.machine.create_context(image, mem_size=memory, stack_size=stack,
                                              args_size=size)
        except LoadError as error:
            raise KernelError("layout", f"{app_name}: {error}; ask for more memory with "
                              f"--memory N (hsx run, hsx cc, hsx link) or the load's "
                              f"memory") from None
        block, argv_at, envp_at = argument_block(argv, env, ctx.layout.heap_end)
        ctx.mem[ctx.layout.heap_end:ctx.layout.heap_end + len(block)] = block
        ctx.regs[1], ctx.regs[2], ctx.regs[3] = len(argv), argv_at, envp_at
        return ctx

    def _provision(self, task: Task) -> None:
        """Everything a task needs before its first instruction: stdio and the mailboxes,
        values and commands its image declares."""
        pid = task.pid
        try:
            self.mailboxes.create_task_mailboxes(pid)
        except Exception as error:      # MailboxError: a pool limit
            raise KernelError("mailbox_limit", f"{task.app_name}: {error}") from None
        self.stdio.attach(task)
        for spec in task.image.metadata.mailboxes:
            bound = self.mailboxes.bind(pid, spec.target, spec.capacity, spec.mode_mask)
            if bound.status is not MbxStatus.OK:
                raise KernelError("metadata_mailbox",
                                  f"{task.app_name}: cannot bind {spec.target!r} "
                                  f"({bound.status.name})")
        self.register_declared(task)
