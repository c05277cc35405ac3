"""Where an executive is, as a URL (docs/protocol.md, "Client library"):

    tcp://127.0.0.1:9998                 `hsx execd`: JSON lines over TCP
    socket://127.0.0.1:4000              a framed byte stream over TCP (docs/wire.md):
                                         the host build's --listen, QEMU's -serial tcp:
    serial:///dev/ttyACM0?baud=115200    a framed byte stream on a serial port

Options after `?`: `baud` (serial, default 115200), `gateway` (`1`/`0`: answer the
debugger's symbolic commands on the host; on by default for framed links, see
`hsx.client.gateway`), `retry_ms` (framed: how long to wait for a reply before sending
the request again; default from the link's speed and the client's timeout).
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

SCHEMES = ("tcp", "socket", "serial")
DEFAULT_BAUD = 115_200
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class URLError(ValueError):
    """A URL that names no executive (the message says what is wrong)."""


@dataclass(frozen=True)
class Endpoint:
    scheme: str                        # tcp, socket or serial
    host: str = ""
    port: int = 0
    device: str = ""                   # serial
    baud: int = DEFAULT_BAUD
    gateway: bool | None = None        # None: the default for the scheme
    retry_s: float | None = None

    @property
    def framed(self) -> bool:
        return self.scheme != "tcp"

    def __str__(self) -> str:
        if self.scheme == "serial":
            return f"serial://{self.device}?baud={self.baud}"
        return f"{self.scheme}://{_host_text(self.host)}:{self.port}"


def parse_url(text: str, *, listening: bool = False) -> Endpoint:
    """The endpoint `text` names; URLError says what is wrong with it.  `listening`: where
    a board is to listen (`hsx board run --listen`), so port 0 (any free one) is allowed."""
    if not isinstance(text, str) or "://" not in text:
        raise URLError(f"{text!r} is not a URL: use tcp://HOST:PORT, socket://HOST:PORT or "
                       "serial:///dev/ttyACM0?baud=115200")
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise URLError(f"{text}: unknown scheme {parts.scheme!r} (tcp, socket or serial)")
    options = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    unknown = set(options) - {"baud", "gateway", "retry_ms"}
    if unknown:
        raise URLError(f"{text}: unknown option {sorted(unknown)[0]!r} (baud, gateway, retry_ms)")
    common = {"gateway": _flag(text, options.get("gateway")),
              "retry_s": _number(text, "retry_ms", options.get("retry_ms"), 1, 600_000)}
    if scheme == "serial":
        device = parts.path or parts.netloc
        if not device:
            raise URLError(f"{text}: which serial port? e.g. serial:///dev/ttyACM0")
        baud = _number(text, "baud", options.get("baud"), 50, 100_000_000)
        return Endpoint(scheme, device=device, baud=int(baud) if baud else DEFAULT_BAUD,
                        gateway=common["gateway"],
                        retry_s=common["retry_s"] / 1000 if common["retry_s"] else None)
    if "baud" in options:
        raise URLError(f"{text}: baud is for serial:// ports")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    lowest = 0 if listening else 1
    if not host or port is None or not lowest <= port < 65536 or parts.path not in ("", "/"):
        raise URLError(f"{text}: expected {scheme}://HOST:PORT with a port {lowest}..65535"
                       + (" (0 picks a free one)" if listening else ""))
    return Endpoint(scheme, host=host, port=port, gateway=common["gateway"],
                    retry_s=common["retry_s"] / 1000 if common["retry_s"] else None)


def _flag(url: str, value: str | None) -> bool | None:
    if value is None:
        return None
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise URLError(f"{url}: gateway must be 1 or 0, not {value!r}")


def _number(url: str, name: str, value: str | None, low: int, high: int) -> int | None:
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or not low <= number <= high:
        raise URLError(f"{url}: {name} must be a whole number {low}..{high}, not {value!r}")
    return number


def _host_text(host: str) -> str:
    return f"[{host}]" if ":" in host else host
