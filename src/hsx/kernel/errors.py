"""Errors the kernel API raises to its host (never to a guest: guests get status codes)."""
from __future__ import annotations


class KernelError(Exception):
    """A refused request. `code` is stable (the server sends it as `error`), the
    message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message
