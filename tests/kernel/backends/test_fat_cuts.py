"""A FAT image is never left damaged: not by a guest killed while it writes, not by the
executive's process killed at a random moment, not by a cut at any write of a call.
fsck.fat (Debian's dosfstools) checks every volume; without it these tests are skipped."""
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from execdkit import readline
from fskit import fsck_path, make_image, needs_fsck

from hsx.cli.main import cli
from hsx.kernel.blockdev import ImageBlockDevice
from hsx.kernel.filesystems import O_APPEND, O_CREAT, O_WRONLY
from hsx.kernel.filesystems.fat import FatFileSystem

pytestmark = needs_fsck

LINE = 64
LOG = "/Log/Cut Test.log"
WRITER = Path(__file__).parent / "programs" / "fat_writer.c"


def line(i: int) -> bytes:
    text = f"line {i:06d} of the cut test, padded to sixty-four bytes .......\n".encode()
    assert len(text) == LINE
    return text


def assert_clean(image: Path) -> None:
    done = subprocess.run([fsck_path(), "-n", str(image)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def read_log(image: Path) -> bytes:
    """The log, read by an independent FAT implementation."""
    from pyfatfs.PyFatFS import PyFatFS
    independent = PyFatFS(str(image), read_only=True)
    try:
        return independent.readbytes(LOG)
    finally:
        independent.close()


@pytest.fixture(scope="module")
def writer(tmp_path_factory):
    target = tmp_path_factory.mktemp("writer") / "fat_writer.hxe"
    result = CliRunner().invoke(cli, ["cc", "-O2", str(WRITER), "-o", str(target)])
    assert result.exit_code == 0, result.output
    return target


# -- a cut at each write, deterministically ------------------------------------------------------

class PowerCut(Exception):
    pass


class CuttingImage(ImageBlockDevice):
    """An image whose power goes after `budget` more writes to it or its journal."""

    budget: int | None = None

    def _put(self, fd, offset, data):
        if self.budget is not None:
            if self.budget <= 0:
                raise PowerCut
            self.budget -= 1
        super()._put(fd, offset, data)


def calls(fs):
    """Calls that allocate, extend, create, rename and delete: every kind of FAT update."""
    fd = fs.open(1, LOG, O_WRONLY | O_APPEND)
    fs.write(1, fd, line(1) * 50)
    other = fs.open(1, "/Log/Second File With A Long Name.txt", O_WRONLY | O_CREAT)
    fs.write(1, other, b"z" * 600)
    fs.close(1, other)
    fs.rename("/Log/Second File With A Long Name.txt", "/Renamed Elsewhere.txt")
    fs.delete("/Renamed Elsewhere.txt")
    fs.close(1, fd)


@pytest.mark.parametrize("fat_type", [12, 16, 32])
def test_a_cut_at_any_write_of_a_call_leaves_a_clean_volume(tmp_path, fat_type):
    base = make_image(tmp_path / "base.img", fat_type)
    fs = FatFileSystem(ImageBlockDevice(base))
    assert fs.mkdir("/Log") == 0
    fd = fs.open(1, LOG, O_WRONLY | O_CREAT)
    fs.write(1, fd, line(0))
    fs.shutdown()
    image = tmp_path / "cut.img"
    cut = 0
    while True:
        shutil.copy(base, image)
        device = CuttingImage(image)
        device.budget = cut
        fs = FatFileSystem(device)
        try:
            calls(fs)
            fs.shutdown()
            break                                   # the budget outlasted every call
        except PowerCut:
            fs._partition.unmount()                 # the process is gone: nothing more
            device.close()
        ImageBlockDevice(image).close()             # the next mount replays the journal
        assert not Path(f"{image}.journal").exists()
        assert_clean(image)
        assert read_log(image) in (line(0), line(0) + line(1) * 50), f"cut at write {cut}"
        cut += 1
    assert cut > 10                                 # the calls were cut into


# -- a guest killed by the executive ---------------------------------------------------------------

def test_a_guest_killed_while_writing_leaves_a_clean_volume(writer, tmp_path):
    from hsx.client.sync import Client
    image = make_image(tmp_path / "card.img", 16)
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0", "--echo",
                             "--fs", f"fat:{image}", "--load", str(writer)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = readline(proc.stdout)
        assert first.startswith("hsx execd listening on "), first
        host, port = first.split()[-1].rsplit(":", 1)
        acked = -1
        while acked < 100:                          # the guest is writing
            acked = int(readline(proc.stdout).split()[-1])
        with Client(host, int(port)) as client:
            client.open_session()
            client.request("kill", pid=1)
            client.request("shutdown")
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert_clean(image)
    log = read_log(image)
    assert len(log) % LINE == 0 and len(log) // LINE > acked
    assert log == b"".join(line(i) for i in range(len(log) // LINE))


# -- the executive's process killed at random moments ------------------------------------------------

def test_sigkill_at_random_points_loses_nothing_acknowledged(writer, tmp_path):
    rng = random.Random()
    image = make_image(tmp_path / "card.img", 32)
    acked = 0                                       # lines reported written, in all rounds
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    for _ in range(8):
        proc = subprocess.Popen([sys.executable, "-m", "hsx", "run", str(writer), "--fs",
                                 f"fat:{image}"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env)
        try:
            for _ in range(rng.randrange(1, 120)):
                assert int(readline(proc.stdout)) == acked
                acked += 1
            time.sleep(rng.uniform(0, 0.02))
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        for reported in proc.stdout.read().split():
            assert int(reported) == acked
            acked += 1
        proc.stdout.close()
        listed = CliRunner().invoke(cli, ["fs", "ls", str(image), "/Log"])   # replays a journal
        assert listed.exit_code == 0, listed.output
        names = listed.stdout.splitlines()       # (the cut may come between the temporary
        assert "Cut Test.log" in names           # file's creation and its deletion)
        assert set(names) <= {"Cut Test.log", "Temporary Entry.tmp"}, names
        assert_clean(image)
        log = read_log(image)
        assert len(log) in (acked * LINE, (acked + 1) * LINE), (len(log), acked)
        assert log == b"".join(line(i) for i in range(len(log) // LINE))
        acked = len(log) // LINE                    # the next round goes on from there
