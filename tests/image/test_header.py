"""Header parsing for streaming loaders, app names, files and v1 -> v2 conversion."""
from __future__ import annotations

import dataclasses
import struct

import pytest

from hsx.image import (FLAG_ALLOW_MULTIPLE, HxeImage, ImageError, normalize_app_name,
                       parse_header, read_hxe, read_hxe_file, with_task_sizes, write_hxe)


def test_parse_header_of_a_v2_prefix(raw):
    info = parse_header(raw.V2_VECTOR[:96])
    assert (info.version, info.flags, info.entry, info.code_len, info.ro_len) == (2, 2, 0, 8, 4)
    assert (info.crc, info.app_name, info.meta_offset, info.meta_count) == \
        (0x4D061791, "vec", 0x6C, 3)
    assert info.header_size == 96
    assert info.total_size_hint == 0x6C + 3 * 16


def test_parse_header_of_a_v1_prefix(raw):
    info = parse_header(bytearray(raw.V1_RET[:32]))
    assert (info.version, info.header_size, info.total_size_hint) == (1, 32, 36)
    assert info.app_name is None


def test_parse_header_ignores_what_follows(raw):
    assert parse_header(memoryview(raw.V2_VECTOR)) == parse_header(raw.V2_VECTOR[:96])


@pytest.mark.parametrize("size, code", [(0, "too_small"), (31, "too_small"),
                                        (50, "header_truncated"), (95, "header_truncated")])
def test_short_prefixes_say_the_header_is_incomplete(raw, size, code):
    with pytest.raises(ImageError) as info:
        parse_header(raw.V2_VECTOR[:size])
    assert info.value.code == code


def test_bad_header_is_rejected_from_its_first_32_bytes(raw):
    with pytest.raises(ImageError) as info:
        parse_header(b"\x7fELF" + bytes(28))
    assert info.value.code == "bad_magic"


def test_app_name_is_stripped_on_read(raw):
    assert read_hxe(raw.v2(app=b"  demo  ")).app_name == "demo"
    assert read_hxe(raw.v2(app=b"   ")).app_name is None


def test_bytes_after_the_app_name_nul_are_ignored(raw):
    data = raw.patch(raw.V2_VECTOR, 0x30, "B", ord("z"), fix_crc=False)
    assert read_hxe(data).app_name == "vec"


@pytest.mark.parametrize("name, normal", [
    (None, None), ("", None), ("  my app  ", "my app"), ("héllo\twörld", "hllowrld"),
    ("x" * 40, "x" * 31), ("a" * 30 + " b", "a" * 30), ("\x01\x02", None),
])
def test_normalize_app_name(name, normal):
    assert normalize_app_name(name) == normal


def test_read_hxe_file(tmp_path, raw):
    path = tmp_path / "vec.hxe"
    path.write_bytes(raw.V2_VECTOR)
    assert read_hxe_file(path) == read_hxe(raw.V2_VECTOR)
    assert read_hxe_file(str(path)).app_name == "vec"


def test_directory_is_unreadable(tmp_path):
    with pytest.raises(ImageError) as info:
        read_hxe_file(tmp_path)
    assert info.value.code == "unreadable"


def test_v1_image_is_written_as_v2_and_keeps_multiple_instances(raw):
    v1 = read_hxe(raw.V1_RET)
    assert v1.flags == 0 and v1.allow_multiple_instances
    again = read_hxe(write_hxe(v1))
    assert again.version == 2 and again.flags == FLAG_ALLOW_MULTIPLE
    assert again.allow_multiple_instances


def test_single_instance_flag_is_kept(raw):
    image = read_hxe(write_hxe(HxeImage(code=raw.RET, flags=0)))
    assert not image.allow_multiple_instances


def test_writer_ignores_stored_crc_and_version(raw):
    image = dataclasses.replace(raw.vector_image(), crc=0x12345678, version=7)
    assert write_hxe(image) == raw.V2_VECTOR


def test_no_metadata_means_meta_offset_zero(raw):
    data = write_hxe(HxeImage(code=raw.RET, rodata=b"abc", entry=0, bss_size=16, req_caps=5,
                              app_name="x"))
    assert len(data) == 96 + 4 + 3
    assert struct.unpack_from(">II", data, 0x40) == (0, 0)
    image = read_hxe(data)
    assert (image.rodata, image.bss_size, image.req_caps) == (b"abc", 16, 5)


def test_table_offset_without_entries_is_accepted(raw):
    data = raw.recrc(raw.v2() + bytes(4))
    data = raw.patch(data, 0x40, "I", len(data) - 4, fix_crc=False)
    assert read_hxe(data).metadata.is_empty()


def test_sections_may_sit_before_the_table_and_leave_gaps(raw):
    # [header][code][value payload][gap][table]
    record = struct.pack(">BBBBHHHHHHHH", 1, 2, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0) + b"n\0"
    body = raw.RET + record + b"\xee" * 3
    table_at = 96 + len(body)
    table = struct.pack(">IIII", 1, 100, len(record), 1)
    header = struct.pack(">IHHIIIIII32sII24s", 0x48535845, 2, 2, 0, 4, 0, 0, 0, 0, b"",
                         table_at, 1, b"")
    image = read_hxe(raw.recrc(header + body + table))
    assert [v.name for v in image.metadata.values] == ["n"]


def test_empty_known_section_is_accepted(raw):
    assert read_hxe(raw.v2(sections=[(2, b"", 0)])).metadata.commands == []


def test_with_task_sizes_changes_only_the_two_fields_of_a_v2_image(raw):
    sized = with_task_sizes(raw.V2_VECTOR, 0x1000, None)
    assert len(sized) == len(raw.V2_VECTOR)
    assert [i for i, (a, b) in enumerate(zip(sized, raw.V2_VECTOR)) if a != b] == [0x4A]
    image = read_hxe(sized)                  # the CRC does not cover the fields
    assert (image.stack_size, image.mem_size) == (0x1000, 0)
    assert read_hxe(with_task_sizes(sized, None, 0x20000)).stack_size == 0x1000
    assert with_task_sizes(raw.V2_VECTOR, None, None) == raw.V2_VECTOR


def test_with_task_sizes_writes_a_v1_image_again_as_v2(raw):
    image = read_hxe(with_task_sizes(raw.V1_RET, 64, 0x8000))
    assert (image.stack_size, image.mem_size) == (64, 0x8000)
    assert image.code == read_hxe(raw.V1_RET).code


def test_with_task_sizes_refuses_sizes_the_header_cannot_hold(raw):
    with pytest.raises(ImageError) as refused:
        with_task_sizes(raw.V2_VECTOR, 6, None)
    assert refused.value.code == "bad_task_size"
