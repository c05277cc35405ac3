"""Bad input never kills the server: garbage, huge lines, vanishing and many clients."""
from __future__ import annotations

import json
import threading
import time

import pytest
from serverkit import LOOP, load

from hsx.client import Client
from hsx.server.framing import TOO_LONG, LineSplitter, decode_request
from hsx.server.errors import RequestError


def test_splitter_bounds_memory_and_recovers():
    splitter = LineSplitter(max_line=10)
    assert list(splitter.feed(b'{"a":1}\n{"b"')) == [b'{"a":1}']
    assert list(splitter.feed(b':2}\n')) == [b'{"b":2}']
    out = list(splitter.feed(b"x" * 8))
    out += list(splitter.feed(b"y" * 8))          # over the limit: reported once, dropped
    out += list(splitter.feed(b"z" * 1000))
    assert out == [TOO_LONG] and len(splitter._buf) == 0
    assert list(splitter.feed(b"zz\nok\n")) == [b"ok"]
    assert list(splitter.feed(b"0123456789A\nfine\n")) == [TOO_LONG, b"fine"]


@pytest.mark.parametrize("line, code", [
    (b"{not json", "bad_json"),
    (b"\xff\xfe\x00garbage", "bad_json"),
    (b"[1, 2, 3]", "bad_request"),
    (b"42", "bad_request"),
    (b'"ps"', "bad_request"),
    (b'{"cmd": 5}', "bad_request"),
    (b'{"cmd": ""}', "bad_request"),
    (b'{"version": "1", "cmd": "ps"}', "bad_request"),
    (b'{"version": 2, "cmd": "ps"}', "unsupported_version"),
    (b'{"cmd": "ps", "session": 7}', "bad_request"),
])
def test_decode_refusals(line, code):
    with pytest.raises(RequestError) as refused:
        decode_request(line)
    assert refused.value.code == code


def test_garbage_gets_error_replies_and_the_connection_stays(raw):
    conn = raw()
    for line, code in [(b"{oops", "bad_json"), (b"[]", "bad_request"), (b"null", "bad_request"),
                       (b'{"cmd": ["ps"]}', "bad_request"), (b"\x00\x01\x02", "bad_json")]:
        conn.send(line + b"\n")
        reply = conn.line()
        assert reply["status"] == "error" and reply["error"] == code and reply["message"]
    conn.send(b"\n   \n")                                      # blank lines are ignored
    assert conn.request({"cmd": "frobnicate", "id": "x1"}) == {
        "version": 1, "status": "error", "id": "x1", "error": "unknown_cmd",
        "message": "unknown command 'frobnicate'"}
    assert conn.request({"cmd": "peek", "id": 9, "pid": "one"})["error"] == "bad_argument"
    assert conn.request({"cmd": "peek", "id": 9})["message"] == "peek requires 'pid'"
    assert conn.request({"cmd": "kill", "pid": 999})["error"] == "unknown_pid"
    assert conn.request({"version": 3, "cmd": "ps", "id": 5})["id"] == 5
    assert conn.request({"cmd": "PING"})["reply"] == "pong"    # names are case-insensitive


def test_ten_mib_line_is_refused_without_hurting_anyone(server, raw, client):
    conn = raw()
    started = time.perf_counter()
    sender = threading.Thread(target=conn.send, args=(b'{"cmd":"ping","pad":"' +
                                                      b"x" * (10 << 20) + b'"}\n',))
    sender.start()
    pings = []
    while sender.is_alive():
        t = time.perf_counter()
        client.request("ping")
        pings.append(time.perf_counter() - t)
    sender.join()
    reply = conn.line()
    assert reply["error"] == "line_too_long"
    assert conn.request({"cmd": "ping", "id": 2})["reply"] == "pong"
    assert max(pings, default=0) < 0.5 and time.perf_counter() - started < 20
    for c in server.server.connections:
        assert len(c._splitter._buf) <= server.server.max_line


def test_client_that_disconnects_mid_request(server, raw, client):
    load(client, LOOP, "loop")
    client.request("clock.stop")
    conn = raw()
    conn.send(json.dumps({"cmd": "step", "count": 5_000_000}).encode() + b"\n")
    time.sleep(0.05)                                # the sliced step is under way
    conn.close()
    half = raw()
    half.send(b'{"cmd": "ps", "id"')                # and one that leaves mid-line
    half.close()
    assert client.request("ping")["reply"] == "pong"
    deadline = time.monotonic() + 10
    while len(server.server.connections) > 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(server.server.connections) == 1


@pytest.mark.profile("full")          # observer sessions
def test_fifty_concurrent_clients(server):
    setup = Client(server.host, server.port)
    pid = load(setup, LOOP, "loop")
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            with Client(server.host, server.port) as c:
                c.open_session(f"client-{n}", observer=n % 2 == 0)
                for _ in range(20):
                    assert c.request("ps")["tasks"]["tasks"][0]["pid"] == pid
                    assert c.request("peek", pid=pid, addr=0x4000, length=8)["length"] == 8
                c.close_session()
        except BaseException as error:     # reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(50)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors[:3]
    assert time.perf_counter() - started < 20
    assert setup.request("session.list")["sessions"] == []
    setup.close()


def test_flood_of_requests_without_reading_replies(server, raw, client):
    conn = raw()
    conn.send(b'{"cmd":"ps"}\n' * 20_000)          # never reads a reply
    assert client.request("ping")["reply"] == "pong"
    conn.close()
