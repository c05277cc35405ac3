"""Bad input on the wire, through the host build (docs/wire.md "Errors on the link"):
garbage, truncated frames, CRC errors, oversized frames, floods past the window, a host
vanishing mid-transfer and a board reset mid-transfer. The device answers N where one
is due, never runs a damaged request, never hangs, and serves the next good frame."""
from __future__ import annotations

import socket
import time

from hypothesis import HealthCheck, given, settings, strategies as st

from boardkit import connect, serving
from framedclient import DEADLINE, FramedClient

from hsx.link.frames import encode_frame
from hsx.client.link.payload import encode_request

FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def ping_answered(host: FramedClient, tries: int = 3) -> None:
    """A ping after the bad input is served: at once, or after the retries a host makes
    when its frame was lost (a flood that ignored the window loses the frames behind it)."""
    seq = host.next_seq()
    for attempt in range(tries):
        host.send_raw(encode_frame("Q", seq, encode_request({"cmd": "ping"}), lead=True))
        try:        # (N frames for the bad input may name any seq: only the reply counts)
            _, _, reply = host.wait_for(lambda k, s, p: k == b"R" and s == seq,
                                        DEADLINE if attempt == tries - 1 else 2.0)
        except TimeoutError:
            continue
        assert reply["reply"] == "pong"
        return
    raise AssertionError("the board did not serve a good frame after the bad input")


def test_garbage_is_dropped(board):
    host = connect(board)

    @FUZZ
    @given(st.binary(min_size=1, max_size=300))
    def garbage(data):
        host.send_raw(data)
        ping_answered(host, tries=1)
        host.inbox = [item for item in host.inbox if item[0] != b"N"]

    try:
        garbage()
        assert host.damaged == 0                    # every frame the board sent is whole
    finally:
        host.close()


def test_truncated_and_corrupted_requests_never_run(board, built):
    host = connect(board)
    try:
        pid = host.load(built("spin"), paused=True)["pid"]
        step = encode_frame("Q", 77, encode_request({"cmd": "step", "pid": pid, "count": 1}))

        @FUZZ
        @given(st.integers(1, len(step) - 2), st.integers(0, 7), st.booleans())
        def damaged(where, bit, truncate):
            wire = bytearray(step[:where] + b"\x00" if truncate else step)
            if not truncate:
                wire[where] ^= 1 << bit
            host.send_raw(bytes(wire))
            ping_answered(host, tries=1)
            host.inbox = [item for item in host.inbox if item[0] != b"N"]

        damaged()
        assert host.request("regs", pid=pid)["registers"]["steps"] == 0
        host.request("kill", pid=pid)
        host.request("kill", pid=pid)
    finally:
        host.close()


def test_a_damaged_request_is_answered_with_n_naming_its_seq(board):
    host = connect(board)
    try:
        wire = bytearray(encode_frame("Q", 42, encode_request({"cmd": "ping"})))
        wire[5] ^= 0x10
        host.send_raw(bytes(wire))
        kind, reply = host.reply(42)
        assert kind == b"N" and reply["error"] == "bad_crc"
    finally:
        host.close()


def test_an_oversized_frame_is_too_long_and_dropped_whole(board):
    host = connect(board)
    try:
        hello = host.hello_info
        size = hello["max_frame"] + 20
        payload = encode_request({"cmd": "ping", "name": "x" * size})
        host.send_raw(encode_frame("Q", 43, payload))
        kind, reply = host.reply(43)
        assert kind == b"N" and reply["error"] == "too_long"
        ping_answered(host, tries=1)
    finally:
        host.close()


def test_a_flood_past_the_window_leaves_the_board_usable(board):
    host = connect(board)
    try:
        window = host.hello_info["window"]
        for fill in (b"\x55", b"\x01\x02\x00", bytes(range(256))):
            host.send_raw(fill * (8 * window // len(fill)))
            ping_answered(host)
    finally:
        host.close()


def test_a_host_vanishing_mid_transfer(board, built):
    image = built("spin")
    first = connect(board)
    stream = first.request("load.begin")["stream"]
    first.request("load.write", stream=stream, data=image[:200])
    half = encode_frame("Q", first.next_seq(), encode_request({"cmd": "load.write", "stream": stream,
                                                            "data": image[200:400]}))
    first.send_raw(half[:len(half) // 2])           # ... and the host is gone
    first.close()
    second = connect(board)
    try:
        assert second.call("load.write", stream=stream, data=b"x")["error"] == "unknown_stream"
        pid = second.load(image, paused=True)["pid"]
        assert second.request("ps", pid=pid)["tasks"]["tasks"][0]["state"] == "paused"
        second.request("kill", pid=pid)
        second.request("kill", pid=pid)
    finally:
        second.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def reconnect(url_port: int) -> FramedClient:
    end = time.monotonic() + DEADLINE
    while True:
        try:
            host = FramedClient.tcp("127.0.0.1", url_port)
            host.hello()
            return host
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.05)


def test_a_board_reset_mid_transfer(built):
    """The board restarts while an image streams in: the host sees a new hello with
    another boot number, nothing of the old transfer is left, a new load works."""
    image = built("spin")
    port = free_port()
    with serving("development", f"socket://127.0.0.1:{port}") as board:
        host = connect(board)
        boot = host.hello_info["boot"]
        stream = host.request("load.begin")["stream"]
        host.request("load.write", stream=stream, data=image[:300])
        board.process.kill()                         # power cut
        board.process.wait()
        host.close()
    with serving("development", f"socket://127.0.0.1:{port}"):
        host = reconnect(port)
        try:
            assert host.hello_info["boot"] != boot
            assert host.request("ps")["tasks"]["tasks"] == []
            assert host.call("load.write", stream=stream, data=b"x")["error"] == "unknown_stream"
            assert host.load(image, paused=True)["pid"] == 1
        finally:
            host.close()
