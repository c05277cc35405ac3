"""The C executive's FAT file system (port/c/fs/hsx_fat.c over ChaN's FatFs, fetched from
PyPI when the host board is built with it): every file SVC answers as the Python
executive's FAT backend does (the same guest, run under both, prints the same), what a
guest writes an independent implementation (pyfatfs) reads and fsck.fat passes, what
pyfatfs writes a guest reads, and a guest killed while it writes leaves a volume that
mounts with everything it had synced."""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hostkit import build_image

from hsx.board.build import BuildError, find_or_build

sys.path.insert(0, str(Path(__file__).parents[1] / "kernel" / "backends"))
from fskit import HAVE_FSCK, fsck_path, make_image  # noqa: E402

PROGRAMS = Path(__file__).parent / "programs"
READER = r"""
#include <hsx_fs.h>
#include <stdio.h>
int main(void) {
    char buf[128];
    int fd = hsx_fs_open("/From Host/Greeting Message.txt", HSX_O_RDONLY);
    int n = hsx_fs_read(fd, buf, sizeof buf);
    printf("read %d [%.*s]\n", n, n, buf);
    return 0;
}
"""
WRITER = r"""
#include <hsx_fs.h>
#include <stdio.h>
int main(void) {
    char line[64];
    int fd = hsx_fs_open("/Endless Log File.txt", HSX_O_WRONLY | HSX_O_CREAT | HSX_O_TRUNC);
    for (int i = 0;; i++) {
        int n = sprintf(line, "line %06d of a log that never ends\n", i);
        hsx_fs_write(fd, line, n);
        printf("%d\n", (i + 1) * n);
        fflush(stdout);
    }
}
"""


@pytest.fixture(scope="module")
def fat_board():
    try:
        return find_or_build("development", fat=True)
    except BuildError as error:
        pytest.skip(f"the host board with the FAT file system cannot be built here: {error}")


def compiled(tmp_path: Path, name: str, source: str | None = None) -> Path:
    """tests/port/programs/NAME.c, or `source`, built as hsx cc -O2 builds it."""
    path = tmp_path / f"{name}.c"
    path.write_text(source if source is not None else (PROGRAMS / f"{name}.c").read_text())
    return build_image(path, tmp_path)


def on_the_board(board: Path, program: Path, image: Path) -> str:
    done = subprocess.run([str(board), "--run", str(program), "--fat", str(image)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def contents(image: Path) -> dict[str, bytes]:
    """Every file on the image and its bytes, read by pyfatfs."""
    from pyfatfs.PyFatFS import PyFatFS
    independent = PyFatFS(str(image), read_only=True)
    try:
        return {path: independent.readbytes(path) for path in independent.walk.files()}
    finally:
        independent.close()


@pytest.mark.parametrize("fat_type", [12, 16, 32])
def test_every_file_svc_answers_as_the_python_executives_fat_backend(fat_board, tmp_path,
                                                                     fat_type):
    tour = compiled(tmp_path, "fs_tour")
    python_image = make_image(tmp_path / "python.img", fat_type)
    c_image = make_image(tmp_path / "c.img", fat_type)
    python = subprocess.run([sys.executable, "-m", "hsx", "run", "--fs", f"fat:{python_image}",
                             str(tour)], capture_output=True, text=True, timeout=300)
    assert python.returncode == 0, python.stderr
    assert on_the_board(fat_board, tour, c_image) == python.stdout
    assert contents(c_image) == contents(python_image) == {
        "/Logs/A long name, with spaces.txt": b"01234567xyz!"}
    if HAVE_FSCK:
        done = subprocess.run([fsck_path(), "-n", str(c_image)], capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stdout + done.stderr


def test_every_file_svc_answers_alike_on_a_host_directory(fat_board, tmp_path):
    """The same tour on the other file system both executives have: a host directory."""
    tour = compiled(tmp_path, "fs_tour")
    python = subprocess.run([sys.executable, "-m", "hsx", "run", "--fs",
                             f"host:{tmp_path / 'python'}", str(tour)], capture_output=True,
                            text=True, timeout=300)
    assert python.returncode == 0, python.stderr
    board = subprocess.run([str(fat_board), "--run", str(tour), "--root", str(tmp_path / "c")],
                           capture_output=True, text=True, timeout=120)
    assert board.stdout == python.stdout
    files = lambda root: {str(p.relative_to(root)): p.read_bytes()       # noqa: E731
                          for p in root.rglob("*") if p.is_file()}
    assert files(tmp_path / "c") == files(tmp_path / "python")


def test_what_pyfatfs_writes_a_guest_on_the_board_reads(fat_board, tmp_path):
    from pyfatfs.PyFatFS import PyFatFS
    image = make_image(tmp_path / "card.img", 16)
    independent = PyFatFS(str(image))
    independent.makedir("/From Host")
    independent.writebytes("/From Host/Greeting Message.txt", b"hello from pyfatfs")
    independent.close()
    out = on_the_board(fat_board, compiled(tmp_path, "reader", READER), image)
    assert out == "read 18 [hello from pyfatfs]\n"


def test_a_guest_killed_while_writing_leaves_a_volume_with_what_it_synced(fat_board,
                                                                        tmp_path):
    """Each write is on the device before the SVC returns: after a SIGKILL between any
    two, pyfatfs mounts the image and the file holds at least what the guest had been
    told was written, and nothing but the log's own lines."""
    image = make_image(tmp_path / "card.img", 16)
    writer = compiled(tmp_path, "writer", WRITER)
    board = subprocess.Popen([str(fat_board), "--run", str(writer), "--fat", str(image)],
                             stdout=subprocess.PIPE, text=True)
    try:
        reported = 0
        while reported < 20_000:                    # dozens of writes, some clusters
            line = board.stdout.readline()
            assert line, "the writer stopped"
            reported = int(line)
        board.send_signal(signal.SIGKILL)
    finally:
        board.kill()
        board.wait()
    log = contents(image)["/Endless Log File.txt"]
    expected = b"".join(b"line %06d of a log that never ends\n" % i
                        for i in range(len(log) // 36 + 2))
    assert len(log) >= reported and expected.startswith(log)


def test_an_image_without_fat_is_refused_naming_it(fat_board, tmp_path):
    blank = tmp_path / "blank.img"
    blank.write_bytes(bytes(1 << 20))
    done = subprocess.run([str(fat_board), "--run", str(compiled(tmp_path, "reader", READER)),
                           "--fat", str(blank)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert f"{blank}: no FAT file system on it" in done.stderr
