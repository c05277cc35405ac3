"""The services most programs never use (a part of `Kernel`), built when first used:
the value and command registries and the CAN module.

Their modules were a good part of what `hsx run` imported before running anything
(benchmarks/README.md, "Start-up").  A kernel builds each the first time anything asks
for it (`kernel.values`, `kernel.commands`, `kernel.can`: a task's SVC, an image
declaring values or commands, the server); one never built has nothing to release.
"""
from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .registry import CommandRegistry, ValueRegistry
    from .syscalls import SyscallModule
    from .syscalls.can import CanModule
    from .task import Task


class FirstUse:
    """Mixed into `Kernel`: uses its profile, events, value store, PIN, CAN bus,
    `_notify` and `command_done`."""

    @cached_property
    def values(self) -> ValueRegistry:
        from .registry.values import ValueRegistry
        return ValueRegistry.from_profile(self.profile, store=self.store, emit=self.events.emit,
                                          notify=self._notify, pin=self.pin)

    @cached_property
    def commands(self) -> CommandRegistry:
        from .registry.commands import CommandRegistry
        return CommandRegistry.from_profile(self.profile, emit=self.events.emit, pin=self.pin)

    @cached_property
    def can(self) -> CanModule:
        """SVC module 0x02 on the bus the kernel was given (python-can's virtual bus if
        none)."""
        from .bus import VirtualCanBus
        from .syscalls.can import CanModule
        return CanModule(self, self.can_bus or VirtualCanBus())

    def first_use_syscalls(self) -> dict[int, Callable[[], SyscallModule]]:
        """SVC modules 0x02 (CAN), 0x07 (values) and 0x08 (commands), which the
        `Dispatcher` builds on a task's first call to them."""
        def registry_module(name: str) -> Callable[[], SyscallModule]:
            def build() -> SyscallModule:
                from .syscalls import values
                return getattr(values, name)(self)
            return build
        return {0x02: lambda: self.can, 0x07: registry_module("ValueModule"),
                0x08: registry_module("CommandModule")}

    def register_declared(self, task: Task) -> None:
        """The values and commands `task`'s image declares (RegistryError, all or none,
        for each kind)."""
        metadata = task.image.metadata
        if metadata.values:
            self.values.register_from_metadata(task.pid, metadata.values, app=task.base_name)
        if metadata.commands:
            self.commands.register_from_metadata(task.pid, metadata.commands)

    def release_first_used(self, pid: int) -> None:
        """Give back what task `pid` holds in these services: its values, its commands
        (calls to them still running end, their completions delivered), its CAN port."""
        built = vars(self)                  # where cached_property keeps what it built
        if "values" in built:
            self.values.release_task(pid)
        if "commands" in built:
            for completion in self.commands.release_task(pid):
                self.command_done(completion)
        if "can" in built:
            self.can.release_task(pid)
