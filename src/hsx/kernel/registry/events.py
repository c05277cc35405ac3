"""The hooks the registries report through: kernel events and subscriber notifications.

Both are injected by the kernel, so the registries stay pure bookkeeping: they never
touch mailboxes or the event bus themselves.
"""
from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any


class RegistryEvent(StrEnum):
    VALUE_REGISTERED = "value_registered"
    VALUE_CHANGED = "value_changed"
    VALUE_ERROR = "value_error"            # a refused REGISTER, SET, SUB or PERSIST
    CMD_REGISTERED = "cmd_registered"
    CMD_INVOKED = "cmd_invoked"
    CMD_COMPLETED = "cmd_completed"
    CMD_ERROR = "cmd_error"                # a refused REGISTER or CALL


EmitFn = Callable[[str, int | None, dict[str, Any]], None]

# notify(subscriber_pid, handle, payload) sends one notification through the
# subscriber's mailbox handle.  It returns False only when that handle no longer
# exists, which ends the subscription; a full mailbox loses this one message only.
NotifyFn = Callable[[int, int, bytes], bool]
