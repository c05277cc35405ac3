"""The status line: the connection, the task and its state, why it last stopped, and
whether its history is being recorded (for reverse execution)."""
from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..model import History, TaskInfo, counted

STATE_STYLES = {"paused": "bold black on yellow", "ready": "bold black on green",
                "running": "bold black on green", "returned": "bold white on blue",
                "faulted": "bold white on red", "killed": "bold white on red"}


class StatusBar(Widget):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; }
    """

    task: reactive[TaskInfo | None] = reactive(None)
    connection: reactive[str] = reactive("connecting…")
    address: reactive[str] = reactive("")
    history: reactive[History | None] = reactive(None)

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        task = self.task
        if task is not None:
            state = task.state if task.stopped else "running"
            text.append(f" {state.upper()} ", style=STATE_STYLES.get(state, "reverse"))
            text.append(f" pid {task.pid} {task.app_name}", style="bold")
            if task.ended:
                text.append(f"  {task.ending}")
            elif task.stop_reason and task.state == "paused":
                text.append(f"  {task.stop_reason}")
        if self.history is not None and self.history.recording:
            text.append("  ")
            text.append(" REC ", style="bold white on red")
            if self.history.in_past:
                back = counted(self.history.end - self.history.position, "instruction")
                text.append(f" in the past: {back} back", style="italic")
        connected = self.connection == "connected"
        text.append("  ")
        text.append(f"{self.address} " if connected else f"{self.address}: {self.connection} ",
                    style="dim" if connected else "bold red")
        return text

