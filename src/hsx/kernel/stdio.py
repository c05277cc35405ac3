"""Task stdio: fds 0, 1 and 2 are the task's `svc:stdio.*` mailboxes, and the executive
is the host end of them.

Output written by a task goes through its stdio mailbox (so taps see it) and is drained
at once by the executive into `stdout`/`stderr` events and the host's output sink; when
nobody else could see it queued, it is handed over without queueing, with the same
numbers and events (`MailboxManager.hand_to_reader`, docs/mailboxes.md).
Input posted by the host goes into `svc:stdio.in`; reads take bytes from it as a stream
(a message may be read in pieces).  An empty message ends the input, for good: once a
read has met it, every later read returns 0 at once (as at the end of a file or a
closed pipe), and the host may post nothing more (`stdin_closed`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .constants import MbxMode, MbxStatus
from .errors import KernelError
from .mailbox.manager import HOST_PID

if TYPE_CHECKING:
    from hsx.vm import SvcStop

    from .services import KernelServices
    from .task import Task

OutputSink = Callable[["Task", int, bytes], None]
_HOST_ENDS = ((0, "svc:stdio.in", MbxMode.WRONLY), (1, "svc:stdio.out", MbxMode.RDONLY),
              (2, "svc:stdio.err", MbxMode.RDONLY))


class Stdio:
    def __init__(self, kernel: "KernelServices", output: OutputSink | None) -> None:
        self.kernel = kernel
        self.output = output
        self._host_handles: dict[int, dict[int, int]] = {}   # pid -> fd -> host handle
        self._pending_input: dict[int, bytearray] = {}       # pid -> bytes not yet read
        self._ended: set[int] = set()        # pids that have read the end of their input
        self._closed: set[int] = set()       # pids whose input the host has ended
        # Called when a task first has to wait for stdin: lets `hsx run` start feeding it.
        self.input_requested: Callable[[Task], None] | None = None

    def attach(self, task: "Task") -> None:
        """Open the executive's ends of a new task's stdio mailboxes."""
        boxes = self.kernel.mailboxes
        handles = self._host_handles[task.pid] = {}
        for fd, target, mode in _HOST_ENDS:
            opened = boxes.open(HOST_PID, f"{target}@{task.pid}", int(mode))
            if opened.status is not MbxStatus.OK:
                raise KernelError("mailbox_limit", f"{task.app_name}: cannot attach to {target} "
                                                   f"({opened.status.name})")
            handles[fd] = opened.handle

    def release(self, pid: int) -> None:
        for handle in self._host_handles.pop(pid, {}).values():
            self.kernel.mailboxes.close(HOST_PID, handle)
        self._pending_input.pop(pid, None)
        self._ended.discard(pid)
        self._closed.discard(pid)

    def write(self, task: "Task", fd: int, data: bytes) -> None:
        """A task wrote to fd 1 or 2: the executive receives it from the mailbox at once
        (handed over without queueing when nobody else could see it queued)."""
        if not data:
            return
        boxes = self.kernel.mailboxes
        handles = self._host_handles.get(task.pid)
        handle = handles.get(fd) if handles is not None else None
        if handle is not None and boxes.hand_to_reader(task.pid, fd, data, HOST_PID, handle):
            self._show(task, fd, data)
            return
        sent = boxes.write_stdio(task.pid, fd, data)
        self.kernel.deliver_wakes(sent.wakes)
        if handle is None:
            return
        while True:
            got = boxes.recv(HOST_PID, handle)
            if got.message is None:
                return
            self._show(task, fd, got.message.payload)

    def _show(self, task: "Task", fd: int, payload: bytes) -> None:
        """Output the executive received: a `stdout`/`stderr` event (held, to go out
        with the writes after it: `EventBus.hold`) and the host's sink."""
        self.kernel.events.hold("stdout" if fd == 1 else "stderr", task.pid,
                                {"text": payload.decode("utf-8", "replace")})
        if self.output is not None:
            self.output(task, fd, payload)

    def post(self, task: "Task", data: bytes) -> None:
        """Host input for a task's fd 0 (an empty write ends the input; ending it again
        does nothing)."""
        if task.pid in self._closed:
            if not data:
                return
            raise KernelError("stdin_closed", f"task {task.pid}'s input has ended (eof): "
                                              "it reads nothing more")
        sent = self.kernel.mailboxes.send(HOST_PID, self._host_handles[task.pid][0], data)
        if sent.status is not MbxStatus.OK:
            raise KernelError("stdin_full",
                              f"task {task.pid}'s stdin is full ({sent.status.name})")
        if not data:
            self._closed.add(task.pid)
        self.kernel.deliver_wakes(sent.wakes)

    def read(self, task: "Task", dst: int, length: int) -> "SvcStop | None":
        """FS READ on fd 0: bytes already received, else the next message, else wait."""
        pending = self._pending_input.setdefault(task.pid, bytearray())
        if not pending and task.pid not in self._ended:
            boxes = self.kernel.mailboxes
            handle = boxes.stdio_handle(task.pid, 0)
            got = boxes.recv(task.pid, handle)
            if got.status is MbxStatus.NO_DATA:
                if self.input_requested is not None:
                    self.input_requested(task)
                return self.kernel.block_on_mailbox(task, handle, dst, length, 0, None, 0xFFFF,
                                                    stdin=True)
            if got.message is not None:
                self._keep(task, got.message.payload)
        self.give(task, dst, length)
        return None

    def arrived(self, task: "Task", payload: bytes, dst: int, length: int) -> None:
        """A waiting read was woken by input: keep it and complete the read."""
        self._keep(task, payload)
        self.give(task, dst, length)

    def _keep(self, task: "Task", payload: bytes) -> None:
        """Input a read took from the mailbox (an empty message: the end of it)."""
        if payload:
            self._pending_input.setdefault(task.pid, bytearray()).extend(payload)
        else:
            self._ended.add(task.pid)

    def give(self, task: "Task", dst: int, length: int) -> None:
        pending = self._pending_input.setdefault(task.pid, bytearray())
        chunk = bytes(pending[:length])
        del pending[:length]
        task.ctx.guest_write(dst, chunk)
        task.ctx.regs[0] = len(chunk)
