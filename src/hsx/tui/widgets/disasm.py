"""The disassembly panel: instructions around the selected frame's pc, read from the
task's code space, with labels, breakpoint marks, source lines, and the target of the
branch under the cursor (`enter` follows it)."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.reactive import reactive

from ..model import Breakpoint, Location
from ..target import ConnectionClosed, ProtocolError, Target
from .lineview import LineView

WINDOW = 96                      # instructions read around an address


class DisassemblyView(LineView):
    BINDINGS = [Binding("enter", "follow", "Follow branch")]

    location: reactive[Location | None] = reactive(None, init=False)
    breakpoints: reactive[tuple[Breakpoint, ...]] = reactive((), init=False)

    def __init__(self, target: Target, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.target = target
        self.instructions: list[dict[str, Any]] = []
        self._rows: list[tuple[str, Any]] = []          # ("label", name) | ("ins", instruction)
        self._marks: dict[int, bool] = {}
        self._note = "not attached"

    # ------------------------------------------------------------------ reading

    def watch_location(self, location: Location | None) -> None:
        if location is not None:
            self.show(location.pc)

    def show(self, address: int | str, *, center: bool = True) -> None:
        """Put the cursor on `address` (reading the code around it if needed)."""
        row = self.row_of(address) if isinstance(address, int) else None
        if row is not None and 8 <= self._index_of_row(row) < len(self.instructions) - 8:
            self.move_cursor(row, center=center)
            self.refresh()
            return
        self._load(address)

    @work(exclusive=True, group="disasm")
    async def _load(self, address: int | str) -> None:
        try:
            self.instructions = await self.target.disasm(address, count=WINDOW)
            self._note = ""
        except ProtocolError as error:
            self.instructions, self._note = [], error.message or error.code
        except ConnectionClosed:
            return
        self._rebuild()
        wanted = address if isinstance(address, int) else (
            self.instructions[len(self.instructions) // 2]["pc"] if self.instructions else 0)
        row = self.row_of(wanted)
        if row is not None:
            self.move_cursor(row, center=True)

    def _rebuild(self) -> None:
        rows: list[tuple[str, Any]] = []
        for instruction in self.instructions:
            rows += [("label", label) for label in instruction.get("labels", ())]
            rows.append(("ins", instruction))
        self._rows = rows
        self.set_rows(max(1, len(rows)), 72)

    def row_of(self, address: int) -> int | None:
        for row, (kind, item) in enumerate(self._rows):
            if kind == "ins" and item["pc"] <= address < item["pc"] + item["size"]:
                return row
        return None

    def _index_of_row(self, row: int) -> int:
        return sum(1 for kind, _ in self._rows[:row] if kind == "ins")

    def watch_breakpoints(self, breakpoints: tuple[Breakpoint, ...]) -> None:
        self._marks = {}
        for bp in breakpoints:
            self._marks[bp.address] = self._marks.get(bp.address, False) or bp.enabled
        self.refresh()

    # ------------------------------------------------------------------ cursor

    def cursor_instruction(self) -> dict[str, Any] | None:
        if not self._rows:
            return None
        for kind, item in self._rows[self.cursor:]:
            if kind == "ins":
                return item
        return None

    def cursor_location(self) -> int | None:
        instruction = self.cursor_instruction()
        return instruction["pc"] if instruction else None

    def action_follow(self) -> None:
        instruction = self.cursor_instruction()
        if instruction and instruction.get("target") is not None:
            self.show(instruction["target"])

    def watch_cursor(self, old: int, new: int) -> None:
        super().watch_cursor(old, new)
        self.refresh()          # the target mark follows the cursor

    def row_clicked(self, row: int, x: int) -> None:
        if x < 2:
            self.app.run_action("toggle_breakpoint")

    # ------------------------------------------------------------------ rendering

    def row_style(self, row: int) -> str | None:
        kind, item = self._rows[row] if row < len(self._rows) else ("", None)
        if kind == "ins" and self.location is not None and item["pc"] == self.location.pc:
            return "line-view--current"
        return None

    def render_row(self, row: int) -> Text:
        if not self._rows:
            return Text(self._note, style="dim")
        kind, item = self._rows[row]
        if kind == "label":
            return Text(f"  {item}:", style="bold magenta")
        return self._instruction(item)

    def _instruction(self, ins: dict[str, Any]) -> Text:
        pc = ins["pc"]
        mark = self._marks.get(pc)
        here = self.location is not None and pc == self.location.pc
        under = self.cursor_instruction()
        is_target = under is not None and under.get("target") == pc and under is not ins
        text = Text()
        text.append("●" if mark else "○" if mark is False else " ", style="bold red")
        text.append("▶" if here else "◆" if is_target else " ",
                    style="bold yellow" if here else "bold cyan")
        text.append(f"{pc:#06x} ", style="dim")
        text.append(f"{ins['mnemonic']:<7}", style="bold")
        text.append(f"{ins['operands']:<22} ")
        comment = []
        if ins.get("target_symbol") and ins["target_symbol"] not in ins["operands"]:
            comment.append(f"→ {ins['target_symbol']}")
        if ins.get("data_symbol"):
            comment.append(f"= {ins['data_symbol']}")
        if ins.get("line") and ins.get("file"):
            comment.append(f"{ins['file'].rsplit('/', 1)[-1]}:{ins['line']}")
        if comment:
            text.append("; " + "  ".join(comment), style="dim italic")
        return text
