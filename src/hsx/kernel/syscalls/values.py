"""Modules 0x07 (values) and 0x08 (commands): guest access to the registry.

Register conventions are in docs/values.md.  Descriptor chains and strings are read
from guest memory; a bad pointer faults the caller at the SVC, as a bad load would.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from hsx.kernel.constants import MbxMode, MbxStatus
from hsx.kernel.registry import (CMD_REGISTER_HANDLER, GROUP_ALL, LIST_ENTRY, LIST_VISIBLE,
                                 Auth, CmdFn, CmdStatus, DescriptorError, ValFn, ValStatus,
                                 decode_command_descriptors, decode_value_descriptors)
from hsx.kernel.registry.model import CommandDescriptor, ValueDescriptor
from hsx.kernel.task import CommandWait
from hsx.vm import SvcStop

from . import COMMAND_WAIT
from .memory import read_cstring

if TYPE_CHECKING:
    from hsx.kernel.services import KernelServices
    from hsx.kernel.task import Task

NO_CHAIN = (0, 0xFFFF)


class ValueModule:
    number = 0x07

    def __init__(self, kernel: "KernelServices") -> None:
        self.kernel = kernel

    def call(self, task: "Task", function: int) -> SvcStop | None:
        regs, values, pid = task.ctx.regs, self.kernel.values, task.pid
        now = self.kernel.clock.now()
        if function == ValFn.REGISTER:
            try:
                descriptor = (ValueDescriptor() if regs[4] in NO_CHAIN
                              else decode_value_descriptors(task.ctx.guest_read, regs[4]))
            except DescriptorError:
                regs[0] = ValStatus.EINVAL
                return None
            result = values.register(pid, regs[1] & 0xFF, regs[2] & 0xFF, regs[3] & 0xFF,
                                     Auth.PUBLIC, descriptor, app=task.base_name)
            regs[0], regs[1] = int(result.status), result.oid
        elif function == ValFn.LOOKUP:
            result = values.lookup(regs[1] & 0xFF, regs[2] & 0xFF)
            regs[0], regs[1] = int(result.status), result.oid
        elif function == ValFn.GET:
            got = values.get(pid, regs[1] & 0xFFFF)
            regs[0] = got.raw if got.status is ValStatus.OK else int(got.status)
            regs[1] = int(got.status)
        elif function == ValFn.SET:
            regs[0] = int(values.set(pid, regs[1] & 0xFFFF, regs[2] & 0xFFFF, Auth.PUBLIC,
                                     now).status)
            self.kernel.schedule_persistence()
        elif function == ValFn.LIST:
            self._list(task)
        elif function == ValFn.SUB:
            self._subscribe(task)
        elif function == ValFn.PERSIST:
            regs[0] = int(values.persist(pid, regs[1] & 0xFFFF, regs[2], now))
            self.kernel.schedule_persistence()
        else:
            regs[0] = ValStatus.EINVAL
        return None

    def _list(self, task: "Task") -> None:
        regs, pid = task.ctx.regs, task.pid
        selector, out, limit = regs[1], regs[2], regs[3] & 0xFFFF
        task.ctx.check_guest_range(out, limit * LIST_ENTRY.size)
        group = selector & 0xFF
        if selector & LIST_VISIBLE:
            rows = self.kernel.values.list(group=group, visible_to=(pid, Auth.PUBLIC))
        else:
            rows = self.kernel.values.list(owner=pid, group=group if group != GROUP_ALL else None)
        written = rows[:limit]
        task.ctx.guest_write(out, b"".join(LIST_ENTRY.pack(row.oid) for row in written))
        regs[0], regs[1], regs[2] = ValStatus.OK, len(written), len(rows)

    def _subscribe(self, task: "Task") -> None:
        regs, pid, kernel = task.ctx.regs, task.pid, self.kernel
        oid = regs[1] & 0xFFFF
        target = read_cstring(task.ctx, regs[2])
        if kernel.values.info(oid) is None:
            regs[0] = ValStatus.ENOENT
            return
        if not target:
            regs[0] = ValStatus.EINVAL
            return
        # Read-write: the executive sends the notifications through this same handle.
        opened = kernel.mailboxes.open(pid, target, int(MbxMode.RDWR))
        if opened.status is not MbxStatus.OK:
            regs[0] = ValStatus.EINVAL
            return
        status = kernel.values.subscribe(pid, oid, opened.handle)
        if status is not ValStatus.OK:
            kernel.mailboxes.close(pid, opened.handle)
        regs[0], regs[1] = int(status), opened.handle if status is ValStatus.OK else 0


class CommandModule:
    number = 0x08

    def __init__(self, kernel: "KernelServices") -> None:
        self.kernel = kernel

    def call(self, task: "Task", function: int) -> SvcStop | None:
        regs, commands, pid, kernel = task.ctx.regs, self.kernel.commands, task.pid, self.kernel
        if function == CmdFn.REGISTER:
            try:
                descriptor = (CommandDescriptor() if regs[4] in NO_CHAIN
                              else decode_command_descriptors(task.ctx.guest_read, regs[4]))
            except DescriptorError:
                regs[0] = CmdStatus.EINVAL
                return None
            flags = regs[3]
            handler = regs[5] if flags & CMD_REGISTER_HANDLER else None
            result = commands.register(pid, regs[1] & 0xFF, regs[2] & 0xFF,
                                       flags & 0x7F, Auth.PUBLIC, descriptor, handler)
            regs[0], regs[1] = int(result.status), result.oid
        elif function == CmdFn.LOOKUP:
            result = commands.lookup(regs[1] & 0xFF, regs[2] & 0xFF)
            regs[0], regs[1] = int(result.status), result.oid
        elif function == CmdFn.CALL:
            token = read_cstring(task.ctx, regs[2]) if regs[2] else None
            status, result = kernel.call_command(pid, regs[1] & 0xFFFF, token, Auth.PUBLIC)
            if status is None:               # a debugger stopped the handler: wait for it
                task.wait = CommandWait(result, regs[1] & 0xFFFF)
                return SvcStop(COMMAND_WAIT)
            regs[0], regs[1] = int(status), result & 0xFFFFFFFF
        elif function == CmdFn.CALL_ASYNC:
            self._call_async(task)
        elif function == CmdFn.HELP:
            out, size = regs[2], regs[3] & 0xFFFF
            task.ctx.check_guest_range(out, size)
            help_ = commands.help(regs[1] & 0xFFFF, size)      # C string cut to `size`
            task.ctx.guest_write(out, help_.data)
            regs[0], regs[1] = int(help_.status), help_.length
        else:
            regs[0] = CmdStatus.EINVAL
        return None

    def _call_async(self, task: "Task") -> None:
        regs, pid, kernel = task.ctx.regs, task.pid, self.kernel
        token = read_cstring(task.ctx, regs[2]) if regs[2] else None
        target = read_cstring(task.ctx, regs[3]) if regs[3] else b""
        if not target:
            regs[0] = CmdStatus.EINVAL
            return
        opened = kernel.mailboxes.open(pid, target, int(MbxMode.RDWR))
        if opened.status is not MbxStatus.OK:
            regs[0] = CmdStatus.EINVAL
            return
        status = kernel.call_command(pid, regs[1] & 0xFFFF, token, Auth.PUBLIC,
                                     reply_handle=opened.handle)[0]
        status = CmdStatus.OK if status is None else status    # (stopped: replies later)
        if status is not CmdStatus.OK:
            kernel.mailboxes.close(pid, opened.handle)
        regs[0], regs[1] = int(status), opened.handle if status is CmdStatus.OK else 0
