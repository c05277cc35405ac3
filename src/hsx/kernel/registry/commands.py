"""The command registry: named "buttons" whose handlers are code in the owner task.

A call is a small state machine the kernel drives.  `begin_call` checks the caller
and returns a `CallTicket`; the kernel runs the handler at `ticket.handler_addr` in
the owner's context (the registry never touches the VM) and reports the outcome with
`complete_call`, which produces the completion message for async callers.  A call
from the host (the server's `cmd.call`) is the same protocol with the host's PID.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hsx.image.model import CommandSpec
from hsx.kernel.errors import KernelError

from .access import Pin, may_access
from .constants import (
    CMD_FLAGS_ALL,
    COMPLETION,
    DEFAULT_MAX_COMMANDS,
    GROUP_ALL,
    Auth,
    CmdFlag,
    CmdFn,
    CmdStatus,
    make_oid,
    split_oid,
)
from .errors import RegistryError
from .events import EmitFn, RegistryEvent
from .model import (
    CallTicket,
    CommandDescriptor,
    CommandInfo,
    Completion,
    HelpResult,
    OidResult,
    qualified_name,
)

if TYPE_CHECKING:
    from hsx.kernel.profiles import Profile


@dataclass
class _Command:
    oid: int
    owner_pid: int
    flags: int
    auth: int
    descriptor: CommandDescriptor
    handler_addr: int | None

    @property
    def label(self) -> str:
        name = qualified_name(self.descriptor.group_name, self.descriptor.name)
        return f"command 0x{self.oid:04x}" + (f" ({name})" if name else "")

    def info(self) -> CommandInfo:
        return CommandInfo(self.oid, self.owner_pid, self.flags, self.auth, self.handler_addr,
                           self.descriptor)


class CommandRegistry:
    """Every command of one executive, and the calls in flight."""

    def __init__(self, *, max_commands: int = DEFAULT_MAX_COMMANDS, emit: EmitFn | None = None,
                 pin: Pin | None = None) -> None:
        if max_commands < 1:
            raise ValueError("max_commands must be at least 1")
        self.max_commands = max_commands
        self.pin = pin or Pin()
        self._emit_fn = emit
        self._commands: dict[int, _Command] = {}
        self._calls: dict[int, CallTicket] = {}
        self._orphans: set[int] = set()        # calls whose caller has ended
        self._next_ticket = 1

    @classmethod
    def from_profile(cls, profile: Profile, **hooks: Any) -> CommandRegistry:
        return cls(max_commands=profile.max_commands, **hooks)

    def __len__(self) -> int:
        return len(self._commands)

    def set_pin(self, pin: bytes | str | None) -> None:
        """Configure the PIN that PIN-flagged commands (and values sharing `pin`) need."""
        self.pin.set(pin)

    # -- registration ------------------------------------------------------------------

    def register(self, owner_pid: int, group: int, ident: int, flags: int = 0,
                 auth: int = Auth.PUBLIC, descriptor: CommandDescriptor = CommandDescriptor(),
                 handler_addr: int | None = None) -> OidResult:
        """Create a command whose handler is the code at `handler_addr` in the owner task
        (None: no handler, so calls fail with EFAIL)."""
        try:
            command = self._prepare(owner_pid, group, ident, flags, auth, descriptor,
                                    handler_addr)
            self._check_room(1)
        except RegistryError as error:
            self._refused(CmdFn.REGISTER, owner_pid, error)
            return OidResult(error.status)
        self._add(command)
        return OidResult(CmdStatus.OK, command.oid)

    def register_from_metadata(self, pid: int, specs: Iterable[CommandSpec]) -> list[int]:
        """Register an image's `.cmd` records for task `pid`, all or none; raises
        RegistryError for the first record that cannot be registered."""
        batch: list[_Command] = []
        for spec in specs:
            command = self._prepare(pid, spec.group, spec.cmd, spec.flags, spec.auth,
                                    CommandDescriptor.from_spec(spec), spec.handler_offset)
            if any(c.oid == command.oid for c in batch):
                raise RegistryError("command", CmdStatus.EEXIST,
                                    f"{command.label} is declared twice", command.oid)
            batch.append(command)
        self._check_room(len(batch))
        for command in batch:
            self._add(command)
        return [command.oid for command in batch]

    def lookup(self, group: int, ident: int) -> OidResult:
        if not (0 <= group <= 0xFF and 0 <= ident <= 0xFF):
            return OidResult(CmdStatus.EINVAL)
        oid = make_oid(group, ident)
        return OidResult(CmdStatus.OK, oid) if oid in self._commands else OidResult(
            CmdStatus.ENOENT)

    def info(self, oid: int) -> CommandInfo | None:
        command = self._commands.get(oid)
        return command.info() if command else None

    def list(self, *, owner: int | None = None, group: int | None = None,
             name: str | None = None) -> list[CommandInfo]:
        """Commands in OID order, filtered like `ValueRegistry.list`."""
        rows = []
        for oid in sorted(self._commands):
            command = self._commands[oid]
            d = command.descriptor
            if owner is not None and command.owner_pid != owner:
                continue
            if group not in (None, GROUP_ALL) and split_oid(oid)[0] != group:
                continue
            if name is not None and name not in (d.name, qualified_name(d.group_name, d.name)):
                continue
            rows.append(command.info())
        return rows

    def help(self, oid: int, max_len: int | None = None) -> HelpResult:
        """HELP: the help text as a C string cut to `max_len` bytes (NUL included);
        a command without help text gives an empty string."""
        command = self._commands.get(oid)
        if command is None:
            return HelpResult(CmdStatus.ENOENT)
        text = (command.descriptor.help or "").encode()
        if max_len is None:
            return HelpResult(CmdStatus.OK, text + b"\0")
        if max_len <= 0:
            return HelpResult(CmdStatus.OK)
        return HelpResult(CmdStatus.OK, text[:max_len - 1] + b"\0")

    # -- calls -------------------------------------------------------------------------

    def begin_call(self, caller_pid: int, oid: int, token: bytes | None, caller_auth: int,
                   async_reply: int | None = None) -> CallTicket | CmdStatus:
        """Start a call, or refuse it with a status.

        Checks, in order: the command exists (ENOENT), an async call needs the ASYNC flag
        (ENOASYNC), the caller is the owner or has the auth level (EPERM), a PIN command
        gets the right PIN from every caller (EPERM), there is a handler to run (EFAIL).
        `async_reply` is the caller's mailbox handle for the completion message.
        """
        command = self._commands.get(oid)
        try:
            if command is None:
                raise RegistryError("command", CmdStatus.ENOENT, f"no command 0x{oid:04x}", oid)
            if async_reply is not None and not command.flags & CmdFlag.ASYNC:
                raise RegistryError("command", CmdStatus.ENOASYNC,
                                    f"{command.label} cannot be called asynchronously", oid)
            if not may_access(command.owner_pid, command.auth, caller_pid, caller_auth):
                raise RegistryError("command", CmdStatus.EPERM,
                                    f"task {caller_pid} (auth {caller_auth}) may not call "
                                    f"{command.label} (auth {command.auth})", oid)
            if command.flags & CmdFlag.PIN and not self.pin.check(token):
                reason = "a wrong or missing PIN" if self.pin.configured else "no PIN configured"
                raise RegistryError("command", CmdStatus.EPERM,
                                    f"{command.label} needs the PIN ({reason})", oid)
            if command.handler_addr is None:
                raise RegistryError("command", CmdStatus.EFAIL,
                                    f"{command.label} has no handler", oid)
        except RegistryError as error:
            self._refused(CmdFn.CALL_ASYNC if async_reply is not None else CmdFn.CALL,
                          caller_pid, error)
            return CmdStatus(error.status)
        ticket = CallTicket(self._next_ticket, oid, caller_pid, command.owner_pid,
                            command.handler_addr, async_reply)
        self._next_ticket += 1
        self._calls[ticket.id] = ticket
        self._emit(RegistryEvent.CMD_INVOKED, command.owner_pid, oid=oid, caller_pid=caller_pid,
                   ticket=ticket.id, handler_addr=command.handler_addr, async_call=ticket.is_async)
        return ticket

    def complete_call(self, ticket: CallTicket, status: int, result: int = 0) -> Completion:
        """Finish a call the kernel ran: `status` goes to a sync caller's R0 and `result`
        (a u32, negative numbers wrap) to its R1; an async caller gets `payload`."""
        if self._calls.pop(ticket.id, None) is None:
            raise KernelError("unknown_call", f"call {ticket.id} is not in flight")
        orphaned = ticket.id in self._orphans
        self._orphans.discard(ticket.id)
        return self._finish(ticket, CmdStatus(status), result & 0xFFFFFFFF, orphaned, "handler")

    def in_flight(self) -> list[CallTicket]:
        return list(self._calls.values())

    # -- tasks -------------------------------------------------------------------------

    def release_task(self, pid: int) -> list[Completion]:
        """Drop `pid`'s commands.  Calls to them that are still running end with EFAIL
        (deliver the returned completions like any other); calls `pid` was waiting for
        still run, but their replies are dropped."""
        for oid in [oid for oid, c in self._commands.items() if c.owner_pid == pid]:
            del self._commands[oid]
        completions = []
        for ticket in list(self._calls.values()):
            if ticket.owner_pid == pid:
                del self._calls[ticket.id]
                orphaned = ticket.caller_pid == pid or ticket.id in self._orphans
                self._orphans.discard(ticket.id)
                completions.append(self._finish(ticket, CmdStatus.EFAIL, 0, orphaned,
                                                "owner_ended"))
            elif ticket.caller_pid == pid:
                self._orphans.add(ticket.id)
        return completions

    # -- internals ---------------------------------------------------------------------

    def _prepare(self, owner_pid: int, group: int, ident: int, flags: int, auth: int,
                 descriptor: CommandDescriptor, handler_addr: int | None) -> _Command:
        oid = make_oid(group & 0xFF, ident & 0xFF)

        def refuse(status: CmdStatus, message: str) -> RegistryError:
            return RegistryError("command", status, message, oid)

        if not (0 <= group < GROUP_ALL and 0 <= ident <= 0xFF):
            raise refuse(CmdStatus.EINVAL, f"command ({group},{ident}): group must be 0..254 "
                                           f"and id 0..255")
        if flags & ~CMD_FLAGS_ALL or auth not in {a.value for a in Auth}:
            raise refuse(CmdStatus.EINVAL, f"command 0x{oid:04x}: unknown flags 0x{flags:x} "
                                           f"or auth level {auth}")
        if handler_addr is not None and not 0 <= handler_addr <= 0xFFFFFFFF:
            raise refuse(CmdStatus.EINVAL, f"command 0x{oid:04x}: handler address "
                                           f"{handler_addr} is not a u32")
        problem = descriptor.problem()
        if problem is not None:
            raise refuse(CmdStatus.EINVAL, f"command 0x{oid:04x}: {problem}")
        existing = self._commands.get(oid)
        if existing is not None:
            raise refuse(CmdStatus.EEXIST,
                         f"{existing.label} is already registered by task {existing.owner_pid}")
        return _Command(oid, owner_pid, int(flags), int(auth), descriptor, handler_addr)

    def _check_room(self, count: int) -> None:
        if len(self._commands) + count > self.max_commands:
            raise RegistryError("command", CmdStatus.ENOSPC,
                                f"command table full: {len(self._commands)} of "
                                f"{self.max_commands} used, {count} more requested")

    def _add(self, command: _Command) -> None:
        self._commands[command.oid] = command
        group, ident = split_oid(command.oid)
        d = command.descriptor
        self._emit(RegistryEvent.CMD_REGISTERED, command.owner_pid, oid=command.oid,
                   group_id=group, cmd_id=ident, flags=command.flags, auth_level=command.auth,
                   name=d.name, group_name=d.group_name, handler_addr=command.handler_addr)

    def _finish(self, ticket: CallTicket, status: CmdStatus, result: int, orphaned: bool,
                reason: str) -> Completion:
        payload = None
        if ticket.is_async and not orphaned:
            payload = COMPLETION.pack(ticket.oid, status, result)
        self._emit(RegistryEvent.CMD_COMPLETED, ticket.owner_pid, oid=ticket.oid,
                   caller_pid=ticket.caller_pid, ticket=ticket.id, status=int(status),
                   result=result, async_call=ticket.is_async, reason=reason,
                   delivered=not orphaned)
        return Completion(ticket, status, result, payload, orphaned)

    def _refused(self, fn: CmdFn, pid: int, error: RegistryError) -> None:
        self._emit(RegistryEvent.CMD_ERROR, pid, fn=int(fn), oid=error.oid,
                   status=int(error.status), error=error.message)

    def _emit(self, event: RegistryEvent, pid: int | None, **data: Any) -> None:
        if self._emit_fn is not None:
            self._emit_fn(event.value, pid, data)
