"""Mailbox IPC (SVC module 0x05): named message queues between tasks and the host.

`MailboxManager` is the one entry point the kernel uses; the other names are the
values it hands back.  docs/mailboxes.md is the user documentation.
"""
from hsx.kernel.mailbox.descriptor import Message
from hsx.kernel.mailbox.events import EmitFn, MailboxEvent
from hsx.kernel.mailbox.manager import MailboxManager
from hsx.kernel.mailbox.results import (
    BindResult,
    MailboxError,
    OpenResult,
    PeekResult,
    RecvInfo,
    RecvResult,
    SendResult,
    StdioHandles,
    Wake,
)
from hsx.kernel.mailbox.targets import Target, TargetError, parse_target

__all__ = [
    "BindResult", "EmitFn", "MailboxError", "MailboxEvent", "MailboxManager", "Message",
    "OpenResult", "PeekResult", "RecvInfo", "RecvResult", "SendResult", "StdioHandles",
    "Target", "TargetError", "Wake", "parse_target",
]
