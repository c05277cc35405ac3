"""What the syscall modules, task stdio and command upcalls need from the executive.

They are given the executive as a `KernelServices`, the interface written down here, so
they depend on this module and not on kernel/executive.py, which builds them: the
executive imports its parts, never the other way round.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol

if TYPE_CHECKING:
    from hsx.vm import Machine, Stop, SvcStop

    from .clock import Clock
    from .events import EventBus
    from .filesystems import FileSystem
    from .inputs import InputWatch
    from .mailbox import MailboxManager
    from .mailbox.results import RecvResult, Wake
    from .registry import CmdStatus, CommandRegistry, Completion, ValueRegistry
    from .states import TaskState
    from .task import Task
    from .timers import TimerHeap


class StdioService(Protocol):
    def write(self, task: Task, fd: int, data: bytes) -> None: ...
    def read(self, task: Task, dst: int, length: int) -> SvcStop | None: ...


class KernelServices(Protocol):
    clock: Clock
    events: EventBus
    mailboxes: MailboxManager
    values: ValueRegistry
    commands: CommandRegistry
    fs: FileSystem
    inputs: InputWatch
    stdio: StdioService
    machine: Machine
    tasks: dict[int, Task]
    current: Task | None
    ready_changed: bool
    started_at: float
    timers: TimerHeap
    debug_hook: Callable[[Task, Stop], dict[str, Any] | None] | None

    def deliver_wakes(self, wakes: Iterable[Wake]) -> None: ...
    def block_on_mailbox(self, task: Task, handle: int, buffer: int, max_len: int,
                         info_ptr: int, deadline: float | None, timeout: int,
                         stdin: bool = False) -> SvcStop: ...
    def block_on_send(self, task: Task, handle: int, payload: bytes, flags: int, channel: int,
                      deadline: float | None) -> SvcStop: ...
    def complete_recv(self, task: Task, result: RecvResult, buffer: int,
                      info_ptr: int) -> None: ...
    def retry_senders(self) -> None: ...
    def spawn_from_sandbox(self, parent: Task, guest_path: str) -> int: ...
    def kill_from_guest(self, caller: Task, pid: int) -> int: ...
    def schedule_persistence(self) -> None: ...
    def call_command(self, caller_pid: int, oid: int, token: bytes | None,
                     auth: int | None = None,
                     reply_handle: int | None = None) -> tuple[CmdStatus | None, int]: ...
    def handler_stopped(self, task: Task, stop: Stop, details: dict[str, Any]) -> None: ...
    def put_back(self, task: Task, state: TaskState | None,
                 resume_state: TaskState | None) -> None: ...
    def command_done(self, completion: Completion) -> None: ...
