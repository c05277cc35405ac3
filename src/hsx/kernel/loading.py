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


class TaskLoading:
    """Mixed into `Kernel`: uses its machine, profile, task table, services and state
    changes."""

    def load(self, source: str | os.PathLike | bytes | HxeImage, *, name: str | None = None) -> Task:
        """Load an image (a path, its bytes, or a parsed image) as a new ready task."""
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
        return self._create_task(image, name, path)

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

    def load_end(self, sid: int) -> Task:
        stream = self._streams.pop(sid, None)
        if stream is None:
            raise KernelError("unknown_stream", f"no streamed load with id {sid}")
        return self.load(stream.finish(), name=stream.label)

    def load_abort(self, sid: int) -> None:
        if self._streams.pop(sid, None) is None:
            raise KernelError("unknown_stream", f"no streamed load with id {sid}")

    def _stream(self, sid: int) -> StreamLoad:
        stream = self._streams.get(sid)
        if stream is None:
            raise KernelError("unknown_stream", f"no streamed load with id {sid}")
        return stream

    def _create_task(self, image: HxeImage, name: str | None, path: Path | None) -> Task:
        live = [t for t in self.tasks.values() if not t.ended]
        if len(live) >= self.profile.max_tasks:
            raise KernelError("too_many_tasks",
                              f"task limit reached ({self.profile.max_tasks}, profile "
                              f"{self.profile.name})")
        base = name or image.app_name or (path.stem if path else None) or f"task_{self._next_pid}"
        app_name = instance_name(base, image.allow_multiple_instances, {t.app_name for t in live})
        try:
            ctx = self.machine.create_context(image, mem_size=self.profile.task_memory,
                                              stack_size=self.profile.stack_size)
        except LoadError as error:
            raise KernelError("layout", f"{app_name}: {error}") from None
        pid = self._next_pid
        self._next_pid += 1
        task = Task(pid, app_name, base, image, ctx, quantum=1, source=str(path) if path else None)
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

    def _provision(self, task: Task) -> None:
        """Everything a task needs before its first instruction: stdio and the mailboxes
        its image declares."""
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
        metadata = task.image.metadata
        self.values.register_from_metadata(pid, metadata.values, app=task.base_name)
        self.commands.register_from_metadata(pid, metadata.commands)
