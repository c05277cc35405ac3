"""Fixtures for the mailbox tests: a manager whose events are recorded."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from hsx.kernel.mailbox import MailboxManager


@dataclass
class Events:
    log: list[tuple[str, int | None, dict[str, Any]]] = field(default_factory=list)

    def __call__(self, type_: str, pid: int | None, data: dict[str, Any]) -> None:
        self.log.append((type_, pid, data))

    def of(self, type_: str) -> list[tuple[int | None, dict[str, Any]]]:
        return [(pid, data) for t, pid, data in self.log if t == type_]

    def types(self) -> list[str]:
        return [t for t, _, _ in self.log]


@pytest.fixture
def events() -> Events:
    return Events()


@pytest.fixture
def make(events: Events):
    """make(**limits) -> a MailboxManager reporting into `events`."""
    def build(**kwargs: Any) -> MailboxManager:
        return MailboxManager(emit=events, **kwargs)
    return build


@pytest.fixture
def mbx(make) -> MailboxManager:
    return make()
