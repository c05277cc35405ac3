"""`hsx fs`: making, listing and copying SD card images, and serving files over CAN."""
import errno
import os
import signal
import threading

import pytest
from click.testing import CliRunner
from fskit import HAVE_FSCK, fsck_path

from hsx.cli.main import cli


def hsx_fs(*args):
    result = CliRunner().invoke(cli, ["fs", *[str(a) for a in args]])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("size, fat_type, expected", [
    ("1M", "auto", "FAT12"), ("8M", "auto", "FAT16"), ("40M", "32", "FAT32"),
    ("1.5M", "12", "FAT12"), ("600M", "auto", "FAT32")])
def test_mkfs_makes_the_type_asked_for(tmp_path, size, fat_type, expected):
    import subprocess
    image = tmp_path / "card.img"
    code, out, err = hsx_fs("mkfs", image, "--size", size, "--type", fat_type)
    assert code == 0, err
    assert out.startswith(f"{image}: {expected}, ")
    if HAVE_FSCK:
        done = subprocess.run([fsck_path(), "-n", str(image)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("args, error", [
    (["--size", "8M", "--type", "32"], "8.0 MiB is too small for FAT32"),
    (["--size", "lots"], "--size lots: not a size"),
])
def test_mkfs_says_what_does_not_fit(tmp_path, args, error):
    code, _, err = hsx_fs("mkfs", tmp_path / "card.img", *args)
    assert code == 2 and error in err


def test_mkfs_keeps_an_existing_file_unless_forced(tmp_path):
    image = tmp_path / "card.img"
    image.write_bytes(b"precious")
    code, _, err = hsx_fs("mkfs", image, "--size", "1M")
    assert code == 2 and "already exists" in err and image.read_bytes() == b"precious"
    assert hsx_fs("mkfs", image, "--size", "1M", "--force")[0] == 0


def test_copy_in_list_and_copy_out(tmp_path):
    image = tmp_path / "card.img"
    assert hsx_fs("mkfs", image, "--size", "4M")[0] == 0
    source = tmp_path / "data.bin"
    source.write_bytes(os.urandom(100_000))
    assert hsx_fs("mkdir", f"{image}:/Input Files")[0] == 0
    assert hsx_fs("cp", source, f"{image}:/Input Files/Data Set 1.bin")[0] == 0
    assert hsx_fs("ls", image) == (0, "Input Files/\n", "")
    assert hsx_fs("ls", image, "/Input Files") == (0, "Data Set 1.bin\n", "")
    assert hsx_fs("cp", f"{image}:/input files/data set 1.bin", tmp_path / "back")[0] == 0
    assert (tmp_path / "back").read_bytes() == source.read_bytes()


@pytest.mark.parametrize("args, error", [
    (["ls", "{image}", "/nope"], "{image}:/nope: no such file or directory"),
    (["cp", "{image}:/nope", "{tmp}/x"], "{image}:/nope: no such file or directory"),
    (["cp", "{tmp}/a", "{tmp}/b"], "exactly one of them must be IMAGE:PATH"),
    (["ls", "{tmp}/junk"], "{tmp}/junk: no FAT12/16/32 volume on it"),
    (["ls", "{tmp}/missing.img"], "{tmp}/missing.img: no such file"),
    (["mkdir", "{image}"], "not IMAGE:PATH"),
])
def test_mistakes_are_one_clear_line(tmp_path, args, error):
    image = tmp_path / "card.img"
    assert hsx_fs("mkfs", image, "--size", "1M")[0] == 0
    (tmp_path / "junk").write_bytes(b"\x01" * 4096)
    names = {"image": image, "tmp": tmp_path}
    code, _, err = hsx_fs(*[a.format(**names) for a in args])
    assert code in (1, 2) and error.format(**names) in err.splitlines()[0], err
    assert "Traceback" not in err


def test_serve_answers_a_client_until_sigterm(tmp_path):
    """`hsx fs serve` in this process (python-can's virtual bus does not leave it), and a
    client on another thread; SIGTERM ends the server cleanly."""
    from hsx.kernel.filesystems.can import CanFileSystem, open_can_bus
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "served.txt").write_text("x")
    seen = {}

    def client():
        fs = CanFileSystem(open_can_bus("virtual", "hsx-fs-serve-test"), timeout=1.0)
        try:
            for _ in range(60):                      # until the server is up
                seen["listing"] = fs.listdir("/")
                if seen["listing"] != -errno.ETIMEDOUT:
                    break
        finally:
            fs.shutdown()
            os.kill(os.getpid(), signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, lambda *_: None)   # until serve has its own
    worker = threading.Thread(target=client)
    worker.start()
    try:
        code, out, err = hsx_fs("serve", tmp_path / "files", "--can", "hsx-fs-serve-test")
    finally:
        worker.join()
        signal.signal(signal.SIGTERM, previous)
    assert code == 0, err
    assert out == f"hsx fs serving {tmp_path / 'files'} on virtual:hsx-fs-serve-test\n"
    assert seen["listing"] == b"served.txt"
