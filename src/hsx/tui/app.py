"""`DebuggerApp`: the terminal debugger.

The app holds the debugger's state in reactive attributes (the task, the registers, the
frames and the selected one, the breakpoints, ...); every panel is bound to the ones it
shows and repaints when they are replaced.  The state changes only in answer to events
from the executive (a stop, a state change, output) -- there is no polling -- and after
commands the user gives.  `Target` does all the talking to the executive.
"""
from __future__ import annotations

import asyncio
from collections import deque
from pathlib import Path
from typing import Any, Awaitable, Callable

from textual import on, work
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer

from . import keys
from .layout import AREAS, Layout, LayoutStore, default_for
from .model import Breakpoint, Frame, Location, Registers, TaskInfo
from .sources import SourceCache
from .target import ConnectionClosed, ProtocolError, Target
from .widgets.area import PanelArea
from .widgets.disasm import DisassemblyView
from .widgets.registers import RegistersView
from .widgets.source import SourceView
from .widgets.stack import StackView
from .widgets.status import StatusBar

RECONNECT_DELAYS = (0.25, 0.5, 1.0, 2.0, 4.0)
STOP_WORDS = {"breakpoint": "breakpoint", "brk": "BRK instruction", "step": "step",
              "watch": "watch", "fault": "fault"}


class DebuggerApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "hsx dbg"
    BINDINGS = keys.bindings()

    task: reactive[TaskInfo | None] = reactive(None, init=False)
    registers: reactive[Registers | None] = reactive(None, init=False)
    frame_registers: reactive[Registers | None] = reactive(None, init=False)
    frames: reactive[tuple[Frame, ...]] = reactive((), init=False)
    stack_note: reactive[str | None] = reactive(None, init=False)
    frame: reactive[int] = reactive(0, init=False)
    location: reactive[Location | None] = reactive(None, init=False)
    breakpoints: reactive[tuple[Breakpoint, ...]] = reactive((), init=False)
    connection: reactive[str] = reactive("connecting…", init=False)
    running: reactive[bool] = reactive(False, init=False)

    def __init__(self, target: Target, *, pid: int | None = None, app_name: str | None = None,
                 start: Callable[[Target], Awaitable[None]] | None = None,
                 layouts: LayoutStore | None = None) -> None:
        super().__init__()
        self.target = target
        self.pid, self.app_name, self.start_action = pid, app_name, start
        self.sources = SourceCache()
        self.store = layouts or LayoutStore()
        self.layout_name, self.layouts = self.store.load()
        self.output: deque[str] = deque(maxlen=10_000)
        self._refresh_wanted = False
        self._refreshing = False
        self._busy = 0

    # ------------------------------------------------------------------ composition

    @property
    def current_layout(self) -> Layout:
        return self.layouts[self.layout_name or "compact"]

    def compose(self) -> ComposeResult:
        layout = self.current_layout
        with Horizontal(id="top"):
            with Horizontal(id="code-row"):
                yield from self._area(layout, "code")
                yield from self._area(layout, "code2")
            with Vertical(id="side-column") as side:
                side.styles.width = layout.side_width
                yield from self._area(layout, "side")
                yield from self._area(layout, "side2")
        with Horizontal(id="bottom-row") as bottom:
            bottom.styles.height = layout.bottom_height
            yield from self._area(layout, "bottom")
            yield from self._area(layout, "bottom2")
        yield StatusBar(id="status").data_bind(DebuggerApp.task, DebuggerApp.connection,
                                                address=self.target.address)
        yield Footer(compact=True)

    def _area(self, layout: Layout, area: str) -> ComposeResult:
        panels = {name: self.make_panel(name) for name in layout.visible(area)}
        panels = {name: widget for name, widget in panels.items() if widget is not None}
        if panels:
            yield PanelArea(panels, id=f"area-{area}")

    def make_panel(self, name: str) -> Widget | None:
        """A new widget for panel `name`, bound to the state it shows."""
        app = DebuggerApp
        if name == "source":
            return SourceView(self.sources, id=name).data_bind(app.location, app.breakpoints)
        if name == "disassembly":
            return DisassemblyView(self.target, id=name).data_bind(app.location, app.breakpoints)
        if name == "registers":
            return RegistersView(id=name).data_bind(
                registers=app.frame_registers, location=app.location, running=app.running)
        if name == "stack":
            return StackView(id=name).data_bind(app.frames, app.frame, note=app.stack_note)
        return None

    async def on_mount(self) -> None:
        if self.layout_name is None:
            self.layout_name = default_for(self.size.width, self.size.height).name
            await self.recompose()
        self.run_session()
        for view in self.query(SourceView):
            view.focus()

    # ------------------------------------------------------------------ the session

    @work(exclusive=True, group="session")
    async def run_session(self) -> None:
        """Connect, attach, then follow events -- reconnecting when the link drops."""
        attempt = 0
        first = True
        while True:
            try:
                await self.target.connect()
                await self._attach()
                self.connection = "connected"
                attempt = 0
                if first and self.start_action is not None:
                    first = False
                    await self._command(self.start_action(self.target))
                first = False
                self.request_refresh()
                while True:
                    self.on_target_event(await self.target.next_event())
            except (ConnectionClosed, OSError, TimeoutError) as error:
                delay = RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)]
                attempt += 1
                self.connection = f"disconnected ({_reason(error)}); retrying in {delay:g} s"
                self.running = False
                await asyncio.sleep(delay)
            except ProtocolError as error:
                self.connection = f"cannot attach: {error.message or error.code}"
                await asyncio.sleep(RECONNECT_DELAYS[-1])

    async def _attach(self) -> None:
        """Attach to the PID given, or after an executive restart to the app's new task."""
        pid = self.pid
        if pid is None or (self.app_name and not await self._same_app(pid)):
            pid = await self.target.find_app(self.app_name or "")
        task = await self.target.attach(pid)
        self.pid, self.app_name = task.pid, task.app_name
        info = await self.target.symbols_info()
        self.sources.set_context(info.get("path"), task.program)
        self.task = task

    async def _same_app(self, pid: int) -> bool:
        try:
            return (await self.target.task_info(pid)).app_name == self.app_name
        except ProtocolError:
            return False

    # ------------------------------------------------------------------ events

    def on_target_event(self, event: dict[str, Any]) -> None:
        kind, data = event.get("type"), event.get("data") or {}
        mine = event.get("pid") == self.pid
        if mine and kind in ("stdout", "stderr"):
            self.output.append(data.get("text", ""))
        elif mine and kind == "debug_break":
            self._stop_reason = _describe_stop(data)
            self.request_refresh()
        elif mine and kind == "task_state":
            self.running = data.get("new_state") not in ("paused", "returned", "faulted",
                                                         "killed")
            self.request_refresh()

    def request_refresh(self) -> None:
        """Read the task's state again -- once, however many events asked meanwhile."""
        self._refresh_wanted = True
        if not self._refreshing and not self._busy:
            self._refreshing = True
            self.run_worker(self._refresh_loop(), group="refresh")

    async def _refresh_loop(self) -> None:
        try:
            while self._refresh_wanted:
                self._refresh_wanted = False
                await self._refresh()
        except (ConnectionClosed, OSError):
            pass
        except ProtocolError as error:
            self.notify(error.message or error.code, title="refresh", severity="error")
        finally:
            self._refreshing = False

    async def _refresh(self) -> None:
        task = await self.target.task_info(stop_reason=getattr(self, "_stop_reason", None))
        self.task = task
        self.running = not task.stopped
        self.breakpoints = await self.target.breakpoints()
        if self.running:
            return
        registers = await self.target.registers(self.registers)
        frames, note = await self.target.stack()
        self.registers = registers
        self.stack_note = note
        self.frames = frames
        self.select_frame(0)

    def select_frame(self, index: int) -> None:
        if not self.frames or self.registers is None:
            self.location = Location(pc=self.registers.pc) if self.registers else None
            self.frame_registers = self.registers
            return
        index = min(max(index, 0), len(self.frames) - 1)
        frame = self.frames[index]
        self.frame = index
        self.frame_registers = self.registers.for_frame(frame)
        self.location = Location.of(frame)

    def watch_location(self, location: Location | None) -> None:
        """Without a source line to show, bring the disassembly forward."""
        if location is None or self.sources.get(location.file) is not None:
            return
        for area in self.query(PanelArea):
            if "disassembly" in area.panels and "source" in area.panels:
                area.show("disassembly", focus=self.focused is area.panels["source"])

    @on(StackView.FrameSelected)
    def _frame_selected(self, message: StackView.FrameSelected) -> None:
        self.select_frame(message.index)

    # ------------------------------------------------------------------ commands

    async def _command(self, awaitable: Awaitable[Any]) -> Any:
        """Run one request to the executive; its error becomes a notification."""
        self._busy += 1
        try:
            return await awaitable
        except ProtocolError as error:
            self.notify(error.message or error.code, title=error.code, severity="error")
        except (ConnectionClosed, OSError) as error:
            self.notify(str(error), title="not connected", severity="error")
        finally:
            self._busy -= 1
            if self._refresh_wanted:
                self.request_refresh()
        return None

    def _run(self, make: Callable[[], Awaitable[Any]]) -> None:
        self.run_worker(self._command(make()), group="command")

    def action_continue(self) -> None:
        self._run(self.target.resume)

    def action_pause(self) -> None:
        self._run(self.target.pause)

    def action_next_line(self) -> None:
        self._run(self._next_line)

    async def _next_line(self) -> None:
        try:
            await self.target.next_line()
        except ProtocolError as error:
            if error.code not in ("no_symbols", "no_line_info"):
                raise
            await self.target.next_instruction()      # no lines here: over one instruction

    def action_step_into(self) -> None:
        self._run(self.target.step_into)

    def action_step_out(self) -> None:
        self._run(self.target.step_out)

    def action_step_instruction(self) -> None:
        self._run(self.target.step_instruction)

    def action_next_instruction(self) -> None:
        self._run(self.target.next_instruction)

    def action_run_to_cursor(self) -> None:
        where = self._cursor_location()
        if where is not None:
            self._run(lambda: self.target.run_to(where))

    def action_toggle_breakpoint(self) -> None:
        where = self._cursor_location()
        if where is None:
            return
        self._run(lambda: self._toggle(where))

    async def _toggle(self, where: int | tuple[str, int]) -> None:
        await self.target.toggle_breakpoint(where)
        self.breakpoints = await self.target.breakpoints()

    def _cursor_location(self) -> int | tuple[str, int] | None:
        """The code location under the cursor of the focused code panel (or the pc)."""
        for widget in (self.focused, *self.query(SourceView), *self.query(DisassemblyView)):
            locate = getattr(widget, "cursor_location", None)
            if locate is not None and widget is not None and widget.display:
                where = locate()
                if where is not None:
                    return where
        return self.location.pc if self.location else None

    def action_step_back(self) -> None:
        self._run(lambda: self.target.request("step.back", pid=self.pid))

    def action_continue_back(self) -> None:
        self._run(lambda: self.target.request("continue.back", pid=self.pid))

    def action_reload(self) -> None:
        self.request_refresh()

    def action_zoom(self) -> None:
        focused = self.focused
        if self.screen.maximized is not None:
            self.screen.minimize()
        elif focused is not None:
            self.screen.maximize(focused)

    async def action_cycle_layout(self) -> None:
        names = list(self.layouts)
        self.layout_name = names[(names.index(self.current_layout.name) + 1) % len(names)]
        await self.recompose()
        self._save_layout()
        self.request_refresh()

    def action_help(self) -> None:
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def _save_layout(self) -> None:
        self.store.save(self.current_layout.name, self.layouts)

    async def action_quit(self) -> None:
        self._save_layout()
        try:
            await self.target.close()
        finally:
            self.exit()


def _describe_stop(data: dict[str, Any]) -> str:
    reason = data.get("reason", "")
    words = STOP_WORDS.get(reason, reason)
    where = data.get("symbol") or f"{data.get('pc', 0):#06x}"
    if data.get("file"):
        where += f" ({Path(data['file']).name}:{data.get('line')})"
    if reason == "breakpoint" and data.get("breakpoint_id"):
        words += f" {data['breakpoint_id']}"
    if reason == "fault":
        words += f" {data.get('kind', '')}: {data.get('message', '')}"
    if data.get("condition_error"):
        words += f" (condition: {data['condition_error']})"
    return f"{words} at {where}"


def _reason(error: BaseException) -> str:
    return str(error) or type(error).__name__
