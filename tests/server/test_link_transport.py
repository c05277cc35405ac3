"""hsx execd serving the framed link a board speaks (`--link`, hsx.server.transports):
front ends reach it by URL as they reach a board, over a raw socket and a real pty;
broken frames get `N` and leave it serving, a retried request does not run twice, a
new host releases what the last one held.  (The conformance suite runs every test over
this link too: tests/conformance, the `linked-*` executives.)"""
from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import cbor2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serverkit import FIVE_LINES, image_bytes

from hsx.client import Client
from hsx.link.frames import FrameDecoder, encode_frame
from hsx.link.names import decode_names, numbered
from hsx.server import BackgroundServer, ServerConfig

ROOT = Path(__file__).parents[2]
HELLO = ROOT / "examples" / "mvasm" / "hello.mvasm"


@pytest.fixture
def execd(tmp_path):
    link = {"backend": "socket", "host": "127.0.0.1", "port": 0}
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs", link=link)) as server:
        yield server


class RawHost:
    """A host that writes frames by hand and reads what comes back."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("socket://").rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.decoder = FrameDecoder()
        self.frames: list = []

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request(self, seq: int, **message) -> None:
        self.send(encode_frame("Q", seq, cbor2.dumps(numbered(message))))

    def next(self, kind: str):
        """The next frame of `kind` (others that come first are kept)."""
        while True:
            for i, frame in enumerate(self.frames):
                if getattr(frame, "kind", None) == kind:
                    return self.frames.pop(i)
            data = self.sock.recv(65536)
            assert data, "the executive closed the link"
            self.frames += self.decoder.feed(data)

    def reply(self, seq: int) -> dict:
        frame = self.next("R")
        assert frame.seq == seq
        return decode_names(frame.payload)

    def close(self) -> None:
        self.sock.close()


def test_a_host_is_greeted_and_served_with_numbered_names(execd):
    host = RawHost(execd.server.link_url)
    digest, hello = decode_names(host.next("H").payload)
    assert (hello["board"], hello["variant"], hello["proto"]) == ("hsx-execd", "development", 1)
    assert hello["window"] >= hello["max_frame"] > 0
    host.request(7, cmd="ping")
    assert host.reply(7)["status"] == "ok"
    host.close()


def test_broken_frames_get_n_and_the_link_keeps_serving(execd):
    host = RawHost(execd.server.link_url)
    host.next("H")
    host.send(b"\x01\x02garbage\x00")                          # not a frame
    assert decode_names(host.next("N").payload)["error"] == "bad_crc"
    good = encode_frame("Q", 3, cbor2.dumps({"cmd": "ping"}))
    host.send(good[:-3] + bytes([good[-3] ^ 0x55]) + good[-2:])  # a flipped byte
    assert decode_names(host.next("N").payload)["error"] == "bad_crc"
    host.send(encode_frame("Q", 4, b"\xff\xfe"))                 # not CBOR
    assert decode_names(host.next("N").payload)["error"] == "bad_payload"
    host.send(encode_frame("Q", 5, b"x" * 9000))                 # longer than max_frame
    assert decode_names(host.next("N").payload)["error"] == "too_long"
    host.send(encode_frame("R", 6, cbor2.dumps({})))             # a kind hosts do not send
    assert decode_names(host.next("N").payload)["error"] == "bad_frame"
    host.request(8, cmd="ping")
    assert host.reply(8)["status"] == "ok"
    host.close()


def test_a_retried_request_is_answered_again_without_running_twice(execd, tmp_path):
    with Client(execd.host, execd.port) as direct:
        pid = direct.request("load", path=str(HELLO), paused=True)["pid"]
        host = RawHost(execd.server.link_url)
        host.next("H")
        host.request(9, cmd="step", pid=pid, count=1)
        first = host.reply(9)
        host.request(9, cmd="step", pid=pid, count=1)           # the reply was "lost"
        assert host.reply(9) == first
        steps = direct.request("regs", pid=pid)["registers"]["steps"]
        assert steps == 1
        host.close()


def test_a_new_host_releases_what_the_last_one_held(execd):
    with Client(execd.host, execd.port) as observer:
        host = RawHost(execd.server.link_url)
        host.next("H")
        host.request(1, cmd="session.open", client="first-host")
        assert host.reply(1)["status"] == "ok"
        clients = lambda: [s["client"] for s in observer.request("session.list")["sessions"]]
        assert "first-host" in clients()
        host.send(encode_frame("H", 0, lead=True))               # another host on the line
        host.next("H")
        host.request(2, cmd="ping")
        host.reply(2)
        assert "first-host" not in clients()
        host.close()



def test_output_held_to_coalesce_goes_out_over_the_link_when_its_hold_ends(execd):
    """A host that asks for coalesced output (hsx execd takes `coalesce_ms` on the link
    too, though hsx.client leaves it out for boards) gets a task's writes as one event
    once their hold ends: the link's timer for held output fires."""
    host = RawHost(execd.server.link_url)
    host.next("H")
    host.request(1, cmd="events.subscribe", categories=["stdout"], coalesce_ms=300)
    assert host.reply(1)["status"] == "ok"
    started = time.monotonic()
    host.request(2, cmd="load", image=image_bytes(FIVE_LINES, "five"))
    assert host.reply(2)["status"] == "ok"
    event = decode_names(host.next("E").payload)
    assert time.monotonic() - started >= 0.3
    assert (event["type"], event["data"]) == ("stdout", {"text": "line\n" * 5, "writes": 5})
    host.close()

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(noise=st.binary(max_size=3000))
def test_noise_on_the_line_never_stops_the_executive(execd, noise):
    host = RawHost(execd.server.link_url)
    host.next("H")
    host.send(noise)
    host.send(b"\x00" + encode_frame("Q", 200, cbor2.dumps({"cmd": "ping"})))
    reply = host.next("R")
    while reply.seq != 200:       # noise that decoded as a request was answered first
        reply = host.next("R")
    assert decode_names(reply.payload)["status"] == "ok"
    host.close()


def test_execd_on_a_pty_is_reached_by_its_serial_url(tmp_path):
    """`hsx execd --link pty` prints the pty's URL; `hsx shell --connect` loads and runs a
    program through it (the image goes in acknowledged chunks, its symbols stay here)."""
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0", "--root",
                             str(tmp_path / "fs"), "--link", "pty"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("hsx execd listening on ")
        line = proc.stdout.readline()
        assert line.startswith("hsx execd serving the framed link on serial:///dev/")
        url = line.split(" on ", 1)[1].strip()

        def shell(*words: str) -> str:
            done = subprocess.run([sys.executable, "-m", "hsx", "shell", "--connect", url,
                                   *words], capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            return done.stdout
        assert "loaded hello as pid 1" in shell("load", str(HELLO))
        shell("wait", "1")                       # until the task has ended
        assert [line.split()[1] for line in shell("ps").splitlines()[1:]] == ["returned"]
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.parametrize("spec, why", [
    ("socket://127.0.0.1", "not socket://HOST:PORT"),
    ("udp://x:1", "not socket://HOST:PORT"),
    ("serial:///dev/ttyX?baud=fast", "invalid literal"),
])
def test_a_bad_link_is_refused_naming_it(tmp_path, spec, why):
    done = subprocess.run([sys.executable, "-m", "hsx", "execd", "--port", "0", "--root",
                           str(tmp_path), "--link", spec], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0
    assert f"--link {spec}" in done.stderr and why in done.stderr
    assert "Traceback" not in done.stderr

