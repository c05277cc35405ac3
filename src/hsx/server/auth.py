"""Who may talk to the executive: the token, where it comes from, and how fast a client
may guess it.

* `read_token_file` refuses a file that would silently turn authentication off (empty,
  blank first line) or cannot be read, with a message that says which and what to do.
* Tokens are compared in constant time (both sides hashed first, so the length leaks
  neither).
* `AuthLimiter` slows guessing down: after each failed `auth` from an address, that
  address must wait before its next attempt (doubling up to `MAX_DELAY_S`), and is
  refused with `auth_rate_limited` without its token being looked at until then.  A
  connection is also closed after `MAX_FAILURES_PER_CONNECTION` failures.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import time
from dataclasses import dataclass

MAX_FAILURES_PER_CONNECTION = 3
FIRST_DELAY_S = 0.25
MAX_DELAY_S = 30.0
FORGET_AFTER_S = 300.0           # an address with no failure for this long starts afresh


class TokenFileError(ValueError):
    """A token file that cannot be used; the message says why and what to do."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def read_token_file(path: str | os.PathLike) -> str:
    """The token on the first line of `path` (surrounding blanks removed)."""
    try:
        text = open(path, encoding="utf-8").read(64 * 1024)
    except FileNotFoundError:
        raise TokenFileError(f"token file {path}: no such file") from None
    except IsADirectoryError:
        raise TokenFileError(f"token file {path}: is a directory, not a file") from None
    except PermissionError:
        raise TokenFileError(f"token file {path}: permission denied") from None
    except UnicodeDecodeError:
        raise TokenFileError(f"token file {path}: not UTF-8 text") from None
    except OSError as error:
        raise TokenFileError(f"token file {path}: {error.strerror or error}") from None
    lines = text.splitlines()
    if not lines:
        raise TokenFileError(f"token file {path}: the file is empty")
    token = lines[0].strip()
    if not token:
        raise TokenFileError(f"token file {path}: the first line is blank")
    return token


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison that does not leak the length either."""
    return hmac.compare_digest(hashlib.sha256(given.encode("utf-8", "replace")).digest(),
                               hashlib.sha256(expected.encode("utf-8", "replace")).digest())


@dataclass
class _Record:
    failures: int = 0
    blocked_until: float = 0.0
    last_failure: float = 0.0


class AuthLimiter:
    """Failed-attempt bookkeeping per client address (bounded: old records are dropped)."""

    MAX_ADDRESSES = 4096

    def __init__(self, clock=time.monotonic) -> None:
        self._clock = clock
        self._records: dict[str, _Record] = {}

    def wait_s(self, address: str) -> float:
        """Seconds before `address` may try again (0: now)."""
        record = self._records.get(address)
        return max(0.0, record.blocked_until - self._clock()) if record else 0.0

    def failed(self, address: str) -> float:
        """Note a wrong token; returns the delay now imposed on the address."""
        now = self._clock()
        record = self._records.get(address)
        if record is None or now - record.last_failure > FORGET_AFTER_S:
            if len(self._records) >= self.MAX_ADDRESSES:
                self._records.pop(next(iter(self._records)))
            record = self._records[address] = _Record()
        record.failures += 1
        record.last_failure = now
        delay = min(FIRST_DELAY_S * 2 ** min(record.failures - 1, 16), MAX_DELAY_S)
        record.blocked_until = now + delay
        return delay

    def succeeded(self, address: str) -> None:
        self._records.pop(address, None)
