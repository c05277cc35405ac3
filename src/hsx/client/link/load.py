"""`load {image}` over a framed link: the image in acknowledged chunks (docs/wire.md,
"Loading an image").  A frame holds at most `max_frame` bytes, so the client sends
`load.begin`, `load.write` chunks that fit, and `load.end`; each chunk's reply
acknowledges it.  A board reset cuts the load off: it is started again from the
beginning (the device forgot the stream), up to `RESTARTS` times."""
from __future__ import annotations

import base64
import binascii
from typing import Any

from ..drive import Steps
from ..errors import ProtocolError
from ..wire import Progress

RESTARTS = 3
CHUNK_OVERHEAD = 64      # the frame and the rest of a load.write request, with room to spare


def chunk_size(max_frame: int) -> int:
    return max(16, max_frame - CHUNK_OVERHEAD)


def streamed_load(fields: dict[str, Any], chunk: int, progress: Progress | None) -> Steps:
    """The requests of `load {image, name?, paused?}` as a streamed load; returns the
    reply of `load.end` (the reply `load` would give)."""
    text = fields.get("image")
    try:
        image = base64.b64decode(text, validate=True) if isinstance(text, str) else None
    except (binascii.Error, ValueError):
        image = None
    if image is None:
        raise ProtocolError("bad_argument", "'image' must be base64 text")
    unknown = set(fields) - {"image", "name", "paused", "session"}
    if unknown:
        raise ProtocolError("bad_argument", f"load over a framed link takes image, name and "
                            f"paused, not {', '.join(sorted(unknown))}")
    session = {"session": fields["session"]} if "session" in fields else {}
    begin = {**session, **({"name": fields["name"]} if "name" in fields else {})}
    end = {**session, **({"paused": fields["paused"]} if "paused" in fields else {})}
    what = f"loading {fields.get('name') or 'the image'}"
    restarts = 0
    while True:
        stream = None
        try:
            stream = (yield ("load.begin", begin))["stream"]
            for offset in range(0, len(image), chunk):
                part = image[offset:offset + chunk]
                yield ("load.write", {**session, "stream": stream, "data": part})
                if progress is not None:
                    progress(what, offset + len(part), len(image))
            return (yield ("load.end", {**end, "stream": stream}))
        except ProtocolError as error:
            if error.code == "board_reset" and restarts < RESTARTS:
                restarts += 1
                if progress is not None:
                    progress(f"{what} (again: the board was reset)", 0, len(image))
                continue
            if stream is not None and error.code not in ("board_reset", "unknown_stream"):
                try:
                    yield ("load.abort", {**session, "stream": stream})
                except ProtocolError:
                    pass
            raise
