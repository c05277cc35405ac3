"""`hsx board run` as a user runs it: the URL on stdout once the board answers, a host
served there, Ctrl-C (SIGINT to the process group, as a terminal sends it) ending it
with status 0 and no traceback, and clear errors."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from framedclient import FramedClient

DEADLINE = 120


def board_run(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hsx", "board", "run", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, env=env)


def interrupt(process: subprocess.Popen) -> tuple[int, str]:
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=DEADLINE)
    return process.returncode, err.decode()


def test_serves_a_socket_until_ctrl_c():
    process = board_run("--listen", "socket://127.0.0.1:0")
    try:
        url = process.stdout.readline().decode().strip()
        notice = process.stderr.readline().decode()
        parts = urlsplit(url)
        assert parts.scheme == "socket" and parts.hostname == "127.0.0.1" and parts.port > 0
        assert f"serves {url}; Ctrl-C stops it" in notice
        with FramedClient.tcp(parts.hostname, parts.port) as host:
            assert host.hello()["variant"] == "development"
            assert host.request("ping")["reply"] == "pong"
    finally:
        status, err = interrupt(process)
    assert status == 0, err
    assert "Traceback" not in err


def test_serves_a_pty_in_the_variant_asked_for():
    process = board_run("--listen", "pty", "--variant", "minimal")
    try:
        url = process.stdout.readline().decode().strip()
        assert url.startswith("serial:///dev/pts/")
        fd = os.open(urlsplit(url).path, os.O_RDWR | os.O_NOCTTY)
        import termios
        import tty
        tty.setraw(fd, termios.TCSANOW)
        host = FramedClient(fd=fd)
        try:
            assert host.hello()["variant"] == "minimal"
            assert host.request("ps")["tasks"]["tasks"] == []
        finally:
            host.close()
    finally:
        status, err = interrupt(process)
    assert status == 0 and "Traceback" not in err


@pytest.mark.parametrize("url", ["tcp://127.0.0.1:4000", "socket://127.0.0.1", "socket://:80",
                                 "socket://127.0.0.1:99999", "serial:///dev/ttyACM0"])
def test_a_bad_url_is_refused(url):
    done = subprocess.run([sys.executable, "-m", "hsx", "board", "run", "--listen", url],
                          capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 2
    assert done.stderr.startswith(f"hsx: --listen: {url!r} is not where a board can listen")
    assert "socket://HOST:PORT" in done.stderr and "Traceback" not in done.stderr


def test_a_busy_port_is_named():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "hsx", "board", "run", "--listen",
                               f"socket://127.0.0.1:{port}"], capture_output=True, text=True,
                              timeout=DEADLINE)
    assert done.returncode == 2
    assert done.stderr.startswith(f"hsx: 127.0.0.1:{port}: the port is already in use")


def test_without_zig_it_says_what_is_missing(tmp_path):
    """No compiler and nothing built in the cache: the user learns what to install."""
    fake = tmp_path / "fake"
    (fake / "ziglang").mkdir(parents=True)
    (fake / "ziglang" / "__init__.py").write_text("raise ImportError('no zig here')\n")
    env = {**os.environ, "PYTHONPATH": str(fake), "HSX_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "hsx", "board", "run"], capture_output=True,
                          text=True, timeout=DEADLINE, env=env)
    assert done.returncode == 2
    assert "cannot build its executive" in done.stderr and "ziglang" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_board_lists_the_boards():
    done = subprocess.run([sys.executable, "-m", "hsx", "board", "run", "--board", "uno"],
                          capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 2 and "unknown board 'uno'" in done.stderr and "host" in done.stderr


def ended(pid: int) -> bool:
    """The process is gone, or a zombie its new parent has not reaped yet."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].startswith("Z")
    except (FileNotFoundError, ProcessLookupError):
        return True


def test_the_board_ends_with_its_runner_however_it_ends():
    """A runner killed outright (no Ctrl-C to pass on) leaves no board behind."""
    import time
    process = board_run("--listen", "socket://127.0.0.1:0")
    try:
        process.stdout.readline()
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        assert len(children) == 1
        board = int(children[0])
    finally:
        process.kill()
        process.communicate(timeout=DEADLINE)
    end = time.monotonic() + 30                # it ends at once; a board left behind never
    while not ended(board) and time.monotonic() < end:
        time.sleep(0.05)
    assert ended(board)


def test_the_executive_serves_its_stdio():
    """`hsx-exec-host --stdio`: the link on stdin and stdout (a hello at boot, one for a
    host's H); the end of stdin ends it cleanly."""
    from hsx.board.build import find_or_build
    from hsx.link.frames import FrameDecoder, encode_frame
    from hsx.client.link.payload import decode_hello, decode_message, encode_request
    process = subprocess.Popen([str(find_or_build("full")), "--stdio"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    host = encode_frame("H", 0, lead=True) + encode_frame("Q", 1, encode_request({"cmd": "ping"}))
    out, err = process.communicate(host, timeout=DEADLINE)   # then stdin ends
    frames = [(f.kind, f.seq, f.payload) for f in FrameDecoder().feed(out)]
    hellos = [decode_hello(p) for k, _, p in frames if k == "H"]
    assert len(hellos) == 2 and hellos[0]["variant"] == "full"
    assert [decode_message(p)["reply"] for k, s, p in frames if k == "R" and s == 1] == ["pong"]
    assert process.returncode == 0 and b"serving on stdio" in err
