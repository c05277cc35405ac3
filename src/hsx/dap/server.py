"""Running the adapter: on stdio (one session) or on a TCP port (a session per client,
one at a time, until interrupted).  Logs go to stderr or a file, never to stdout."""
from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path
from typing import Callable

from .adapter import Adapter
from .transport import StdioChannel, StreamChannel

log = logging.getLogger("hsx.dap")


def setup_logging(path: Path | None, verbose: bool) -> None:
    handler: logging.Handler = (logging.FileHandler(path, encoding="utf-8") if path
                                else logging.StreamHandler())
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.DEBUG if verbose else logging.WARNING)
    log.propagate = False


def serve_stdio() -> None:
    async def main() -> None:
        channel = StdioChannel()
        try:       # an editor that kills the adapter still gets its executive stopped
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, channel.end)
        except (NotImplementedError, AttributeError):
            pass                                      # Windows: no signal handlers
        await Adapter(channel).serve()
    asyncio.run(main())


def serve_tcp(host: str, port: int, ready: Callable[[str, int], None] | None = None) -> None:
    async def main() -> None:
        one_at_a_time = asyncio.Lock()

        async def session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            async with one_at_a_time:
                await Adapter(StreamChannel(reader, writer)).serve()

        server = await asyncio.start_server(session, host, port)
        bound = server.sockets[0].getsockname()
        if ready is not None:
            ready(bound[0], bound[1])
        async with server:
            await server.serve_forever()
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
