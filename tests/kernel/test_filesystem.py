"""The sandboxed file system: files work, escapes are refused, tasks are isolated."""
import errno

import pytest

from hsx.kernel.filesystems import O_APPEND, O_CREAT, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY, SandboxFS


@pytest.fixture
def fs(tmp_path):
    return SandboxFS(tmp_path / "root", max_open_per_task=3)


def test_write_then_read_back(fs):
    fd = fs.open(1, "data/log.txt".replace("data/", ""), O_RDWR | O_CREAT)
    assert fd == 3
    assert fs.write(1, fd, b"hello") == 5
    assert fs.close(1, fd) == 0
    fd = fs.open(1, "/log.txt", O_RDONLY)      # leading slash = sandbox root
    assert fs.read(1, fd, 100) == b"hello"
    assert fs.read(1, fd, 100) == b""          # EOF


@pytest.mark.parametrize("path", ["../../etc/passwd", "a/../../x", "C:/windows/system32",
                                  "", "/"])
def test_escapes_and_bad_paths_are_refused(fs, path):
    assert fs.open(1, path) == -errno.EINVAL


def test_unc_style_paths_stay_inside_the_sandbox(fs):
    assert fs.resolve(r"\\network\share") == fs.root / "network" / "share"


def test_symlink_out_of_the_sandbox_is_refused(fs, tmp_path):
    outside = tmp_path / "secret"
    outside.write_text("x")
    (fs.root / "link").symlink_to(outside)
    assert fs.open(1, "link") == -errno.EINVAL


def test_flags_are_honoured(fs):
    assert fs.open(1, "missing", O_RDONLY) == -errno.ENOENT
    fd = fs.open(1, "f", O_WRONLY | O_CREAT)
    fs.write(1, fd, b"abc")
    assert fs.read(1, fd, 1) == -errno.EBADF   # write-only
    fd2 = fs.open(1, "f", O_WRONLY | O_APPEND)
    fs.write(1, fd2, b"def")
    assert (fs.root / "f").read_bytes() == b"abcdef"
    fs.close(1, fd2)
    fd3 = fs.open(1, "f", O_WRONLY | O_TRUNC)
    assert (fs.root / "f").read_bytes() == b""
    assert fs.write(1, fd3, b"z") == 1


def test_legacy_zero_flags_create_read_write(fs):
    fd = fs.open(1, "new.txt", 0)
    assert fd >= 3 and fs.write(1, fd, b"x") == 1 and (fs.root / "new.txt").exists()


def test_descriptors_are_per_task_and_bounded(fs):
    fds = [fs.open(1, f"f{i}", O_CREAT | O_RDWR) for i in range(3)]
    assert fds == [3, 4, 5]
    assert fs.open(1, "f3", O_CREAT | O_RDWR) == -errno.EMFILE
    assert fs.read(2, 3, 1) == -errno.EBADF     # task 2 cannot use task 1's fd
    fs.release_task(1)
    assert fs.open_count(1) == 0
    assert fs.open(1, "f0") == 3


def test_directory_operations(fs):
    assert fs.mkdir("sub") == 0
    assert fs.mkdir("sub") == -errno.EEXIST
    fd = fs.open(1, "sub/a", O_CREAT | O_RDWR)
    fs.close(1, fd)
    assert fs.listdir("/") == b"sub/"
    assert fs.listdir("sub") == b"a"
    assert fs.rename("sub/a", "sub/b") == 0
    assert fs.rename("sub/a", "sub/c") == -errno.ENOENT
    assert fs.delete("sub/b") == 0
    assert fs.delete("sub") == 0
    assert fs.delete("../x") == -errno.EINVAL
    assert fs.listdir("nothere") == -errno.ENOENT


def test_seek_moves_the_position(fs):
    from hsx.kernel.filesystems import SEEK_CUR, SEEK_END, SEEK_SET
    fd = fs.open(1, "s", O_RDWR | O_CREAT)
    fs.write(1, fd, b"0123456789")
    assert fs.seek(1, fd, 2, SEEK_SET) == 2
    assert fs.read(1, fd, 3) == b"234"
    assert fs.seek(1, fd, -1, SEEK_CUR) == 4
    assert fs.read(1, fd, 1) == b"4"
    assert fs.seek(1, fd, -2, SEEK_END) == 8
    assert fs.read(1, fd, 10) == b"89"
    assert fs.seek(1, fd, 12, SEEK_SET) == 12          # past the end: a write fills zeros
    fs.write(1, fd, b"x")
    assert (fs.root / "s").read_bytes() == b"0123456789\0\0x"
    assert fs.seek(1, fd, -1, SEEK_SET) == -errno.EINVAL
    assert fs.seek(1, fd, 0, 7) == -errno.EINVAL
    assert fs.seek(1, 99, 0, SEEK_SET) == -errno.EBADF


def test_a_kernel_without_a_root_has_a_sandbox_of_its_own_removed_with_it():
    import gc

    from hsx.kernel.executive import Kernel

    first, second = Kernel(), Kernel()
    root = first.fs.root
    assert root.is_dir() and root != second.fs.root
    (root / "left.txt").write_text("by a task")
    del first
    gc.collect()
    assert not root.exists() and second.fs.root.is_dir()
