"""Module 0x04: files in the sandbox, and stdio behind fds 0, 1 and 2."""
from __future__ import annotations

import errno
from typing import TYPE_CHECKING

from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import SvcStop

from .memory import read_cstring

if TYPE_CHECKING:
    from hsx.kernel.services import KernelServices
    from hsx.kernel.task import Task

OPEN, READ, WRITE, CLOSE, SEEK = 0x00, 0x01, 0x02, 0x03, 0x04
LISTDIR, DELETE, RENAME, MKDIR = 0x0A, 0x0B, 0x0C, 0x0D
STDIN, STDOUT, STDERR = 0, 1, 2
MAX_IO = 0xFFFF


def _status(value: int) -> int:
    return value & 0xFFFFFFFF


class FileModule:
    number = 0x04

    def __init__(self, kernel: "KernelServices") -> None:
        self.kernel = kernel

    def call(self, task: "Task", function: int) -> SvcStop | None:
        ctx = task.ctx
        regs = ctx.regs
        if function == WRITE:                # first and lean: a task's every print
            length = regs[3]
            fd, data = regs[1], ctx.guest_read(regs[2], length if length < MAX_IO else MAX_IO)
            if fd == STDOUT or fd == STDERR:
                self.kernel.stdio.write(task, fd, data)
                regs[0] = len(data)
            else:
                regs[0] = _status(-errno.EBADF if fd == STDIN
                                  else self.kernel.fs.write(task.pid, fd, data))
            return None
        fs, pid = self.kernel.fs, task.pid
        if function == READ:
            fd, dst, length = regs[1], regs[2], min(regs[3], MAX_IO)
            ctx.check_guest_range(dst, length)
            if fd == STDIN:
                return self.kernel.stdio.read(task, dst, length)
            result = fs.read(pid, fd, length)
            if isinstance(result, int):
                regs[0] = _status(result)
            else:
                ctx.guest_write(dst, result)
                regs[0] = len(result)
            return None
        if function == OPEN:
            regs[0] = _status(fs.open(pid, self._path(task, 1), regs[2]))
        elif function == CLOSE:
            fd = regs[1]
            regs[0] = 0 if fd in (STDIN, STDOUT, STDERR) else _status(fs.close(pid, fd))
        elif function == SEEK:
            fd, offset = regs[1], regs[2] - ((regs[2] & 0x80000000) << 1)     # signed
            regs[0] = _status(-errno.ESPIPE if fd in (STDIN, STDOUT, STDERR)
                              else fs.seek(pid, fd, offset, regs[3]))
        elif function == LISTDIR:
            path, out, limit = self._path(task, 1), regs[2], min(regs[3], MAX_IO)
            ctx.check_guest_range(out, limit)
            listing = fs.listdir(path)
            if isinstance(listing, int):
                regs[0] = _status(listing)
            else:
                data = listing[:limit]
                ctx.guest_write(out, data)
                regs[0] = len(data)
        elif function == DELETE:
            regs[0] = _status(fs.delete(self._path(task, 1)))
        elif function == RENAME:
            regs[0] = _status(fs.rename(self._path(task, 1), self._path(task, 2)))
        elif function == MKDIR:
            regs[0] = _status(fs.mkdir(self._path(task, 1)))
        else:
            regs[0] = HSX_ERR_ENOSYS
        return None

    @staticmethod
    def _path(task: "Task", register: int) -> str:
        return read_cstring(task.ctx, task.ctx.regs[register]).decode("utf-8", "replace")
