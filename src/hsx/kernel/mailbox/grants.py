"""Who may open a task's stdio mailboxes besides the task and the host.

A task's `svc:stdio.*` mailboxes are its own; another task needs a grant, which a client
that may change the owner gives (`grant.stdio`).  Grants end with either task.
"""
from __future__ import annotations

from hsx.kernel.constants import MbxNamespace, MbxStatus

from .results import MailboxError
from .targets import Target

HOST_PID = 0


class StdioGrants:
    def __init__(self) -> None:
        self._readers: dict[int, set[int]] = {}      # owner pid -> tasks it may be read by

    def grant(self, owner: int, reader: int, allowed: bool = True) -> None:
        readers = self._readers.setdefault(owner, set())
        if allowed:
            readers.add(reader)
        else:
            readers.discard(reader)

    def readers(self, owner: int) -> list[int]:
        return sorted(self._readers.get(owner, ()))

    def check(self, pid: int, target: Target) -> None:
        """Refuse task `pid` another task's stdio unless granted (the host always may)."""
        if (target.namespace is MbxNamespace.SVC and target.name.startswith("stdio.")
                and target.owner not in (None, pid) and pid != HOST_PID
                and pid not in self._readers.get(target.owner, ())):
            raise MailboxError(MbxStatus.ACCESS_DENIED,
                               f"task {pid} may not open {target}: a task's stdio is its own "
                               "unless a client grants access (grant.stdio)")

    def release(self, pid: int) -> None:
        self._readers.pop(pid, None)
        for readers in self._readers.values():
            readers.discard(pid)
