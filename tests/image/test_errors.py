"""One or more cases for every ImageError code, reading and writing."""
from __future__ import annotations

import dataclasses
import json
import struct

import pytest

from hsx.image import (ERROR_CODES, CommandSpec, HxeImage, ImageError, MailboxSpec, Metadata,
                       ValueSpec, read_hxe, read_hxe_file, write_hxe)

# Offsets inside the §5.9 v2 vector.
TABLE = 0x6C            # three 16-byte entries: value, command, mailbox
VALUE = 0x9C            # value record, then "speed\0rpm\0" at 0xB0
COMMAND = 0xBA


def _mailbox_payload(raw, payload: bytes, count: int = 1) -> bytes:
    return raw.v2(sections=[(3, payload, count)])


def _json_mailboxes(raw, document) -> bytes:
    return _mailbox_payload(raw, json.dumps(document).encode())


READ_CASES = [
    ("too_small", "empty", lambda r: b""),
    ("too_small", "31 bytes", lambda r: r.V1_RET[:31]),
    ("header_truncated", "v2 with 95 bytes", lambda r: r.V2_VECTOR[:95]),
    ("bad_magic", "HSXF", lambda r: r.patch(r.V1_RET, 0, "I", 0x48535846)),
    ("unsupported_version", "version 0", lambda r: r.patch(r.V1_RET, 4, "H", 0)),
    ("unsupported_version", "version 3", lambda r: r.patch(r.V2_VECTOR, 4, "H", 3)),
    ("reserved_nonzero", "last reserved byte",
     lambda r: r.patch(r.V2_VECTOR, 0x5F, "B", 1, fix_crc=False)),
    ("bad_app_name", "non-ASCII", lambda r: r.patch(r.V2_VECTOR, 0x20, "4s", b"v\xc3\xa9c")),
    ("bad_app_name", "control character", lambda r: r.patch(r.V2_VECTOR, 0x20, "3s", b"v\x01c")),
    ("bad_app_name", "no NUL", lambda r: r.patch(r.V2_VECTOR, 0x20, "32s", b"a" * 32)),
    ("code_too_large", "32 MiB + 4", lambda r: r.patch(r.V2_VECTOR, 0x0C, "I", 0x2000004)),
    ("rodata_too_large", "4 GiB - 16 KiB + 1",
     lambda r: r.patch(r.V2_VECTOR, 0x10, "I", 0xFFFFC001)),
    ("bss_too_large", "4 GiB - 16 KiB + 1", lambda r: r.patch(r.V2_VECTOR, 0x14, "I", 0xFFFFC001)),
    ("code_misaligned", "6 bytes", lambda r: r.patch(r.V2_VECTOR, 0x0C, "I", 6)),
    ("bad_task_size", "stack 6", lambda r: r.patch(r.V2_VECTOR, 0x48, "I", 6, fix_crc=False)),
    ("bad_task_size", "memory 0x10008",
     lambda r: r.patch(r.V2_VECTOR, 0x4C, "I", 0x10008, fix_crc=False)),
    ("entry_misaligned", "entry 1", lambda r: r.patch(r.V2_VECTOR, 0x08, "I", 1)),
    ("entry_outside_code", "entry = code_len", lambda r: r.patch(r.V2_VECTOR, 0x08, "I", 8)),
    ("entry_outside_code", "no code", lambda r: r.patch(r.V1_RET, 0x0C, "I", 0)),
    ("truncated", "code", lambda r: r.patch(r.V1_RET, 0x0C, "I", 8)),
    ("truncated", "rodata", lambda r: r.patch(r.v2(rodata=b"ro"), 0x10, "I", 0x1000)),
    ("crc_mismatch", "code byte flipped", lambda r: r.patch(r.V2_VECTOR, 0x60, "B", 0xFF,
                                                            fix_crc=False)),
    ("crc_mismatch", "crc field", lambda r: r.patch(r.V1_RET, 0x1C, "I", 0, fix_crc=False)),
    ("trailing_bytes", "v1", lambda r: r.V1_RET + b"x"),
    ("trailing_bytes", "v2", lambda r: r.V2_VECTOR + b"\0" * 7),
    ("metadata_table_missing", "meta_offset 0",
     lambda r: r.patch(r.V2_VECTOR, 0x40, "I", 0, fix_crc=False)),
    ("metadata_overlap", "table in rodata",
     lambda r: r.patch(r.V2_VECTOR, 0x40, "I", 0x68, fix_crc=False)),
    ("metadata_overlap", "section in rodata", lambda r: r.patch(r.V2_VECTOR, TABLE + 4, "I", 0x68)),
    ("metadata_overlap", "section in table", lambda r: r.patch(r.V2_VECTOR, TABLE + 4, "I", 0x98)),
    ("metadata_overlap", "sections overlap",
     lambda r: r.patch(r.V2_VECTOR, TABLE + 0x18, "I", 0x20)),
    ("metadata_out_of_bounds", "table", lambda r: r.patch(r.V2_VECTOR, 0x44, "I", 100,
                                                          fix_crc=False)),
    ("metadata_out_of_bounds", "section size",
     lambda r: r.patch(r.V2_VECTOR, TABLE + 8, "I", 0xFFFFFFFF)),
    ("metadata_out_of_bounds", "file cut", lambda r: r.V2_VECTOR[:-1]),
    ("metadata_truncated", "value count", lambda r: r.patch(r.V2_VECTOR, TABLE + 12, "I", 2)),
    ("metadata_truncated", "command count",
     lambda r: r.patch(r.V2_VECTOR, TABLE + 0x1C, "I", 0x10000000)),
    ("metadata_truncated", "legacy mailbox",
     lambda r: _mailbox_payload(r, struct.pack(">IHHQ", 16, 1, 3, 0) + b"a\0", count=2)),
    ("metadata_string_out_of_range", "past section",
     lambda r: r.patch(r.V2_VECTOR, VALUE + 6, "H", 0x40)),
    ("metadata_string_out_of_range", "into records",
     lambda r: r.patch(r.V2_VECTOR, VALUE + 6, "H", 4)),
    ("metadata_string_unterminated", "unit", lambda r: r.patch(r.V2_VECTOR, 0xB9, "B", ord("X"))),
    ("metadata_string_invalid", "not UTF-8", lambda r: r.patch(r.V2_VECTOR, 0xB0, "B", 0xFF)),
    ("mailbox_metadata_invalid", "bad JSON", lambda r: _mailbox_payload(r, b"{oops")),
    ("mailbox_metadata_invalid", "not UTF-8", lambda r: _mailbox_payload(r, b'["\xff"]')),
    ("mailbox_metadata_invalid", "nested deeply", lambda r: _mailbox_payload(r, b"[" * 100000)),
    ("mailbox_metadata_invalid", "huge integer", lambda r: _mailbox_payload(
        r, b'[{"target":"a","capacity":' + b"9" * 5000 + b"}]")),
    ("mailbox_metadata_invalid", "version 2",
     lambda r: _json_mailboxes(r, {"version": 2, "mailboxes": []})),
    ("mailbox_metadata_invalid", "version true",
     lambda r: _json_mailboxes(r, {"version": True, "mailboxes": []})),
    ("mailbox_metadata_invalid", "entries not a list",
     lambda r: _json_mailboxes(r, {"entries": 5})),
    ("mailbox_metadata_invalid", "entry not an object", lambda r: _json_mailboxes(r, [5])),
    ("mailbox_metadata_invalid", "no target", lambda r: _json_mailboxes(r, [{"capacity": 1}])),
    ("mailbox_metadata_invalid", "blank target", lambda r: _json_mailboxes(r, [{"name": " "}])),
    ("mailbox_metadata_invalid", "negative capacity",
     lambda r: _json_mailboxes(r, [{"target": "a", "capacity": -1}])),
    ("mailbox_metadata_invalid", "bool capacity",
     lambda r: _json_mailboxes(r, [{"target": "a", "queue_depth": True}])),
    ("mailbox_metadata_invalid", "float mode",
     lambda r: _json_mailboxes(r, [{"target": "a", "mode_mask": 1.5}])),
    ("mailbox_metadata_invalid", "mode too wide",
     lambda r: _json_mailboxes(r, [{"target": "a", "flags": 0x10000}])),
    ("mailbox_metadata_invalid", "mode a list",
     lambda r: _json_mailboxes(r, [{"target": "a", "mode": ["RDWR"]}])),
    ("mailbox_metadata_invalid", "owner not an int",
     lambda r: _json_mailboxes(r, [{"target": "a", "owner_pid": "2"}])),
    ("mailbox_metadata_invalid", "bindings not a list",
     lambda r: _json_mailboxes(r, [{"target": "a", "bindings": {}}])),
    ("mailbox_metadata_invalid", "binding not an object",
     lambda r: _json_mailboxes(r, [{"target": "a", "bindings": [1]}])),
    ("mailbox_metadata_invalid", "binding without pid",
     lambda r: _json_mailboxes(r, [{"target": "a", "bindings": [{"flags": 1}]}])),
    ("mailbox_metadata_invalid", "binding pid a string",
     lambda r: _json_mailboxes(r, [{"target": "a", "bindings": [{"pid": "1"}]}])),
    ("mailbox_metadata_invalid", "binding flags negative",
     lambda r: _json_mailboxes(r, [{"target": "a", "bindings": [{"pid": 1, "flags": -1}]}])),
    ("mailbox_metadata_invalid", "legacy record without name",
     lambda r: _mailbox_payload(r, struct.pack(">IHHQ", 0, 1, 3, 0))),
    ("unknown_mailbox_mode", "SLOW", lambda r: _json_mailboxes(r, [{"target": "a",
                                                                    "mode": "rdwr|SLOW"}])),
    ("duplicate_metadata", "value records", lambda r: r.v2(sections=[
        (1, struct.pack(">BBBBHHHHHHHH", 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) * 2, 2)])),
    ("duplicate_metadata", "command records", lambda r: r.v2(sections=[
        (2, struct.pack(">BBBBIHHI", 1, 3, 0, 0, 0, 0, 0, 0) * 2, 2)])),
    ("duplicate_metadata", "two value sections", lambda r: r.v2(sections=[(1, b"", 0)] * 2)),
    ("duplicate_metadata", "mailbox targets",
     lambda r: _json_mailboxes(r, [{"target": "a"}, {"name": "a"}])),
    ("handler_outside_code", "past code", lambda r: r.patch(r.V2_VECTOR, COMMAND + 4, "I", 8)),
    ("handler_outside_code", "misaligned", lambda r: r.patch(r.V2_VECTOR, COMMAND + 4, "I", 2)),
]


@pytest.mark.parametrize("code, build", [(c[0], c[2]) for c in READ_CASES],
                         ids=[f"{c[0]}-{c[1]}" for c in READ_CASES])
def test_read_error(raw, code, build):
    with pytest.raises(ImageError) as info:
        read_hxe(build(raw))
    assert info.value.code == code
    assert str(info.value)


def _vector(raw, **changes) -> HxeImage:
    return dataclasses.replace(raw.vector_image(), **changes)


def _with_metadata(raw, **lists) -> HxeImage:
    return _vector(raw, metadata=Metadata(**lists))


WRITE_CASES = [
    ("field_out_of_range", "flags", lambda r: _vector(r, flags=0x10000)),
    ("field_out_of_range", "req_caps", lambda r: _vector(r, req_caps=-1)),
    ("field_out_of_range", "entry", lambda r: _vector(r, entry=1 << 32)),
    ("field_out_of_range", "value group", lambda r: _with_metadata(r, values=[ValueSpec(256, 0)])),
    ("field_out_of_range", "value init", lambda r: _with_metadata(
        r, values=[ValueSpec(1, 0, init_f16=0x10000)])),
    ("field_out_of_range", "handler a name", lambda r: _with_metadata(
        r, commands=[CommandSpec(1, 0, handler_offset="main")])),
    ("field_out_of_range", "mailbox capacity", lambda r: _with_metadata(
        r, mailboxes=[MailboxSpec("a", capacity=-1)])),
    ("field_out_of_range", "mailbox target", lambda r: _with_metadata(
        r, mailboxes=[MailboxSpec("")])),
    ("field_out_of_range", "unknown section of known type",
     lambda r: _with_metadata(r, unknown_sections=[(1, b"")])),
    ("metadata_too_large", "strings past 64 KiB", lambda r: _with_metadata(
        r, values=[ValueSpec(1, 0, name="n" * 70000, unit="u")])),
    ("metadata_string_invalid", "NUL", lambda r: _with_metadata(
        r, values=[ValueSpec(1, 0, name="a\0b")])),
    ("metadata_string_invalid", "surrogate", lambda r: _with_metadata(
        r, commands=[CommandSpec(1, 0, help="\ud800")])),
    ("bad_app_name", "spaces", lambda r: _vector(r, app_name=" vec")),
    ("bad_app_name", "too long", lambda r: _vector(r, app_name="x" * 32)),
    ("bad_app_name", "non-ASCII", lambda r: _vector(r, app_name="véc")),
    ("duplicate_metadata", "values", lambda r: _with_metadata(
        r, values=[ValueSpec(1, 2), ValueSpec(1, 2, name="again")])),
    ("duplicate_metadata", "mailboxes", lambda r: _with_metadata(
        r, mailboxes=[MailboxSpec("a"), MailboxSpec("a", capacity=4)])),
    ("handler_outside_code", "handler", lambda r: _with_metadata(
        r, commands=[CommandSpec(1, 0, handler_offset=8)])),
    ("entry_outside_code", "no code", lambda r: _vector(r, code=b"")),
    ("code_misaligned", "3 bytes", lambda r: _vector(r, code=b"\0\0\0")),
    ("code_too_large", "too much code", lambda r: _vector(r, code=bytes(0x2000004))),
    ("bss_too_large", "too much bss", lambda r: _vector(r, bss_size=0xFFFFC001)),
    ("bad_task_size", "stack 2", lambda r: _vector(r, stack_size=2)),
]


@pytest.mark.parametrize("code, build", [(c[0], c[2]) for c in WRITE_CASES],
                         ids=[f"{c[0]}-{c[1]}" for c in WRITE_CASES])
def test_write_error(raw, code, build):
    with pytest.raises(ImageError) as info:
        write_hxe(build(raw))
    assert info.value.code == code


def test_unreadable_file_names_the_path(tmp_path):
    path = tmp_path / "missing.hxe"
    with pytest.raises(ImageError) as info:
        read_hxe_file(path)
    assert info.value.code == "unreadable"
    assert str(path) in str(info.value)


def test_every_error_code_has_a_case():
    covered = {c[0] for c in READ_CASES} | {c[0] for c in WRITE_CASES} | {"unreadable"}
    assert covered == ERROR_CODES


@pytest.mark.parametrize("build, message", [
    (lambda r: r.patch(r.V1_RET, 0x0C, "I", 8),
     "section code (offset 0x20, 8 bytes) runs past the end of the file (36 bytes)"),
    (lambda r: r.patch(r.V1_RET, 0x10, "I", 32),
     "section rodata (offset 0x24, 32 bytes) runs past the end of the file (36 bytes)"),
    (lambda r: r.V1_RET + b"xy",
     "2 bytes follow the end of the image at 0x24 and are not covered by its CRC"),
    (lambda r: r.patch(r.V2_VECTOR, 0x04, "H", 7),
     "unsupported HXE version 0x0007 (supported: 1, 2)"),
    (lambda r: r.patch(r.V2_VECTOR, VALUE + 6, "H", 0x40),
     "value section: string offset 0x40 is outside its string table (0x14..0x1E)"),
    (lambda r: r.patch(r.V2_VECTOR, TABLE + 0x18, "I", 0x20),
     "metadata section 2 (mailbox, offset 0xD6, 82 bytes) overlaps "
     "metadata section 1 (command, offset 0xBA, 32 bytes)"),
])
def test_messages_name_the_values(raw, build, message):
    with pytest.raises(ImageError) as info:
        read_hxe(build(raw))
    assert str(info.value) == message


def test_image_error_is_a_value_error_and_pickles():
    import pickle
    error = ImageError("bad_magic", "bad magic 0x00000000")
    assert isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, str(copy)) == ("bad_magic", "bad magic 0x00000000")


def test_image_error_rejects_unknown_codes():
    with pytest.raises(ValueError):
        ImageError("no_such_code", "x")


def test_stack_and_memory_sizes_round_trip_outside_the_crc(raw):
    image = read_hxe(raw.V2_VECTOR)
    sized = read_hxe(write_hxe(dataclasses.replace(image, stack_size=0x20000, mem_size=0x100000)))
    assert (sized.stack_size, sized.mem_size) == (0x20000, 0x100000)
    assert sized.crc == image.crc                     # like the name: not covered
    assert write_hxe(dataclasses.replace(sized, stack_size=0, mem_size=0)) == write_hxe(image)
