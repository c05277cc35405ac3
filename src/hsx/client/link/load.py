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


def _sized(image: bytes, stack_size: Any, memory: Any) -> bytes:
    """The image asking for the stack and memory the load asks for: a board reads them
    from the image's header (the embedded convention, docs/hxe.md)."""
    from hsx.image import ImageError, with_task_sizes

    for name, value, multiple in (("stack_size", stack_size, 4), ("memory", memory, 16)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or not 0 < value <= 0xFFFF_FFFF or value % multiple):
            raise ProtocolError("bad_argument", f"'{name}' must be a positive multiple of "
                                f"{multiple}, not {value!r}")
    try:
        return with_task_sizes(image, stack_size, memory)
    except ImageError as error:
        raise ProtocolError(f"bad_image:{error.code}", str(error)) from None


def chunk_size(max_frame: int) -> int:
    return max(16, max_frame - CHUNK_OVERHEAD)


def streamed_load(fields: dict[str, Any], chunk: int, progress: Progress | None) -> Steps:
    """The requests of `load {image, name?, paused?, stack_size?, memory?}` as a streamed
    load; returns the reply of `load.end` (the reply `load` would give).  `program`
    (argv[0]) goes with `load.end`; the C executive gives main no arguments and reads it
    not."""
    text = fields.get("image")
    try:
        image = base64.b64decode(text, validate=True) if isinstance(text, str) else None
    except (binascii.Error, ValueError):
        image = None
    if image is None:
        raise ProtocolError("bad_argument", "'image' must be base64 text")
    given = [name for name in ("args", "env") if fields.get(name)]
    if given:
        raise ProtocolError("unsupported", "a board passes no arguments to main (its argc "
                            f"is 0): leave out {' and '.join(repr(g) for g in given)}")
    unknown = set(fields) - {"image", "name", "paused", "session", "stack_size", "memory",
                             "program", "args", "env"}
    if unknown:
        raise ProtocolError("bad_argument", f"load over a framed link takes image, name, "
                            f"paused, stack_size and memory, not {', '.join(sorted(unknown))}")
    image = _sized(image, fields.get("stack_size"), fields.get("memory"))
    session = {"session": fields["session"]} if "session" in fields else {}
    begin = {**session, **({"name": fields["name"]} if "name" in fields else {})}
    end = {**session, **{k: fields[k] for k in ("paused", "program") if k in fields}}
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
