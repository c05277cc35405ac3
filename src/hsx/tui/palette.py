"""The command palette (ctrl+p): every action of the key map, panels to show, hide or
focus, layouts, the task's functions to go to, and the executive's tasks to debug."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Iterator

from textual.command import DiscoveryHit, Hit, Hits, Provider

from . import keys
from .layout import PANELS


class DebuggerCommands(Provider):
    async def startup(self) -> None:
        """Read the task's functions once per palette opening."""
        self.functions: list[str] = []
        try:
            symbols = await self.app.target.symbols("functions")
            self.functions = sorted({s["name"] for s in symbols["symbols"]
                                     if not s["name"].startswith(".")})
        except Exception:                         # noqa: BLE001 -- no task, no symbols
            pass

    def _commands(self) -> Iterator[tuple[str, Callable[[], Any], str]]:
        app = self.app
        for group, table in keys.GROUPS.items():
            for key, action, description, _ in table:
                if action != "command_palette":
                    shown = keys.label(key.split(",")[0])
                    note = app.target.lacking(keys.FEATURES.get(action), "this")
                    yield (description.rstrip("…"), partial(app.run_action, action),
                           f"{group} ({shown})" + (f": {note}" if note else ""))
        layout = app.current_layout
        for name, title in PANELS.items():
            hidden = name in layout.hidden
            if layout.area_of(name) is not None:
                yield (f"{'Show' if hidden else 'Hide'} panel: {title}",
                       partial(app.run_action, f"toggle_panel('{name}')"), "Layout")
                if not hidden:
                    yield (f"Focus panel: {title}", partial(app.focus_panel, name), "Layout")
        for name in app.layouts:
            yield f"Layout: {name}", partial(app.run_action, f"use_layout('{name}')"), "Layout"
        yield ("Wider side column", partial(app.run_action, "resize(4, 0)"), "Layout")
        yield ("Narrower side column", partial(app.run_action, "resize(-4, 0)"), "Layout")
        yield ("Taller bottom row", partial(app.run_action, "resize(0, 2)"), "Layout")
        yield ("Shorter bottom row", partial(app.run_action, "resize(0, -2)"), "Layout")
        for function in self.functions:
            yield (f"Go to function: {function}", partial(app.go_to_text, function), "Code")
            yield (f"Break at function: {function}",
                   partial(app.break_at_text, function), "Breakpoints")
        for row in app.task_rows:
            if row["pid"] != app.pid:
                yield (f"Debug task {row['pid']}: {row['app_name']} ({row['state']})",
                       partial(app.switch_task, row["pid"]), "Tasks")

    async def discover(self) -> Hits:
        for text, command, help_text in self._commands():
            if not text.startswith(("Go to function", "Break at function", "Focus panel")):
                yield DiscoveryHit(text, command, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, command, help_text in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), command, help=help_text)
