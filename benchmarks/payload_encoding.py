"""CBOR or JSON as the framed link's payload (docs/port.md, "Choosing the payload encoding").

    python benchmarks/payload_encoding.py [--json]

Weighs the two choices of issue 24 for a device:
- flash: port/c/hsx_cbor.c (the reader and writer the board ships) against a minimal
  non-allocating JSON tokenizer and writer with the same job (benchmarks/payload/
  json_codec.c, compiled only here), both for a Cortex-M3 at -Os;
- bytes and messages per second at 115,200 baud and 1 Mbaud for a typical debugging mix:
  step, regs, peek 64, ps (two tasks) round trips and a debug_break event. The CBOR
  messages are what the host board really sends and receives, names as numbers
  (docs/wire.md; a development board is started and driven); the JSON ones are the same messages as hsx execd writes them
  (compact, binary data as hex). Both are framed as docs/wire.md says (COBS, kind, seq,
  CRC, delimiter) and a byte on a UART takes 10 bits. The figures are the link's ceiling:
  the device's own time per message is left out.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any


HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "port"))

from port_size import PORT, compile_object, object_sizes  # noqa: E402

from hsx.link.frames import encode_frame  # noqa: E402
from hsx.client.link.payload import decode_message, encode_request  # noqa: E402

BAUDS = (115_200, 1_000_000)


def codec_flash(cpu: str) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as tmp:
        sizes = {}
        for name, source in (("cbor", PORT / "hsx_cbor.c"), ("json", HERE / "payload" / "json_codec.c")):
            obj = Path(tmp) / f"{name}.o"
            compile_object(source, obj, cpu)
            sizes[name] = object_sizes([obj])["flash"]
    return sizes


def on_wire(payload: bytes) -> int:
    """Bytes of one frame on the wire (docs/wire.md)."""
    return len(encode_frame("Q", 1, payload))


def as_json(message: Any) -> bytes:
    """The message as hsx execd writes it: compact JSON, bytes as hex, a newline."""
    def plain(value: Any) -> Any:
        if isinstance(value, bytes):
            return value.hex()
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value
    return json.dumps(plain(message), separators=(",", ":")).encode() + b"\n"


def typical_mix() -> list[tuple[str, dict, dict | None, bytes]]:
    """(name, request, reply, reply payload as the board sent it) for the mix; the event
    has no request."""
    from boardkit import connect, image, serving
    out = tempfile.mkdtemp()
    mix = []
    with serving("development") as board:
        host = connect(board)
        pid = host.load(image("spin", out), paused=True)["pid"]
        host.load(image("spin", out), paused=True)
        host.request("step", pid=pid, count=5000)
        pc = host.request("regs", pid=pid)["registers"]["pc"]
        requests = [("step", {"cmd": "step", "pid": pid, "count": 1, "id": 12}),
                    ("regs", {"cmd": "regs", "pid": pid, "id": 13}),
                    ("peek 64", {"cmd": "peek", "pid": pid, "addr": 0x5000, "length": 64, "id": 14}),
                    ("ps", {"cmd": "ps", "id": 15})]
        for name, request in requests:
            seq = host.send_request(request)
            _, reply = host.reply(seq)
            mix.append((name, request, reply, host.raw[seq]))
        host.request("events.subscribe", categories=["debug_break"])
        host.request("bp.set", pid=pid, addr=pc)
        host.request("resume", pid=pid)
        event = host.wait_event(lambda e: e["type"] == "debug_break")
        raw = next(p for p in host.raw_events if decode_message(p)["type"] == "debug_break")
        mix.append(("debug_break event", None, event, raw))
        host.close()
    return mix


def measure(cpu: str) -> dict[str, Any]:
    rows = []
    for name, request, reply, raw in typical_mix():
        cbor = (on_wire(encode_request(request)) if request else 0) + on_wire(raw)
        # an event on the JSON link would carry `ts` as hsx execd's do
        text = (on_wire(as_json(request)) if request else 0) + on_wire(
            as_json(reply if request else {**reply, "ts": 1715000000.123456}))
        rows.append({"message": name, "cbor_bytes": cbor, "json_bytes": text})
    total_cbor = sum(r["cbor_bytes"] for r in rows)
    total_json = sum(r["json_bytes"] for r in rows)
    rates = {baud: {"cbor": baud / 10 / total_cbor * len(rows),
                    "json": baud / 10 / total_json * len(rows)} for baud in BAUDS}
    return {"cpu": cpu, "flash": codec_flash(cpu), "messages": rows,
            "mix_bytes": {"cbor": total_cbor, "json": total_json},
            "messages_per_s": {str(b): r for b, r in rates.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", default="cortex_m3")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = measure(args.cpu)
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
        return
    flash = report["flash"]
    print(f"codec flash ({args.cpu}, -Os): CBOR {flash['cbor']:,} bytes, JSON {flash['json']:,} bytes")
    print(f"{'message (request + reply, framed)':36} {'CBOR':>6} {'JSON':>6}")
    for row in report["messages"]:
        print(f"{row['message']:36} {row['cbor_bytes']:>6} {row['json_bytes']:>6}")
    mix = report["mix_bytes"]
    print(f"{'the mix':36} {mix['cbor']:>6} {mix['json']:>6}")
    for baud, rate in report["messages_per_s"].items():
        print(f"messages/s at {int(baud):>9,} baud: CBOR {rate['cbor']:>7,.0f}   JSON {rate['json']:>7,.0f}")


if __name__ == "__main__":
    main()
