"""readMemory, writeMemory, disassemble, loadedSources, source.

Memory references are addresses written in hex (`0x00004000`): a variable's
`memoryReference`, a frame's `instructionPointerReference`.  Data memory is read and
written with `peek`/`poke`; code with `disasm.read`.
"""
from __future__ import annotations

import base64
import binascii
from pathlib import PurePosixPath
from typing import Any

from hsx.client import ProtocolError

from ..protocol import DapError, object_arg
from ..requests import handles

PEEK_MAX = 65536
DISASM_MAX = 1024


def _address(args: dict[str, Any], name: str = "memoryReference") -> int:
    text = args.get(name)
    try:
        address = int(str(text), 0) + int(args.get("offset") or 0)
    except (TypeError, ValueError):
        raise DapError(f"\"{name}\" must be an address such as 0x4000, not {text!r}") from None
    if address < 0:
        raise DapError(f"address {address} is below 0")
    return address


@handles("readMemory")
async def read_memory(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    address = _address(args)
    count = args.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise DapError(f"\"count\" must be a number of bytes, not {count!r}")
    end = min(address + count, await _data_size(debuggee))
    data = bytearray()
    while address + len(data) < end:
        start = address + len(data)
        reply = await debuggee.request("peek", pid=debuggee.pid, addr=start,
                                       length=min(PEEK_MAX, end - start))
        data += bytes.fromhex(reply["data"])
    body: dict[str, Any] = {"address": f"0x{address:08x}",
                            "data": base64.b64encode(bytes(data)).decode("ascii")}
    if len(data) < count:
        body["unreadableBytes"] = count - len(data)
    return body


async def _data_size(debuggee) -> int:
    """The end of the task's data memory."""
    regions = (await debuggee.request("memory.regions", pid=debuggee.pid))["memory"]["regions"]
    return max((r["end"] for r in regions if r.get("space") != "code"), default=0)


@handles("writeMemory")
async def write_memory(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    address = _address(args)
    try:
        data = base64.b64decode(str(args.get("data", "")), validate=True)
    except (binascii.Error, ValueError):
        raise DapError("\"data\" must be base64") from None
    if data:
        await debuggee.request("poke", pid=debuggee.pid, addr=address,
                               data_b64=base64.b64encode(data).decode("ascii"))
    return {"bytesWritten": len(data)}


@handles("disassemble")
async def disassemble(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    address = _address(args)
    before = args.get("instructionOffset") or 0
    if isinstance(before, bool) or not isinstance(before, int):
        raise DapError(f"\"instructionOffset\" must be a number, not {before!r}")
    count = args.get("instructionCount")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise DapError(f"\"instructionCount\" must be a number, not {count!r}")
    code = await _code(debuggee, address, before, count)
    index = next((i for i, ins in enumerate(code) if ins["pc"] >= address), len(code))
    start = index + before
    listed = [_instruction(adapter, debuggee, ins) for ins in code[max(0, start):start + count]]
    first_pc = code[0]["pc"] if code else address
    padding = [_invalid(first_pc - 4 * (n + 1)) for n in range(max(0, -start))][::-1]
    listed = padding + listed
    last_pc = (code[-1]["pc"] + code[-1]["size"]) if code else address
    listed += [_invalid(last_pc + 4 * n) for n in range(count - len(listed))]
    return {"instructions": listed[:count]}


async def _code(debuggee, address: int, before: int, count: int) -> list[dict[str, Any]]:
    """The instructions from `-before` instructions ahead of `address` (when `before` is
    negative) to `count` after the first wanted one, as far as the code goes."""
    following = await _read(debuggee, address, max(0, before) + count, "from")
    if before >= 0:
        return following
    around = await _read(debuggee, address, 2 * -before + 1, "around")
    return [ins for ins in around if ins["pc"] < address] + following


async def _read(debuggee, address: int, count: int, mode: str) -> list[dict[str, Any]]:
    try:
        reply = await debuggee.request("disasm.read", pid=debuggee.pid, addr=address,
                                       count=min(DISASM_MAX, max(1, count)), mode=mode)
    except ProtocolError as error:
        if error.code in ("bad_address", "bad_argument"):
            return []
        raise
    return reply["disasm"]["instructions"]


def _instruction(adapter, debuggee, ins: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"address": f"0x{ins['pc']:08x}",
                           "instructionBytes": " ".join(f"{w:08x}" for w in ins.get("words", [])),
                           "instruction": ins.get("text", "")}
    if ins.get("symbol"):
        out["symbol"] = f"{ins['symbol']}+{ins.get('offset', 0)}"
    if ins.get("line"):
        out["line"] = adapter.to_client_line(ins["line"])
        source = debuggee.dap_source(debuggee.pid, ins.get("file"))
        if source is not None:
            out["location"] = source
    return out


def _invalid(address: int) -> dict[str, Any]:
    return {"address": f"0x{max(0, address):08x}", "instruction": "",
            "presentationHint": "invalid"}


@handles("loadedSources")
async def loaded_sources(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    try:
        listing = (await debuggee.request("symbols.list", pid=debuggee.pid))["symbols"]
    except ProtocolError:
        return {"sources": []}
    files = sorted({s["file"] for s in listing.get("symbols", []) if s.get("file")})
    return {"sources": [debuggee.dap_source(debuggee.pid, f) for f in files]}


MIME_TYPES = {".c": "text/x-c", ".h": "text/x-c", ".mvasm": "text/x-mvasm"}


@handles("source")
async def source(adapter, args: dict[str, Any]) -> dict[str, Any]:
    """The text of a source file that is not on this machine (a `sourceReference` from a
    stack frame, breakpoint or loadedSources), as the executive reads it on its own."""
    debuggee = adapter.need_debuggee()
    ref = object_arg(args, "source").get("sourceReference", args.get("sourceReference"))
    if isinstance(ref, bool) or not isinstance(ref, int) or not \
            0 < ref <= len(debuggee.remote_sources):
        raise DapError(f"sourceReference {ref!r} is not one this session gave")
    pid, file = debuggee.remote_sources[ref - 1]
    found = await debuggee.client.read_source(pid, file)
    suffix = PurePosixPath(file.replace("\\", "/")).suffix.lower()
    return {"content": found["text"], "mimeType": MIME_TYPES.get(suffix, "text/plain")}
