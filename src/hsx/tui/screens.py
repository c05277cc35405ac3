"""Small modal questions: a line of text (go to, add a watch, a breakpoint's condition)
and a yes/no confirmation (memory and variable writes)."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{ width: 64; max-width: 100%; height: auto; border: round $accent;
                     background: $panel; padding: 0 1; }}
{name} Label {{ width: 100%; }}
{name} .hint {{ color: $text-muted; }}
"""


class Prompt(ModalScreen[str | None]):
    """Ask for one line of text; dismissed with the text (None on Escape)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="Prompt")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, *, hint: str = "", value: str = "",
                 placeholder: str = "") -> None:
        super().__init__()
        self.title_text, self.hint, self.value, self.placeholder = title, hint, value, placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield Input(self.value, placeholder=self.placeholder, id="answer")
            if self.hint:
                yield Label(self.hint, classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Confirm(ModalScreen[bool]):
    """A yes/no question; `y` or Enter confirms, `n` or Escape declines."""

    DEFAULT_CSS = DIALOG_CSS.format(name="Confirm") + """
    Confirm Horizontal { height: auto; align: center middle; }
    Confirm Button { margin: 0 1; }
    """
    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question)
            with Horizontal():
                yield Button("Yes (y)", variant="warning", id="yes")
                yield Button("No (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
