"""Metadata section encodings: record order, strings, unknown sections, mailbox forms."""
from __future__ import annotations

import json
import struct

import pytest

from hsx.image import (CommandSpec, HxeImage, ImageError, MailboxBinding, MailboxSpec, Metadata,
                       ValueSpec, parse_mailbox_mode, read_hxe, write_hxe)


def _image(raw, **lists) -> HxeImage:
    return HxeImage(code=raw.RET * 4, metadata=Metadata(**lists))


def _section(data: bytes, index: int) -> bytes:
    (meta_offset,) = struct.unpack_from(">I", data, 0x40)
    _, offset, size, _ = struct.unpack_from(">IIII", data, meta_offset + 16 * index)
    return data[offset:offset + size]


def test_records_are_sorted_and_strings_shared(raw):
    values = [ValueSpec(2, 1, name="b", unit="rpm"), ValueSpec(1, 9, name="a", unit="rpm")]
    data = write_hxe(_image(raw, values=values))
    payload = _section(data, 0)
    first, second = struct.unpack_from(">20s20s", payload)
    assert first[:2] == b"\x01\x09" and second[:2] == b"\x02\x01"
    assert payload[40:] == b"a\0rpm\0b\0"
    assert [v.oid for v in read_hxe(data).metadata.values] == [0x0109, 0x0201]


def test_command_last_field_holds_reserved_and_group_name(raw):
    command = CommandSpec(1, 3, handler_offset=8, group_name="grp", reserved=0xBEEF)
    data = write_hxe(_image(raw, commands=[command]))
    assert struct.unpack_from(">I", _section(data, 0), 12) == (0xBEEF0010,)
    assert read_hxe(data).metadata.commands == [command]


def test_empty_strings_are_stored_as_absent(raw):
    data = write_hxe(_image(raw, values=[ValueSpec(1, 1, name="", unit=None)]))
    assert _section(data, 0) == struct.pack(">BBBBHHHHHHHH", 1, 1, *[0] * 10)
    assert read_hxe(data).metadata.values[0].name is None


def test_empty_string_in_a_file_reads_as_absent(raw):
    record = struct.pack(">BBBBHHHHHHHH", 1, 1, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0) + b"\0"
    assert read_hxe(raw.v2(sections=[(1, record, 1)])).metadata.values[0].name is None


def test_unknown_sections_are_kept_and_written_back(raw):
    data = raw.v2(sections=[(3, b'[{"target":"a"}]', 1), (0x99, b"\x01\x02\x03", 0)])
    image = read_hxe(data)
    assert image.metadata.unknown_sections == [(0x99, b"\x01\x02\x03")]
    again = read_hxe(write_hxe(image))
    assert again.metadata == image.metadata
    assert _section(write_hxe(image), 1) == b"\x01\x02\x03"


def test_mailboxes_written_as_compact_sorted_json(raw):
    mailboxes = [MailboxSpec("b", capacity=8, mode_mask=0x0B, owner_pid=3,
                             bindings=[MailboxBinding(4, 1)]),
                 MailboxSpec("a")]
    data = write_hxe(_image(raw, mailboxes=mailboxes))
    assert _section(data, 0) == (
        b'{"mailboxes":[{"capacity":0,"mode_mask":3,"target":"a"},'
        b'{"bindings":[{"flags":1,"pid":4}],"capacity":8,"mode_mask":11,"owner_pid":3,'
        b'"target":"b"}],"version":1}')
    assert read_hxe(data).metadata.mailboxes == sorted(mailboxes, key=lambda m: m.target)


def _mailboxes(raw, payload: bytes, count: int = 0):
    return read_hxe(raw.v2(sections=[(3, payload, count)])).metadata.mailboxes


@pytest.mark.parametrize("payload, expected", [
    (b'[{"target":"a"}]', ("a", 0, 3)),
    (b'{"entries":[{"name":"a","queue_depth":5,"flags":1}]}', ("a", 5, 1)),
    (b'{"mailboxes":[{"target":"a","mode_mask":0}]}', ("a", 0, 3)),
    (b'{"mailboxes":[{"target":"a","mode":""}]}', ("a", 0, 3)),
    (b'{"mailboxes":[{"target":"a","mode":"RO, Tap"}]}', ("a", 0, 5)),
    (b'{"mailboxes":[{"target":"a","capacity":null,"owner_pid":null}]}', ("a", 0, 3)),
    (b' \n[{"target":"a","capacity":7}]\0\0\0', ("a", 7, 3)),
])
def test_mailbox_json_forms(raw, payload, expected):
    (mailbox,) = _mailboxes(raw, payload)
    assert (mailbox.target, mailbox.capacity, mailbox.mode_mask) == expected


def test_mailbox_json_without_entries(raw):
    assert _mailboxes(raw, b'{"version":1}') == []


def test_legacy_mailbox_mode_zero_means_rdwr(raw):
    payload = struct.pack(">IHHQIHHQ", 32, 0, 0, 0, 34, 4, 2, 0) + b"a\0b\0"
    assert [(m.target, m.capacity, m.mode_mask) for m in _mailboxes(raw, payload, 2)] == \
        [("a", 0, 3), ("b", 4, 2)]


@pytest.mark.parametrize("mode, mask", [
    (0, 3), (0x20, 0x20), ("", 3), ("readonly", 1), ("WO|fanout", 0x0A),
    ("FANOUT_BLOCK , rdonly", 0x21), ("rdwr|fanout_drop|tap", 0x17),
])
def test_parse_mailbox_mode(mode, mask):
    assert parse_mailbox_mode(mode) == mask


def test_parse_mailbox_mode_names_unknown_tokens():
    with pytest.raises(ImageError) as info:
        parse_mailbox_mode("rdwr| slow ")
    assert info.value.code == "unknown_mailbox_mode"
    assert "'slow'" in str(info.value)


def test_mailbox_json_errors_name_the_entry(raw):
    payload = json.dumps([{"target": "ok"}, {"capacity": 3}]).encode()
    with pytest.raises(ImageError) as info:
        _mailboxes(raw, payload)
    assert "entry 1" in str(info.value)
