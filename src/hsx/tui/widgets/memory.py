"""The memory panel: the task's data memory as hex and ASCII, 16 bytes a row, following
an address, a register, a symbol or any C expression (`a`), re-read at every stop with
the bytes that changed highlighted.  `e` writes bytes, after a confirmation."""
from __future__ import annotations

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive

from ..model import Location
from ..target import ConnectionClosed, ProtocolError, Target
from .lineview import LineView

WIDTH = 16                       # bytes a row
WINDOW = 1024                    # bytes read at a time
BEFORE = 256                     # of them before the followed address


class MemoryView(LineView):
    BINDINGS = [Binding("a", "follow", "Follow…"), Binding("e", "edit", "Write…")]

    location: reactive[Location | None] = reactive(None, init=False)
    frame: reactive[int] = reactive(0, init=False)
    follow: reactive[str] = reactive("SP", init=False)

    class FollowAsked(Message):
        def __init__(self, view: MemoryView) -> None:
            super().__init__()
            self.view = view

    class WriteAsked(Message):
        def __init__(self, address: int, current: bytes) -> None:
            super().__init__()
            self.address, self.current = address, current

    def __init__(self, target: Target, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.target = target
        self.base = 0
        self.address: int | None = None
        self.data = b""
        self._previous: dict[int, int] = {}       # address -> byte at the previous stop
        self._note = "not stopped"
        self._sizes: dict[int | None, int] = {}    # pid -> the size of its data space

    def on_mount(self) -> None:
        self._title()

    def watch_location(self) -> None:
        self.reload(keep=True)

    def watch_follow(self) -> None:
        self._title()
        self.reload(keep=False)

    def _title(self) -> None:
        self.border_subtitle = f"following {self.follow}"

    @work(exclusive=True, group="memory")
    async def reload(self, keep: bool) -> None:
        """Resolve what is followed and read the window around it."""
        try:
            address = await self.target.data_address(self.follow, self.frame)
            pid = self.target.pid
            if pid not in self._sizes:
                self._sizes[pid] = await self.target.data_size()
            size = self._sizes[pid]
            if not 0 <= address < size:
                self._say(f"{address:#06x} is outside the data space (0x0..{size:#x})")
                return
            base, length = window(address, size)
            data = await self.target.read_memory(base, length)
        except ProtocolError as error:
            self._say(error.message or error.code)
            return
        except ConnectionClosed:
            return
        if keep and self.base == base:
            self._previous = {base + i: b for i, b in enumerate(self.data)}
        else:
            self._previous = {}
        moved = address != self.address
        self.base, self.address, self.data = base, address, data
        self.set_rows((len(data) + WIDTH - 1) // WIDTH, 10 + WIDTH * 4 + 2)
        if moved:
            self.move_cursor((address - base) // WIDTH, center=True)

    def _say(self, why: str) -> None:
        """Nothing to show: why, instead of the rows."""
        self.data, self._note = b"", f"{self.follow}: {why}"
        self.set_rows(1, 60)

    def row_style(self, row: int) -> str | None:
        if self.address is not None and row == (self.address - self.base) // WIDTH:
            return "line-view--current"
        return None

    def render_row(self, row: int) -> Text:
        if not self.data:
            return Text(self._note, style="dim")
        start = row * WIDTH
        chunk = self.data[start:start + WIDTH]
        address = self.base + start
        text = Text(f"{address:08x}  ", style="dim")
        for i, byte in enumerate(chunk):
            changed = self._previous.get(address + i, byte) != byte
            style = "bold black on yellow" if changed else ("dim" if byte == 0 else "")
            text.append(f"{byte:02x}", style=style)
            text.append("  " if i == 7 else " ")
        text.append(" " * (3 * (WIDTH - len(chunk))) + " ")
        text.append("".join(chr(b) if 32 <= b < 127 else "." for b in chunk), style="cyan")
        return text

    def action_follow(self) -> None:
        self.post_message(self.FollowAsked(self))

    def action_edit(self) -> None:
        if self.data:
            start = self.cursor * WIDTH
            self.post_message(self.WriteAsked(self.base + start,
                                              self.data[start:start + WIDTH]))


def window(address: int, size: int) -> tuple[int, int]:
    """The rows read for `address` (in a data space of `size` bytes): WINDOW bytes from
    BEFORE bytes below it, moved down to end with the space (the stack is at its top)."""
    base = min((address - BEFORE) // WIDTH, (size - WINDOW) // WIDTH) * WIDTH
    base = max(0, base)
    return base, min(WINDOW, size - base)
