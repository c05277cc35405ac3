"""Names of the events the mailbox manager reports through its `emit(type, pid, data)` hook.

The catalogue with every data field is in docs/mailboxes.md; `send`, `recv`, `wait`,
`wake`, `timeout`, `overrun`, `exhausted`, `backpressure` and `error` keep the prior
HSX names and fields so existing tools keep working.
"""
from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any


class MailboxEvent(StrEnum):
    CREATED = "mailbox_created"
    FREED = "mailbox_freed"
    SEND = "mailbox_send"
    RECV = "mailbox_recv"
    WAIT = "mailbox_wait"
    WAKE = "mailbox_wake"
    TIMEOUT = "mailbox_timeout"
    OVERRUN = "mailbox_overrun"
    BACKPRESSURE = "mailbox_backpressure"
    EXHAUSTED = "mailbox_exhausted"
    ERROR = "mailbox_error"


EmitFn = Callable[[str, int | None, dict[str, Any]], None]
# The types reported for every message, as plain strings: the manager asks `wants`
# with them before it builds one (an Enum member's lookup costs more than the check).
SEND_TYPE, RECV_TYPE = MailboxEvent.SEND.value, MailboxEvent.RECV.value
