"""Frames of docs/wire.md on the host side: COBS, the CRC, whole frames and a streaming
splitter, written from the spec (the tests check the device's C against them).

    wire:  COBS(body) 0x00        body: kind(1) seq(1) payload(n) crc32(4, little-endian)
"""
from __future__ import annotations

import struct
import zlib


class FrameError(ValueError):
    """A frame that is damaged (COBS, length or CRC)."""


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
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data) or 0 in data[i + 1:i + code]:
            raise FrameError("bad COBS")
        out += data[i + 1:i + code]
        i += code
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def frame(kind: bytes, seq: int, payload: bytes) -> bytes:
    """One frame on the wire: COBS(kind seq payload crc32) 0x00."""
    body = kind + bytes([seq]) + payload
    return cobs_encode(body + struct.pack("<I", zlib.crc32(body))) + b"\x00"


def unframe(wire: bytes) -> tuple[bytes, int, bytes]:
    """kind, seq and payload of one frame without its delimiter; FrameError if damaged."""
    body = cobs_decode(wire)
    if len(body) < 6 or struct.unpack("<I", body[-4:])[0] != zlib.crc32(body[:-4]):
        raise FrameError("bad CRC")
    return body[:1], body[1], body[2:-4]


class Deframer:
    """Splits a byte stream into frames (still encoded) at each 0x00; empty ones are
    skipped."""

    def __init__(self) -> None:
        self.pending = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self.pending += data
        if b"\x00" not in data:
            return []
        *parts, rest = bytes(self.pending).split(b"\x00")
        self.pending = bytearray(rest)
        return [p for p in parts if p]
