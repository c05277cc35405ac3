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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._updating = False

    def watch_frames(self) -> None:
        self._updating = True
        try:
            self.clear_options()
            self.add_options([Option(_row(frame), id=str(frame.index)) for frame in self.frames])
            if self.note:
                self.add_option(Option(Text(f"  ({self.note})", style="dim italic"),
                                       disabled=True))
            if self.frames:
                self.highlighted = min(self.frame, len(self.frames) - 1)
        finally:
            self._updating = False

    def watch_frame(self, index: int) -> None:
        if self.frames and self.highlighted != index:
            self._updating = True
            try:
                self.highlighted = index
            finally:
                self._updating = False

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if not self._updating and event.option.id is not None:
            self.post_message(self.FrameSelected(int(event.option.id)))


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
