"""The Trace panel: the last instructions the task ran, newest at the bottom, each with
the registers it changed and the memory it wrote (the executive's trace ring,
`trace.records`, read at every stop while tracing is on)."""
from __future__ import annotations

from typing import Any

from rich.text import Text

from .tables import RowsTable

ROWS = 200                    # records the panel reads at a stop


class TraceTable(RowsTable):
    COLUMNS = ("step", "pc", "instruction", "changed")
    EMPTY = "not tracing: ctrl+t records every instruction the task runs (slower)"

    def key_of(self, record: dict[str, Any]) -> int:
        return record["seq"]

    def cells(self, record: dict[str, Any]) -> tuple[Any, ...]:
        return (str(record["seq"]), Text(f"{record['pc']:#06x}", style="cyan"),
                record.get("text", ""), changes(record))

    def watch_items(self, rows: tuple[Any, ...]) -> None:
        super().watch_items(rows)
        if rows:
            self.move_cursor(row=self.row_count - 1)       # the newest, where it stopped


def changes(record: dict[str, Any]) -> str:
    """`R1=0x5 R15=0xffa0 [0x4000]=0x7`: the registers the instruction changed and the
    memory it wrote."""
    parts = [f"{name}={value:#x}" for name, value in (record.get("regs") or {}).items()]
    access = record.get("mem_access")
    if access and access.get("op") == "write":
        parts.append(f"[{access['address']:#06x}]={access['value']:#x}")
    return " ".join(parts)
