"""`DebuggerApp`: the terminal debugger.

The app holds the debugger's state in reactive attributes (the task, the registers, the
frames and the selected one, the breakpoints, ...); every panel is bound to the ones it
shows and repaints when they are replaced.  The state changes only in answer to events
from the executive (a stop, a state change, output) -- there is no polling -- and after
commands the user gives.  `Target` does all the talking to the executive.
"""
from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any, Awaitable, Callable

from textual import work
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer, Static

from hsx.client.render import Context
from hsx.client.sources import SourceFinder

from . import keys
from .actions import DebuggerActions
from .layout import PANEL_FEATURES, PANELS, Layout, LayoutStore, default_for
from .palette import DebuggerCommands
from .model import (Breakpoint, Frame, History, Location, Registers, Scope, StopReason,
                    TaskInfo, Variable)
from .sources import SourceCache
from .target import ConnectionClosed, ProtocolError, Target
from .widgets.area import PanelArea
from .widgets.commandline import CommandLine
from .widgets.disasm import DisassemblyView
from .widgets.memory import MemoryView
from .widgets.registers import RegistersView
from .widgets.source import SourceView
from .widgets.stack import StackView
from .widgets.status import StatusBar
from .widgets.tables import BreakpointsTable, MailboxesTable, TasksTable, ValuesTable
from .widgets.textlog import LineBuffer, TextLog
from .widgets.timeline import TimelineView
from .widgets.trace import ROWS as TRACE_ROWS, TraceTable
from .widgets.variables import VariablesView, WatchesView

RECONNECT_DELAYS = (0.25, 0.5, 1.0, 2.0, 4.0)
POLL_S = 0.1                    # how often the task is looked at without events (minimal)
LOG_FLUSH_S = 0.03              # output and events reach their panels at most this often
TABLES_S = 0.1                  # tasks, mailboxes and values re-read at most this often
LOG_LINES = 10_000
EVENT_LINE_WIDTH = 200
STOP_WORDS = {"breakpoint": "breakpoint", "brk": "BRK instruction", "step": "step",
              "watch": "watch", "fault": "fault",
              "history_start": "the start of the recorded history"}


class DebuggerApp(DebuggerActions, App):
    CSS_PATH = "app.tcss"
    TITLE = "hsx dbg"
    BINDINGS = keys.bindings()
    COMMANDS = App.COMMANDS | {DebuggerCommands}

    task: reactive[TaskInfo | None] = reactive(None, init=False)
    registers: reactive[Registers | None] = reactive(None, init=False)
    frame_registers: reactive[Registers | None] = reactive(None, init=False)
    frames: reactive[tuple[Frame, ...]] = reactive((), init=False)
    stack_note: reactive[str | None] = reactive(None, init=False)
    frame: reactive[int] = reactive(0, init=False)
    location: reactive[Location | None] = reactive(None, init=False)
    breakpoints: reactive[tuple[Breakpoint, ...]] = reactive((), init=False)
    locals_scope: reactive[Scope] = reactive(Scope(note="not stopped"), init=False)
    watch_scope: reactive[Scope] = reactive(Scope(note="no watches: w adds one"), init=False)
    task_rows: reactive[tuple[dict, ...]] = reactive((), init=False)
    mailbox_rows: reactive[tuple[dict, ...]] = reactive((), init=False)
    value_rows: reactive[tuple[dict, ...]] = reactive((), init=False)
    trace_rows: reactive[tuple[dict, ...]] = reactive((), init=False)
    connection: reactive[str] = reactive("connecting…", init=False)
    history: reactive[History | None] = reactive(None, init=False)
    running: reactive[bool] = reactive(False, init=False)

    def __init__(self, target: Target, *, pid: int | None = None, app_name: str | None = None,
                 start: Callable[[Target], Awaitable[Any]] | None = None,
                 layouts: LayoutStore | None = None,
                 rebuild: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.target = target
        self.pid, self.app_name, self.start_action = pid, app_name, start
        self.rebuild = rebuild                      # builds the program again (hsx dbg FILE)
        self.sources = SourceCache()
        self.store = layouts or LayoutStore()
        self.layout_name, self.layouts = self.store.load()
        self.output = LineBuffer(LOG_LINES)
        self.event_log = LineBuffer(LOG_LINES, render=_event_line, width=EVENT_LINE_WIDTH)
        self._flush_scheduled = False
        self._dirty_tables: set[str] = set()
        self.watch_exprs: list[str] = []
        self.render_context = Context(sources=SourceFinder())   # for the command line's results
        self.tracing = False                       # the task's trace ring records
        self._stop: StopReason | None = None      # why the task is paused (the status line)
        self._refresh_wanted = False
        self._refreshing = False
        self._busy = 0
        self._restarting = False                   # a ctrl+r is building or restarting
        self._composed_without: frozenset[str] = frozenset()   # panels composed as notes

    # ------------------------------------------------------------------ composition

    @property
    def current_layout(self) -> Layout:
        return self.layouts[self.layout_name or "compact"]

    def compose(self) -> ComposeResult:
        layout = self.current_layout
        self._composed_without = self._panels_lacking()
        with Horizontal(id="top"):
            with Horizontal(id="code-row"):
                yield from self._area(layout, "code")
                yield from self._area(layout, "code2")
            with Vertical(id="side-column"):
                yield from self._area(layout, "side")
                yield from self._area(layout, "side2")
        with Horizontal(id="bottom-row"):
            yield from self._area(layout, "bottom")
            yield from self._area(layout, "bottom2")
        yield CommandLine(id="command-line")
        yield StatusBar(id="status").data_bind(DebuggerApp.task, DebuggerApp.connection,
                                                DebuggerApp.history,
                                                address=self.target.address)
        yield Footer(compact=True)

    def _area(self, layout: Layout, area: str) -> ComposeResult:
        panels = {name: self.make_panel(name) for name in layout.visible(area)}
        panels = {name: widget for name, widget in panels.items() if widget is not None}
        if panels:
            yield PanelArea(panels, id=f"area-{area}")

    def make_panel(self, name: str) -> Widget | None:
        """A new widget for panel `name`, bound to the state it shows (a note instead
        when the executive's variant lacks what it shows)."""
        app = DebuggerApp
        note = self.target.lacking(PANEL_FEATURES.get(name), PANELS.get(name, name))
        if note is not None:
            return Static(f"{note}.", id=name, classes="unavailable")
        if name == "source":
            return SourceView(self.sources, self.target, id=name).data_bind(app.location,
                                                                             app.breakpoints)
        if name == "disassembly":
            return DisassemblyView(self.target, id=name).data_bind(app.location, app.breakpoints)
        if name == "registers":
            return RegistersView(id=name).data_bind(
                registers=app.frame_registers, location=app.location, running=app.running)
        if name == "stack":
            return StackView(id=name).data_bind(app.frames, app.frame, note=app.stack_note)
        if name == "locals":
            return VariablesView(self.target, id=name).data_bind(scope=app.locals_scope)
        if name == "watches":
            return WatchesView(self.target, id=name).data_bind(scope=app.watch_scope)
        if name == "breakpoints":
            return BreakpointsTable(id=name).data_bind(items=app.breakpoints)
        if name == "memory":
            return MemoryView(self.target, id=name).data_bind(app.location, app.frame)
        if name in ("output", "events"):
            return TextLog(self.output if name == "output" else self.event_log, id=name)
        if name == "timeline":
            return TimelineView(self.target, id=name).data_bind(app.location, app.task)
        tables = {"tasks": (TasksTable, app.task_rows), "mailboxes": (MailboxesTable,
                  app.mailbox_rows), "values": (ValuesTable, app.value_rows),
                  "trace": (TraceTable, app.trace_rows)}
        if name in tables:
            table, rows = tables[name]
            return table(id=name).data_bind(items=rows)
        return None

    def fit_areas(self) -> None:
        """Size the side column and the bottom row for the layout and the terminal."""
        side, bottom = self.current_layout.fitted(self.size.width, self.size.height)
        for column in self.query("#side-column"):       # none yet while composing
            column.styles.width = side
        for row in self.query("#bottom-row"):
            row.styles.height = bottom

    async def on_mount(self) -> None:
        if self.layout_name is None:
            self.layout_name = default_for(self.size.width, self.size.height).name
            await self.recompose()
        self.fit_areas()
        self.run_session()
        for view in self.query(SourceView):
            view.focus()

    def on_resize(self) -> None:
        self.fit_areas()

    def _panels_lacking(self) -> frozenset[str]:
        return frozenset(name for name, feature in PANEL_FEATURES.items()
                         if self.target.lacks(feature))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key whose action needs what the executive's variant lacks is greyed out."""
        return None if self.target.lacks(keys.FEATURES.get(action)) else True

    async def _fit_to_executive(self) -> None:
        """After attaching: panels the executive's variant cannot fill become notes (and
        back, on another executive), keys it cannot serve are greyed out."""
        lacking = self._panels_lacking()
        if lacking != self._composed_without:
            await self.recompose()
            self.fit_areas()
        self.refresh_bindings()
        if lacking:
            self.output.note(f"[this executive runs the {self.target.variant} variant: "
                             f"{', '.join(PANELS[p] for p in sorted(lacking))} and their keys "
                             "are off (the development variant has them)]")
            self._logs_changed()

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
                if not self.target.has_events:
                    await self._follow_without_events()
                while True:
                    for event in await self.target.next_events():
                        self.on_target_event(event)
                    await asyncio.sleep(0)       # let keys and repaints in between
            except (ConnectionClosed, OSError, TimeoutError) as error:
                delay = RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)]
                attempt += 1
                self.connection = f"disconnected ({_reason(error)}); retrying in {delay:g} s"
                self.running = False
                await asyncio.sleep(delay)
            except ProtocolError as error:
                self.connection = f"cannot attach: {error.message or error.code}"
                await asyncio.sleep(RECONNECT_DELAYS[-1])

    def switch_task(self, pid: int) -> None:
        """Debug another task in the same session: its lock moves to the new task, and the
        breakpoints set in the old one stay (they are there again when you come back)."""
        if self.connection != "connected":
            self.pid, self.app_name = pid, None           # attached at the next connect
            return
        self.run_worker(self._command(self._switch(pid)), group="command")

    async def _switch(self, pid: int) -> None:
        await self._adopt(await self.target.switch(pid))
        self.request_refresh()

    async def _attach(self) -> None:
        """Attach to the PID given, or after an executive restart to the app's new task."""
        pid = self.pid
        if pid is None or (self.app_name and not await self._same_app(pid)):
            pid = await self.target.find_app(self.app_name or "")
        await self._adopt(await self.target.attach(pid))
        await self._fit_to_executive()

    async def _follow_without_events(self) -> None:
        """An executive without events (the minimal variant): look at the task every
        POLL_S -- its output, and whether it moved or changed state."""
        seen = None
        while True:
            text = await self.target.new_output()
            if text:
                self.write_output(text)
            row = await self.target.task_info()
            now = (row.state, row.pc)
            if now != seen:
                seen = now
                self.request_refresh()
            await asyncio.sleep(POLL_S)

    async def _adopt(self, task: TaskInfo) -> None:
        """Make `task` the one the panels show."""
        self.pid, self.app_name = task.pid, task.app_name
        self.registers = self.frame_registers = self.location = None   # the old task's
        self.frames = ()
        self._stop = None
        info = await self.target.symbols_info()
        self.sources.set_context(info.get("path"), task.program)
        self._known_to_renderers(task, info.get("path"))
        self.task = task
        for table in ("tasks", "mailboxes", "values"):
            self._table_dirty(table)

    def _known_to_renderers(self, task: TaskInfo, symbols_path: str | None) -> None:
        """The command line's results name the task, and show its source lines."""
        context = self.render_context
        context.names[task.pid] = task.app_name
        if task.program:
            context.programs[task.pid] = task.program
        if symbols_path:
            context.symbol_files[task.pid] = symbols_path

    async def _same_app(self, pid: int) -> bool:
        try:
            return (await self.target.task_info(pid)).app_name == self.app_name
        except ProtocolError:
            return False

    # ------------------------------------------------------------------ events

    def on_target_event(self, event: dict[str, Any]) -> None:
        kind, data = str(event.get("type")), event.get("data") or {}
        mine = event.get("pid") == self.pid
        if kind in ("stdout", "stderr"):
            if mine:
                self.write_output(data.get("text", ""))
            return
        self.event_log.append(event)
        self._logs_changed()
        if kind == "warning" and data.get("reason") == "events_dropped":
            self.output.note(f"[{data.get('dropped', '?')} events lost here: the debugger "
                             "fell behind the executive]")
        if kind in ("task_state", "fault"):
            self._table_dirty("tasks")
        elif kind.startswith("mailbox_"):
            self._table_dirty("mailboxes")
        elif kind.startswith("value_"):
            self._table_dirty("values")
        if mine and kind == "debug_break":
            self._stop = StopReason(_describe_stop(data))
            self.request_refresh()
        elif mine and kind == "task_state":
            state = data.get("new_state")
            self.running = state not in ("paused", "returned", "faulted", "killed")
            # a pause has no debug_break: the status line then says where the task is
            self._stop = StopReason() if state == "paused" else None
            self.request_refresh()

    def write_output(self, text: str) -> None:
        """Add text to the Output panel (the task's output, the command line's results)."""
        self.output.write(text)
        self._logs_changed()

    def _logs_changed(self) -> None:
        """The log panels repaint once for everything that arrived within LOG_FLUSH_S."""
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self.set_timer(LOG_FLUSH_S, self._flush_logs)

    def _flush_logs(self) -> None:
        self._flush_scheduled = False
        for log in self.query(TextLog):
            log.update()

    def _table_dirty(self, name: str) -> None:
        if not self._dirty_tables:
            self.set_timer(TABLES_S, self._read_tables)
        self._dirty_tables.add(name)

    @work(group="tables")
    async def _read_tables(self) -> None:
        dirty, self._dirty_tables = self._dirty_tables, set()
        try:
            if "tasks" in dirty:
                self.task_rows = tuple(await self.target.tasks())
            if "mailboxes" in dirty:
                reply = await self.target.request("mailbox.snapshot")
                self.mailbox_rows = tuple(reply["descriptors"])
            if "values" in dirty:
                self.value_rows = tuple((await self.target.request("val.list"))["values"])
            if "trace" in dirty and self.pid is not None and not self.target.lacks("trace"):
                trace = (await self.target.request("trace.records", pid=self.pid,
                                                   limit=TRACE_ROWS))["trace"]
                self.tracing = trace["enabled"]
                self.trace_rows = tuple(trace["records"])
        except (ProtocolError, ConnectionClosed, OSError):
            pass

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
        """One round trip: the requests go out together (the executive answers them in
        order); registers and stack count only if the task holds still."""
        stop = self._stop
        task, breakpoints, history, registers, stack = await asyncio.gather(
            self.target.task_info(), self.target.breakpoints(), self.target.history(),
            self.target.registers(self.registers), self.target.stack(),
            return_exceptions=True)
        for result in (task, breakpoints, history):
            if isinstance(result, BaseException):
                raise result
        if task.state == "paused" and not isinstance(registers, BaseException) \
                and not isinstance(stack, BaseException):
            task = replace(task, stop_reason=self._stop_words(stop, registers, stack[0]))
        self.task = task
        self.running = not task.stopped
        self.breakpoints = breakpoints
        self.history = history
        if self.running:
            return
        for result in (registers, stack):
            if isinstance(result, BaseException):
                raise result
        self._table_dirty("mailboxes")             # sends and receives are not followed
        self._table_dirty("trace")
        frames, note = stack
        await self.sources.fetch({frame.file for frame in frames}, self.target.read_source)
        self.registers = registers
        self.stack_note = note
        self.frames = frames
        self.select_frame(0)

    def _stop_words(self, stop: StopReason | None, registers: Registers,
                    frames: tuple[Frame, ...]) -> str:
        """The status line's reason for the pause read with `registers` and `frames`;
        `stop` is the reason known when the reading began."""
        if stop is not None and stop is self._stop:      # no newer event meanwhile
            if stop.pc is None:
                stop.pc = registers.pc
            elif stop.pc != registers.pc:                 # moved without a stop: a jump
                self._stop = stop = None
        if stop is not None and stop.text:
            return stop.text
        top = frames[0] if frames else None
        if top is None:
            return f"paused at {registers.pc:#06x}"
        return f"paused at {_where(top.function, top.pc, top.file, top.line)}"

    def watch_task(self, old: TaskInfo | None, new: TaskInfo | None) -> None:
        """Say in the Output panel when the task ends, after what it printed."""
        if (new is not None and new.ended and old is not None and old.pid == new.pid
                and not old.ended):
            self.output.note(f"[pid {new.pid} {new.app_name} {new.ending}]")
            self._logs_changed()

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
        self.load_values(index)

    @work(exclusive=True, group="values")
    async def load_values(self, frame: int) -> None:
        """The arguments and locals of frame `frame` (and the globals), and every watch
        expression evaluated in it."""
        stop = self.registers.steps if self.registers else -1
        try:
            reply = await self.target.variables(frame)
            scope = reply.get("function") or "?"
            items = tuple(Variable.from_reply(v, scope=scope)
                          for v in reply.get("arguments", []) + reply.get("locals", []))
            note = None if items else ("; ".join(reply.get("warnings") or ())
                                       or "no locals here")
            globals_ = tuple(Variable.from_reply(v, scope="globals")
                             for v in reply.get("globals", []))
            self.locals_scope = Scope(stop, items, note, globals_)
        except ProtocolError as error:
            self.locals_scope = Scope(stop, (), error.message or error.code)
        watches = []
        for expr in self.watch_exprs:
            try:
                result = await self.target.evaluate(expr, frame)
                watches.append(Variable.from_reply({**result, "name": expr}, scope="watch"))
            except ProtocolError as error:
                watches.append(Variable(f"watch/{expr}", expr, error.message or error.code,
                                        error=True, expr=expr))
        self.watch_scope = Scope(stop, tuple(watches),
                                 None if watches else "no watches: w adds one")

    def watch_location(self, location: Location | None) -> None:
        """Without a source line to show, bring the disassembly forward; with one
        again (a restarted task at main), the source back."""
        if location is None:
            return
        for area in self.query(PanelArea):
            if "disassembly" in area.panels and "source" in area.panels:
                if self.sources.get(location.file) is None:
                    area.show_instead("disassembly",
                                      focus=self.focused is area.panels["source"])
                else:
                    area.restore(focus=self.focused is area.panels["disassembly"])

def _describe_stop(data: dict[str, Any]) -> str:
    reason = data.get("reason", "")
    words = STOP_WORDS.get(reason, reason)
    where = _where(data.get("symbol"), data.get("pc", 0), data.get("file"), data.get("line"))
    if reason == "breakpoint" and data.get("temporary"):
        words = "arrived"           # a run-to's own breakpoint (start, run to cursor)
    elif reason == "breakpoint" and data.get("breakpoint_id"):
        words += f" {data['breakpoint_id']}"
    if reason == "fault":
        words += f" {data.get('kind', '')}: {data.get('message', '')}"
    if data.get("condition_error"):
        words += f" (condition: {data['condition_error']})"
    if data.get("reverse"):
        words = f"backwards: {words}"
    return f"{words} at {where}"


def _where(function: str | None, pc: int, file: str | None, line: int | None) -> str:
    """`main (walk.c:29)`, `exit`, or `0x0040`: a place as the status line names it."""
    where = function or f"{pc:#06x}"
    return f"{where} ({Path(file).name}:{line})" if file else where


def _event_line(event: dict[str, Any]) -> str:
    data = event.get("data") or {}
    detail = " ".join(f"{k}={v}" for k, v in data.items() if k != "pid")
    pid = event.get("pid")
    return f"{event.get('seq', ''):>6} {event.get('type', '?'):<16} " \
           f"{'' if pid is None else f'pid {pid} '}{detail}"[:EVENT_LINE_WIDTH]


def _reason(error: BaseException) -> str:
    return str(error) or type(error).__name__
