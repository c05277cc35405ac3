"""The framed byte-stream link's formats (docs/wire.md): frames (COBS, CRC-32) and the
numbered words of the protocol.  Both ends use them: a board's host side
(hsx.client.link) and the device side an executive serves (hsx.server.framed)."""
