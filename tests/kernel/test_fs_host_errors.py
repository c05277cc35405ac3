"""Guest file-system calls that fail on the host fail that one call with an errno status;
the task goes on and no other task notices (issue 17, group 3)."""
from __future__ import annotations

import errno
from pathlib import Path

import pytest

from hsx.kernel.filesystems import O_CREAT, O_RDWR, SandboxFS
from hsx.kernel.states import TaskState


@pytest.fixture
def fs(tmp_path):
    return SandboxFS(tmp_path / "root")


def _open_with_data(fs) -> int:
    fd = fs.open(1, "victim.txt", O_RDWR | O_CREAT)
    assert fs.write(1, fd, b"data") == 4
    return fd


def test_a_name_longer_than_the_host_allows(fs):
    assert fs.open(1, "a" * 300, O_RDWR | O_CREAT) == -errno.ENAMETOOLONG
    assert fs.mkdir("d" * 300) == -errno.ENAMETOOLONG
    assert fs.listdir("l" * 300) in (-errno.ENAMETOOLONG, -errno.ENOENT)
    assert fs.rename("x", "y" * 300) in (-errno.ENAMETOOLONG, -errno.ENOENT)


def test_a_file_deleted_underneath_an_open_descriptor(fs):
    fd = _open_with_data(fs)
    (fs.root / "victim.txt").unlink()
    assert fs.read(1, fd, 10) == -errno.ENOENT
    assert fs.write(1, fd, b"more") == -errno.ENOENT
    assert fs.close(1, fd) == 0


def test_a_file_replaced_by_a_directory(fs):
    fd = _open_with_data(fs)
    (fs.root / "victim.txt").unlink()
    (fs.root / "victim.txt").mkdir()
    assert fs.read(1, fd, 10) == -errno.EISDIR
    assert fs.write(1, fd, b"x") == -errno.EISDIR


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EACCES, errno.EROFS])
def test_full_disk_and_permission_denied(fs, monkeypatch, error):
    fd = _open_with_data(fs)

    def refuse(self, *args, **kwargs):
        raise OSError(error, "injected")

    monkeypatch.setattr(Path, "open", refuse)
    assert fs.write(1, fd, b"x") == -error
    assert fs.read(1, fd, 1) == -error
    monkeypatch.setattr(Path, "touch", refuse)
    assert fs.open(1, "new.txt", O_RDWR | O_CREAT) == -error
    monkeypatch.setattr(Path, "mkdir", refuse)
    assert fs.mkdir("dir") == -error


LONG_NAME = """
.data
name: .asciz "{name}"
buf: .zero 8
.text
.entry start
start:
    LDI32 R1, name
    LDI R2, 0
    SVC MOD=4, FN=0          ; open -> R0 = -ENAMETOOLONG
    MOV R5, R0
    LDI R1, 3
    LDI32 R2, buf
    LDI R3, 4
    SVC MOD=4, FN=1          ; read fd 3 (opened by the host below, then broken)
    MOV R6, R0
    LDI R1, 1
    LDI32 R2, name
    LDI R3, 2
    SVC MOD=4, FN=2          ; still alive: print two bytes
    MOV R0, R5
    SVC MOD=1, FN=0          ; exit with the open's status
"""

CANARY = """
.data
msg: .ascii "ok"
.text
.entry start
start:
    LDI R4, 50
again:
    LDI R1, 1
    LDI32 R2, msg
    LDI R3, 2
    SVC MOD=4, FN=2
    ADDI R4, R4, -1
    CMPI R4, 0
    BNE again
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def test_the_task_goes_on_and_the_canary_never_notices(harness):
    canary = harness.load(CANARY, "canary")
    task = harness.load(LONG_NAME.format(name="n" * 300), "victim")
    fs = harness.kernel.fs
    assert fs.open(task.pid, "gone.txt", O_RDWR | O_CREAT) == 3
    (fs.root / "gone.txt").unlink()         # deleted underneath the open descriptor
    outcome = harness.run()
    assert outcome.reason == "done"
    assert task.state is TaskState.RETURNED and canary.state is TaskState.RETURNED
    assert task.exit_status == -errno.ENAMETOOLONG & 0xFFFFFFFF
    assert task.ctx.regs[6] == -errno.ENOENT & 0xFFFFFFFF
    assert harness.text(task.pid) == "nn" and harness.text(canary.pid) == "ok" * 50


def test_a_bug_inside_a_syscall_fails_that_call_only(harness, monkeypatch):
    canary = harness.load(CANARY, "canary")
    task = harness.load(LONG_NAME.format(name="short"), "victim")

    def broken(*args, **kwargs):
        raise RuntimeError("injected bug")

    monkeypatch.setattr(harness.kernel.fs, "read", broken)
    harness.kernel.fs.open(task.pid, "f.txt", O_RDWR | O_CREAT)
    assert harness.run().reason == "done"
    assert task.ctx.regs[6] == -errno.EIO & 0xFFFFFFFF
    assert canary.state is TaskState.RETURNED and harness.text(canary.pid) == "ok" * 50
    errors = [e for e in harness.of("dmesg") if e.data.get("level") == "error"]
    assert errors and "injected bug" in errors[0].data["message"]
