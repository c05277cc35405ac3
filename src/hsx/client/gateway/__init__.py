"""The host-side debug gateway (docs/protocol.md, "Client library"): a board answers
address-level commands; `Gateway` answers the debugger's symbolic ones on the host
(symbols, source lines, stack frames, variables, disassembly, line steps), and the
wrapped clients put it in front of a device link.  `Client.connect(url)` puts it there
for framed links by itself (`gateway=True` or `?gateway=1` for `tcp://`, which is how
its answers are checked against `hsx execd`'s own)."""
from . import control, inspect, stepping  # noqa: F401  (they register the commands)
from .clients import AsyncGatewayClient, GatewayClient
from .core import Gateway
from .images import ImageStore

__all__ = ["AsyncGatewayClient", "Gateway", "GatewayClient", "ImageStore"]
