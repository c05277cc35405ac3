"""Decoding the descriptor chains VAL_REGISTER and CMD_REGISTER find at R4.

A chain is a linked list of little-endian nodes in task memory; see docs/values.md for
the layouts.  Decoding is defensive because the memory is the guest's: a cycle, an
unknown or repeated node type, or an over-long string raises `DescriptorError` (the SVC
returns EINVAL).  Errors from `read` itself (memory outside the task) are not caught:
the kernel treats them like any bad guest pointer and faults the task.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from .constants import DESC_END, HELP_MAX, NAME_MAX, DescType
from .errors import DescriptorError
from .model import CommandDescriptor, ValueDescriptor

Read = Callable[[int, int], bytes]          # read(addr, n) -> exactly n bytes, or raise

_NODE_SIZE = {DescType.GROUP: 6, DescType.NAME: 6, DescType.UNIT: 12, DescType.RANGE: 8,
              DescType.PERSIST: 8, DescType.CMD_NAME: 8}
_VALUE_TYPES = frozenset({DescType.GROUP, DescType.NAME, DescType.UNIT, DescType.RANGE,
                          DescType.PERSIST})
_COMMAND_TYPES = frozenset({DescType.CMD_NAME})


def decode_value_descriptors(read: Read, ptr: int) -> ValueDescriptor:
    """The descriptor a VAL_REGISTER chain at `ptr` describes (0 or 0xFFFF: none).

    The GROUP node's group byte is ignored: R1 decides the group.
    """
    fields: dict[str, object] = {}
    for kind, node in _walk(read, ptr, _VALUE_TYPES):
        if kind is DescType.GROUP:
            fields["group_name"] = read_c_string(read, _u16(node, 4), NAME_MAX)
        elif kind is DescType.NAME:
            fields["name"] = read_c_string(read, _u16(node, 4), NAME_MAX)
        elif kind is DescType.UNIT:
            fields["unit"] = _unit(node[4:8])
            fields["epsilon_f16"] = _u16(node, 8)
            fields["rate_ms"] = _u16(node, 10)
        elif kind is DescType.RANGE:
            fields["min_f16"], fields["max_f16"] = _u16(node, 4), _u16(node, 6)
        else:
            fields["persist_key"], fields["debounce_ms"] = _u16(node, 4), _u16(node, 6)
    return ValueDescriptor(**fields)  # type: ignore[arg-type]


def decode_command_descriptors(read: Read, ptr: int) -> CommandDescriptor:
    """The name and help text a CMD_REGISTER chain at `ptr` gives (0 or 0xFFFF: none)."""
    descriptor = CommandDescriptor()
    for _, node in _walk(read, ptr, _COMMAND_TYPES):
        descriptor = CommandDescriptor(name=read_c_string(read, _u16(node, 4), NAME_MAX),
                                       help=read_c_string(read, _u16(node, 6), HELP_MAX))
    return descriptor


def read_c_string(read: Read, addr: int, limit: int) -> str | None:
    """The UTF-8 NUL-terminated string at `addr` (None for a NULL pointer).

    Read a byte at a time so a short string near the end of memory never reads past it.
    """
    if addr == 0:
        return None
    data = bytearray()
    while len(data) <= limit:
        byte = read(addr + len(data), 1)[0]
        if byte == 0:
            try:
                return data.decode()
            except UnicodeDecodeError:
                raise DescriptorError(f"string at 0x{addr:04x} is not UTF-8") from None
        data.append(byte)
    raise DescriptorError(f"string at 0x{addr:04x} is longer than {limit} bytes")


def _walk(read: Read, ptr: int, allowed: frozenset[DescType]) -> Iterator[tuple[DescType, bytes]]:
    """Each node of the chain once; a node type may appear only once, which also bounds
    the chain's length."""
    if ptr in (0, DESC_END):
        return
    seen_addrs: set[int] = set()
    seen_types: set[DescType] = set()
    addr = ptr
    while addr != DESC_END:
        if addr in seen_addrs:
            raise DescriptorError(f"descriptor chain loops back to 0x{addr:04x}")
        seen_addrs.add(addr)
        type_byte = read(addr, 1)[0]
        try:
            kind = DescType(type_byte)
        except ValueError:
            kind = None
        if kind not in allowed:
            raise DescriptorError(f"descriptor type 0x{type_byte:02x} at 0x{addr:04x} is not "
                                  f"allowed here")
        assert kind is not None
        if kind in seen_types:
            raise DescriptorError(f"descriptor type {kind.name} appears twice in the chain")
        seen_types.add(kind)
        node = read(addr, _NODE_SIZE[kind])
        yield kind, node
        addr = _u16(node, 2)


def _u16(node: bytes, offset: int) -> int:
    return int.from_bytes(node[offset:offset + 2], "little")


def _unit(code: bytes) -> str | None:
    """A unit code: up to four ASCII characters packed little-endian, NUL-padded."""
    text = code.rstrip(b"\0")
    if not text:
        return None
    if b"\0" in text or not text.isascii():
        raise DescriptorError(f"unit code {code.hex()} is not up to four ASCII characters")
    return text.decode()
