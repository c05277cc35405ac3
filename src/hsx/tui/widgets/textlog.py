"""`LineBuffer` and `TextLog`: the Output and Events panels.

A task may print 10,000 lines a second.  `LineBuffer` keeps the last few thousand rows
of such a stream (text split into rows, a row still open until its newline arrives, or
one record a row formatted only when it is drawn); adding costs what the new rows cost,
and old rows fall off the top.  `TextLog` draws the rows on screen from the buffer with
Textual's Line API and repaints once per `update`, however many rows arrived -- the app
calls it once a frame.  The buffer outlives the widget (a new layout shows it again).
"""
from __future__ import annotations

import re
from collections import deque
from typing import Any, Callable, Iterator

from rich.cells import cell_len
from rich.segment import Segment
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip

_control = re.compile("[\u0000-\u0008\u000b-\u001f\u007f]").sub


class LineBuffer:
    """The last `limit` rows of a text stream or of a series of records."""

    def __init__(self, limit: int, render: Callable[[Any], str] = str, width: int = 0) -> None:
        self.rows: deque[Any] = deque(maxlen=limit)
        self.render = render          # a record -> its row's text
        self.width = width            # the widest row seen (fixed for records)
        self.added = 0                # rows ever added, for readers that count them
        self._open = False            # the last row still waits for its newline

    def write(self, text: str) -> None:
        """Append stream text: it continues the open row and opens a new one when it
        does not end with a newline."""
        if not text:
            return
        pieces = text.split("\n")
        last = pieces.pop()           # what follows the final newline ('' if none)
        if last:
            pieces.append(last)
        if self._open and pieces:
            self.rows[-1] += pieces.pop(0)
            self.width = max(self.width, len(self.rows[-1]))
        self.rows.extend(pieces)
        self.added += len(pieces)
        self._open = bool(last)
        self.width = max(self.width, max(map(len, pieces), default=0))

    def note(self, text: str) -> None:
        """A row of its own (an open row ends first): the app's remarks in a stream."""
        self.append(text)

    def append(self, record: Any) -> None:
        """Add one record as a row of its own."""
        self.rows.append(record)
        self.added += 1
        self._open = False

    def row(self, index: int) -> str:
        return self.render(self.rows[index])

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[str]:
        return map(self.render, self.rows)


class TextLog(ScrollView, can_focus=True):
    """A read-only view of a `LineBuffer` that follows its end while scrolled there."""

    ALLOW_SELECT = True
    DEFAULT_CSS = """
    TextLog { background: $surface; color: $text; overflow: scroll; }
    TextLog:focus { background-tint: $foreground 5%; }
    """

    def __init__(self, buffer: LineBuffer, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.buffer = buffer

    def on_mount(self) -> None:
        self.update()

    @property
    def allow_select(self) -> bool:
        return True

    def update(self) -> None:
        """Show what the buffer holds now (one repaint), staying at the end if there."""
        follow = self.scroll_y >= self.max_scroll_y
        self.virtual_size = Size(self.buffer.width, len(self.buffer))
        if follow:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row, width, style = scroll_y + y, self.size.width, self.rich_style
        if row >= len(self.buffer):
            return Strip.blank(width, style)
        text = _control("\ufffd", self.buffer.row(row).expandtabs())
        segments = [Segment(text, style)]
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(row)) is not None:
            start, end = span
            end = len(text) if end == -1 else end
            picked = style + self.screen.get_component_rich_style("screen--selection")
            segments = [Segment(text[:start], style), Segment(text[start:end], picked),
                        Segment(text[end:], style)]
        strip = Strip(segments, cell_len(text)).crop_extend(scroll_x, scroll_x + width, style)
        return strip.apply_offsets(scroll_x, row)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return selection.extract("\n".join(self.buffer)), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self.refresh()
