"""Raw image builders for the tests, written straight from the byte layout of the
reference (vm_isa_hxe.md §5) so that they do not share code with the implementation."""
from __future__ import annotations

import struct
import zlib
from types import SimpleNamespace

import pytest

from hsx.image import CommandSpec, HxeImage, MailboxSpec, Metadata, ValueSpec

RET = bytes.fromhex("25000000")

# §5.9: v1 image holding one RET word.
V1_RET = bytes.fromhex("48535845 0001 0000 00000000 00000004 00000000 00000000 00000000 e5de6416"
                       "25000000")

# §5.9: the 296-byte v2 image of the reference linker.
V2_VECTOR = bytes.fromhex(
    "48535845 0002 0002 00000000 00000008 00000004 00000000 00000000 4d061791"
    + "766563" + "00" * 29                      # app_name "vec"
    + "0000006c 00000003" + "00" * 24          # meta_offset, meta_count, reserved
    + "01100005 25000000 aabbccdd"             # code, rodata
    + "00000001 0000009c 0000001e 00000001"    # table: value
    + "00000002 000000ba 0000001c 00000001"    #        command
    + "00000003 000000d6 00000052 00000001"    #        mailbox
    + "01020200 3c00 0014 001a 0000 0000 5640 0007 0000" + "7370656564 00 72706d 00"
    + "01030000 00000004 0010 0016 00000000" + "7265736574 00 5265736574 00"
) + b'{"mailboxes":[{"capacity":96,"mode_mask":3,"target":"app:telemetry"}],"version":1}'


def vector_image() -> HxeImage:
    """The content of V2_VECTOR as a model object."""
    return HxeImage(
        code=bytes.fromhex("0110000525000000"), rodata=bytes.fromhex("aabbccdd"),
        flags=2, app_name="vec",
        metadata=Metadata(
            values=[ValueSpec(1, 2, flags=2, init_f16=0x3C00, name="speed", unit="rpm",
                              max_f16=0x5640, persist_key=7)],
            commands=[CommandSpec(1, 3, handler_offset=4, name="reset", help="Reset")],
            mailboxes=[MailboxSpec("app:telemetry", capacity=96, mode_mask=3)]))


def recrc(data: bytes) -> bytes:
    """Store the correct CRC (reference rule: bytes 0..0x1B plus everything after the header)."""
    data = bytearray(data)
    header_size = 32 if data[4:6] == b"\x00\x01" else 96
    crc = zlib.crc32(bytes(data[header_size:]), zlib.crc32(bytes(data[:0x1C])))
    data[0x1C:0x20] = crc.to_bytes(4, "big")
    return bytes(data)


def patch(data: bytes, offset: int, fmt: str, *values, fix_crc: bool = True) -> bytes:
    """Overwrite big-endian fields at `offset`, then (by default) fix the CRC."""
    data = bytearray(data)
    struct.pack_into(">" + fmt, data, offset, *values)
    return recrc(bytes(data)) if fix_crc else bytes(data)


def v2(code: bytes = RET, rodata: bytes = b"", sections=(), app: bytes = b"", flags: int = 2,
       entry: int = 0) -> bytes:
    """A v2 image laid out like the reference linker: table after rodata, then payloads."""
    table_at = 96 + len(code) + len(rodata)
    offset = table_at + 16 * len(sections)
    table = payloads = b""
    for kind, payload, count in sections:
        table += struct.pack(">IIII", kind, offset, len(payload), count)
        offset += len(payload)
        payloads += payload
    header = struct.pack(">IHHIIIIII32sII24s", 0x48535845, 2, flags, entry, len(code),
                         len(rodata), 0, 0, 0, app, table_at if sections else 0, len(sections),
                         b"")
    return recrc(header + code + rodata + table + payloads)


@pytest.fixture(scope="session")
def raw():
    return SimpleNamespace(RET=RET, V1_RET=V1_RET, V2_VECTOR=V2_VECTOR, vector_image=vector_image,
                           recrc=recrc, patch=patch, v2=v2)
