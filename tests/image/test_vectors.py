"""The reference test vectors (vm_isa_hxe.md §5.9 and §8 T36-T39)."""
from __future__ import annotations

import json
import struct
import zlib

import pytest

from hsx.image import ImageError, read_hxe, write_hxe
from hsx.isa.f16 import f16_to_float


def test_v1_ret_image_reads(raw):
    image = read_hxe(raw.V1_RET)
    assert len(raw.V1_RET) == 36
    assert image.version == 1
    assert image.crc == 0xE5DE6416
    assert image.code == raw.RET and image.rodata == b"" and image.entry == 0
    assert image.app_name is None
    assert image.allow_multiple_instances
    assert image.metadata.is_empty()


def test_v2_vector_is_written_byte_for_byte(raw):
    data = write_hxe(raw.vector_image())
    assert len(data) == 296
    assert data == raw.V2_VECTOR
    assert data[0x1C:0x20] == bytes.fromhex("4d061791")


def test_v2_vector_reads_back_to_its_model(raw):
    image = read_hxe(raw.V2_VECTOR)
    expected = raw.vector_image()
    expected.crc = 0x4D061791
    assert image == expected


T36 = [
    ("magic 0", 0x00, "I", 0, "bad_magic"),
    ("version 3", 0x04, "H", 3, "unsupported_version"),
    ("entry 40", 0x08, "I", 40, "entry_outside_code"),
    ("code_len 2", 0x0C, "I", 2, "code_misaligned"),
    ("code_len 0x2000004", 0x0C, "I", 0x2000004, "code_too_large"),
    ("ro_len 32", 0x10, "I", 32, "truncated"),
    ("entry 2", 0x08, "I", 2, "entry_misaligned"),
    ("bss 0xFFFFC004", 0x14, "I", 0xFFFFC004, "bss_too_large"),
]


@pytest.mark.parametrize("fix_crc", [True, False], ids=["crc-fixed", "crc-stale"])
@pytest.mark.parametrize("what, offset, fmt, value, code", T36, ids=[c[0] for c in T36])
def test_t36_mutations_of_the_v1_image(raw, what, offset, fmt, value, code, fix_crc):
    # Header and extent checks come before the CRC, so the CRC does not mask them.
    data = raw.patch(raw.V1_RET, offset, fmt, value, fix_crc=fix_crc)
    with pytest.raises(ImageError) as info:
        read_hxe(data)
    assert info.value.code == code


def test_t36_flipped_last_byte_is_a_crc_mismatch(raw):
    data = raw.V1_RET[:-1] + bytes([raw.V1_RET[-1] ^ 0xFF])
    with pytest.raises(ImageError) as info:
        read_hxe(data)
    assert info.value.code == "crc_mismatch"
    actual = zlib.crc32(data[:0x1C] + data[32:])
    assert str(info.value) == f"CRC mismatch: header says 0xE5DE6416, contents give 0x{actual:08X}"


def test_t37_hand_built_value_record(raw):
    record = struct.pack(">BBBBHHHHHHHH", 1, 2, 0, 0, 0x3C00, 20, 0, 0, 0, 0x3C00, 0, 0)
    data = raw.v2(sections=[(1, record + b"speed\0", 1)], app=b"meta_demo")
    image = read_hxe(data)
    assert image.app_name == "meta_demo"
    assert image.allow_multiple_instances
    (value,) = image.metadata.values
    assert value.name == "speed"
    assert f16_to_float(value.init_f16) == 1.0
    assert f16_to_float(value.max_f16) == 1.0


def _mailboxes(raw, payload: bytes, count: int = 1):
    return read_hxe(raw.v2(sections=[(3, payload, count)])).metadata.mailboxes


@pytest.mark.parametrize("mode, mask", [("rdwr|fanout_drop|tap", 0x17), ("rw | tap", 0x07)])
def test_t38_mailbox_mode_strings(raw, mode, mask):
    payload = json.dumps({"mailboxes": [{"target": "app:x", "mode": mode}]}).encode()
    (mailbox,) = _mailboxes(raw, payload)
    assert mailbox.mode_mask == mask


def test_t38_unknown_mailbox_mode_names_the_token(raw):
    payload = json.dumps([{"target": "app:x", "mode_mask": "rdwr|SLOW"}]).encode()
    with pytest.raises(ImageError) as info:
        _mailboxes(raw, payload)
    assert info.value.code == "unknown_mailbox_mode"
    assert "'SLOW'" in str(info.value)


def test_t38_legacy_binary_mailbox_record(raw):
    payload = struct.pack(">IHHQ", 16, 32, 3, 0) + b"app:legacy\0"
    (mailbox,) = _mailboxes(raw, payload)
    assert (mailbox.target, mailbox.capacity, mailbox.mode_mask) == ("app:legacy", 32, 3)


def test_t38_owner_and_bindings(raw):
    payload = json.dumps({"version": 1, "mailboxes": [
        {"target": "app:ctl", "capacity": 128, "mode_mask": 7, "owner_pid": 2,
         "bindings": [{"pid": 2, "flags": 5}]}]}).encode()
    (mailbox,) = _mailboxes(raw, payload)
    assert (mailbox.target, mailbox.capacity, mailbox.mode_mask, mailbox.owner_pid) == \
        ("app:ctl", 128, 7, 2)
    assert [(b.pid, b.flags) for b in mailbox.bindings] == [(2, 5)]


def test_t39_one_appended_byte_is_rejected(raw):
    with pytest.raises(ImageError) as info:
        read_hxe(raw.V2_VECTOR + b"\0")
    assert info.value.code == "trailing_bytes"


def test_t39_missing_last_16_bytes_is_rejected(raw):
    with pytest.raises(ImageError) as info:
        read_hxe(raw.V2_VECTOR[:-16])
    assert info.value.code == "metadata_out_of_bounds"
    assert str(info.value) == ("metadata section 2 (mailbox, offset 0xD6, 82 bytes) runs past "
                               "the end of the file (280 bytes)")


def test_trailing_bytes_covered_by_the_crc_are_accepted(raw):
    image = read_hxe(raw.recrc(raw.V2_VECTOR + b"pad"))
    assert image.metadata == read_hxe(raw.V2_VECTOR).metadata
