"""Layouts: which panel sits in which area of the screen, how big the areas are, and
which panels are hidden -- remembered in the user's config directory.

The screen has six areas:

    +------------+------------+--------+
    | code       | code2      | side   |
    |            |            +--------+
    |            |            | side2  |
    +------------+------------+--------+
    | bottom                | bottom2  |
    +-----------------------+----------+

An area holds panels as tabs (one shown at a time); an empty area is not drawn.
`compact` is readable at 80x24; `wide` spreads out on a big terminal.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import platformdirs

AREAS = ("code", "code2", "side", "side2", "bottom", "bottom2")

# panel id -> title, in the order of the alt+digit keys that focus them
PANELS = {
    "source": "Source", "disassembly": "Disassembly", "registers": "Registers",
    "stack": "Stack", "locals": "Locals", "watches": "Watches", "breakpoints": "Breakpoints",
    "memory": "Memory", "output": "Output", "events": "Events", "tasks": "Tasks",
    "mailboxes": "Mailboxes", "values": "Values", "trace": "Trace", "timeline": "Timeline",
}
# What a panel shows needs this session feature: an executive whose variant lacks it
# (docs/variants.md) gets a note in the panel's place instead.
PANEL_FEATURES = {
    "source": "symbols", "disassembly": "disasm", "stack": "stack", "locals": "variables",
    "watches": "expressions", "breakpoints": "debug", "trace": "trace", "events": "events",
    "timeline": "timeline",
}
WIDE_FROM = (140, 40)            # columns, rows from which `wide` is the default
SIDE_FLOOR = 28                  # columns the registers need for two columns of them
SCREEN_LINES = 2                 # the status line and the footer


@dataclass(frozen=True)
class Layout:
    name: str
    areas: dict[str, tuple[str, ...]]
    side_width: int = 30
    bottom_height: int = 9
    hidden: frozenset[str] = frozenset()

    def area_of(self, panel: str) -> str | None:
        for area, panels in self.areas.items():
            if panel in panels:
                return area
        return None

    def visible(self, area: str) -> tuple[str, ...]:
        return tuple(p for p in self.areas.get(area, ()) if p not in self.hidden)

    def toggled(self, panel: str) -> Layout:
        return replace(self, hidden=self.hidden ^ {panel})

    def fitted(self, columns: int, rows: int) -> tuple[int, int]:
        """The side column's width and the bottom row's height on a terminal of this
        size: the layout's, but at most a third of the width (or what the registers
        need) and half the rows, so that the code keeps room (`wide` at 80x24)."""
        return (min(self.side_width, max(SIDE_FLOOR, columns // 3)),
                min(self.bottom_height, max(3, (rows - SCREEN_LINES) // 2)))

    def resized(self, *, side: int = 0, bottom: int = 0) -> Layout:
        return replace(self, side_width=min(max(self.side_width + side, 16), 120),
                       bottom_height=min(max(self.bottom_height + bottom, 3), 60))


COMPACT = Layout("compact", {
    "code": ("source", "disassembly"),
    "side": ("registers",),
    "bottom": ("locals", "watches", "stack", "breakpoints", "output", "memory", "trace",
               "timeline", "events", "tasks", "mailboxes", "values"),
}, side_width=28, bottom_height=9)

WIDE = Layout("wide", {
    "code": ("source",),
    "code2": ("disassembly",),
    "side": ("registers",),
    "side2": ("stack", "breakpoints"),
    "bottom": ("locals", "watches", "memory"),
    "bottom2": ("output", "timeline", "trace", "events", "tasks", "mailboxes", "values"),
}, side_width=44, bottom_height=16)

LAYOUTS = {layout.name: layout for layout in (COMPACT, WIDE)}


def default_for(columns: int, rows: int) -> Layout:
    return WIDE if columns >= WIDE_FROM[0] and rows >= WIDE_FROM[1] else COMPACT


@dataclass
class LayoutStore:
    """The layouts as the user last left them, in `<config dir>/hsx/dbg-layout.json`."""

    path: Path = field(default_factory=lambda: Path(
        platformdirs.user_config_dir("hsx", appauthor=False)) / "dbg-layout.json")

    def load(self) -> tuple[str | None, dict[str, Layout]]:
        """The name of the last layout used (None the first time) and every layout, with
        the user's changes applied to the built-in ones."""
        layouts = dict(LAYOUTS)
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
            for name, saved in doc.get("layouts", {}).items():
                if name in layouts:
                    layouts[name] = _restore(layouts[name], saved)
            current = doc.get("current")
            return (current if current in layouts else None), layouts
        except (OSError, ValueError, TypeError, AttributeError):
            return None, layouts

    def save(self, current: str, layouts: dict[str, Layout]) -> None:
        doc = {"current": current, "layouts": {
            name: {**asdict(layout), "areas": {a: list(p) for a, p in layout.areas.items()},
                   "hidden": sorted(layout.hidden)}
            for name, layout in layouts.items()}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
        except OSError:
            pass                # a read-only home must not stop the debugger


def _restore(base: Layout, saved: dict) -> Layout:
    """`base` with the saved sizes, hidden panels and placement -- as far as they still
    name known panels and areas (a panel lost from the saved placement goes home)."""
    areas: dict[str, tuple[str, ...]] = {}
    placed: set[str] = set()
    for area, panels in (saved.get("areas") or {}).items():
        if area in AREAS:
            known = tuple(p for p in panels if p in PANELS and p not in placed)
            areas[area] = known
            placed.update(known)
    for area, panels in base.areas.items():
        missing = tuple(p for p in panels if p not in placed)
        areas[area] = areas.get(area, ()) + missing
    hidden = frozenset(p for p in saved.get("hidden") or () if p in PANELS)
    return replace(base, areas=areas, hidden=hidden,
                   side_width=_int(saved.get("side_width"), base.side_width),
                   bottom_height=_int(saved.get("bottom_height"), base.bottom_height)
                   ).resized()


def _int(value, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default
