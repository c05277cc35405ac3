"""docs/tui.md stays true: its key table is the key map the app binds."""
from __future__ import annotations

from pathlib import Path

from hsx.tui import keys

DOC = Path(__file__).resolve().parents[2] / "docs" / "tui.md"


def test_key_table_matches_the_key_map():
    text = DOC.read_text(encoding="utf-8")
    table = text.split("| Key | Action | Group |", 1)[1].split("\n\n", 1)[0]
    rows = [tuple(cell.strip() for cell in line.strip("|").split("|"))
            for line in table.strip().splitlines()[1:]]
    assert rows == [(shown, description, group) for group, shown, description in keys.rows()]


def test_screenshots_exist():
    for name in ("tui-wide.svg", "tui-compact.svg"):
        svg = (DOC.parent / "images" / name).read_text(encoding="utf-8")
        assert svg.startswith("<svg") and "PAUSED" in svg
