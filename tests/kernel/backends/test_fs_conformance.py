"""Every FileSystem backend behaves as SVC module 0x04 promises (docs/syscalls.md): one
suite, run once per backend (host directory, FAT12/16/32 image, files over CAN)."""
import errno

import pytest
from fskit import FS_BACKENDS, file_system

from hsx.kernel.filesystems import (O_APPEND, O_CREAT, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY,
                                    SEEK_CUR, SEEK_END, SEEK_SET)


@pytest.fixture(params=FS_BACKENDS)
def fs(request, tmp_path):
    with file_system(request.param, tmp_path, max_open=3) as fs:
        yield fs


def write_file(fs, path, data, pid=1):
    fd = fs.open(pid, path, O_WRONLY | O_CREAT | O_TRUNC)
    assert fd >= 3, fd
    assert fs.write(pid, fd, data) == len(data)
    assert fs.close(pid, fd) == 0


def read_file(fs, path, pid=1):
    fd = fs.open(pid, path, O_RDONLY)
    assert fd >= 3, fd
    chunks = []
    while chunk := fs.read(pid, fd, 4096):
        assert not isinstance(chunk, int), chunk
        chunks.append(chunk)
    assert fs.close(pid, fd) == 0
    return b"".join(chunks)


def test_write_then_read_back(fs):
    fd = fs.open(1, "log.txt", O_RDWR | O_CREAT)
    assert fd == 3
    assert fs.write(1, fd, b"hello") == 5
    assert fs.close(1, fd) == 0
    fd = fs.open(1, "/log.txt", O_RDONLY)      # leading slash = the root
    assert fs.read(1, fd, 100) == b"hello"
    assert fs.read(1, fd, 100) == b""          # end of file


def test_a_large_file_with_a_long_name_in_nested_directories(fs):
    data = bytes(range(256)) * 600            # 150 KiB: many clusters, many ISO-TP blocks
    assert fs.mkdir("Deep") == 0 and fs.mkdir("/Deep/Er") == 0
    write_file(fs, "Deep/Er/A file with a rather long name.data", data)
    assert read_file(fs, "/Deep/./Er/../Er/A file with a rather long name.data") == data
    assert fs.listdir("Deep/Er") == b"A file with a rather long name.data"


@pytest.mark.parametrize("path", ["../../etc/passwd", "a/../../x", "C:/windows/system32",
                                  "", "/"])
def test_escapes_and_bad_paths_are_refused(fs, path):
    assert fs.open(1, path) == -errno.EINVAL


def test_flags_are_honoured(fs):
    assert fs.open(1, "missing", O_RDONLY) == -errno.ENOENT
    fd = fs.open(1, "f", O_WRONLY | O_CREAT)
    assert fs.write(1, fd, b"abc") == 3
    assert fs.read(1, fd, 1) == -errno.EBADF   # write-only
    reader = fs.open(1, "f", O_RDONLY)
    assert fs.write(1, reader, b"x") == -errno.EBADF
    assert fs.close(1, reader) == 0
    appender = fs.open(1, "f", O_WRONLY | O_APPEND)
    assert fs.write(1, appender, b"def") == 3
    assert fs.close(1, appender) == 0 and fs.close(1, fd) == 0
    assert read_file(fs, "f") == b"abcdef"
    fd = fs.open(1, "f", O_WRONLY | O_TRUNC)
    assert fd >= 3 and fs.write(1, fd, b"z") == 1 and fs.close(1, fd) == 0
    assert read_file(fs, "f") == b"z"


def test_legacy_zero_flags_create_read_write(fs):
    fd = fs.open(1, "new.txt", 0)
    assert fd >= 3 and fs.write(1, fd, b"x") == 1
    assert fs.seek(1, fd, 0, SEEK_SET) == 0 and fs.read(1, fd, 5) == b"x"
    assert fs.listdir("/") == b"new.txt"


def test_descriptors_are_per_task_and_bounded(fs):
    fds = [fs.open(1, f"f{i}", O_CREAT | O_RDWR) for i in range(3)]
    assert fds == [3, 4, 5]
    assert fs.open(1, "f3", O_CREAT | O_RDWR) == -errno.EMFILE
    assert fs.read(2, 3, 1) == -errno.EBADF     # task 2 cannot use task 1's fd
    assert fs.close(1, 99) == -errno.EBADF
    fs.release_task(1)
    assert fs.read(1, 3, 1) == -errno.EBADF
    assert fs.open(1, "f0") == 3


def test_directory_operations(fs):
    assert fs.mkdir("sub") == 0
    assert fs.mkdir("sub") == -errno.EEXIST
    assert fs.mkdir("no/such/parent") == -errno.ENOENT
    write_file(fs, "sub/a", b"1")
    assert fs.listdir("/") == b"sub/"
    assert fs.listdir("sub") == b"a"
    assert fs.listdir("sub/a") == -errno.ENOTDIR
    assert fs.listdir("nothere") == -errno.ENOENT
    assert fs.open(1, "sub") == -errno.EISDIR
    assert fs.delete("sub") == -errno.ENOTEMPTY
    assert fs.rename("sub/a", "sub/b") == 0
    assert fs.rename("sub/a", "sub/c") == -errno.ENOENT
    write_file(fs, "other", b"2")
    assert fs.rename("other", "sub/b") == -errno.EEXIST
    assert fs.rename("other", "sub/moved") == 0
    assert fs.listdir("sub") == b"b\nmoved"
    assert fs.delete("sub/b") == 0 and fs.delete("sub/moved") == 0
    assert fs.delete("sub/b") == -errno.ENOENT
    assert fs.delete("sub") == 0
    assert fs.delete("../x") == -errno.EINVAL
    assert fs.listdir("/") == b""


def test_seek_moves_the_position(fs):
    fd = fs.open(1, "s", O_RDWR | O_CREAT)
    fs.write(1, fd, b"0123456789")
    assert fs.seek(1, fd, 2, SEEK_SET) == 2
    assert fs.read(1, fd, 3) == b"234"
    assert fs.seek(1, fd, -1, SEEK_CUR) == 4
    assert fs.read(1, fd, 1) == b"4"
    assert fs.seek(1, fd, -2, SEEK_END) == 8
    assert fs.read(1, fd, 10) == b"89"
    assert fs.seek(1, fd, 12, SEEK_SET) == 12          # past the end: a write fills zeros
    assert fs.write(1, fd, b"x") == 1
    assert fs.seek(1, fd, -1, SEEK_SET) == -errno.EINVAL
    assert fs.seek(1, fd, 0, 7) == -errno.EINVAL
    assert fs.seek(1, 99, 0, SEEK_SET) == -errno.EBADF
    assert fs.close(1, fd) == 0
    assert read_file(fs, "s") == b"0123456789\0\0x"


def test_an_overwrite_in_the_middle_keeps_the_rest(fs):
    write_file(fs, "m", b"A" * 5000)
    fd = fs.open(1, "m", O_RDWR)
    assert fs.seek(1, fd, 4000, SEEK_SET) == 4000 and fs.write(1, fd, b"B" * 2000) == 2000
    assert fs.close(1, fd) == 0
    assert read_file(fs, "m") == b"A" * 4000 + b"B" * 2000
