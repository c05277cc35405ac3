"""`LineView`: a scrolling list of rows with a cursor, drawn with Textual's Line API.

The base of the source, disassembly and memory panels: only the rows on screen are
rendered (`render_row`), so a 10,000-line file costs what 30 lines cost.  The cursor row
is what keys act on (toggle a breakpoint, run to cursor, follow a branch).
"""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip


class LineView(ScrollView, can_focus=True):
    COMPONENT_CLASSES = {"line-view--cursor", "line-view--current", "line-view--dim"}

    DEFAULT_CSS = """
    LineView { overflow-x: auto; overflow-y: auto; scrollbar-size: 0 1; }
    LineView > .line-view--cursor { background: $accent 25%; }
    LineView:focus > .line-view--cursor { background: $accent 45%; }
    LineView > .line-view--current { background: $warning 30%; }
    LineView > .line-view--dim { color: $text-muted; }
    """

    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "Top", show=False),
        Binding("end", "edge(1)", "Bottom", show=False),
    ]

    cursor: reactive[int] = reactive(0, always_update=True)

    class CursorMoved(Message):
        def __init__(self, view: LineView, row: int) -> None:
            super().__init__()
            self.view, self.row = view, row

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._row_count = 0
        self._width = 0

    # ------------------------------------------------------------------ subclass API

    @property
    def row_count(self) -> int:
        return self._row_count

    def set_rows(self, count: int, width: int = 0) -> None:
        """Say how many rows there are now (and how wide the widest is); repaints."""
        self._row_count, self._width = count, max(width, self._width if count else 0)
        self.virtual_size = Size(self._width, count)
        if self.cursor >= count:
            self.cursor = max(0, count - 1)
        self.refresh()

    def render_row(self, row: int) -> Text:
        """The text of row `row` (0 <= row < row_count)."""
        raise NotImplementedError

    def row_style(self, row: int) -> str | None:
        """A component class for the whole row (e.g. the current line), or None."""
        return None

    # ------------------------------------------------------------------ rendering

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if row >= self._row_count:
            return Strip.blank(width, base)
        text = self.render_row(row)
        text.no_wrap = True
        strip = Strip(text.render(self.app.console), cell_len(text.plain))
        strip = strip.crop_extend(scroll_x, scroll_x + width, base)
        component = self.row_style(row)
        if row == self.cursor and (self.has_focus or component is None):
            component = "line-view--cursor"
        if component is not None:
            strip = strip.apply_style(self.get_component_rich_style(component))
        return strip.apply_offsets(scroll_x, row)

    # ------------------------------------------------------------------ cursor

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_lines(old - int(self.scroll_offset.y))
        self.refresh_lines(new - int(self.scroll_offset.y))
        self.post_message(self.CursorMoved(self, new))

    def move_cursor(self, row: int, *, center: bool = False) -> None:
        """Put the cursor on `row` and scroll it into view (centred if asked)."""
        if not self._row_count:
            return
        self.cursor = min(max(row, 0), self._row_count - 1)
        self.call_after_refresh(self._scroll_to_cursor, center)

    def _scroll_to_cursor(self, center: bool) -> None:
        top = int(self.scroll_offset.y)
        if center and not top <= self.cursor < top + self.scrollable_content_region.height - 1:
            self._center_cursor()
        else:
            self.scroll_to_region(Region(0, self.cursor, 1, 1), animate=False, force=True)

    def _center_cursor(self) -> None:
        height = self.scrollable_content_region.height
        self.scroll_to(y=max(0, self.cursor - height // 2), animate=False, force=True)

    def action_move(self, delta: int) -> None:
        self.move_cursor(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.move_cursor(self.cursor + direction * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, end: int) -> None:
        self.move_cursor(self._row_count - 1 if end else 0)

    def on_click(self, event: events.Click) -> None:
        row = int(self.scroll_offset.y) + event.y
        if 0 <= row < self._row_count:
            self.move_cursor(row)
            self.row_clicked(row, event.x + int(self.scroll_offset.x))

    def row_clicked(self, row: int, x: int) -> None:
        """A mouse click on `row` at column `x` (the gutter of source views toggles)."""

    def on_resize(self) -> None:
        """A resized panel (the terminal changed, another layout) centres the cursor row
        -- after a stop, the current line: where it ends up then does not depend on the
        sizes the panel passed through on the way."""
        self.call_after_refresh(self._center_cursor)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
