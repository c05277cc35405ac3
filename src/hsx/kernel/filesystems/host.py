"""A `FileSystem` on a host directory used as a sandbox (the default backend).

Every guest path is resolved inside `root`; a path that would leave it (`..`, a
symlink pointing out, a drive letter) is refused.  A leading `/` means the sandbox
root, so `/hello.txt` and `hello.txt` name the same file.  Results follow the SVC
convention: a non-negative count or descriptor, or a negative errno -- including every
error the host reports (a name too long, a file deleted or replaced by a directory
underneath an open descriptor, a full disk, permission denied), which fails that one
call and nothing else.
"""
from __future__ import annotations

import errno
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .api import O_APPEND, O_CREAT, O_TRUNC, O_WRONLY, SEEK_CUR, SEEK_END, SEEK_SET, Descriptors
from .api import access_of, listing


class SandboxError(Exception):
    """A guest path that is malformed or escapes the sandbox."""


def _host_errors(method):
    """A host OS error becomes the call's -errno; the task goes on."""
    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        if self.on_first_use is not None:
            announce, self.on_first_use = self.on_first_use, None
            announce(self.root)
        try:
            return method(self, *args, **kwargs)
        except OSError as error:
            return -(error.errno or errno.EIO)
        except (ValueError, RuntimeError):          # a NUL in a path, a symlink loop
            return -errno.EINVAL
    return guarded


@dataclass
class _OpenFile:
    """A host file a task opened, and where it reads or writes next."""

    path: Path
    readable: bool
    writable: bool
    append: bool
    position: int = 0


class SandboxFS:
    """Per-task descriptor tables over one sandbox directory."""

    def __init__(self, root: str | os.PathLike, max_open_per_task: int = 32):
        self.root = Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.location = str(self.root)
        self._files: Descriptors[_OpenFile] = Descriptors(max_open_per_task)
        # called once, with the root, when a task first uses the file system
        self.on_first_use: Callable[[Path], None] | None = None

    # -- paths -------------------------------------------------------------------------
    def resolve(self, guest_path: str) -> Path:
        """Host path for a guest path, or SandboxError saying why it is refused."""
        text = guest_path.replace("\\", "/").strip()
        if not text or text == "/":
            raise SandboxError("empty path")
        if ":" in text or "\0" in text:
            raise SandboxError(f"{guest_path!r}: drive letters and URLs are not allowed")
        candidate = (self.root / text.lstrip("/")).resolve()
        if candidate != self.root and self.root not in candidate.parents:
            raise SandboxError(f"{guest_path!r} is outside the sandbox")
        return candidate

    # -- descriptors -------------------------------------------------------------------
    @_host_errors
    def open(self, pid: int, guest_path: str, flags: int = 0) -> int:
        try:
            path = self.resolve(guest_path)
        except SandboxError:
            return -errno.EINVAL
        if self._files.full(pid):
            return -errno.EMFILE
        flags, readable, writable = access_of(flags)
        if path.is_dir():
            return -errno.EISDIR
        if not path.exists():
            if not flags & O_CREAT:
                return -errno.ENOENT
            if not path.parent.is_dir():
                return -errno.ENOENT
            path.touch()
        if flags & O_TRUNC and writable:
            path.write_bytes(b"")
        return self._files.add(pid, _OpenFile(path, readable, writable, bool(flags & O_APPEND)))

    @_host_errors
    def read(self, pid: int, fd: int, length: int) -> bytes | int:
        handle = self._file(pid, fd)
        if handle is None or not handle.readable:
            return -errno.EBADF
        with handle.path.open("rb") as f:
            f.seek(handle.position)
            data = f.read(max(0, length))
        handle.position += len(data)
        return data

    @_host_errors
    def write(self, pid: int, fd: int, data: bytes) -> int:
        handle = self._file(pid, fd)
        if handle is None or not handle.writable:
            return -errno.EBADF
        with handle.path.open("r+b") as f:
            if handle.append:
                f.seek(0, os.SEEK_END)
            else:
                f.seek(handle.position)
            f.write(data)
            handle.position = f.tell()
        return len(data)

    @_host_errors
    def seek(self, pid: int, fd: int, offset: int, whence: int) -> int:
        """Move the file position (as lseek): the new position, or a negative errno.
        A position past the end is allowed; a write there fills the gap with zeros."""
        handle = self._file(pid, fd)
        if handle is None:
            return -errno.EBADF
        if whence == SEEK_SET:
            base = 0
        elif whence == SEEK_CUR:
            base = handle.position
        elif whence == SEEK_END:
            base = handle.path.stat().st_size
        else:
            return -errno.EINVAL
        if base + offset < 0:
            return -errno.EINVAL
        handle.position = base + offset
        return handle.position

    def close(self, pid: int, fd: int) -> int:
        return 0 if self._files.pop(pid, fd) is not None else -errno.EBADF

    def open_count(self, pid: int) -> int:
        return self._files.count(pid)

    def release_task(self, pid: int) -> None:
        """Close everything a task had open (it ended or was killed)."""
        self._files.release(pid)

    def shutdown(self) -> None:
        """Nothing is cached: every call reached the host directory already."""

    # -- directory operations ----------------------------------------------------------
    @_host_errors
    def listdir(self, guest_path: str = "/") -> bytes | int:
        """Newline-separated sorted names in a directory (directories end with '/')."""
        try:
            path = self.root if guest_path.strip() in ("", "/", ".") else self.resolve(guest_path)
        except SandboxError:
            return -errno.EINVAL
        if not path.is_dir():
            return -errno.ENOTDIR if path.exists() else -errno.ENOENT
        return listing((p.name, p.is_dir()) for p in path.iterdir())

    @_host_errors
    def delete(self, guest_path: str) -> int:
        return self._path_op(guest_path, lambda p: p.rmdir() if p.is_dir() else p.unlink())

    @_host_errors
    def mkdir(self, guest_path: str) -> int:
        return self._path_op(guest_path, lambda p: p.mkdir(), must_exist=False)

    @_host_errors
    def rename(self, old: str, new: str) -> int:
        try:
            source, target = self.resolve(old), self.resolve(new)
        except SandboxError:
            return -errno.EINVAL
        if not source.exists():
            return -errno.ENOENT
        if target.exists():
            return -errno.EEXIST
        try:
            source.rename(target)
        except OSError as exc:
            return -(exc.errno or errno.EIO)
        return 0

    # -- helpers -----------------------------------------------------------------------
    def _file(self, pid: int, fd: int) -> _OpenFile | None:
        return self._files.get(pid, fd)

    def _path_op(self, guest_path: str, action, must_exist: bool = True) -> int:
        try:
            path = self.resolve(guest_path)
        except SandboxError:
            return -errno.EINVAL
        if path == self.root:
            return -errno.EINVAL
        if must_exist and not path.exists():
            return -errno.ENOENT
        if not must_exist and path.exists():
            return -errno.EEXIST
        try:
            action(path)
        except OSError as exc:
            return -(exc.errno or errno.EIO)
        return 0
