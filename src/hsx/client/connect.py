"""Opening a client by URL (`Client.connect`, `AsyncClient.connect`): the URL's scheme
picks the link, JSON lines (`tcp://`) or the framed byte stream (`socket://`,
`serial://`, docs/wire.md)."""
from __future__ import annotations

from .aio import AsyncClient
from .sync import Client
from .url import Endpoint, parse_url
from .wire import Progress


def connect_sync(url: str, *, timeout: float = 10.0, token: str | None = None,
                 max_events: int = 100_000, gateway: bool | None = None,
                 progress: Progress | None = None) -> Client:
    endpoint = parse_url(url)
    if not endpoint.framed:
        client = Client(endpoint.host, endpoint.port, timeout=timeout, token=token,
                        max_events=max_events)
    else:
        from .link.sync import FramedClient
        client = FramedClient(endpoint, timeout=timeout, token=token, max_events=max_events,
                              progress=progress)
    if not _gateway(endpoint, gateway):
        return client
    from .gateway import Gateway, GatewayClient
    return GatewayClient(client, Gateway(getattr(client, "hello", None)))


def _gateway(endpoint: Endpoint, given: bool | None) -> bool:
    """Whether the gateway answers the symbolic commands: as asked, else as the URL says,
    else for framed links."""
    if given is not None:
        return given
    return endpoint.gateway if endpoint.gateway is not None else endpoint.framed


async def connect_async(url: str, *, timeout: float = 10.0, token: str | None = None,
                        max_events: int = 100_000, gateway: bool | None = None,
                        progress: Progress | None = None) -> AsyncClient:
    endpoint = parse_url(url)
    if not endpoint.framed:
        client = await AsyncClient.connect(endpoint.host, endpoint.port, timeout=timeout,
                                           token=token, max_events=max_events)
    else:
        from .link.aio import FramedAsyncClient
        client = await FramedAsyncClient.open(endpoint, timeout=timeout, token=token,
                                              max_events=max_events, progress=progress)
    if not _gateway(endpoint, gateway):
        return client
    from .gateway import AsyncGatewayClient, Gateway
    return AsyncGatewayClient(client, Gateway(getattr(client, "hello", None)))
