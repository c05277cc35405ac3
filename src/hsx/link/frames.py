"""Frames of the byte-stream link (docs/wire.md, "Frames"): COBS, CRC-32, delimiters.

    wire:   COBS(body) 0x00
    body:   kind(1) seq(1) payload(n) crc32(4, little-endian)

`encode_frame` makes one frame's wire bytes; `FrameDecoder` takes bytes as they arrive
(any split) and hands back whole frames, resynchronising at the next 0x00 after
garbage, a truncated frame, a bad CRC or an oversized frame, so at most one frame is
lost to each; `decode_frame` reads one frame's bytes between delimiters.  Pure functions
and one small class: the same code serves the clients, `hsx board run`'s hello probe,
the tests' fake devices and the tests of the device's C codec.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass

DELIMITER = 0
HEADER = 2                     # kind, seq
CRC_SIZE = 4
MIN_BODY = HEADER + CRC_SIZE


@dataclass(frozen=True)
class Frame:
    kind: str                  # one ASCII letter: H, Q, R, E, N
    seq: int
    payload: bytes


@dataclass(frozen=True)
class BadFrame:
    """What the decoder dropped, and why: `bad_crc`, `too_long` or `bad_frame` (the
    codes of an `N` frame), with the seq when it was readable."""

    error: str
    seq: int = 0


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: `data` without any zero byte, one byte longer
    per started 254 bytes."""
    out = bytearray()
    for block in data.split(b"\0"):
        while len(block) >= 254:               # a full run: code 0xFF, no implied zero
            out.append(0xFF)
            out += block[:254]
            block = block[254:]
        out.append(len(block) + 1)
        out += block
    return bytes(out)      # a code below 0xFF implies the zero that followed its block


def cobs_decode(data: bytes) -> bytes | None:
    """The inverse of `cobs_encode`; None when `data` is not a COBS encoding (a zero
    byte, or a code that runs past the end)."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n or 0 in data[i + 1:end]:
            return None
        out += data[i + 1:end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def crc32(data: bytes) -> int:
    """CRC-32 of IEEE 802.3 (reflected 0xEDB88320, init and final XOR 0xFFFFFFFF)."""
    return zlib.crc32(data) & 0xFFFFFFFF


def frame_body(kind: str, seq: int, payload: bytes) -> bytes:
    head = bytes((ord(kind), seq & 0xFF)) + payload
    return head + crc32(head).to_bytes(4, "little")


def encode_frame(kind: str, seq: int, payload: bytes = b"", *, lead: bool = False) -> bytes:
    """One frame on the wire; `lead` puts a 0x00 before it too, so a receiver that
    started mid-frame drops only that fragment (wire.md)."""
    wire = cobs_encode(frame_body(kind, seq, payload)) + b"\0"
    return b"\0" + wire if lead else wire


def wire_size(payload_len: int, lead: bool = False) -> int:
    """Bytes on the wire of a frame with a payload of `payload_len` bytes."""
    body = MIN_BODY + payload_len
    return body + body // 254 + 1 + 1 + (1 if lead else 0)


def parse_body(body: bytes) -> Frame | BadFrame:
    if len(body) < MIN_BODY:
        return BadFrame("bad_frame", body[1] if len(body) >= HEADER else 0)
    head, crc = body[:-CRC_SIZE], int.from_bytes(body[-CRC_SIZE:], "little")
    if crc32(head) != crc:
        return BadFrame("bad_crc")
    kind = chr(head[0])
    if not ("A" <= kind <= "Z"):
        return BadFrame("bad_frame", head[1])
    return Frame(kind, head[1], bytes(head[HEADER:]))


class FrameDecoder:
    """Whole frames out of a byte stream.  `max_body` bounds a decoded body (the peer's
    `max_frame`): a longer frame is dropped whole, and never held in memory past that
    bound while it streams in."""

    def __init__(self, max_body: int = 1 << 20) -> None:
        self.max_body = max_body
        self._buf = bytearray()
        self._overflow = False          # the frame arriving is too long: skip to 0x00

    def feed(self, data: bytes) -> list[Frame | BadFrame]:
        out: list[Frame | BadFrame] = []
        limit = self.max_body + self.max_body // 254 + 2     # its COBS encoding, at most
        start = 0
        while True:
            end = data.find(b"\0", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._overflow:
                self._buf += piece
                if len(self._buf) > limit:
                    self._overflow = True
                    self._buf.clear()
            if end < 0:
                return out
            if self._overflow:
                out.append(BadFrame("too_long"))
                self._overflow = False
            elif self._buf:
                out.append(self._decode(bytes(self._buf)))
                self._buf.clear()
            start = end + 1

    def _decode(self, encoded: bytes) -> Frame | BadFrame:
        return decode_frame(encoded, self.max_body)


def decode_frame(encoded: bytes, max_body: int = 1 << 20) -> Frame | BadFrame:
    """One frame's wire bytes without its delimiter: the frame, or why it is dropped."""
    body = cobs_decode(encoded)
    if body is None:
        return BadFrame("bad_crc")            # what wire.md says a broken body gets
    if len(body) > max_body:
        return BadFrame("too_long")
    return parse_body(body)
