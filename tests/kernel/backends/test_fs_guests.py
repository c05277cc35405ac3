"""A guest program under `hsx run --fs …` sees the same files through every file-system
backend; files a guest writes on an SD card image are read back by an independent FAT
implementation (pyfatfs) and fsck.fat finds no error, and files pyfatfs puts on an image
are read by the guest."""
import subprocess

import pytest
from click.testing import CliRunner
from fskit import HAVE_FSCK, can_server, fsck_path, make_image

from hsx.cli.main import cli

GUEST = r"""
#include <hsx_fs.h>
#include <stdio.h>

int main(void) {
    char buf[256];
    int fd = hsx_fs_open("/From Host/Greeting Message.txt", HSX_O_RDONLY);
    int n = hsx_fs_read(fd, buf, sizeof buf);
    printf("read %d [%.*s]\n", n, n, buf);
    hsx_fs_close(fd);
    printf("mkdir %d\n", hsx_fs_mkdir("/Guest Output"));
    fd = hsx_fs_open("/Guest Output/A Rather Long Result Name.log",
                     HSX_O_WRONLY | HSX_O_CREAT | HSX_O_TRUNC);
    for (int i = 0; i < 300; i++) {
        n = sprintf(buf, "line %d of the guest's log\n", i);
        hsx_fs_write(fd, buf, n);
    }
    printf("close %d\n", hsx_fs_close(fd));
    n = hsx_fs_listdir("/", buf, sizeof buf);
    printf("list [%.*s]\n", n, buf);
    return 0;
}
"""
GREETING = b"hello from the host"
EXPECTED_OUT = [f"read {len(GREETING)} [{GREETING.decode()}]", "mkdir 0", "close 0",
                "list [From Host/", "Guest Output/]", ""]
EXPECTED_LOG = b"".join(b"line %d of the guest's log\n" % i for i in range(300))
LOG = "/Guest Output/A Rather Long Result Name.log"


@pytest.fixture(scope="module")
def guest(tmp_path_factory):
    source = tmp_path_factory.mktemp("guest") / "guest.c"
    source.write_text(GUEST)
    result = CliRunner().invoke(cli, ["cc", "-O2", str(source), "-o",
                                      str(source.with_suffix(".hxe"))])
    assert result.exit_code == 0, result.output
    return source.with_suffix(".hxe")


def run_guest(guest, fs_spec):
    result = CliRunner().invoke(cli, ["run", str(guest), "--fs", fs_spec])
    assert result.exit_code == 0, result.output + result.stderr
    assert result.stdout.split("\n") == EXPECTED_OUT


def seed_directory(root):
    (root / "From Host").mkdir(parents=True)
    (root / "From Host" / "Greeting Message.txt").write_bytes(GREETING)


def test_host_directory(guest, tmp_path):
    seed_directory(tmp_path / "files")
    run_guest(guest, f"host:{tmp_path / 'files'}")
    assert (tmp_path / "files" / LOG.lstrip("/")).read_bytes() == EXPECTED_LOG


def test_files_over_can(guest, tmp_path):
    from hsx.kernel.filesystems import SandboxFS
    seed_directory(tmp_path / "served")
    with can_server(SandboxFS(tmp_path / "served")) as (_server, channel):
        run_guest(guest, f"can:{channel}")      # hsx run's executive is the client
    assert (tmp_path / "served" / LOG.lstrip("/")).read_bytes() == EXPECTED_LOG


@pytest.mark.parametrize("fat_type", [12, 16, 32])
def test_what_a_guest_writes_on_an_image_pyfatfs_reads_and_fsck_passes(guest, tmp_path,
                                                                      fat_type):
    from pyfatfs.PyFatFS import PyFatFS
    image = make_image(tmp_path / "card.img", fat_type)
    greeting = tmp_path / "greeting.txt"
    greeting.write_bytes(GREETING)
    assert hsx_fs("mkdir", f"{image}:/From Host").exit_code == 0
    assert hsx_fs("cp", str(greeting), f"{image}:/From Host/Greeting Message.txt").exit_code == 0
    run_guest(guest, f"fat:{image}")
    independent = PyFatFS(str(image), read_only=True)
    try:
        assert independent.readbytes(LOG) == EXPECTED_LOG
        assert sorted(independent.listdir("/")) == ["From Host", "Guest Output"]
    finally:
        independent.close()
    if HAVE_FSCK:                 # test_fat_cuts.py also runs it, and says when it is missing
        done = subprocess.run([fsck_path(), "-n", str(image)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("fat_type", [12, 16, 32])
def test_what_pyfatfs_writes_on_an_image_a_guest_reads(guest, tmp_path, fat_type):
    """(pyfatfs leaves FAT32's free-cluster hint stale, so fsck is not asked here.)"""
    from pyfatfs.PyFatFS import PyFatFS
    image = make_image(tmp_path / "card.img", fat_type)
    independent = PyFatFS(str(image))
    independent.makedir("/From Host")
    independent.writebytes("/From Host/Greeting Message.txt", GREETING)
    independent.close()
    run_guest(guest, f"fat:{image}")
    assert hsx_fs("ls", str(image), "/Guest Output").stdout == \
        "A Rather Long Result Name.log\n"


def hsx_fs(*args):
    return CliRunner().invoke(cli, ["fs", *args])
