"""Descriptor chains in guest memory, as VAL_REGISTER and CMD_REGISTER see them."""
import struct

import pytest

from hsx.isa.f16 import float_to_f16 as f16
from hsx.kernel.registry import (
    CommandDescriptor,
    DescriptorError,
    ValueDescriptor,
    decode_command_descriptors,
    decode_value_descriptors,
)

END = 0xFFFF


class BadAddress(Exception):
    pass


class Memory:
    def __init__(self, size: int = 0x1000) -> None:
        self.data = bytearray(size)
        self.reads = 0

    def put(self, addr: int, raw: bytes) -> int:
        self.data[addr:addr + len(raw)] = raw
        return addr

    def read(self, addr: int, n: int) -> bytes:
        self.reads += 1
        if addr < 0 or addr + n > len(self.data):
            raise BadAddress(f"{addr:#x}+{n}")
        return bytes(self.data[addr:addr + n])


def node(kind: int, nxt: int, body: bytes, byte1: int = 0) -> bytes:
    return struct.pack("<BBH", kind, byte1, nxt) + body


@pytest.fixture
def mem() -> Memory:
    return Memory()


def test_full_value_chain(mem):
    mem.put(0x800, b"motor\0")
    mem.put(0x810, b"rpm\0")
    mem.put(0x100, node(1, 0x110, struct.pack("<H", 0x800), byte1=9))
    mem.put(0x110, node(2, 0x120, struct.pack("<H", 0x810)))
    mem.put(0x120, node(3, 0x130, b"rpm\0" + struct.pack("<HH", f16(0.5), 250)))
    mem.put(0x130, node(4, 0x140, struct.pack("<HH", f16(-1), f16(100))))
    mem.put(0x140, node(5, END, struct.pack("<HH", 17, 75)))
    assert decode_value_descriptors(mem.read, 0x100) == ValueDescriptor(
        name="rpm", group_name="motor", unit="rpm", epsilon_f16=f16(0.5), rate_ms=250,
        min_f16=f16(-1), max_f16=f16(100), persist_key=17, debounce_ms=75)


@pytest.mark.parametrize("ptr", [0, 0xFFFF])
def test_no_chain(mem, ptr):
    assert decode_value_descriptors(mem.read, ptr) == ValueDescriptor()
    assert decode_command_descriptors(mem.read, ptr) == CommandDescriptor()
    assert mem.reads == 0


def test_next_zero_is_an_address_not_the_end():
    mem = Memory()
    mem.put(0x000, node(4, END, struct.pack("<HH", f16(1), f16(2))))
    mem.put(0x100, node(5, 0x000, struct.pack("<HH", 3, 0)))
    d = decode_value_descriptors(mem.read, 0x100)
    assert (d.persist_key, d.min_f16, d.max_f16) == (3, f16(1), f16(2))


def test_null_name_pointer_means_no_name(mem):
    mem.put(0x100, node(2, END, struct.pack("<H", 0)))
    assert decode_value_descriptors(mem.read, 0x100).name is None


def test_command_chain(mem):
    mem.put(0x800, b"Reset\0")
    mem.put(0x810, b"Reset motor\0")
    mem.put(0x100, node(0x10, END, struct.pack("<HH", 0x800, 0x810)))
    assert decode_command_descriptors(mem.read, 0x100) == CommandDescriptor("Reset", "Reset motor")


@pytest.mark.parametrize("chain, message", [
    ([(0x100, node(2, 0x110, b"\0\0")), (0x110, node(4, 0x100, b"\0" * 4))], "loops"),
    ([(0x100, node(2, 0x100, b"\0\0"))], "loops"),
    ([(0x100, node(9, END, b"\0\0"))], "type 0x09"),
    ([(0x100, node(0x10, END, b"\0" * 4))], "type 0x10"),            # command node in a value chain
    ([(0x100, node(2, 0x110, b"\0\0")), (0x110, node(2, END, b"\0\0"))], "twice"),
    ([(0x100, node(3, END, b"\xff\0\0\0" + b"\0" * 4))], "unit"),
    ([(0x100, node(3, END, b"a\0b\0" + b"\0" * 4))], "unit"),
])
def test_malformed_value_chains(mem, chain, message):
    for addr, raw in chain:
        mem.put(addr, raw)
    with pytest.raises(DescriptorError, match=message):
        decode_value_descriptors(mem.read, 0x100)


def test_value_node_in_a_command_chain(mem):
    mem.put(0x100, node(2, END, b"\0\0"))
    with pytest.raises(DescriptorError):
        decode_command_descriptors(mem.read, 0x100)


def test_strings_are_limited_and_utf8(mem):
    mem.put(0x800, b"x" * 63 + b"\0")
    mem.put(0x900, b"x" * 64 + b"\0")
    mem.put(0xA00, b"\xff\xfe\0")
    mem.put(0x100, node(2, END, struct.pack("<H", 0x800)))
    assert decode_value_descriptors(mem.read, 0x100).name == "x" * 63
    for bad in (0x900, 0xA00):
        mem.put(0x100, node(2, END, struct.pack("<H", bad)))
        with pytest.raises(DescriptorError):
            decode_value_descriptors(mem.read, 0x100)


def test_a_short_string_at_the_end_of_memory_is_read_without_overrun(mem):
    end = len(mem.data)
    mem.put(end - 3, b"ab\0")
    mem.put(0x100, node(2, END, struct.pack("<H", end - 3)))
    assert decode_value_descriptors(mem.read, 0x100).name == "ab"


def test_bad_memory_propagates(mem):
    mem.put(0x100, node(2, 0x2000, struct.pack("<H", 0x800)))
    with pytest.raises(BadAddress):
        decode_value_descriptors(mem.read, 0x100)
    mem.put(0x100, node(2, END, struct.pack("<H", 0xFFF0)))          # string off the end
    with pytest.raises(BadAddress):
        decode_value_descriptors(mem.read, 0x100)
