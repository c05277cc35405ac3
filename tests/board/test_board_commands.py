"""`hsx board` commands that need no QEMU: building the mps2-an385 firmware (one command,
cached), --flash (refused when it cannot be a file; the host board's values kept in it
across runs), and without qemu-system-arm a board run that says what to install (the
board's other tests then skip, each with mps2kit's one reason)."""
from __future__ import annotations

import base64
import os
import signal
import struct
import subprocess
import sys
from pathlib import Path

from hsx.client import Client

EM_ARM = 40


def hsx(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hsx", *args], capture_output=True, text=True,
                          timeout=600, env=env)


def test_hsx_board_build_prints_the_firmware_for_a_cortex_m3():
    done = hsx("board", "build", "--board", "mps2-an385", "--variant", "minimal")
    assert done.returncode == 0, done.stderr
    elf = Path(done.stdout.strip())
    data = elf.read_bytes()
    assert elf.suffix == ".elf" and data[:4] == b"\x7fELF"
    assert struct.unpack_from("<H", data, 18)[0] == EM_ARM
    # the vector table QEMU reads at 0 (the first loadable segment): the stack's top in
    # RAM, then the reset handler in Thumb state
    phoff, = struct.unpack_from("<I", data, 28)
    offset, vaddr = struct.unpack_from("<II", data, phoff + 4)
    assert vaddr == 0
    stack_top, reset = struct.unpack_from("<II", data, offset)
    assert 0x20000000 < stack_top <= 0x20400000 and reset & 1
    again = hsx("board", "build", "--board", "mps2-an385", "--variant", "minimal")
    assert again.stdout == done.stdout                  # cached: the same file


def test_an_unknown_board_is_named():
    done = hsx("board", "build", "--board", "stm32")
    assert done.returncode == 2
    assert done.stderr == "hsx: --board: unknown board 'stm32'\n  boards: host, mps2-an385\n"


def test_hsx_board_run_without_qemu_names_the_package(tmp_path):
    done = hsx("board", "run", "--board", "mps2-an385", env={**os.environ, "PATH": str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.startswith("hsx: the mps2-an385 board: qemu-system-arm is not installed\n")
    assert "the OS package qemu-system-arm" in done.stderr and "Traceback" not in done.stderr


def test_a_flash_that_is_not_a_file_is_refused(tmp_path):
    done = hsx("board", "run", "--board", "host", "--flash", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith(f"hsx: {tmp_path}: not a regular file\n")
    missing = tmp_path / "no" / "flash.bin"
    done = hsx("board", "run", "--flash", str(missing))
    assert done.returncode == 2
    assert done.stderr.startswith(f"hsx: {missing}: its directory does not exist\n")


def test_the_host_board_keeps_values_in_its_flash_file_across_runs(programs, tmp_path):
    flash = tmp_path / "flash.bin"
    kept = base64.b64encode(programs["kept"].read_bytes()).decode()
    for value, expected in ((42, 1), (None, 42)):
        board = subprocess.Popen([sys.executable, "-m", "hsx", "board", "run", "--flash",
                                  str(flash)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        try:
            url = board.stdout.readline().strip()
            with Client.connect(url) as client:
                client.request("load", image=kept)
                assert client.request("val.get", name="kept")["value"]["value"] == expected
                if value is not None:
                    client.request("val.set", name="kept", value=value)
            board.send_signal(signal.SIGINT)        # the host board writes what is due
            assert board.wait(30) == 0
        finally:
            if board.poll() is None:
                board.kill()
                board.wait()
