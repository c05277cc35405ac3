"""Read, validate and write `.hxe` executable images: v1 and v2 are read, v2 is written.

Checks run in the order the bytes explain a problem best: header fields, then whether
every section is inside the file, then the CRC, then section layout and contents.  So a
cut-off download says "truncated" rather than "CRC mismatch", and a corrupted metadata
string is only diagnosed once the CRC has said the bytes are the ones the linker wrote.
"""
from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass, replace

from .errors import ImageError, check_uint
from .metadata import RawSection, decode_metadata, encode_metadata, section_name
from .model import (APP_NAME_MAX, FLAG_ALLOW_MULTIPLE, HEADER_SIZE_V1, HEADER_SIZE_V2,
                    HXE_MAGIC, MAX_BSS_SIZE, MAX_CODE_LEN, MAX_RODATA_LEN, CommandSpec,
                    HxeImage)

_V1_HEADER = struct.Struct(">IHHIIIIII")
_V2_HEADER = struct.Struct(">IHHIIIIII32sIIII16s")
_TABLE_ENTRY = struct.Struct(">IIII")
_CRC_OFFSET = 0x1C
_APP_NAME_OFFSET = 0x20
_STACK_SIZE_OFFSET = 0x48       # then mem_size, both outside the CRC
_RESERVED_OFFSET = 0x50


@dataclass(frozen=True)
class HeaderInfo:
    """The validated header fields, available before the rest of the file has arrived."""

    version: int
    flags: int
    entry: int
    code_len: int
    ro_len: int
    bss_size: int
    req_caps: int
    crc: int
    app_name: str | None = None
    meta_offset: int = 0
    meta_count: int = 0
    stack_size: int = 0             # bytes of stack the app asks for (0: the executive's)
    mem_size: int = 0               # bytes of task memory the app asks for (0: likewise)

    @property
    def header_size(self) -> int:
        return HEADER_SIZE_V1 if self.version == 1 else HEADER_SIZE_V2

    @property
    def rodata_end(self) -> int:
        return self.header_size + self.code_len + self.ro_len

    @property
    def table_end(self) -> int:
        return self.meta_offset + _TABLE_ENTRY.size * self.meta_count if self.meta_offset else 0

    @property
    def total_size_hint(self) -> int:
        """The smallest file size this header allows: header, code, rodata and the
        metadata table (section payloads are only known once the table is read)."""
        return max(self.rodata_end, self.table_end)


@dataclass(frozen=True)
class _TableEntry:
    """One entry of the metadata section table, as read from the file."""

    index: int
    kind: int
    offset: int
    size: int
    entry_count: int

    @property
    def end(self) -> int:
        return self.offset + self.size

    def describe(self) -> str:
        return (f"metadata section {self.index} ({section_name(self.kind)}, "
                f"offset 0x{self.offset:X}, {self.size} bytes)")


# --------------------------------------------------------------------------- header

def parse_header(prefix: bytes) -> HeaderInfo:
    """Validate the header from the first bytes of an image (extra bytes are ignored).

    A streaming loader calls this as soon as it holds 96 bytes (or the whole stream, if
    shorter): `too_small` and `header_truncated` mean the prefix is shorter than the
    header; any other error means the image is bad whatever follows."""
    prefix = bytes(prefix[:HEADER_SIZE_V2])
    if len(prefix) < HEADER_SIZE_V1:
        raise ImageError("too_small", f"file is {len(prefix)} bytes; the smallest header "
                                      f"is {HEADER_SIZE_V1} bytes")
    magic, version, flags, entry, code_len, ro_len, bss_size, req_caps, crc = \
        _V1_HEADER.unpack_from(prefix)
    if magic != HXE_MAGIC:
        raise ImageError("bad_magic", f"bad magic 0x{magic:08X} (an HXE image starts with "
                                      f"0x{HXE_MAGIC:08X}, \"HSXE\")")
    if version not in (1, 2):
        raise ImageError("unsupported_version",
                         f"unsupported HXE version 0x{version:04X} (supported: 1, 2)")
    info = HeaderInfo(version, flags, entry, code_len, ro_len, bss_size, req_caps, crc)
    if version == 2:
        if len(prefix) < HEADER_SIZE_V2:
            raise ImageError("header_truncated", f"v2 header needs {HEADER_SIZE_V2} bytes, "
                                                 f"only {len(prefix)} present")
        *_, raw_name, meta_offset, meta_count, stack_size, mem_size, reserved = \
            _V2_HEADER.unpack(prefix)
        if any(reserved):
            at = _RESERVED_OFFSET + next(i for i, b in enumerate(reserved) if b)
            raise ImageError("reserved_nonzero", f"reserved header byte at 0x{at:02X} is "
                                                 f"0x{prefix[at]:02X}; reserved bytes must be 0")
        info = HeaderInfo(version, flags, entry, code_len, ro_len, bss_size, req_caps, crc,
                          _decode_app_name(raw_name), meta_offset, meta_count, stack_size,
                          mem_size)
    _check_header(info)
    return info


def _decode_app_name(raw: bytes) -> str | None:
    if b"\0" not in raw:
        raise ImageError("bad_app_name", f"app_name fills all {len(raw)} bytes; it must end "
                                         f"with a NUL (at most {APP_NAME_MAX} characters)")
    name = raw[:raw.index(b"\0")]
    for position, byte in enumerate(name):
        if not 0x20 <= byte <= 0x7E:
            raise ImageError("bad_app_name", f"app_name has byte 0x{byte:02X} at position "
                                             f"{position}; only printable ASCII is allowed")
    return name.decode("ascii").strip() or None


def _check_header(info: HeaderInfo) -> None:
    """Checks that need only the header; shared by reader and writer."""
    for code, what, size, limit in (("code_too_large", "code", info.code_len, MAX_CODE_LEN),
                                    ("rodata_too_large", "rodata", info.ro_len, MAX_RODATA_LEN),
                                    ("bss_too_large", "bss", info.bss_size, MAX_BSS_SIZE)):
        if size > limit:
            raise ImageError(code, f"{what} section is {size} bytes; the limit is {limit}")
    if info.stack_size % 4:
        raise ImageError("bad_task_size", f"stack size {info.stack_size} is not a multiple of 4")
    if info.mem_size % 16:
        raise ImageError("bad_task_size", f"task memory {info.mem_size} is not a multiple of 16")
    if info.code_len % 4:
        raise ImageError("code_misaligned", f"code section is {info.code_len} bytes, "
                                            f"not a multiple of 4")
    if info.entry % 4:
        raise ImageError("entry_misaligned", f"entry 0x{info.entry:X} is not a multiple of 4")
    if info.entry >= info.code_len:
        raise ImageError("entry_outside_code", f"entry 0x{info.entry:X} is outside the code "
                                               f"section ({info.code_len} bytes)")
    if info.meta_count and not info.meta_offset:
        raise ImageError("metadata_table_missing", f"header declares {info.meta_count} metadata "
                                                   f"sections but no table (meta_offset 0)")
    if info.meta_offset and info.meta_offset < info.rodata_end:
        raise ImageError("metadata_overlap",
                         f"metadata table at 0x{info.meta_offset:X} overlaps the header, code or "
                         f"rodata (which end at 0x{info.rodata_end:X})")


# --------------------------------------------------------------------------- reading

def read_hxe(data: bytes) -> HxeImage:
    """Validate and decode a whole image; any defect raises `ImageError`."""
    data = bytes(data)
    info = parse_header(data)
    code_start = info.header_size
    rodata_start = code_start + info.code_len
    _require_in_file("truncated", f"section code (offset 0x{code_start:X}, {info.code_len} "
                     "bytes)", rodata_start, data)
    _require_in_file("truncated", f"section rodata (offset 0x{rodata_start:X}, {info.ro_len} "
                     "bytes)", info.rodata_end, data)
    entries = _read_table(info, data)
    _check_crc(info, data, max([info.rodata_end, info.table_end] + [e.end for e in entries]))
    _check_layout(info, entries)
    metadata = decode_metadata(
        RawSection(e.kind, data[e.offset:e.end], e.entry_count) for e in entries)
    _check_handlers(metadata.commands, info.code_len)
    return HxeImage(code=data[code_start:rodata_start], rodata=data[rodata_start:info.rodata_end],
                    entry=info.entry, bss_size=info.bss_size, req_caps=info.req_caps,
                    flags=info.flags, app_name=info.app_name, metadata=metadata,
                    version=info.version, crc=info.crc, stack_size=info.stack_size,
                    mem_size=info.mem_size)


def read_hxe_file(path: str | os.PathLike) -> HxeImage:
    """`read_hxe` on a file; an unreadable file is an `ImageError` with code `unreadable`."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise ImageError("unreadable", f"cannot read {os.fspath(path)}: "
                                       f"{exc.strerror or exc}") from None
    return read_hxe(data)


def _require_in_file(code: str, what: str, end: int, data: bytes) -> None:
    if end > len(data):
        raise ImageError(code, f"{what} runs past the end of the file ({len(data)} bytes)")


def _read_table(info: HeaderInfo, data: bytes) -> list[_TableEntry]:
    if not info.meta_offset:
        return []
    _require_in_file("metadata_out_of_bounds", f"metadata table (offset 0x{info.meta_offset:X}, "
                     f"{info.meta_count} entries of {_TABLE_ENTRY.size} bytes)",
                     info.table_end, data)
    entries = []
    for index in range(info.meta_count):
        kind, offset, size, count = _TABLE_ENTRY.unpack_from(
            data, info.meta_offset + index * _TABLE_ENTRY.size)
        entry = _TableEntry(index, kind, offset, size, count)
        _require_in_file("metadata_out_of_bounds", entry.describe(), entry.end, data)
        entries.append(entry)
    return entries


def _crc(data: bytes, header_size: int) -> int:
    return zlib.crc32(data[header_size:], zlib.crc32(data[:_CRC_OFFSET]))


def _check_crc(info: HeaderInfo, data: bytes, image_end: int) -> None:
    actual = _crc(data, info.header_size)
    if actual == info.crc:
        return
    if image_end < len(data) and _crc(data[:image_end], info.header_size) == info.crc:
        raise ImageError("trailing_bytes",
                         f"{len(data) - image_end} bytes follow the end of the image at "
                         f"0x{image_end:X} and are not covered by its CRC")
    raise ImageError("crc_mismatch", f"CRC mismatch: header says 0x{info.crc:08X}, contents "
                                     f"give 0x{actual:08X}")


def _check_layout(info: HeaderInfo, entries: list[_TableEntry]) -> None:
    """Metadata sections sit after rodata and overlap neither the table nor each other."""
    for entry in entries:
        if entry.offset < info.rodata_end:
            raise ImageError("metadata_overlap",
                             f"{entry.describe()} overlaps the header, code or rodata "
                             f"(which end at 0x{info.rodata_end:X})")
    table = (info.meta_offset, info.table_end, f"the metadata table (offset "
             f"0x{info.meta_offset:X}, {info.table_end - info.meta_offset} bytes)")
    spans = sorted([table] + [(e.offset, e.end, e.describe()) for e in entries if e.size])
    for (_, end, first), (start, _, second) in zip(spans, spans[1:]):
        if start < end:
            raise ImageError("metadata_overlap", f"{second} overlaps {first}")


def _check_handlers(commands: list[CommandSpec], code_len: int) -> None:
    for command in commands:
        offset = command.handler_offset
        if offset % 4 or offset >= code_len:
            raise ImageError("handler_outside_code",
                             f"command ({command.group},{command.cmd}) handler offset "
                             f"0x{offset:X} is not an instruction in the code section "
                             f"({code_len} bytes)")


# --------------------------------------------------------------------------- writing

def write_hxe(image: HxeImage) -> bytes:
    """Encode an image as v2, byte-identical to the reference linker for the same content.

    `image.version` and `image.crc` are not written back: the output is always v2 with
    a fresh CRC.  A v1 image keeps its "multiple instances allowed" meaning by getting
    flag bit 1 set."""
    code, rodata = bytes(image.code), bytes(image.rodata)
    flags = check_uint("flags", image.flags, 16)
    if image.version == 1:
        flags |= FLAG_ALLOW_MULTIPLE
    sections = encode_metadata(image.metadata)
    rodata_end = HEADER_SIZE_V2 + len(code) + len(rodata)
    info = HeaderInfo(version=2, flags=flags,
                      entry=check_uint("entry", image.entry, 32),
                      code_len=len(code), ro_len=len(rodata),
                      bss_size=check_uint("bss_size", image.bss_size, 32),
                      req_caps=check_uint("req_caps", image.req_caps, 32), crc=0,
                      app_name=image.app_name,
                      meta_offset=rodata_end if sections else 0, meta_count=len(sections),
                      stack_size=check_uint("stack_size", image.stack_size, 32),
                      mem_size=check_uint("mem_size", image.mem_size, 32))
    _check_header(info)
    _check_handlers(image.metadata.commands, len(code))
    body = bytearray(code + rodata)
    payload_offset = info.table_end
    for section in sections:
        body += _TABLE_ENTRY.pack(section.kind, payload_offset, len(section.payload),
                                  section.entry_count)
        payload_offset += len(section.payload)
    for section in sections:
        body += section.payload
    header = _V2_HEADER.pack(HXE_MAGIC, 2, flags, info.entry, info.code_len, info.ro_len,
                             info.bss_size, info.req_caps, 0, _encode_app_name(image.app_name),
                             info.meta_offset, info.meta_count, info.stack_size,
                             info.mem_size, bytes(16))
    crc = zlib.crc32(body, zlib.crc32(header[:_CRC_OFFSET]))
    return header[:_CRC_OFFSET] + crc.to_bytes(4, "big") + header[_APP_NAME_OFFSET:] + body


def with_task_sizes(data: bytes, stack_size: int | None, mem_size: int | None) -> bytes:
    """`data` asking for this stack and task memory (None: as it asks now).  A v2 image
    keeps its bytes but the two fields, which its CRC does not cover; a v1 image has no
    such fields and is written again as v2."""
    if stack_size is None and mem_size is None:
        return data
    info = parse_header(data)
    stack = info.stack_size if stack_size is None else stack_size
    memory = info.mem_size if mem_size is None else mem_size
    if info.version == 1:
        return write_hxe(replace(read_hxe(data), stack_size=stack, mem_size=memory))
    _check_header(replace(info, stack_size=stack, mem_size=memory))
    return data[:_STACK_SIZE_OFFSET] + struct.pack(">II", stack, memory) + \
        data[_STACK_SIZE_OFFSET + 8:]


def _encode_app_name(name: str | None) -> bytes:
    if name is None or name == "":
        return bytes(32)
    if (not isinstance(name, str) or len(name) > APP_NAME_MAX or name != name.strip()
            or not all(" " <= ch <= "~" for ch in name)):
        raise ImageError("bad_app_name",
                         f"app_name {name!r} must be printable ASCII, at most {APP_NAME_MAX} "
                         f"characters, without leading or trailing spaces "
                         f"(normalize_app_name makes one)")
    return name.encode("ascii").ljust(32, b"\0")


def normalize_app_name(name: str | None) -> str | None:
    """Make any string a writable app_name the way the reference linker did: drop
    characters that are not printable ASCII, strip spaces, keep 31 characters."""
    if name is None:
        return None
    kept = "".join(ch for ch in name if " " <= ch <= "~").strip()
    return kept[:APP_NAME_MAX].rstrip() or None
