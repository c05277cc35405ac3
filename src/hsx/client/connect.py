"""Opening a client by URL (`Client.connect`, `AsyncClient.connect`): the URL's scheme
picks the link, JSON lines (`tcp://`) or the framed byte stream (`socket://`,
`serial://`, docs/wire.md)."""
from __future__ import annotations

from .aio import AsyncClient
from .sync import Client
from .url import parse_url
from .wire import Progress


def connect_sync(url: str, *, timeout: float = 10.0, token: str | None = None,
                 max_events: int = 100_000, gateway: bool | None = None,
                 progress: Progress | None = None) -> Client:
    endpoint = parse_url(url)
    if not endpoint.framed:
        return Client(endpoint.host, endpoint.port, timeout=timeout, token=token,
                      max_events=max_events)
    from .link.sync import FramedClient
    return FramedClient(endpoint, timeout=timeout, token=token, max_events=max_events,
                        progress=progress)


async def connect_async(url: str, *, timeout: float = 10.0, token: str | None = None,
                        max_events: int = 100_000, gateway: bool | None = None,
                        progress: Progress | None = None) -> AsyncClient:
    endpoint = parse_url(url)
    if not endpoint.framed:
        return await AsyncClient.connect(endpoint.host, endpoint.port, timeout=timeout,
                                         token=token, max_events=max_events)
    from .link.aio import FramedAsyncClient
    return await FramedAsyncClient.open(endpoint, timeout=timeout, token=token,
                                        max_events=max_events, progress=progress)
