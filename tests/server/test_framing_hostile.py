"""Hostile framing: deep nesting and lone surrogates get a framing error reply and the
connection stays (issue 17, group 2)."""
from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from hsx.server.errors import RequestError
from hsx.server.framing import MAX_NESTING, decode_request, encode

HOSTILE_LINES = [
    b"[" * 1000 + b"]" * 1000,
    b'{"cmd": "ps", "id": ' + b"[" * 1000 + b"]" * 1000 + b"}",
    b'{"cmd": "ps", "pid": ' + b"[" * (MAX_NESTING + 1) + b"]" * (MAX_NESTING + 1) + b"}",
    b'{"cmd": "ps", "id": ' + b"{\"a\":" * 5000 + b"1" + b"}" * 5000 + b"}",
    b'{"cmd": "ps", "id": "\\ud800"}',
    b'{"cmd": "ps", "\\udc00": 1}',
    b'{"cmd": "ps\\udfff"}',
    b'{"cmd": "ps", "id": 1' + b"0" * 5000 + b"}",
]


@pytest.mark.parametrize("line", HOSTILE_LINES)
def test_decode_refuses_with_a_framing_error(line):
    with pytest.raises(RequestError) as refused:
        decode_request(line)
    assert refused.value.code == "bad_json" and refused.value.message


def test_nesting_up_to_the_limit_is_fine():
    inner = b"[" * (MAX_NESTING - 1) + b"]" * (MAX_NESTING - 1)
    assert decode_request(b'{"cmd": "ps", "id": ' + inner + b"}")["cmd"] == "ps"


@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode("utf-8",
                                                                               "surrogatepass")))
@settings(max_examples=300, deadline=None)
def test_decode_never_raises_anything_but_a_refusal(line):
    try:
        request = decode_request(line)
    except RequestError as error:
        assert error.code in ("bad_json", "bad_request", "unsupported_version")
    else:
        encode({"echo": request})           # whatever was accepted can be sent back


def test_a_reply_with_a_lone_surrogate_is_still_a_line():
    line = encode({"text": "a\ud800b"})
    assert json.loads(line) == {"text": "a?b"}


def test_the_daemon_answers_hostile_lines_and_keeps_the_connection(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0",
                             "--root", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline().rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            reader = sock.makefile("rb")
            for line in HOSTILE_LINES:
                sock.sendall(line + b"\n")
                reply = json.loads(reader.readline())
                assert reply["status"] == "error" and reply["error"] == "bad_json", reply
            sock.sendall(b'{"cmd": "ping", "id": 7}\n')
            assert json.loads(reader.readline())["reply"] == "pong"
            sock.sendall(b'{"cmd": "shutdown"}\n')
            reader.readline()
        assert proc.wait(timeout=20) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
