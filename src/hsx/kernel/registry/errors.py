"""Refusals: a registry error carries the guest status and a message for people."""
from __future__ import annotations

from enum import IntEnum

from hsx.kernel.errors import KernelError

_REASONS = {"EEXIST": "exists", "ENOSPC": "limit", "EINVAL": "invalid", "ENOENT": "unknown",
            "EPERM": "denied", "EBUSY": "busy", "ENOASYNC": "not_async", "EFAIL": "failed"}


class RegistryError(KernelError):
    """A refused registry operation.

    Guest-facing calls turn it into `status` (R0); kernel-facing calls such as
    `register_from_metadata` let it through, and its `code` (`value_exists`,
    `command_limit`, …) is what the server reports.
    """

    def __init__(self, kind: str, status: IntEnum, message: str, oid: int | None = None) -> None:
        super().__init__(f"{kind}_{_REASONS[status.name]}", message)
        self.status = status
        self.oid = oid


class DescriptorError(ValueError):
    """A malformed descriptor chain in guest memory; REGISTER returns EINVAL for it."""
