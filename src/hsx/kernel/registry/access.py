"""Who may touch an entry: the owner/auth rule and the executive's PIN."""
from __future__ import annotations


def may_access(owner_pid: int, level: int, caller_pid: int, caller_auth: int) -> bool:
    """The owner always may; anyone else needs at least the entry's auth level."""
    return caller_pid == owner_pid or caller_auth >= level


class Pin:
    """The executive's PIN for PIN-flagged commands and values.

    With no PIN configured every PIN check fails: a device must never accept a PIN it
    was not given.  Comparison is constant-time so the PIN cannot be guessed byte by
    byte from response times.
    """

    def __init__(self, pin: bytes | str | None = None) -> None:
        self._pin: bytes | None = None
        self.set(pin)

    def set(self, pin: bytes | str | None) -> None:
        if isinstance(pin, str):
            pin = pin.encode()
        if pin is not None and not pin:
            raise ValueError("an empty PIN would accept an empty token; use None for no PIN")
        self._pin = pin

    @property
    def configured(self) -> bool:
        return self._pin is not None

    def check(self, token: bytes | None) -> bool:
        if self._pin is None or token is None:
            return False
        import hmac                     # (imported by the first PIN check, not at start-up)
        return hmac.compare_digest(token, self._pin)

