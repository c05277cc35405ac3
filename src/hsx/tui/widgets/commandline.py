"""The command line (`:`): debugger commands and protocol commands typed by name, with
a history (up/down).  Escape goes back to the panels."""
from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input


class CommandLine(Input):
    DEFAULT_CSS = """
    CommandLine { dock: bottom; display: none; border: none; height: 1; padding: 0 1;
                  background: $panel; }
    CommandLine.-open { display: block; }
    """
    BINDINGS = [Binding("escape", "close", "Close", show=False),
                Binding("up", "history(-1)", show=False),
                Binding("down", "history(1)", show=False)]

    class Run(Message):
        def __init__(self, line: str) -> None:
            super().__init__()
            self.line = line

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder="(dbg) break square · print total · x SP 32 · next · "
                                     "help", id=id)
        self.history: list[str] = []
        self._index = 0

    def open(self) -> None:
        self.add_class("-open")
        self.focus()

    def action_close(self) -> None:
        self.value = ""
        self.remove_class("-open")
        self.screen.focus_next()

    def action_history(self, step: int) -> None:
        if self.history:
            self._index = min(max(self._index + step, 0), len(self.history))
            self.value = self.history[self._index] if self._index < len(self.history) else ""
            self.cursor_position = len(self.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value.strip()
        self.value = ""
        if line:
            if not self.history or self.history[-1] != line:
                self.history.append(line)
            self._index = len(self.history)
            self.post_message(self.Run(line))
