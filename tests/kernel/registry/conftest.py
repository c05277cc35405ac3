"""Fixtures for the registry tests: registries whose events and notifications are recorded."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from hsx.kernel.registry import CommandRegistry, PersistStore, Pin, ValueRegistry


@dataclass
class Events:
    log: list[tuple[str, int | None, dict[str, Any]]] = field(default_factory=list)

    def __call__(self, type_: str, pid: int | None, data: dict[str, Any]) -> None:
        self.log.append((type_, pid, data))

    def of(self, type_: str) -> list[tuple[int | None, dict[str, Any]]]:
        return [(pid, data) for t, pid, data in self.log if t == type_]


@dataclass
class Mail:
    """Stands in for the kernel's mailbox send: records payloads, knows dead handles."""

    sent: list[tuple[int, int, bytes]] = field(default_factory=list)
    dead: set[tuple[int, int]] = field(default_factory=set)

    def __call__(self, pid: int, handle: int, payload: bytes) -> bool:
        if (pid, handle) in self.dead:
            return False
        self.sent.append((pid, handle, payload))
        return True

    def to(self, pid: int, handle: int) -> list[bytes]:
        return [p for s, h, p in self.sent if (s, h) == (pid, handle)]


@pytest.fixture
def events() -> Events:
    return Events()


@pytest.fixture
def mail() -> Mail:
    return Mail()


@pytest.fixture
def pin() -> Pin:
    return Pin("1234")


@pytest.fixture
def store(tmp_path):
    with PersistStore(tmp_path / "values.sqlite3") as s:
        yield s


@pytest.fixture
def make_values(events, mail, pin):
    def build(**kwargs: Any) -> ValueRegistry:
        kwargs.setdefault("emit", events)
        kwargs.setdefault("notify", mail)
        kwargs.setdefault("pin", pin)
        return ValueRegistry(**kwargs)
    return build


@pytest.fixture
def values(make_values) -> ValueRegistry:
    return make_values()


@pytest.fixture
def commands(events, pin) -> CommandRegistry:
    return CommandRegistry(emit=events, pin=pin)
