"""The registers panel: PC with its function, PSW with the flags spelled out, R0..R15 in
as many columns as fit; what the last step changed is highlighted.  `x` switches hex and
decimal."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from ..model import Location, Registers, counted

NAMES = [f"R{n}" for n in range(14)] + ["FP", "SP"]       # R14 is the frame pointer
CELL = 12                                                 # "R10 0000FFB0"


class RegistersView(Widget, can_focus=True):
    DEFAULT_CSS = """
    RegistersView { height: auto; }
    """
    BINDINGS = [Binding("x", "toggle_format", "Hex/dec")]

    registers: reactive[Registers | None] = reactive(None, layout=True)
    location: reactive[Location | None] = reactive(None)
    decimal: reactive[bool] = reactive(False, layout=True)
    running: reactive[bool] = reactive(False)

    def action_toggle_format(self) -> None:
        self.decimal = not self.decimal

    def render(self) -> Text:
        regs = self.registers
        if regs is None:
            return Text("no task", style="dim")
        text = Text()
        where = self.location.function if self.location and self.location.function else ""
        text.append("PC  ", style="bold")
        text.append(f"{regs.pc:#06x}", style=self._style("PC" in regs.changed))
        text.append(f" {where}\n", style="magenta")
        text.append("PSW ", style="bold")
        text.append(f"{regs.psw:#04x} ", style=self._style("PSW" in regs.changed))
        for name, bit in (("Z", 1), ("C", 2), ("N", 4), ("V", 8)):
            text.append(name if regs.psw & bit else "·",
                        style="bold green" if regs.psw & bit else "dim")
        text.append("\n")
        cell = CELL + 2 if self.decimal else CELL
        columns = max(1, (self.size.width + 1) // (cell + 1)) if self.size.width else 2
        rows = (16 + columns - 1) // columns
        for row in range(rows):
            for column in range(columns):
                n = column * rows + row
                if n < 16:
                    own = regs.frame == 0 or n >= 14
                    self._cell(text, NAMES[n], regs.regs[n], f"R{n}" in regs.changed,
                               dim=not own)
                    if column < columns - 1:
                        text.append(" ")
            text.append("\n")
        if regs.frame:
            text.append(f"frame #{regs.frame}: PC, FP, SP of the caller", style="dim italic")
        elif self.running:
            text.append("running…", style="dim italic")
        else:
            text.append(counted(regs.steps, "instruction"), style="dim")
        return text

    def _cell(self, text: Text, name: str, value: int, changed: bool, *,
              dim: bool = False) -> None:
        text.append(f"{name:<3} ", style="dim" if dim else "bold")
        shown = f"{value:>10}" if self.decimal else f"{value:08x}"
        text.append(shown, style="dim" if dim else self._style(changed))

    def _style(self, changed: bool) -> str:
        return "bold black on yellow" if changed and not self.running else ""
