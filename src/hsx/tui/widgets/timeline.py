"""The Timeline panel: one lane per task over the last instructions of the executive's
timeline recording (`timeline.view`), read when the debugger attaches to a task and
again at every stop.

Each character of a lane covers a stretch of instructions and shows what the task did
most of that stretch, by colour and by glyph (so it reads without colour too); marks
over a lane say a message was sent (>) or received (<), a line was written (*), or the
task stopped at a breakpoint (●).  The column of the current stop and the selected task
are highlighted.  +/- zoom, ←/→ move the time cursor, ↑/↓ select a task, Enter tells
what happened under the cursor.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from ..target import ConnectionClosed, ProtocolError

# state -> (glyph, style); a slice's name is "state" or "state: detail"
STATES = {
    "running": ("█", "green"), "ready": ("▒", "yellow"), "waiting_mbx": ("─", "blue"),
    "sleeping": ("z", "magenta"), "waiting_cmd": ("┄", "cyan"), "paused": ("‖", "red"),
}
MARKS = {"break": ("●", "bold red"), "send": (">", "bold white"), "recv": ("<", "bold white"),
         "stdout": ("*", "white"), "stderr": ("*", "red")}
MARK_ORDER = ("break", "send", "recv", "stdout", "stderr")     # which mark wins a cell
SPANS = (100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000,
         500_000, 1_000_000)
DEFAULT_SPAN = SPANS.index(20_000)
LABEL_WIDTH = 14


class TimelineView(Widget, can_focus=True):
    DEFAULT_CSS = """
    TimelineView { background: $surface; height: 1fr; }
    """
    BINDINGS = [
        Binding("plus,equals_sign", "zoom(-1)", "Zoom in", show=False),
        Binding("minus", "zoom(1)", "Zoom out", show=False),
        Binding("left", "move(-1)", "Earlier", show=False),
        Binding("right", "move(1)", "Later", show=False),
        Binding("up", "select(-1)", "Task above", show=False),
        Binding("down", "select(1)", "Task below", show=False),
        Binding("enter", "explain", "What happened", show=False),
    ]

    location = reactive(None, init=False)        # the app's stop: read again there
    task = reactive(None, init=False)            # the debugger's task (TaskInfo)
    view: reactive[dict | None] = reactive(None)
    detail: reactive[str] = reactive("")

    def __init__(self, target: Any, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.target = target
        self.span = DEFAULT_SPAN
        self.cursor: int | None = None          # column of the time cursor (None: the end)
        self.selected: int | None = None        # the lane's pid (None: the debugger's task)

    def on_mount(self) -> None:
        self.reload()

    def watch_location(self) -> None:
        self.reload()

    def reload(self) -> None:
        self.run_worker(self._read, exclusive=True, group="timeline")

    async def _read(self) -> None:
        try:
            reply = await self.target.request("timeline.view", last=SPANS[self.span])
        except (ProtocolError, ConnectionClosed, OSError):
            return
        self.view = {**reply["view"], "status": reply["timeline"]}

    # ------------------------------------------------------------------ keys

    def action_zoom(self, step: int) -> None:
        self.span = min(max(self.span + step, 0), len(SPANS) - 1)
        self.reload()

    def action_move(self, step: int) -> None:
        columns = self._columns()
        self.cursor = min(max((self.cursor if self.cursor is not None else columns - 1) + step,
                              0), columns - 1)
        self.refresh()

    def action_select(self, step: int) -> None:
        pids = [task["pid"] for task in (self.view or {}).get("tasks", [])]
        if not pids:
            return
        current = self._selected_pid()
        index = pids.index(current) if current in pids else 0
        self.selected = pids[min(max(index + step, 0), len(pids) - 1)]
        self.refresh()

    def action_explain(self) -> None:
        self.detail = explain(self.view, *self._cell_range(self._cursor_column()))

    # ------------------------------------------------------------------ drawing

    def _columns(self) -> int:
        return max(self.size.width - LABEL_WIDTH - 1, 8)

    def _cursor_column(self) -> int:
        return self.cursor if self.cursor is not None else self._columns() - 1

    def _selected_pid(self) -> int | None:
        if self.selected is not None:
            return self.selected
        return self.task.pid if self.task is not None else None

    def _window(self) -> tuple[int, int]:
        view = self.view or {}
        end = view.get("end", 0)
        return view.get("start", 0), max(end, view.get("start", 0) + 1)

    def _cell_range(self, column: int) -> tuple[int, int]:
        """The instructions [from, to) column `column` covers."""
        start, end = self._window()
        columns = self._columns()
        width = (end - start) / columns
        if column >= columns - 1:                # the last one takes in the end (the stop)
            return start + int(column * width), end + 1
        return start + int(column * width), start + max(int((column + 1) * width),
                                                         int(column * width) + 1)

    def render(self) -> Text:
        view = self.view
        out = Text(no_wrap=True, overflow="crop")
        status = (view or {}).get("status") or {}
        if not view:
            return out                          # not read yet
        if not status.get("recording") and not view.get("tasks"):
            out.append("not recording: ctrl+e records what every task does "
                       "(or :timeline start)", style="dim italic")
            return out
        start, end = self._window()
        columns = self._columns()
        per_cell = (end - start) / columns
        state = "recording" if status.get("recording") else "stopped"
        out.append(f"{state} · instructions {start:,}..{end:,} · {per_cell:,.0f}/column · "
                   "+/- zoom ←/→ ↑/↓ enter\n", style="dim")
        cursor = self._cursor_column()
        selected = self._selected_pid()
        stopped = self.location is not None
        for task in view["tasks"]:
            pid = task["pid"]
            label = f"{task['name'][:LABEL_WIDTH - 5]} {pid}".ljust(LABEL_WIDTH)
            out.append(label, style="reverse bold" if pid == selected else "bold")
            out.append(" ")
            for column, (glyph, style) in enumerate(lane(view, pid, start, end, columns)):
                if column == cursor:
                    style = f"{style} reverse"
                elif stopped and column == columns - 1:
                    style = f"{style} underline"
                out.append(glyph, style=style)
            out.append("\n")
        out.append("instructions".ljust(LABEL_WIDTH + 1), style="dim")
        out.append(ruler(start, end, columns, cursor, stopped), style="dim")
        if self.detail:
            out.append("\n" + self.detail)
        return out

    def watch_view(self) -> None:
        self.refresh()

    def watch_detail(self) -> None:
        self.refresh()

    def watch_task(self, old: Any, new: Any) -> None:
        if new is not None and (old is None or old.pid != new.pid):
            self.reload()                       # attached (maybe to a running task)
        else:
            self.refresh()


def lane(view: dict, pid: int, start: int, end: int, columns: int) -> list[tuple[str, str]]:
    """(glyph, style) of each column of task `pid`'s lane over [start, end)."""
    slices = [s for s in view["slices"] if s[0] == pid]
    bounds = [start + (end - start) * c / columns for c in range(columns + 1)]
    cells = []
    for column in range(columns):
        lo, hi = bounds[column], bounds[column + 1]
        best, overlap = None, 0.0
        for _, s_start, s_end, name, _ in slices:
            covered = min(hi, s_end if s_end > s_start else s_start + 0.5) - max(lo, s_start)
            if covered > overlap:
                best, overlap = name, covered
        state = best.split(":", 1)[0] if best else None
        cells.append(STATES.get(state, (" ", "")) if state else (" ", ""))
    marks: dict[int, str] = {}
    for instant_pid, at, category, _ in view["instants"]:
        if instant_pid != pid or category not in MARKS or not start <= at <= end:
            continue
        column = min(int((at - start) * columns / max(end - start, 1)), columns - 1)
        held = marks.get(column)
        if held is None or MARK_ORDER.index(category) < MARK_ORDER.index(held):
            marks[column] = category
    for column, category in marks.items():
        glyph, style = MARKS[category]
        cells[column] = (glyph, f"{style} on {cells[column][1] or 'default'}"
                         if cells[column][1] else style)
    return cells


def ruler(start: int, end: int, columns: int, cursor: int, stopped: bool) -> str:
    """The line under the lanes: where the window starts and ends, the time cursor (^)
    and the stop (|, in the last column)."""
    marks = ["·"] * columns
    left, right = f"{start:,}", f"{end:,}"
    if len(left) + len(right) + 3 < columns:
        marks[:len(left)] = left
        marks[columns - 1 - len(right):columns - 1] = right
    if stopped:
        marks[-1] = "|"
    marks[cursor] = "^"
    return "".join(marks)


def explain(view: dict | None, lo: int, hi: int) -> str:
    """What happened in instructions [lo, hi): each task's state and the instants."""
    if not view:
        return ""
    names = {task["pid"]: task["name"] for task in view["tasks"]}
    when = f"at {lo:,}" + (f"..{hi - 1:,}" if hi - 1 > lo else "") + ": "
    parts = []
    for pid in names:
        states = [s[3] for s in view["slices"]
                  if s[0] == pid and s[1] < hi and (s[2] > lo or s[1] == s[2] >= lo)]
        if states:
            parts.append(f"{names[pid]} {pid}: {', '.join(dict.fromkeys(states))}")
    instants = view["instants"]
    first = bisect_left([i[1] for i in instants], lo)
    for pid, at, category, name in instants[first:]:
        if at >= hi:
            break
        text = name.rstrip("\n") if category in ("stdout", "stderr") else name
        parts.append(f"{names.get(pid, pid)} {pid} {category} at {at:,}: {text!r}"
                     if category in ("stdout", "stderr") else
                     f"{names.get(pid, pid)} {pid} {text} at {at:,}")
    return when + ("; ".join(parts) or "nothing recorded")
