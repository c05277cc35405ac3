"""Files over CAN from the C executive (port/c/fs/hsx_canfs.c and hsx_isotp.c, the host
board's bus relayed to python-can's virtual bus, canbridge.py): every file SVC answers as
the Python executive's `can` backend does against the same server, and a dead server, a
lost frame and a duplicated one give an error, never a hang; the next call works again."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from canbridge import CanBridge
from click.testing import CliRunner
from hostkit import build_image

from hsx.board.build import BuildError, find_or_build
from hsx.cli.main import cli
from hsx.kernel.filesystems import SandboxFS

sys.path.insert(0, str(Path(__file__).parents[1] / "kernel" / "backends"))
from fskit import can_server  # noqa: E402

PROGRAMS = Path(__file__).parent / "programs"
ROUND_TRIP = r"""
#include <hsx_fs.h>
#include <stdio.h>
int main(void) {
    char data[200], back[200];
    for (int i = 0; i < 200; i++) data[i] = (char)('a' + i % 26);
    for (int round = 0; round < 2; round++) {
        int fd = hsx_fs_open("/Round Trip.txt", HSX_O_RDWR | HSX_O_CREAT);
        int wrote = hsx_fs_write(fd, data, sizeof data);
        hsx_fs_seek(fd, 0, 0);
        int got = hsx_fs_read(fd, back, sizeof back);
        int same = got == 200;
        for (int i = 0; same && i < 200; i++) same = back[i] == data[i];
        printf("round %d: open %d write %d read %d same %d\n", round, fd >= 0 ? 1 : fd,
               wrote, got, same);
        hsx_fs_close(fd);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def board():
    try:
        return find_or_build("development")
    except BuildError as error:
        pytest.skip(f"the host board cannot be built here: {error}")


def compiled(tmp_path: Path, name: str, source: str | None = None) -> Path:
    """tests/port/programs/NAME.c, or `source`, built as hsx cc -O2 builds it."""
    path = tmp_path / f"{name}.c"
    path.write_text(source if source is not None else (PROGRAMS / f"{name}.c").read_text())
    return build_image(path, tmp_path)


def on_the_board(board: Path, program: Path, channel: str, tamper=None) -> str:
    bridge = CanBridge(channel, tamper)
    try:
        done = subprocess.run([str(board), "--run", str(program), "--can", bridge.spec,
                               "--can-fs"], capture_output=True, text=True, timeout=120)
    finally:
        bridge.close()
    assert done.returncode == 0, done.stderr
    return done.stdout


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_every_file_svc_answers_as_the_python_executives_can_backend(board, tmp_path):
    tour = compiled(tmp_path, "fs_tour")
    with can_server(SandboxFS(tmp_path / "python")) as (_server, channel):
        # in this process: python-can's virtual bus reaches no other
        python = CliRunner().invoke(cli, ["run", "--fs", f"can:{channel}", str(tour)])
    assert python.exit_code == 0, python.output
    with can_server(SandboxFS(tmp_path / "c")) as (_server, channel):
        c = on_the_board(board, tour, channel)
    assert c == python.stdout
    assert tree(tmp_path / "c") == tree(tmp_path / "python") == {
        "Logs/A long name, with spaces.txt": b"01234567xyz!"}


def test_a_dead_server_is_a_timeout(board, tmp_path):
    out = on_the_board(board, compiled(tmp_path, "round_trip", ROUND_TRIP), "hsx-nobody-here")
    assert out.splitlines() == [f"round {n}: open -110 write -9 read -9 same 0" for n in (0, 1)]


def _in_a_long_message(direction: str):
    """A tamper that loses (from the board) or doubles (to it) the first consecutive frame
    of the first message of 100 bytes or more going `direction`."""
    state = {"armed": False, "done": False}

    def tamper(going, message):
        kind = message.data[0] >> 4 if message.data else None
        if going != direction or state["done"]:
            return [message]
        if kind == 1 and ((message.data[0] & 0xF) << 8 | message.data[1]) >= 100:
            state["armed"] = True
        elif kind == 2 and state["armed"]:
            state["done"] = True
            return [] if direction == "from board" else [message, message]
        return [message]
    return tamper


@pytest.mark.parametrize("direction", ["from board", "to board"])
def test_a_lost_or_doubled_frame_fails_that_call_and_the_next_works(board, tmp_path,
                                                                     direction):
    """Losing a frame of the board's 200-byte WRITE: the server never gets the request,
    the call times out (-ETIMEDOUT); doubling a frame of the server's 200-byte READ answer:
    the board's ISO-TP sees a sequence number twice (-EIO). The second round works."""
    program = compiled(tmp_path, "round_trip", ROUND_TRIP)
    with can_server(SandboxFS(tmp_path / "served")) as (_server, channel):
        out = on_the_board(board, program, channel, _in_a_long_message(direction)).splitlines()
    if direction == "from board":
        assert out[0] == "round 0: open 1 write -110 read 0 same 0"
    else:
        assert out[0] == "round 0: open 1 write 200 read -5 same 0"
    assert out[1] == "round 1: open 1 write 200 read 200 same 1"
