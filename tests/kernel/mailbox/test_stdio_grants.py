"""A task's stdio is its own: another task may open it only with a grant (issue 17,
group 6); the host always may."""
from __future__ import annotations

from hsx.kernel.constants import MbxMode, MbxStatus
from hsx.kernel.mailbox.manager import MailboxManager


def test_another_task_needs_a_grant_to_tap_or_read_stdio():
    boxes = MailboxManager()
    for pid in (1, 2):
        boxes.create_task_mailboxes(pid)
    for target in ("svc:stdio.out@1", "svc:stdio.err@1", "svc:stdio.in@1"):
        assert boxes.open(2, target, int(MbxMode.RDONLY | MbxMode.TAP)).status is \
            MbxStatus.ACCESS_DENIED
    assert boxes.open(0, "svc:stdio.out@1", int(MbxMode.RDONLY | MbxMode.TAP)).status is \
        MbxStatus.OK
    boxes.stdio_grants.grant(1, 2)
    tap = boxes.open(2, "svc:stdio.out@1", int(MbxMode.RDONLY | MbxMode.TAP))
    assert tap.status is MbxStatus.OK and boxes.stdio_grants.readers(1) == [2]
    boxes.stdio_grants.grant(1, 2, allowed=False)
    assert boxes.open(2, "svc:stdio.err@1", int(MbxMode.RDONLY)).status is \
        MbxStatus.ACCESS_DENIED


def test_grants_end_with_either_task():
    boxes = MailboxManager()
    for pid in (1, 2, 3):
        boxes.create_task_mailboxes(pid)
    boxes.stdio_grants.grant(1, 2)
    boxes.stdio_grants.grant(3, 2)
    boxes.release_task(2)
    assert boxes.stdio_grants.readers(1) == [] and boxes.stdio_grants.readers(3) == []
    boxes.stdio_grants.grant(1, 3)
    boxes.release_task(1)
    assert boxes.stdio_grants.readers(1) == []
