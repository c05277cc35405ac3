"""The call stack: one row per frame, innermost first.  Moving the highlight selects a
frame: the source, disassembly, registers and locals then show that frame."""
from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..model import Frame


class StackView(OptionList):
    frames: reactive[tuple[Frame, ...]] = reactive((), init=False)
    frame: reactive[int] = reactive(0, init=False)
    note: reactive[str | None] = reactive(None, init=False)

    class FrameSelected(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def watch_frames(self) -> None:
        self.clear_options()
        self.add_options([Option(_row(frame), id=str(frame.index)) for frame in self.frames])
        if self.note:
            self.add_option(Option(Text(f"  ({self.note})", style="dim italic"),
                                   disabled=True))
        if self.frames:
            self.highlighted = min(self.frame, len(self.frames) - 1)

    def watch_frame(self, index: int) -> None:
        if self.frames and self.highlighted != index:
            self.highlighted = index

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Only the user's move selects a frame.  The message arrives after the highlight
        moved, so one that no longer names the highlighted row is stale, and one naming
        the frame already selected is the echo of the app's own choice."""
        event.stop()
        if (event.option_id is not None and event.option_index == self.highlighted
                and event.option_index != self.frame):
            self.post_message(self.FrameSelected(int(event.option_id)))


def _row(frame: Frame) -> Text:
    text = Text()
    text.append(f"#{frame.index:<2} ", style="bold")
    text.append(frame.function or "??", style="magenta")
    if frame.offset:
        text.append(f"+{frame.offset:#x}", style="dim")
    if frame.file:
        text.append(f"  {frame.file.rsplit('/', 1)[-1]}:{frame.line}", style="cyan")
    text.append(f"  {frame.pc:#06x}", style="dim")
    return text
