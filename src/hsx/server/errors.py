"""The one exception a command handler raises to refuse a request.

`code` is the stable `error` string of the reply (clients branch on it); `message` is
for people; `fields` are extra reply keys that help a client act on the error (for
example the oldest retained `seq` with `seq_evicted`).
"""
from __future__ import annotations

from typing import Any


class RequestError(Exception):
    def __init__(self, code: str, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields
        self.request_id: Any = None      # set when a request failed its envelope checks
        self.has_request_id = False

    def reply(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.fields}


def bad_argument(message: str) -> RequestError:
    return RequestError("bad_argument", message)
