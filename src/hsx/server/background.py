"""An executive daemon on a thread of its own: for tests, benchmarks and tools that
embed one (`with BackgroundServer(ServerConfig(port=0)) as srv: srv.port`)."""
from __future__ import annotations

import asyncio
import threading

from .server import Server, ServerConfig


class BackgroundServer:
    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig(port=0)
        self.server: Server | None = None
        self.host = ""
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name="hsx-execd", daemon=True)

    def start(self) -> BackgroundServer:
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self._loop is not None and self.server is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self.server.request_shutdown)
        self._thread.join(timeout)

    def call(self, fn, *args):
        """Run `fn(*args)` on the server's loop thread and return its result (the
        kernel may only be touched there)."""
        assert self._loop is not None
        future = asyncio.run_coroutine_threadsafe(_call(fn, *args), self._loop)
        return future.result(10)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _main(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        try:
            self._loop = asyncio.get_running_loop()
            self.server = Server(self.config)
            self.host, self.port = await self.server.start()
        except BaseException as error:     # reported to the starting thread
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        await self.server.serve()


async def _call(fn, *args):
    return fn(*args)
