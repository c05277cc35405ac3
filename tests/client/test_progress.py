"""A long transfer's progress as the front ends show it (hsx.client.progress): nothing in
its first second, then at most twice a second, and always its end."""
from __future__ import annotations

from hsx.client import progress


def test_progress_shows_after_a_second_and_at_most_twice_a_second(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    said: list[str] = []
    show = progress.ShownProgress(said.append)
    for done, at in [(0, 0.0), (1000, 0.5), (2000, 1.1), (3000, 1.3), (4000, 1.7), (8192, 1.8)]:
        now[0] = 100.0 + at
        show("loading prog.hxe", done, 8192)
    assert said == ["loading prog.hxe: 2,000 of 8,192 bytes (24%)",
                    "loading prog.hxe: 4,000 of 8,192 bytes (48%)",
                    "loading prog.hxe: 8,192 of 8,192 bytes (100%)"]


def test_a_quick_transfer_shows_nothing(monkeypatch):
    now = [5.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    said: list[str] = []
    show = progress.ShownProgress(said.append)
    for done in (0, 4096, 8192):
        now[0] += 0.1
        show("loading", done, 8192)
    assert said == []
