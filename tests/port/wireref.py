"""A reference of docs/wire.md's framing in Python, written from the spec (not from the
C): COBS, the CRC, whole frames, and a streaming decoder. The tests check the device's
C code against it and against cbor2/zlib."""
from __future__ import annotations

import struct
import zlib


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out += bytes([len(block) + 1]) + block
            block.clear()
            continue
        block.append(byte)
        if len(block) == 254:
            out += b"\xff" + block
            block.clear()
    out += bytes([len(block) + 1]) + block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Raises ValueError on a zero inside or a block cut short."""
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data):
            raise ValueError("bad COBS")
        out += data[i + 1:i + code]
        if 0 in data[i + 1:i + code]:
            raise ValueError("zero inside a COBS block")
        i += code
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def frame(kind: bytes, seq: int, payload: bytes) -> bytes:
    """One frame on the wire: COBS(kind seq payload crc32) 0x00."""
    body = kind + bytes([seq]) + payload
    return cobs_encode(body + struct.pack("<I", zlib.crc32(body))) + b"\x00"


def unframe(wire: bytes) -> tuple[bytes, int, bytes]:
    """kind, seq, payload of one frame without its delimiters; ValueError if damaged."""
    body = cobs_decode(wire)
    if len(body) < 6 or struct.unpack("<I", body[-4:])[0] != zlib.crc32(body[:-4]):
        raise ValueError("bad CRC")
    return body[:1], body[1], body[2:-4]


class Deframer:
    """Splits a byte stream into frames at each 0x00 (empty ones skipped)."""

    def __init__(self) -> None:
        self.pending = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self.pending += data
        *parts, rest = bytes(self.pending).split(b"\x00")
        self.pending = bytearray(rest)
        return [p for p in parts if p]
