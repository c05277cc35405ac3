"""Hostile framing: deep nesting and lone surrogates get a framing error reply and the
connection stays (issue 17, group 2)."""
from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest
from execdkit import readline
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


@pytest.mark.parametrize("cmd, normalised", [
    ("step", "step"), ("bp.set", "bp.set"), (" step", "step"), ("step\t", "step"),
    ("STEP", "step"), ("Step ", "step"), ("bp.Set", "bp.set"), ("\u00c9tat", "\u00e9tat"),
    ("ps\n", "ps")])
def test_the_command_name_comes_out_stripped_and_lower_case(cmd, normalised):
    for extra in ({}, {"session": "s1"}, {"version": 1}):
        line = json.dumps({"cmd": cmd, "id": 1, **extra}).encode()
        assert decode_request(line)["cmd"] == normalised


@pytest.mark.parametrize("message, code", [
    ({"cmd": ""}, "bad_request"), ({"cmd": "  "}, "bad_request"), ({"cmd": 5}, "bad_request"),
    ({"cmd": "ps", "version": True}, "bad_request"), ({"cmd": "ps", "version": 1.0}, "bad_request"),
    ({"cmd": "ps", "version": 2}, "unsupported_version"),
    ({"cmd": "ps", "session": 7}, "bad_request")])
def test_a_bad_envelope_is_refused_with_its_id(message, code):
    with pytest.raises(RequestError) as refused:
        decode_request(json.dumps({**message, "id": 9}).encode())
    assert refused.value.code == code and refused.value.request_id == 9


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


def _reference(line: bytes):
    """What a request line means, read by the standard library: the message, or the
    refusal's code (nesting and surrogates checked on the whole tree)."""
    try:
        message = json.loads(line)
    except (RecursionError, ValueError):
        return "bad_json"

    def bad(item, depth):
        if isinstance(item, dict):
            return depth > MAX_NESTING or any(bad(k, depth + 1) or bad(v, depth + 1)
                                              for k, v in item.items())
        if isinstance(item, list):
            return depth > MAX_NESTING or any(bad(v, depth + 1) for v in item)
        return isinstance(item, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in item)

    if bad(message, 1):
        return "bad_json"
    if not isinstance(message, dict):
        return "bad_request"
    return message


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 70), 2 ** 70)
    | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=40)


@given(fields=st.dictionaries(st.text(max_size=6), _json_values, max_size=4),
       ascii_only=st.booleans(), wrap=st.integers(0, MAX_NESTING + 2))
@settings(max_examples=300, deadline=None)
def test_decoding_means_what_the_standard_library_reads(fields, ascii_only, wrap):
    """The fast path (orjson, the tree walk skipped for plainly shallow ASCII lines)
    accepts and refuses exactly what the standard library's reading does."""
    document: object = {**fields, "cmd": "ps"}
    for _ in range(wrap):
        document = {"cmd": "ps", "x": [document]} if wrap % 2 else [document]
    line = json.dumps(document, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    expected = _reference(line)
    try:
        got = decode_request(line)
    except RequestError as error:
        assert error.code == expected
    else:
        assert isinstance(expected, dict), expected
        got_text = json.dumps(got, sort_keys=True)
        assert got_text == json.dumps({**expected, "cmd": expected["cmd"].strip().lower()},
                                      sort_keys=True)


def test_a_reply_with_a_lone_surrogate_is_still_a_line():
    line = encode({"text": "a\ud800b"})
    assert json.loads(line) == {"text": "a?b"}


def test_the_daemon_answers_hostile_lines_and_keeps_the_connection(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0",
                             "--root", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        port = int(readline(proc.stdout).rsplit(":", 1)[1])
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
