"""The table panels: breakpoints, tasks, mailboxes and values.  Each is a `DataTable`
bound to a tuple of items; replacing the tuple redraws it and keeps the cursor on the
same key."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from ..model import Breakpoint


class RowsTable(DataTable):
    """A table whose content is `items` (a tuple of the panel's things); subclasses say
    what the columns are and how an item becomes cells."""

    DEFAULT_CSS = """
    RowsTable { background: $surface; }
    """
    COLUMNS: tuple[str, ...] = ()
    EMPTY = "nothing here"

    items: reactive[tuple[Any, ...]] = reactive((), init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.add_columns(*self.COLUMNS)
        self.watch_items(self.items)

    def watch_items(self, rows: tuple[Any, ...]) -> None:
        if not self.columns:
            return
        key = self.cursor_key()
        self.clear(columns=True)         # columns as wide as these rows need, no wider
        self.add_columns(*self.COLUMNS)
        for item in rows:
            self.add_row(*self.cells(item), key=str(self.key_of(item)))
        if not rows:
            self.add_row(Text(self.EMPTY, style="dim italic"),
                         *[""] * (len(self.COLUMNS) - 1), key="")
        if key is not None and key in {str(self.key_of(item)) for item in rows}:
            self.move_cursor(row=self.get_row_index(key))

    def cursor_key(self) -> str | None:
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key((self.cursor_row, 0)).row_key.value
        except Exception:                      # noqa: BLE001 -- an empty or stale table
            return None
        return key or None

    def cursor_item(self) -> Any | None:
        key = self.cursor_key()
        return next((item for item in self.items if str(self.key_of(item)) == key), None)

    def key_of(self, item: Any) -> Any:
        raise NotImplementedError

    def cells(self, item: Any) -> tuple[Any, ...]:
        raise NotImplementedError


class BreakpointsTable(RowsTable):
    """Breakpoints of the task: `space` enables/disables, `e` edits the condition,
    `delete` clears, `enter` shows the place."""

    COLUMNS = ("", "id", "where", "line", "hits", "condition")
    EMPTY = "no breakpoints: b sets one at the cursor, B by name"
    BINDINGS = [Binding("space", "act('toggle')", "On/off"),
                Binding("e", "act('condition')", "Condition"),
                Binding("delete,backspace", "act('clear')", "Clear"),
                Binding("enter", "act('show')", "Show", show=False)]

    class Act(Message):
        """Do `what` ("toggle", "condition", "clear", "show") to `breakpoint`."""

        def __init__(self, what: str, breakpoint: Breakpoint) -> None:
            super().__init__()
            self.what, self.breakpoint = what, breakpoint

    def key_of(self, bp: Breakpoint) -> int:
        return bp.id

    def cells(self, bp: Breakpoint) -> tuple[Any, ...]:
        mark = Text("●" if bp.enabled else "○", style="bold red" if bp.enabled else "red")
        kind = " (BRK)" if bp.kind == "brk" else " (once)" if bp.temporary else ""
        line = f"{bp.file.rsplit('/', 1)[-1]}:{bp.line}" if bp.file and bp.line else ""
        return mark, str(bp.id), bp.location + kind, line, str(bp.hits), bp.condition or ""

    def action_act(self, what: str) -> None:
        bp = self.cursor_item()
        if bp is not None:
            self.post_message(self.Act(what, bp))


class TasksTable(RowsTable):
    """Every task of the executive; `enter` attaches the debugger to the one selected."""

    COLUMNS = ("pid", "state", "pc", "instructions", "name", "lock")
    EMPTY = "no tasks"
    BINDINGS = [Binding("enter", "switch", "Debug this task")]

    class Switch(Message):
        def __init__(self, pid: int) -> None:
            super().__init__()
            self.pid = pid

    def key_of(self, row: dict[str, Any]) -> int:
        return row["pid"]

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        state = row["state"]
        style = {"faulted": "red", "killed": "red", "returned": "blue",
                 "paused": "yellow"}.get(state, "green")
        return (str(row["pid"]), Text(state, style=style), f"{row.get('pc', 0):#06x}",
                str(row.get("instructions", "")), row.get("app_name", ""),
                row.get("locked_by") or "")

    def action_switch(self) -> None:
        row = self.cursor_item()
        if row is not None:
            self.post_message(self.Switch(row["pid"]))


class MailboxesTable(RowsTable):
    COLUMNS = ("id", "target", "owner", "depth", "bytes", "readers", "waiters")
    EMPTY = "no mailboxes"

    def key_of(self, box: dict[str, Any]) -> int:
        return box["descriptor_id"]

    def cells(self, box: dict[str, Any]) -> tuple[Any, ...]:
        return (str(box["descriptor_id"]), box.get("target", ""), str(box.get("owner_pid", "")),
                str(box.get("queue_depth", 0)),
                f"{box.get('bytes_used', 0)}/{box.get('capacity', 0)}",
                str(len(box.get("readers") or ())),
                " ".join(str(pid) for pid in box.get("waiters") or ()))


class ValuesTable(RowsTable):
    COLUMNS = ("oid", "name", "value", "unit", "owner")
    EMPTY = "no values"

    def key_of(self, value: dict[str, Any]) -> int:
        return value["oid"]

    def cells(self, value: dict[str, Any]) -> tuple[Any, ...]:
        name = ".".join(p for p in (value.get("group_name"), value.get("name")) if p)
        return (f"{value['oid']:#06x}", name, str(value.get("last_value", "")),
                value.get("unit") or "", str(value.get("owner_pid", "")))
