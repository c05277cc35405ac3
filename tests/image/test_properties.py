"""Property tests: the writer and reader are inverse, and no input escapes ImageError."""
from __future__ import annotations

import dataclasses
import json
import struct
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hsx.image import (CommandSpec, HxeImage, ImageError, MailboxBinding, MailboxSpec, Metadata,
                       ValueSpec, parse_header, read_hxe, write_hxe)

u8 = st.integers(0, 0xFF)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
text = st.none() | st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\0"),
                           min_size=1, max_size=12)
app_names = st.none() | st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E),
                                min_size=1, max_size=31).filter(lambda s: s == s.strip() != "")


@st.composite
def images(draw) -> HxeImage:
    words = draw(st.lists(u32, min_size=1, max_size=32))
    code = b"".join(w.to_bytes(4, "big") for w in words)
    handlers = st.integers(0, len(words) - 1).map(lambda i: 4 * i)
    value_keys = draw(st.lists(st.tuples(u8, u8), unique=True, max_size=6))
    values = [ValueSpec(g, v, flags=draw(u8), auth=draw(u8), init_f16=draw(u16), name=draw(text),
                        unit=draw(text), epsilon_f16=draw(u16), min_f16=draw(u16),
                        max_f16=draw(u16), persist_key=draw(u16), group_name=draw(text))
              for g, v in sorted(value_keys)]
    command_keys = draw(st.lists(st.tuples(u8, u8), unique=True, max_size=6))
    commands = [CommandSpec(g, c, flags=draw(u8), auth=draw(u8), handler_offset=draw(handlers),
                            name=draw(text), help=draw(text), group_name=draw(text),
                            reserved=draw(u16))
                for g, c in sorted(command_keys)]
    targets = draw(st.lists(st.text(min_size=1, max_size=10).filter(str.strip), unique=True,
                            max_size=4))
    mailboxes = [MailboxSpec(t, capacity=draw(u32), mode_mask=draw(st.integers(1, 0xFFFF)),
                             owner_pid=draw(st.none() | u32),
                             bindings=draw(st.lists(st.builds(MailboxBinding, u32, u32),
                                                    max_size=2)))
                 for t in sorted(targets)]
    unknown = draw(st.lists(st.tuples(st.integers(4, 0xFFFFFFFF) | st.just(0),
                                      st.binary(max_size=16)), max_size=2))
    return HxeImage(code=code, rodata=draw(st.binary(max_size=40)),
                    entry=4 * draw(st.integers(0, len(words) - 1)),
                    bss_size=draw(st.integers(0, 0x10000)), req_caps=draw(u32),
                    flags=draw(u16), app_name=draw(app_names),
                    metadata=Metadata(values, commands, mailboxes, unknown))


def read_or_image_error(data: bytes) -> None:
    """Anything other than an HxeImage or an ImageError fails the test."""
    try:
        read_hxe(data)
    except ImageError:
        pass


def recrc(data: bytes) -> bytes:
    """Fix the CRC of whatever is there, so that mutations reach the metadata decoders."""
    if len(data) < 32:
        return data
    header_size = 32 if data[4:6] == b"\0\1" else 96
    crc = zlib.crc32(data[header_size:], zlib.crc32(data[:0x1C]))
    return data[:0x1C] + crc.to_bytes(4, "big") + data[0x20:]


@given(images())
def test_read_inverts_write(image):
    data = write_hxe(image)
    again = read_hxe(data)
    assert again == dataclasses.replace(image, crc=again.crc)
    assert write_hxe(again) == data


@given(images())
def test_header_of_written_image(image):
    data = write_hxe(image)
    info = parse_header(data[:96])
    assert info.total_size_hint <= len(data)
    assert (info.entry, info.code_len, info.ro_len) == (image.entry, len(image.code),
                                                        len(image.rodata))


mutations = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 10_000), u8),
    st.tuples(st.just("cut"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("add"), st.integers(0, 10_000), u8),
    st.tuples(st.just("del"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("word"), st.integers(0, 10_000), u32),
)


def mutate(data: bytes, steps) -> bytes:
    data = bytearray(data)
    for kind, position, value in steps:
        at = position % (len(data) + 1)
        if kind == "set" and at < len(data):
            data[at] = value
        elif kind == "cut":
            del data[at:]
        elif kind == "add":
            data.insert(at, value)
        elif kind == "del" and at < len(data):
            del data[at]
        elif kind == "word" and at + 4 <= len(data):
            data[at:at + 4] = value.to_bytes(4, "big")
    return bytes(data)


@settings(max_examples=300)
@given(images(), st.lists(mutations, min_size=1, max_size=4), st.booleans())
def test_mutated_images_only_raise_image_error(image, steps, fix_crc):
    data = mutate(write_hxe(image), steps)
    read_or_image_error(recrc(data) if fix_crc else data)
    try:
        parse_header(data)
    except ImageError:
        pass


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_image_error(data):
    read_or_image_error(data)


@settings(max_examples=300)
@given(st.binary(min_size=64, max_size=400), st.sampled_from([1, 2]))
def test_random_bodies_behind_a_plausible_header_only_raise_image_error(body, version):
    header = struct.pack(">IH", 0x48535845, version)
    read_or_image_error(recrc(header + body))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2**40) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["target", "name", "capacity", "queue_depth", "mode_mask", "mode",
                         "flags", "owner_pid", "bindings", "pid", "version", "mailboxes",
                         "entries"]) | st.text(max_size=4), inner, max_size=5),
    max_leaves=20)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, u32)
def test_any_mailbox_json_only_raises_image_error(raw, document, count):
    payload = json.dumps(document).encode()
    read_or_image_error(raw.v2(sections=[(3, payload, count)]))


@settings(max_examples=300)
@given(st.sampled_from([1, 2, 3]), st.binary(max_size=80), st.integers(0, 6))
def test_any_section_payload_only_raises_image_error(raw, kind, payload, count):
    read_or_image_error(raw.v2(sections=[(kind, payload, count)]))
