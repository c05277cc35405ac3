"""The source panel: the file of the selected frame, its current line, breakpoints in the
gutter, (with `m`) each line's instructions under it, and `/` to find text in it."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.reactive import reactive

from hsx.client.sources import same_file

from ..model import Breakpoint, Location
from ..screens import Prompt
from ..sources import SourceCache, SourceFile
from ..target import ConnectionClosed, ProtocolError, Target
from .lineview import LineView

GUTTER = 7                       # "●▶ 123 "


class SourceView(LineView):
    """Rows are source lines, or in mixed mode (`m`) source lines each followed by the
    instructions compiled from it (`instructions`: line -> disassembled instructions,
    read when mixed mode first shows a file)."""

    BINDINGS = [Binding("m", "toggle_mixed", "Mixed src/asm"),
                Binding("slash", "find", "Find", show=False),
                Binding("f3", "find_next(1)", "Next match", show=False),
                Binding("shift+f3", "find_next(-1)", "Previous match", show=False)]

    location: reactive[Location | None] = reactive(None, init=False)
    breakpoints: reactive[tuple[Breakpoint, ...]] = reactive((), init=False)
    mixed: reactive[bool] = reactive(False, init=False)

    def __init__(self, sources: SourceCache, target: Target, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.sources = sources
        self.target = target
        self.file: SourceFile | None = None
        self.instructions: dict[int, list[dict[str, Any]]] = {}
        self._rows: list[tuple[int, dict[str, Any] | None]] = []   # (line, instruction)
        self._marks: dict[int, bool] = {}                          # line -> enabled
        self._marked: dict[int, bool] = {}                         # address -> enabled
        self.query_text = ""                                       # the last `/` search

    # ------------------------------------------------------------------ what is shown

    def show(self, name: str | None, line: int | None = None) -> bool:
        """Show file `name` (as the symbols name it) with the cursor on `line`."""
        found = self.sources.get(name)
        if found is not self.file:
            self.file = found
            self.instructions = {}
            self._rebuild()
            if self.mixed:
                self._load_instructions()
        if found is not None and line:
            self.move_cursor(self.row_of(line), center=True)
        self.border_subtitle = found.path.name if found else ""
        return found is not None

    @work(exclusive=True, group="mixed")
    async def _load_instructions(self) -> None:
        """Read the instructions of the file shown (for mixed mode)."""
        file = self.file
        if file is None:
            return
        try:
            by_line = await self.target.source_instructions(file.name)
        except ProtocolError as error:
            self.notify(f"no instructions for {file.path.name}: {error.message or error.code}",
                        severity="warning")
            return
        except ConnectionClosed:
            return
        if file is self.file:
            self.instructions = by_line
            self._rebuild_keeping_cursor()

    def watch_location(self, location: Location | None) -> None:
        if location is None:
            return
        if location.file and self.show(location.file, location.line):
            return
        if self.file is not None and self.file.name == location.file:
            return
        self.file = None
        self._rebuild()

    def watch_breakpoints(self, breakpoints: tuple[Breakpoint, ...]) -> None:
        self._marks, self._marked = {}, {}
        for bp in breakpoints:
            self._marked[bp.address] = self._marked.get(bp.address, False) or bp.enabled
            if self.file is not None and bp.file and bp.line and same_file(bp.file,
                                                                            self.file.name):
                self._marks[bp.line] = self._marks.get(bp.line, False) or bp.enabled
        self.refresh()

    def watch_mixed(self, mixed: bool) -> None:
        if mixed and not self.instructions:
            self._load_instructions()
        self._rebuild_keeping_cursor()

    def _rebuild_keeping_cursor(self) -> None:
        """The rows again (mixed or not), the cursor on the line it was on."""
        line = self.cursor_line()
        self._rebuild()
        if line:
            self.move_cursor(self.row_of(line), center=True)

    def action_find(self) -> None:
        def search(text: str | None) -> None:
            if text:
                self.query_text = text
                self.action_find_next(1)
        self.app.push_screen(Prompt("Find in the source", value=self.query_text,
                                    hint="Case matters only if the text has capitals; "
                                         "F3 / Shift+F3: next / previous."), search)

    def action_find_next(self, direction: int) -> None:
        """The cursor to the next (or previous) line holding the text, wrapping around."""
        if self.file is None or not self.query_text:
            return
        line = self.find(self.query_text, self.cursor_line() or 1, direction)
        if line is None:
            self.notify(f"{self.query_text!r} is not in {self.file.name}", severity="warning")
        else:
            self.move_cursor(self.row_of(line), center=True)

    def find(self, text: str, after: int, direction: int = 1) -> int | None:
        """The first line after `after` (before, with direction -1) that holds `text`."""
        lines = self.file.lines if self.file is not None else ()
        fold = text == text.lower()
        wanted = text.lower() if fold else text
        for step in range(1, len(lines) + 1):
            number = (after - 1 + direction * step) % len(lines) + 1
            plain = lines[number - 1].plain
            if wanted in (plain.lower() if fold else plain):
                return number
        return None

    def action_toggle_mixed(self) -> None:
        self.mixed = not self.mixed

    def _rebuild(self) -> None:
        rows: list[tuple[int, dict[str, Any] | None]] = []
        if self.file is not None:
            for number in range(1, len(self.file.lines) + 1):
                rows.append((number, None))
                if self.mixed:
                    rows += [(number, ins) for ins in self.instructions.get(number, ())]
        self._rows = rows
        width = max((len(t.plain) for t in self.file.lines), default=0) if self.file else 0
        self.watch_breakpoints(self.breakpoints)
        self.set_rows(len(rows) if self.file else 1, width + GUTTER)

    # ------------------------------------------------------------------ cursor

    def row_of(self, line: int) -> int:
        for row, (number, instruction) in enumerate(self._rows):
            if number >= line and instruction is None:
                return row
        return max(0, len(self._rows) - 1)

    def cursor_line(self) -> int | None:
        if not self._rows:
            return None
        return self._rows[min(self.cursor, len(self._rows) - 1)][0]

    def cursor_location(self) -> int | tuple[str, int] | None:
        """What the cursor names: an instruction's address in mixed mode, else the line."""
        if self.file is None or not self._rows:
            return None
        line, instruction = self._rows[min(self.cursor, len(self._rows) - 1)]
        return instruction["pc"] if instruction else (self.file.name, line)

    def row_clicked(self, row: int, x: int) -> None:
        if x < GUTTER - 1:
            self.app.run_action("toggle_breakpoint")

    # ------------------------------------------------------------------ rendering

    def _current(self, line: int) -> bool:
        location = self.location
        return (location is not None and self.file is not None and location.line == line
                and location.file is not None and same_file(location.file, self.file.name))

    def row_style(self, row: int) -> str | None:
        if self.file is None or row >= len(self._rows):
            return None
        line, instruction = self._rows[row]
        if instruction is not None:
            return "line-view--current" if (self.location and instruction["pc"] == self.location.pc) \
                else None
        return "line-view--current" if self._current(line) and not self.mixed else None

    def render_row(self, row: int) -> Text:
        if self.file is None:
            return self._no_source()
        line, instruction = self._rows[row]
        if instruction is not None:
            return self._instruction_row(instruction)
        mark = self._marks.get(line)
        text = Text()
        text.append("●" if mark else "○" if mark is False else " ",
                    style="bold red" if mark else "red")
        current = self._current(line)
        arrow = "▶" if self.location and self.location.current else "▷"
        text.append(arrow if current else " ", style="bold yellow")
        text.append(f"{line:>4} ", style="bold" if current else "dim")
        text.append_text(self.file.lines[line - 1])
        return text

    def _instruction_row(self, instruction: dict[str, Any]) -> Text:
        text = Text()
        here = self.location is not None and instruction["pc"] == self.location.pc
        mark = self._marked.get(instruction["pc"])
        text.append("●" if mark else "○" if mark is False else " ", style="bold red")
        text.append("▶" if here else " ", style="bold yellow")
        text.append(f"     {instruction['pc']:#06x}  ", style="dim")
        text.append(instruction["text"], style="italic cyan")
        return text

    def _no_source(self) -> Text:
        """One short row (a longer one is cut off in a narrow panel): what is missing,
        then where to look instead."""
        location = self.location
        if location is None:
            return Text("not attached", style="dim")
        if location.file:
            return Text(f"{location.file} not found (line {location.line}): "
                        "see Disassembly", style="dim")
        where = location.function or f"{location.pc:#06x}"
        return Text(f"no source line for {where}: see Disassembly", style="dim")

