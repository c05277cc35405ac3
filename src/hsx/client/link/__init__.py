"""The framed byte-stream link of docs/wire.md, host side: frames (COBS, CRC-32), CBOR
payloads, the link protocol (seq, window, retries, resets, streamed loads) and the
blocking and asyncio clients over it (`Client.connect("socket://…")`)."""
