"""The device's codecs (port/c/hsx_frame.c, hsx_cbor.c) against references: zlib's CRC,
the host side's frames (hsx.link.frames), and cbor2 for CBOR. Hypothesis generates
the inputs; the C runs through a test-only library (codec_shim.c)."""
from __future__ import annotations

import ctypes
import math
import struct
import zlib

import cbor2
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from shimkit import HERE, PORT, build_shim
from hsx.link.frames import Frame, FrameDecoder, decode_frame, encode_frame

WINDOW, MAX_FRAME = 96, 64          # small, so floods and long frames are cheap to make
RX_NONE, RX_FRAME, RX_BAD_CRC, RX_TOO_LONG = range(4)
SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def lib() -> ctypes.CDLL:
    lib = build_shim("codec", [PORT / "hsx_frame.c", PORT / "hsx_cbor.c", PORT / "hsx_util.c",
                                HERE / "codec_shim.c"],
                     {"HSX_RX_WINDOW": WINDOW, "HSX_MAX_FRAME": MAX_FRAME})
    lib.hsx_crc32.restype = ctypes.c_uint32
    lib.hsx_crc32.argtypes = [ctypes.c_uint32, ctypes.c_char_p, ctypes.c_uint32]
    lib.hsx_frame_push.argtypes = [ctypes.c_char_p, ctypes.c_uint32]
    lib.hsx_frame_pending.restype = lib.hsx_frame_dropped.restype = ctypes.c_uint32
    lib.shim_send.restype = ctypes.c_uint32
    lib.shim_transcode.restype = ctypes.c_int32
    return lib


@pytest.fixture(scope="module")
def big() -> ctypes.CDLL:
    """The frame layer at the full variant's sizes: frames with whole 254-byte blocks."""
    lib = build_shim("codec-big", [PORT / "hsx_frame.c", PORT / "hsx_cbor.c",
                                   PORT / "hsx_util.c", HERE / "codec_shim.c"],
                     {"HSX_RX_WINDOW": 2048, "HSX_MAX_FRAME": 1024})
    lib.hsx_frame_push.argtypes = [ctypes.c_char_p, ctypes.c_uint32]
    return lib


def send(lib, kind: bytes, seq: int, payload: bytes) -> bytes:
    out = ctypes.create_string_buffer(len(payload) * 2 + 64)
    n = lib.shim_send(kind[0], seq, payload, len(payload), out, len(out))
    return out.raw[:n]


def receive_all(lib) -> list[tuple[int, bytes, int, bytes]]:
    """Every frame (or damage report) the device can assemble from its ring now."""
    kind, seq, length = ctypes.c_uint8(), ctypes.c_uint8(), ctypes.c_uint32()
    payload = ctypes.create_string_buffer(2048)
    got = []
    while True:
        status = lib.shim_receive(ctypes.byref(kind), ctypes.byref(seq), payload,
                                  ctypes.byref(length))
        if status == RX_NONE:
            return got
        got.append((status, bytes([kind.value]) if kind.value else b"", seq.value,
                    payload.raw[:length.value]))


def push(lib, data: bytes) -> None:
    lib.hsx_frame_push(data, len(data))


def reset_link(lib) -> None:
    """Drain whatever an earlier example left and end any partial frame."""
    receive_all(lib)
    push(lib, b"\x00")
    receive_all(lib)


# ---------------------------------------------------------------------------- CRC, COBS

@SETTINGS
@given(st.binary(max_size=300), st.binary(max_size=50))
def test_crc32_is_zlibs_and_chains(lib, first, second):
    assert lib.hsx_crc32(0, first, len(first)) == zlib.crc32(first)
    chained = lib.hsx_crc32(lib.hsx_crc32(0, first, len(first)), second, len(second))
    assert chained == zlib.crc32(first + second)


@SETTINGS
@given(st.sampled_from([b"R", b"E", b"H", b"N"]), st.integers(0, 255),
       st.one_of(st.binary(max_size=700), st.binary(max_size=700).map(lambda b: b.replace(b"\x00", b"\x01"))))
def test_sent_frames_are_cobs_with_a_crc(lib, kind, seq, payload):
    wire = send(lib, kind, seq, payload)
    assert wire.endswith(b"\x00")
    body = wire.strip(b"\x00") if kind != b"H" else wire[1:-1]
    assert b"\x00" not in body                       # exactly one frame, delimited
    assert decode_frame(body) == Frame(kind.decode(), seq, payload)
    assert len(wire) <= len(payload) + 6 + (len(payload) + 6) // 254 + 1 + 2


@pytest.mark.parametrize("run", [250, 251, 252, 253, 254, 255, 506, 507, 508, 509])
@pytest.mark.parametrize("tail", [b"", b"\x00", b"\x00\x07", b"\x07"])
def test_long_runs_without_zeros_use_full_blocks(lib, run, tail):
    """COBS's 0xFF block (254 bytes, no zero after it) at every boundary around it."""
    payload = bytes((i % 255) + 1 for i in range(run)) + tail
    for cut in (0, 1):                          # the header shifts where blocks end
        wire = send(lib, b"R", 1, payload[cut:])
        assert decode_frame(wire[:-1]) == Frame("R", 1, payload[cut:])


@pytest.mark.parametrize("run", [252, 253, 254, 255, 506, 507, 508, 509, 1010])
@pytest.mark.parametrize("tail", [b"", b"\x00", b"\x00\x07", b"\x07"])
def test_long_runs_are_received_whole(big, run, tail):
    payload = bytes((i % 255) + 1 for i in range(run)) + tail
    for cut in (0, 1):
        push(big, encode_frame("Q", 2, payload[cut:]))
        assert receive_all(big) == [(RX_FRAME, b"Q", 2, payload[cut:])]


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 255), st.binary(max_size=MAX_FRAME - 6)),
                min_size=1, max_size=4),
       st.data())
def test_frames_arrive_whole_however_the_bytes_are_split(lib, frames, data):
    reset_link(lib)
    wire = b"".join(encode_frame("Q", seq, payload) for seq, payload in frames)
    assume(len(wire) <= WINDOW)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=6)))
    got = []
    for start, end in zip([0, *cuts], [*cuts, len(wire)]):
        push(lib, wire[start:end])
        got += receive_all(lib)
    assert got == [(RX_FRAME, b"Q", seq, payload) for seq, payload in frames]


# ------------------------------------------------------------------------ damage and resync

GOOD = encode_frame("Q", 7, b"\xa1\x63cmd\x64ping")


@SETTINGS
@given(st.binary(min_size=1, max_size=40), st.integers(0, 255), st.integers(0, 7))
def test_a_damaged_frame_is_reported_and_the_next_one_is_served(lib, payload, where, bit):
    reset_link(lib)
    wire = bytearray(encode_frame("Q", 9, payload))
    index = where % (len(wire) - 1)                  # not the delimiter
    wire[index] ^= 1 << bit
    push(lib, bytes(wire) + GOOD)
    got = receive_all(lib)
    assert got[-1] == (RX_FRAME, b"Q", 7, b"\xa1\x63cmd\x64ping")
    # the damage never passes as a frame: every report before the good one is an error
    assert all(status in (RX_BAD_CRC, RX_TOO_LONG) for status, *_ in got[:-1])
    assert 1 <= len(got) - 1 <= 2                     # a flipped-in zero splits it in two


@SETTINGS
@given(st.binary(max_size=80))
def test_garbage_costs_at_most_the_frame_it_runs_into(lib, garbage):
    reset_link(lib)
    push(lib, garbage + b"\x00" + GOOD)
    got = receive_all(lib)
    assert got[-1][0] == RX_FRAME and got[-1][3] == b"\xa1\x63cmd\x64ping"


def test_a_frame_cut_short_fails_its_crc(lib):
    reset_link(lib)
    push(lib, GOOD[:-4] + b"\x00" + GOOD)
    assert [status for status, *_ in receive_all(lib)] == [RX_BAD_CRC, RX_FRAME]


def test_a_frame_longer_than_max_frame_is_dropped_whole(lib):
    reset_link(lib)
    long = encode_frame("Q", 3, bytes(range(1, MAX_FRAME)))    # body MAX_FRAME + 5 bytes
    push(lib, long[: WINDOW - 1])
    got = receive_all(lib)
    push(lib, long[WINDOW - 1:] + GOOD)
    got += receive_all(lib)
    assert [(s, seq) for s, _, seq, _ in got] == [(RX_TOO_LONG, 3), (RX_FRAME, 7)]


def test_largest_frame_fits(lib):
    reset_link(lib)
    payload = bytes(range(1, MAX_FRAME - 5))
    push(lib, encode_frame("Q", 4, payload))
    assert receive_all(lib) == [(RX_FRAME, b"Q", 4, payload)]


def test_a_flood_past_the_window_is_dropped_and_counted(lib):
    reset_link(lib)
    dropped = lib.hsx_frame_dropped()
    push(lib, b"\x55" * (WINDOW + 40))               # nobody reads: the ring fills
    assert lib.hsx_frame_pending() == WINDOW
    assert lib.hsx_frame_dropped() - dropped == 40
    push(lib, b"\x00")                               # no room for it either
    got = receive_all(lib)                           # frees the ring; no frame ended
    push(lib, b"\x00" + GOOD)
    got += receive_all(lib)
    assert got[-1][0] == RX_FRAME
    assert [s for s, *_ in got[:-1]] in ([RX_TOO_LONG], [])


def test_delimiters_alone_are_not_frames(lib):
    reset_link(lib)
    push(lib, b"\x00" * 10)
    assert receive_all(lib) == []


# -------------------------------------------------------------------------------- CBOR

KEYS = st.one_of(st.text(max_size=12), st.integers(-1000, 1000))
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2 ** 64), 2 ** 64 - 1),
    st.floats(allow_nan=False), st.text(max_size=40), st.binary(max_size=40))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(KEYS, inner, max_size=6)), max_leaves=30)


def transcode(lib, data: bytes, cap: int = 4096) -> tuple[int, bytes]:
    out = ctypes.create_string_buffer(cap + 16)
    ctypes.memset(ctypes.addressof(out) + cap, 0xA5, 16)
    n = lib.shim_transcode(data, len(data), out, cap)
    assert out.raw[cap:] == b"\xa5" * 16            # never a byte past the buffer
    return n, out.raw[:max(n, 0)]


@SETTINGS
@given(VALUES, st.booleans())
def test_cbor_reader_and_writer_agree_with_cbor2(lib, value, canonical):
    encoded = cbor2.dumps(value, canonical=canonical)
    n, out = transcode(lib, encoded)
    assert n >= 0
    assert cbor2.loads(out) == value


@SETTINGS
@given(VALUES, st.integers(1, 64))
def test_a_writer_through_a_small_buffer_writes_the_same_bytes(lib, value, chunk):
    encoded = cbor2.dumps(value)
    n, whole = transcode(lib, encoded)
    out = ctypes.create_string_buffer(n + 1)
    assert lib.shim_transcode_chunked(encoded, len(encoded), out, chunk) == n
    assert out.raw[:n] == whole


@SETTINGS
@given(st.sampled_from([2, 4, 8]), st.integers(0, 2 ** 64 - 1))
def test_floats_keep_their_bits(lib, size, bits):
    bits &= (1 << (8 * size)) - 1
    head = {2: 0xF9, 4: 0xFA, 8: 0xFB}[size]
    encoded = bytes([head]) + bits.to_bytes(size, "big")
    n, out = transcode(lib, encoded)
    assert out == encoded
    value = cbor2.loads(out)
    expected = struct.unpack({2: ">e", 4: ">f", 8: ">d"}[size], bits.to_bytes(size, "big"))[0]
    assert (math.isnan(value) and math.isnan(expected)) or value == expected


@SETTINGS
@given(VALUES, st.integers(0, 200))
def test_the_writer_reports_overflow_instead_of_writing_past_the_end(lib, value, cap):
    encoded = cbor2.dumps(value)
    n, out = transcode(lib, encoded, cap)
    full, _ = transcode(lib, encoded)
    assert n == (-2 if full > cap else full)


@SETTINGS
@given(VALUES)
def test_truncated_cbor_is_malformed(lib, value):
    encoded = cbor2.dumps(value)
    for end in range(len(encoded)):
        assert lib.shim_skip(encoded[:end], end) == -1
        assert transcode(lib, encoded[:end])[0] == -1
    assert lib.shim_skip(encoded, len(encoded)) == len(encoded)


@SETTINGS
@given(st.binary(max_size=60))
def test_random_bytes_never_crash_the_reader(lib, data):
    n, out = transcode(lib, data)
    if n >= 0:
        assert lib.shim_skip(data, len(data)) == len(data)
        try:                     # what the reader took is CBOR (tags dropped) to cbor2 too
            cbor2.loads(out)
        except cbor2.CBORDecodeError as error:      # but for text that is not UTF-8:
            assert "text string" in str(error)     # the device compares bytes only
    else:
        assert lib.shim_skip(data, len(data)) in (-1, *range(len(data)))
    lib.shim_check_map(data, len(data))


def test_indefinite_lengths_and_other_simple_values_are_refused(lib):
    for data in (b"\x9f\x01\xff", b"\xbf\x61a\x01\xff", b"\x5f\x41a\xff", b"\xf0", b"\xf8\x20"):
        assert transcode(lib, data)[0] == -1


def test_a_huge_count_is_malformed_not_a_long_loop(lib):
    assert lib.shim_skip(b"\x9b" + b"\xff" * 8, 9) == -1
    assert lib.shim_skip(b"\xbb" + b"\x7f" + b"\xff" * 7, 9) == -1


def test_tags_stand_for_the_item_they_tag(lib):
    n, out = transcode(lib, cbor2.dumps(cbor2.CBORTag(4000, [1, "x"])))
    assert cbor2.loads(out) == [1, "x"]


def test_a_map_must_be_one_whole_map(lib):
    for data in (cbor2.dumps([1]), cbor2.dumps({}) + b"\x01", b"", cbor2.dumps({"a": 1})[:-1]):
        assert lib.shim_check_map(data, len(data)) == -1
    assert lib.shim_check_map(b"\xa0", 1) == 0


def test_the_host_decoder_splits_on_delimiters():
    good = encode_frame("R", 1, b"ab")
    assert FrameDecoder().feed(b"\x00" + good + b"\x00" + good[:3]) == [Frame("R", 1, b"ab")]
