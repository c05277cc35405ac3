"""A `FileSystem` on FAT12/16/32 over a `BlockDevice`: an SD card image on the host.

The FAT code is ChaN's FatFs (the `fatfs-ng` package), the library microcontrollers
use.  Every call that changes the volume ends with FatFs's sync, inside one device
transaction (`BlockDevice.begin`/`commit`: atomic on an image file, thanks to its
journal), so what a call acknowledged is on the card when it returns and a cut in the
middle of a call loses that call only (docs/backends.md).

Differences from a host directory, all from FAT itself: names are case-insensitive and
ASCII only (this FatFs build's code page), and a file or directory that is open cannot
be deleted or renamed (-EBUSY; FatFs would otherwise corrupt the volume).
"""
from __future__ import annotations

import errno
import functools
from dataclasses import dataclass

from hsx.kernel.blockdev import BlockDevice

from .api import (O_APPEND, O_CREAT, O_TRUNC, SEEK_CUR, SEEK_END, SEEK_SET, Descriptors, access_of,
                  listing, normalize)

MAX_NAME = 255
WRITE_CHUNK = 32 * 1024

# FRESULT (ff.h) -> errno.  FR_DENIED depends on the call: see _DENIED.
_ERRNO = {1: errno.EIO, 2: errno.EIO, 3: errno.EIO, 4: errno.ENOENT, 5: errno.ENOENT,
          6: errno.EINVAL, 7: errno.EACCES, 8: errno.EEXIST, 9: errno.EBADF, 10: errno.EROFS,
          11: errno.EIO, 12: errno.EIO, 13: errno.EIO, 15: errno.EIO, 16: errno.EBUSY,
          17: errno.ENOMEM, 18: errno.EMFILE, 19: errno.EINVAL}
FR_DENIED = 7


class FatError(OSError):
    """The image cannot be mounted (no FAT volume on it, too many volumes mounted)."""


class _Disk:
    """FatFs's disk I/O on a BlockDevice.  FatFs's wrapper cannot pass a failure up, so
    one is remembered here and the call that met it answers -EIO."""

    def __init__(self, device: BlockDevice) -> None:
        self.device = device
        self.failed: OSError | None = None

    # the methods fatfs.diskio.Disk names
    def ioctl_get_sector_count(self) -> int:
        return self.device.block_count

    def ioctl_get_sector_size(self) -> int:
        return self.device.block_size

    def ioctl_get_block_size(self) -> int:
        return 1

    def ioctl_sync(self) -> None:
        self._guard(self.device.sync)

    def ioctl_trim(self) -> None:
        pass

    def read(self, sector: int, count: int) -> bytes:
        data = self._guard(self.device.read, sector, count // self.device.block_size)
        return data if data is not None else bytes(count)

    def write(self, sector: int, count: int, buff: bytes) -> None:
        self._guard(self.device.write, sector, bytes(buff[:count]))

    def _guard(self, action, *args):
        try:
            return action(*args)
        except OSError as error:
            self.failed = self.failed or error
            return None


def _atomic(method):
    """The blocks the call writes reach the device as one transaction."""
    @functools.wraps(method)
    def call(self, *args):
        self.device.begin()
        try:
            result = method(self, *args)
        finally:
            try:
                self.device.commit()
            except OSError:
                result = -errno.EIO
        return result
    return call


@dataclass
class _Node:
    """What the open descriptors of one file share."""

    path: str
    size: int
    version: int = 0          # bumped by every write: other descriptors reload their buffer


@dataclass
class _Open:
    node: _Node
    handle: object            # fatfs FIL_Handle
    readable: bool
    writable: bool
    append: bool
    position: int = 0
    seen: int = 0


class FatFileSystem:
    """FAT on a block device, mounted for as long as this object lives (`shutdown`)."""

    def __init__(self, device: BlockDevice, max_open_per_task: int = 32,
                 location: str | None = None) -> None:
        import fatfs.wrapper as ff
        self._ff = ff
        self.device = device
        self.location = location or f"fat:{device.location}"
        self._disk = _Disk(device)
        try:
            self._partition = ff.Partition(self._disk)
        except ff.FatFSException:
            raise FatError(f"{device.location}: too many FAT volumes mounted at once "
                           f"(FatFs has room for 10)") from None
        result = ff.pyf_mount(self._partition.fs, self._partition.pname, 1)
        if result != 0:
            self._partition.unmount()
            raise FatError(f"{device.location}: no FAT12/16/32 volume on it")
        self._files: Descriptors[_Open] = Descriptors(max_open_per_task)
        self._nodes: dict[str, _Node] = {}

    # -- descriptors ---------------------------------------------------------------------------
    @_atomic
    def open(self, pid: int, path: str, flags: int = 0) -> int:
        name = self._path(path)
        if isinstance(name, int) or name == "/":
            return -errno.EINVAL if not isinstance(name, int) else name
        if self._files.full(pid):
            return -errno.EMFILE
        flags, readable, writable = access_of(flags)
        info = self._stat(name)
        if isinstance(info, int) and info != -errno.ENOENT:
            return info
        if not isinstance(info, int) and info[0]:
            return -errno.EISDIR
        if isinstance(info, int) and not flags & O_CREAT:
            return -errno.ENOENT
        ff = self._ff
        mode = (ff.PY_FA_READ if readable else 0) | (ff.PY_FA_WRITE if writable else 0)
        handle = ff.FIL_Handle()
        result = self._call(ff.pyf_open, handle, self._raw(name), mode | ff.PY_FA_OPEN_ALWAYS)
        if result < 0:
            return result
        node = self._node(name, 0 if isinstance(info, int) else info[1])
        if flags & O_TRUNC and writable and node.size:
            result = self._call(ff.pyf_truncate, handle)
            node.size, node.version = 0, node.version + 1
        if result >= 0:
            result = self._call(ff.pyf_sync, handle)
        if result < 0:
            ff.pyf_close(handle)
            return result
        return self._files.add(pid, _Open(node, handle, readable, writable, bool(flags & O_APPEND),
                                          seen=node.version))

    def read(self, pid: int, fd: int, length: int) -> bytes | int:
        file = self._files.get(pid, fd)
        if file is None or not file.readable:
            return -errno.EBADF
        length = min(max(0, length), file.node.size - file.position)
        if length <= 0:
            return b""
        if (result := self._refresh(file)) < 0 or (
                result := self._call(self._ff.pyf_lseek, file.handle, file.position)) < 0:
            return result
        self._disk.failed = None
        status, data = self._ff.pyf_read(file.handle, length)
        if status or self._disk.failed:
            return self._error(status)
        file.position += len(data)
        return bytes(data)

    @_atomic
    def write(self, pid: int, fd: int, data: bytes) -> int:
        file = self._files.get(pid, fd)
        if file is None or not file.writable:
            return -errno.EBADF
        node = file.node
        if file.append:
            file.position = node.size
        gap = file.position - node.size          # past the end: zeros first, as a host file
        start = node.size if gap > 0 else file.position
        if (result := self._refresh(file)) < 0 or (
                result := self._call(self._ff.pyf_lseek, file.handle, start)) < 0:
            return result
        payload = bytes(max(0, gap)) + bytes(data)
        written = 0
        for offset in range(0, len(payload), WRITE_CHUNK):
            chunk = payload[offset:offset + WRITE_CHUNK]
            result = self._call(self._ff.pyf_write, file.handle, chunk)
            if result < 0:
                break
            written += result
            if result < len(chunk):
                result = -errno.ENOSPC        # FatFs reports a full volume as a short write
                break
        else:
            result = 0
        node.size = max(node.size, start + written)
        node.version += 1
        file.seen = node.version
        file.position = start + written
        synced = self._call(self._ff.pyf_sync, file.handle)
        if result < 0 or synced < 0:
            return result if result < 0 else synced
        return len(data)

    def seek(self, pid: int, fd: int, offset: int, whence: int) -> int:
        """Move the file position (as lseek); a position past the end is allowed, and a
        write there fills the gap with zeros."""
        file = self._files.get(pid, fd)
        if file is None:
            return -errno.EBADF
        bases = {SEEK_SET: 0, SEEK_CUR: file.position, SEEK_END: file.node.size}
        if whence not in bases or bases[whence] + offset < 0:
            return -errno.EINVAL
        file.position = bases[whence] + offset
        return file.position

    @_atomic
    def close(self, pid: int, fd: int) -> int:
        file = self._files.pop(pid, fd)
        if file is None:
            return -errno.EBADF
        return self._close(file)

    def open_count(self, pid: int) -> int:
        return self._files.count(pid)

    @_atomic
    def release_task(self, pid: int) -> None:
        for file in self._files.release(pid):
            self._close(file)

    def shutdown(self) -> None:
        """Close every file, unmount and close the device (a second call does nothing)."""
        if self._partition is None:
            return
        self._close_all()
        self._partition.unmount()
        self._partition = None
        self.device.sync()
        self.device.close()

    @_atomic
    def _close_all(self) -> None:
        for file in self._files.all():
            self._close(file)

    # -- directory operations --------------------------------------------------------------------
    def listdir(self, path: str = "/") -> bytes | int:
        name = self._path(path)
        if isinstance(name, int):
            return name
        info = self._stat(name) if name != "/" else (True, 0)
        if isinstance(info, int):
            return info
        if not info[0]:
            return -errno.ENOTDIR
        ff = self._ff
        directory, entry = ff.DIR_Handle(), ff.FILINFO_Handle()
        result = self._call(ff.pyf_opendir, directory, self._raw(name))
        if result < 0:
            return result
        entries = []
        try:
            while (result := self._call(ff.pyf_readdir, directory, entry)) >= 0:
                found = entry.get_name()
                if not found:
                    break
                entries.append((found, entry.is_directory()))
        finally:
            ff.pyf_closedir(directory)
        return result if result < 0 else listing(iter(entries))

    @_atomic
    def delete(self, path: str) -> int:
        name = self._path(path)
        if isinstance(name, int) or name == "/":
            return -errno.EINVAL if not isinstance(name, int) else name
        if self._in_use(name):
            return -errno.EBUSY
        info = self._stat(name)
        if isinstance(info, int):
            return info
        result = self._call(self._ff.pyf_unlink, self._raw(name))
        if result == -errno.EACCES and info[0]:
            return -errno.ENOTEMPTY
        return result

    @_atomic
    def mkdir(self, path: str) -> int:
        name = self._path(path)
        if isinstance(name, int) or name == "/":
            return -errno.EINVAL if not isinstance(name, int) else name
        return self._call(self._ff.pyf_mkdir, self._raw(name))

    @_atomic
    def rename(self, old: str, new: str) -> int:
        source, target = self._path(old), self._path(new)
        for name in (source, target):
            if isinstance(name, int) or name == "/":
                return -errno.EINVAL if not isinstance(name, int) else name
        if self._in_use(source):
            return -errno.EBUSY
        if isinstance(info := self._stat(source), int):
            return info
        if not isinstance(self._stat(target), int):
            return -errno.EEXIST
        if info[0] and (target + "/").upper().startswith(source.upper() + "/"):
            return -errno.EINVAL                # a directory into itself
        return self._call(self._ff.pyf_rename, self._raw(source), self._raw(target))

    # -- helpers -----------------------------------------------------------------------------------
    def _path(self, guest_path: str) -> str | int:
        """The normalized path, or -EINVAL / -ENAMETOOLONG."""
        name = normalize(guest_path)
        if name is None or not name.isascii():
            return -errno.EINVAL
        if any(len(part) > MAX_NAME for part in name.split("/")):
            return -errno.ENAMETOOLONG
        return name

    def _raw(self, name: str) -> bytes:
        return self._partition.pname + name.encode("ascii")

    def _stat(self, name: str) -> tuple[bool, int] | int:
        """(is a directory, size) or a negative errno (-ENOENT when it does not exist)."""
        entry = self._ff.FILINFO_Handle()
        result = self._call(self._ff.pyf_stat, self._raw(name), entry)
        return result if result < 0 else (bool(entry.is_directory()), entry.get_size())

    def _node(self, name: str, size: int) -> _Node:
        key = name.upper()
        node = self._nodes.get(key)
        if node is None:
            node = self._nodes[key] = _Node(name, size)
        return node

    def _in_use(self, name: str) -> bool:
        """Is the file, or anything under the directory, open?"""
        key = name.upper()
        return any(node == key or node.startswith(key + "/")
                   for node in {f.node.path.upper() for f in self._files.all()})

    def _refresh(self, file: _Open) -> int:
        """Another descriptor wrote this file: reopen, so FatFs drops its stale buffer."""
        if file.seen == file.node.version:
            return 0
        ff = self._ff
        ff.pyf_close(file.handle)
        mode = (ff.PY_FA_READ if file.readable else 0) | (ff.PY_FA_WRITE if file.writable else 0)
        file.handle = ff.FIL_Handle()
        file.seen = file.node.version
        return self._call(ff.pyf_open, file.handle, self._raw(file.node.path),
                          mode | ff.PY_FA_OPEN_EXISTING)

    def _close(self, file: _Open) -> int:
        result = self._call(self._ff.pyf_close, file.handle)
        if not any(f.node is file.node for f in self._files.all()):
            self._nodes.pop(file.node.path.upper(), None)
        return result

    def _call(self, function, *args) -> int:
        """A FatFs call's result: 0 or a count, or a negative errno (a device error that
        FatFs could not see counts as -EIO)."""
        self._disk.failed = None
        try:
            result = function(*args)
        except self._ff.FatFSException as error:
            return self._error(error.code)
        status, count = result if isinstance(result, tuple) else (result, 0)
        if status or self._disk.failed:
            return self._error(status)
        return count

    def _error(self, status: int) -> int:
        if self._disk.failed is not None or not status:
            return -errno.EIO
        return -_ERRNO.get(status, errno.EIO)
