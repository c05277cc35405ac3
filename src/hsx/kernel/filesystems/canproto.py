"""The file protocol over CAN ISO-TP (ISO 15765-2) between `CanFileSystem` and
`CanFileServer` (docs/backends.md, "Files over CAN", is the reference).

Every message is one ISO-TP transfer of at most 4095 bytes, little-endian:

    request   op:u8  seq:u8  arguments
    response  op|0x80:u8  seq:u8  status:i32  data

`status` is the call's result (a count, handle or position) or a negative errno.  `seq`
counts the client's requests (mod 256): a response with another sequence number is not
the answer (a late one is dropped), and a request repeated with the same sequence number
(a duplicated single frame) is answered again from the server's memory, not run twice.
"""
from __future__ import annotations

import logging
import struct
from dataclasses import dataclass

MAX_MESSAGE = 4095                           # classic CAN ISO-TP
REQUEST_HEADER = 2
RESPONSE_HEADER = 6
MAX_DATA = MAX_MESSAGE - RESPONSE_HEADER     # bytes a READ or LISTDIR answer carries
MAX_WRITE = MAX_MESSAGE - REQUEST_HEADER - 4  # bytes one WRITE carries (after its handle)
SERVER_ID = 0x7E0                            # the server listens here ...
CLIENT_ID = 0x7E8                            # ... and answers here (11-bit ids)
PROTOCOL = b"hsxfs/1"

HELLO, OPEN, READ, WRITE, SEEK, CLOSE, LISTDIR, DELETE, RENAME, MKDIR = range(10)
OP_NAMES = ["hello", "open", "read", "write", "seek", "close", "listdir", "delete", "rename",
            "mkdir"]
RESPONSE = 0x80


class ProtocolError(ValueError):
    """A message that does not follow the protocol."""


@dataclass(frozen=True)
class Message:
    op: int
    seq: int
    body: bytes
    status: int = 0           # responses only


def request(op: int, seq: int, body: bytes = b"") -> bytes:
    return bytes((op, seq & 0xFF)) + body


def response(op: int, seq: int, status: int, data: bytes = b"") -> bytes:
    return struct.pack("<BBi", op | RESPONSE, seq & 0xFF, status) + data


def parse_request(raw: bytes) -> Message:
    if len(raw) < REQUEST_HEADER or raw[0] >= len(OP_NAMES):
        raise ProtocolError(f"not a request: {raw[:8].hex()}")
    return Message(raw[0], raw[1], bytes(raw[2:]))


def parse_response(raw: bytes) -> Message:
    if len(raw) < RESPONSE_HEADER or not raw[0] & RESPONSE:
        raise ProtocolError(f"not a response: {raw[:8].hex()}")
    op, seq, status = struct.unpack_from("<BBi", raw)
    return Message(op & ~RESPONSE, seq, bytes(raw[RESPONSE_HEADER:]), status)


def open_can_bus(interface: str, channel: str):
    """A python-can bus of this node's own (each ISO-TP end needs one)."""
    import can
    return can.Bus(interface=interface, channel=channel, receive_own_messages=False)


def isotp_stack(bus, rxid: int, txid: int, timeout_ms: int, on_error=None):
    """A started ISO-TP stack on `bus`, receiving on `rxid` and sending on `txid`.  A frame
    that does not arrive within `timeout_ms` aborts the transfer (the error handler)."""
    import isotp
    # can-isotp logs each broken transfer; the caller gets it as an errno instead
    logging.getLogger("isotp").addHandler(logging.NullHandler())
    logging.getLogger("isotp").propagate = False
    params = {"rx_flowcontrol_timeout": timeout_ms, "rx_consecutive_frame_timeout": timeout_ms,
              "blocksize": 8, "stmin": 0, "max_frame_size": MAX_MESSAGE}
    address = isotp.Address(isotp.AddressingMode.Normal_11bits, rxid=rxid, txid=txid)
    stack = isotp.CanStack(bus, address=address, params=params,
                           error_handler=on_error or (lambda error: None))
    stack.start()
    return stack
