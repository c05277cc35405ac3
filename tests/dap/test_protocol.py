"""The DAP framing: whatever pieces the bytes come in, the same messages come out;
garbage is reported, never raised."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hsx.dap.protocol import Framer, Malformed, encode, error_response, response

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)
requests = st.builds(
    lambda seq, command, arguments: {"seq": seq, "type": "request", "command": command,
                                     "arguments": arguments},
    st.integers(1, 2**31), st.text(min_size=1, max_size=12),
    st.dictionaries(st.text(max_size=8), json_values, max_size=4))


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)])]


@settings(max_examples=60, deadline=None)
@given(st.lists(requests, min_size=1, max_size=5), st.lists(st.integers(0, 10**6), max_size=12))
def test_messages_survive_any_chunking(messages, cuts):
    framer = Framer()
    data = b"".join(encode(m) for m in messages)
    out = [m for chunk in split(data, cuts) for m in framer.feed(chunk)]
    assert out == messages


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300), requests)
def test_garbage_is_reported_and_the_stream_goes_on(garbage, message):
    framer = Framer()
    out = framer.feed(b"Content-Length: %d\r\n\r\n" % len(garbage) + garbage)
    assert len(out) == 1
    item = out[0]
    assert isinstance(item, Malformed) or item["type"] == "request"
    assert framer.feed(encode(message)) == [message]


def test_a_header_without_length_and_an_oversized_one():
    framer = Framer()
    out = framer.feed(b"Content-Type: x\r\n\r\n")
    assert isinstance(out[0], Malformed) and "Content-Length" in out[0].reason
    out = framer.feed(b"Content-Length: 999999999999\r\n\r\n")
    assert isinstance(out[0], Malformed)


def test_response_shapes():
    request = {"seq": 4, "type": "request", "command": "next", "arguments": {}}
    ok = response(request, {"x": 1})
    assert ok == {"type": "response", "request_seq": 4, "success": True, "command": "next",
                  "body": {"x": 1}}
    failed = error_response(request, "no {such} thing")
    assert failed["success"] is False and failed["message"] == "no {such} thing"
    assert json.loads(encode(failed).split(b"\r\n\r\n", 1)[1]) == failed
