"""Frames and payloads of the byte-stream link (docs/wire.md): COBS, CRC-32,
resynchronisation, and the CBOR translation to protocol v1's dicts."""
from __future__ import annotations

import zlib

import cbor2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hsx.client.errors import ProtocolError
from hsx.link.frames import (BadFrame, Frame, FrameDecoder, cobs_decode, cobs_encode,
                                    encode_frame, wire_size)
from hsx.link import keys
from hsx.client.link.payload import (PayloadError, TableMismatch, decode_hello, decode_message,
                                     encode_request)
from hsx.link.names import decode_request

KINDS = st.sampled_from("HQRENZ")
frames = st.builds(Frame, KINDS, st.integers(0, 255), st.binary(max_size=700))


@given(st.binary(max_size=2000))
def test_cobs_round_trip_has_no_zero_and_bounded_overhead(data):
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(encoded) == data


@given(st.binary(min_size=1, max_size=300))
def test_cobs_decode_refuses_zero_bytes_and_short_runs(data):
    encoded = cobs_encode(data)
    assert cobs_decode(encoded + b"\0") is None
    if encoded[-1] != 1:
        truncated = encoded[:-1]
        assert cobs_decode(truncated) in (None, data[:-1]) or truncated == b""


def test_crc_is_zlib_crc32_little_endian_over_kind_seq_payload():
    wire = encode_frame("Q", 7, b"abc")
    body = cobs_decode(wire[:-1])
    assert body[:5] == b"Q\x07abc"
    assert int.from_bytes(body[5:], "little") == zlib.crc32(b"Q\x07abc")
    assert len(wire) <= wire_size(3)


@given(st.lists(frames, max_size=6), st.lists(st.integers(0, 4000), max_size=8),
       st.booleans())
def test_frames_come_out_whole_however_the_stream_is_cut(sent, cuts, lead):
    stream = b"".join(encode_frame(f.kind, f.seq, f.payload, lead=lead) for f in sent)
    decoder = FrameDecoder()
    got = []
    last = 0
    for cut in sorted(c % (len(stream) + 1) for c in cuts) + [len(stream)]:
        got += decoder.feed(stream[last:cut])
        last = cut
    assert got == sent


@given(frames, st.binary(min_size=1, max_size=40), frames)
def test_garbage_costs_at_most_the_frame_it_hits(first, garbage, second):
    """Garbage before a frame is dropped with it (or reported), and a frame led by a
    0x00 is never lost to garbage before it."""
    decoder = FrameDecoder()
    got = decoder.feed(garbage + encode_frame(first.kind, first.seq, first.payload)
                       + encode_frame(second.kind, second.seq, second.payload, lead=True))
    assert got[-1] == second
    assert all(isinstance(f, BadFrame) or f == first or isinstance(f, Frame) for f in got[:-1])


@given(frames, st.data())
def test_a_corrupted_frame_is_bad_and_the_next_one_is_fine(frame, data):
    wire = bytearray(encode_frame(frame.kind, frame.seq, frame.payload))
    at = data.draw(st.integers(0, len(wire) - 2))
    flip = data.draw(st.integers(1, 255).filter(lambda f: f != wire[at]))   # no 0x00 made
    wire[at] ^= flip
    decoder = FrameDecoder()
    got = decoder.feed(bytes(wire) + encode_frame("R", 1, b"next"))
    assert got[-1] == Frame("R", 1, b"next")
    assert len(got) == 2 and isinstance(got[0], BadFrame)


def test_an_oversized_frame_is_dropped_whole_without_being_held():
    decoder = FrameDecoder(max_body=64)
    got = decoder.feed(encode_frame("Q", 1, bytes(range(1, 200))))
    assert got == [BadFrame("too_long")]
    assert len(decoder._buf) == 0
    assert decoder.feed(encode_frame("Q", 2, b"ok")) == [Frame("Q", 2, b"ok")]


def test_an_unknown_kind_or_short_body_is_bad_frame():
    decoder = FrameDecoder()
    assert decoder.feed(cobs_encode(b"Q\x05") + b"\0") == [BadFrame("bad_frame", 5)]


# -- payloads ---------------------------------------------------------------------------

def test_requests_lose_id_and_version_and_carry_binary_data_as_bytes():
    payload = decode_request(encode_request({"version": 1, "id": 9, "cmd": "poke", "pid": 1,
                                             "addr": 16, "data": "01ff"}))
    assert payload == {"cmd": "poke", "pid": 1, "addr": 16, "data": b"\x01\xff"}
    payload = decode_request(encode_request({"cmd": "load.write", "stream": 1, "data": "AAE="}))
    assert payload["data"] == b"\x00\x01"
    payload = decode_request(encode_request({"cmd": "stdio", "pid": 2, "data": "hé"}))
    assert payload["data"] == "hé".encode()


def test_a_request_names_its_keys_command_and_categories_by_number():
    """What a board reads: the table's numbers (hsx.link.keys), never the text."""
    raw = cbor2.loads(encode_request({"cmd": "events.subscribe", "pids": [2],
                                      "categories": ["stdout", "fault"], "unread": 1}))
    number = keys.NUMBERS
    assert raw == {number["cmd"]: number["events.subscribe"], number["pids"]: [2],
                   number["categories"]: [cbor2.CBORTag(39, number["stdout"]),
                                          cbor2.CBORTag(39, number["fault"])]}
    with pytest.raises(ProtocolError) as unknown:
        encode_request({"cmd": "nosuch"})
    assert unknown.value.code == "unknown_cmd"


def test_a_boards_numbered_reply_reads_as_protocol_v1():
    number, word = keys.NUMBERS, lambda text: cbor2.CBORTag(39, keys.NUMBERS[text])
    reply = {number["status"]: word("error"),
             number["error"]: cbor2.CBORTag(39, [number["pid_locked:"], 3]),
             number["field"]: word("pid")}
    assert decode_message(cbor2.dumps(reply)) == {"status": "error", "error": "pid_locked:3",
                                                  "field": "pid"}
    coded = {number["error"]: cbor2.CBORTag(39, [number["mbx_"], word("wouldblock")])}
    assert decode_message(cbor2.dumps(coded)) == {"error": "mbx_wouldblock"}
    with pytest.raises(PayloadError):
        decode_message(cbor2.dumps({100_000: 1}))


def test_a_hello_from_another_key_table_is_refused_with_what_to_do():
    hello = {keys.NUMBERS["proto"]: 1, keys.NUMBERS["board"]: "host"}
    assert decode_hello(cbor2.dumps([keys.DIGEST, hello])) == {"proto": 1, "board": "host"}
    with pytest.raises(TableMismatch) as other:
        decode_hello(cbor2.dumps([keys.DIGEST ^ 1, hello]))
    assert "built by another version of hsx" in str(other.value)


def test_bad_hex_is_the_executives_bad_argument():
    with pytest.raises(ProtocolError) as error:
        encode_request({"cmd": "poke", "pid": 1, "addr": 0, "data": "zz"})
    assert error.value.code == "bad_argument" and "'data' must be hex" in error.value.message


@given(st.binary(max_size=64), st.text(max_size=20))
def test_replies_from_the_device_read_as_protocol_v1(data, text):
    message = decode_message(cbor2.dumps({"status": "ok", "data": data, "text": text.encode(),
                                          "nested": [{"old": data}], "value": 1.5}))
    assert message == {"status": "ok", "data": data.hex(), "text": text,
                       "nested": [{"old": data.hex()}], "value": 1.5}


def test_half_floats_read_as_numbers():
    assert decode_message(bytes.fromhex("a16576616c7565f93e00")) == {"value": 1.5}


@settings(max_examples=50)
@given(st.binary(max_size=40))
def test_a_payload_that_is_not_a_map_is_refused(data):
    try:
        value = cbor2.loads(data)
    except Exception:
        value = None
    if isinstance(value, dict):     # a map: its keys may be numbered (tests/port/test_keys.py)
        return
    with pytest.raises(PayloadError):
        decode_message(data)
