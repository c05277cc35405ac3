"""What the keys, the palette and the panels' requests do: run control, breakpoints,
watches, writes, going places, switching tasks and layouts.  A mixin of `DebuggerApp`
(which holds the state these read); each request's error becomes a notification."""
from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from hsx.client.launch import LaunchError
from hsx.client.render import plain, render

from . import commands
from .layout import PANELS
from .widgets.timeline import TimelineView
from .screens import Confirm, Prompt
from .target import ConnectionClosed, ProtocolError
from .widgets.area import PanelArea
from .widgets.commandline import CommandLine
from .widgets.disasm import DisassemblyView
from .widgets.memory import MemoryView
from .widgets.source import SourceView
from .widgets.stack import StackView
from .widgets.tables import BreakpointsTable, TasksTable
from .widgets.variables import VariablesView, WatchesView


_RISK = {"write": "changes the task's memory or registers",
         "danger": "cannot be undone"}


class DebuggerActions:
    # ------------------------------------------------------------------ running requests

    async def _command(self, awaitable: Awaitable[Any]) -> Any:
        """Run requests to the executive; an error becomes a notification.  Refreshes
        asked for meanwhile happen once, after it."""
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

    # ------------------------------------------------------------------ run control

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
        self._at_cursor(self.target.run_to)

    def action_jump_to_cursor(self) -> None:
        self._at_cursor(self._jump)

    async def _jump(self, where: int | tuple[str, int]) -> None:
        await self.target.jump(where)
        self.request_refresh()

    def action_restart(self) -> None:
        """One restart at a time: two at once restarted the same task twice, and the
        task the debugger ended on had lost the breakpoints to the other one."""
        if self._restarting:
            self.notify("a restart is under way", severity="warning", timeout=3)
            return
        self._restarting = True
        self.clear_notifications()             # an earlier build's error is not this one's
        self._run(self._restart)

    async def _restart(self) -> None:
        """Build the program again (when hsx dbg built it), load it as a new task with the
        breakpoints kept, and start it as at the beginning (to main for C)."""
        try:
            if self.rebuild is not None:
                self.notify("rebuilding…", timeout=2)
                try:
                    await asyncio.to_thread(self.rebuild)
                except LaunchError as error:
                    self.notify(str(error), title="the build failed", severity="error",
                                timeout=15)
                    return
            task, warnings = await self.target.restart()
            await self._adopt(task)
        finally:
            self._restarting = False
        self.output.note(f"[restarted as PID {self.pid}]")
        for warning in warnings:                 # a breakpoint that did not carry over
            self.output.note(f"[{warning}]")
            self.notify(warning, severity="warning", timeout=10)
        self._logs_changed()
        if self.start_action is not None:
            await self.start_action(self.target)
        self.request_refresh()

    def action_record(self) -> None:
        self._run(self._record)

    def _reverse_offered(self) -> bool:
        if "reverse" in self.target.features:
            return True
        self.notify("this executive cannot run backwards", severity="warning")
        return False

    async def _record(self) -> None:
        if not self._reverse_offered():
            return
        self.history = await self.target.record(not (self.history and self.history.recording))

    def action_step_back(self) -> None:
        unit = "line" if self.location and self.location.line else "instruction"
        self._run(lambda: self._reverse("step.back", unit=unit))

    def action_continue_back(self) -> None:
        self._run(lambda: self._reverse("continue.back"))

    async def _reverse(self, cmd: str, **fields: Any) -> None:
        if not self._reverse_offered():
            return
        try:
            await self.target.request(cmd, pid=self.pid, **fields)
        except ProtocolError as error:
            if error.code != "not_recording":
                raise
            self.notify("the task's history is not recorded: R starts recording",
                        severity="warning")

    def action_trace(self) -> None:
        self._run(self._trace)

    async def _trace(self) -> None:
        """Tracing on (a fresh ring: the Trace panel shows the last instructions at every
        stop) or off (what was recorded stays)."""
        on = not self.tracing
        await self.target.request("trace.on" if on else "trace.off", pid=self.pid)
        self.tracing = on
        self.notify("tracing: each instruction is recorded (the task runs slower)" if on
                    else "tracing off")
        self._table_dirty("trace")

    def action_timeline(self) -> None:
        self._run(self._timeline)

    async def _timeline(self) -> None:
        """The executive's timeline recording on (afresh) or off (what was recorded stays
        for the Timeline panel and `:timeline export FILE`)."""
        on = not (await self.target.request("timeline.status"))["timeline"]["recording"]
        await self.target.request("timeline.start" if on else "timeline.stop")
        self.notify("timeline: recording what every task does" if on else
                    "timeline stopped: :timeline export FILE writes it (.pftrace, .json, .vcd)")
        for panel in self.query(TimelineView):
            panel.reload()

    # ------------------------------------------------------------------ breakpoints

    def action_toggle_breakpoint(self) -> None:
        self._at_cursor(self._toggle)

    async def _toggle(self, where: int | tuple[str, int]) -> None:
        await self.target.toggle_breakpoint(where)
        self.breakpoints = await self.target.breakpoints()

    def _at_cursor(self, act: Callable[[int | tuple[str, int]], Awaitable[Any]]) -> None:
        """`act` on the code location under the cursor (see `_cursor_location`)."""
        where = self._cursor_location()
        if where is not None:
            self._run(lambda: act(where))

    def _cursor_location(self) -> int | tuple[str, int] | None:
        """The code location under the cursor of the focused code panel, else of the
        panel in front, else the pc."""
        views = [self.focused, *self.query(SourceView), *self.query(DisassemblyView)]
        for view in views:
            if isinstance(view, (SourceView, DisassemblyView)) and view.display:
                where = view.cursor_location()
                if where is not None:
                    return where
        return self.location.pc if self.location else None

    def action_add_breakpoint(self) -> None:
        def add(text: str | None) -> None:
            if text:
                self.break_at_text(text)
        self.push_screen(Prompt("Breakpoint at", placeholder="square, walk.c:21, 0x40 [if i == 2]",
                                hint="A function stops after its prologue; `if EXPR` makes "
                                     "it conditional."), add)

    async def _add_breakpoint(self, where: str, condition: str) -> None:
        location: int | str = where
        if where.isidentifier():
            location = await self.target.function_body(where)
        await self.target.set_breakpoint(location, condition or None)
        self.breakpoints = await self.target.breakpoints()

    def on_breakpoints_table_act(self, message: BreakpointsTable.Act) -> None:
        bp = message.breakpoint
        if message.what == "toggle":
            self._run(lambda: self._breakpoint_change(
                self.target.enable_breakpoint(bp.id, not bp.enabled)))
        elif message.what == "clear":
            self._run(lambda: self._breakpoint_change(self.target.clear_breakpoint(bp.id)))
        elif message.what == "show":
            self.show_code(bp.address, bp.file, bp.line)
        elif message.what == "condition":
            def change(condition: str | None) -> None:
                if condition is not None:
                    self._run(lambda: self._breakpoint_change(
                        self.target.change_condition(bp, condition)))
            self.push_screen(Prompt(f"Condition of breakpoint {bp.id} ({bp.location})",
                                    value=bp.condition or "",
                                    hint="A C expression; empty: always stop."), change)

    async def _breakpoint_change(self, awaitable: Awaitable[Any]) -> None:
        await awaitable
        self.breakpoints = await self.target.breakpoints()

    # ------------------------------------------------------------------ values

    def action_add_watch(self) -> None:
        def add(expr: str | None) -> None:
            if expr and expr not in self.watch_exprs:
                self.watch_exprs.append(expr)
                self.load_values(self.frame)
        self.push_screen(Prompt("Watch expression", placeholder="counter, p->next, buf[3]",
                                hint="A C expression, evaluated at every stop in the "
                                     "selected frame."), add)

    def on_watches_view_remove(self, message: WatchesView.Remove) -> None:
        if message.expr in self.watch_exprs:
            self.watch_exprs.remove(message.expr)
            self.load_values(self.frame)

    def on_variables_view_edit(self, message: VariablesView.Edit) -> None:
        variable, frame = message.variable, self.frame

        def store(value: str | None) -> None:
            if value is not None:
                self._run(lambda: self._set(variable.expr, value, frame))
        self.push_screen(Prompt(f"Set {variable.expr} ({variable.type})", value=variable.value,
                                hint="A C expression; the task must be paused."), store)

    async def _set(self, lvalue: str, value: str, frame: int) -> None:
        await self.target.set_variable(lvalue, value, frame)
        self.request_refresh()

    def on_memory_view_follow_asked(self, message: MemoryView.FollowAsked) -> None:
        view = message.view

        def follow(text: str | None) -> None:
            if text:
                view.follow = text
        self.push_screen(Prompt("Memory at", value=view.follow,
                                placeholder="SP, R3, 0x4000, counter, &buf[2], p",
                                hint="Followed at every stop: a register, an address, a "
                                     "symbol or a C expression."), follow)

    def on_memory_view_write_asked(self, message: MemoryView.WriteAsked) -> None:
        address = message.address

        def write(text: str | None) -> None:
            if not text:
                return
            try:
                data = bytes.fromhex(text)
            except ValueError:
                self.notify(f"not hex bytes: {text!r}", severity="error")
                return

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self._run(lambda: self._write(address, data))
            self.push_screen(Confirm(f"Write {len(data)} byte(s) at {address:#06x}?\n"
                                     f"{data.hex(' ')}"), confirmed)
        self.push_screen(Prompt(f"Bytes at {address:#06x} (hex)",
                                value=message.current.hex(" ")), write)

    async def _write(self, address: int, data: bytes) -> None:
        await self.target.write_memory(address, data)
        self.request_refresh()

    # ------------------------------------------------------------------ going places

    def action_go_to(self) -> None:
        def go(text: str | None) -> None:
            if text:
                self.go_to_text(text)
        self.push_screen(Prompt("Go to", placeholder="main, walk.c:21, 0x40",
                                hint="Shows the place in the source and disassembly."), go)

    def go_to_text(self, text: str) -> None:
        self._run(lambda: self._go_to(text))

    def break_at_text(self, text: str) -> None:
        where, _, condition = text.partition(" if ")
        self._run(lambda: self._add_breakpoint(where.strip(), condition.strip()))

    async def _go_to(self, text: str) -> None:
        (instruction,) = await self.target.disasm(text, count=1, mode="from")
        self.show_code(instruction["pc"], instruction.get("file"), instruction.get("line"))

    def show_code(self, address: int, file: str | None, line: int | None) -> None:
        """Bring the source (or, without one, the disassembly) of a place forward."""
        for view in self.query(DisassemblyView):
            view.show(address)
        shown = False
        for view in self.query(SourceView):
            shown = view.show(file, line) or shown
        self.focus_panel("source" if shown else "disassembly")

    def focus_panel(self, name: str) -> None:
        for area in self.query(PanelArea):
            if name in area.panels:
                area.show(name)

    def on_stack_view_frame_selected(self, message: StackView.FrameSelected) -> None:
        self.select_frame(message.index)

    # ------------------------------------------------------------------ tasks

    def action_switch_task(self) -> None:
        self.focus_panel("tasks")

    def on_tasks_table_switch(self, message: TasksTable.Switch) -> None:
        if message.pid != self.pid:
            self.switch_task(message.pid)

    # ------------------------------------------------------------------ the command line

    def action_command_line(self) -> None:
        self.query_one(CommandLine).open()

    def on_command_line_run(self, message: CommandLine.Run) -> None:
        self.run_worker(self._command_line(message.line), group="command")

    async def _command_line(self, line: str) -> None:
        """A line of the shell's language, for the attached task; results go to Output."""
        self.write_output(f"(dbg) {line}\n")
        try:
            invocation = commands.parse(line, default_pid=self.pid)
            if invocation.command.local:
                self._local_command(invocation)
                return
        except commands.UsageError as error:
            self.write_output(f"{error}\n")
            return
        if invocation.command.confirm and not invocation.force:
            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.run_worker(self._run_command(invocation), group="command")
            self.push_screen(Confirm(f"{line}\n({_RISK[invocation.command.confirm]})"),
                             confirmed)
            return
        await self._run_command(invocation)

    async def _run_command(self, invocation: commands.Invocation) -> None:
        try:
            result = await self._command(commands.execute(self.target, invocation))
        except commands.UsageError as error:
            self.write_output(f"{error}\n")
            return
        if result is not None:                 # as the shell shows it (--json: the reply)
            view = "json" if invocation.json else invocation.command.view
            self.write_output(plain(render(view, result, self.render_context)) + "\n")
        self.focus_panel("output")
        self.query_one(CommandLine).focus()
        self.request_refresh()

    def _local_command(self, invocation: commands.Invocation) -> None:
        """help, use, quit; the console's event commands have panels here instead."""
        name = invocation.command.name
        if name == "help":
            self.write_output(commands.help_text(invocation.values.get("command", "")) + "\n")
        elif name == "use":
            if invocation.pid is not None and invocation.pid != self.pid:
                self.switch_task(invocation.pid)
        elif name == "quit":
            self.run_worker(self.action_quit())
        else:
            self.write_output(f"{name}: the Events panel and the status line show these "
                              "here\n")

    # ------------------------------------------------------------------ the screen

    def action_reload(self) -> None:
        self.request_refresh()

    def action_zoom(self) -> None:
        if self.screen.maximized is not None:
            self.screen.minimize()
        elif self.focused is not None:
            self.screen.maximize(self.focused)

    async def action_cycle_layout(self) -> None:
        names = list(self.layouts)
        await self.use_layout(names[(names.index(self.current_layout.name) + 1) % len(names)])

    async def action_toggle_panel(self, name: str) -> None:
        layout = self.current_layout
        self.layouts[layout.name] = layout.toggled(name)
        await self.use_layout(layout.name)

    async def action_resize(self, side: int, bottom: int) -> None:
        layout = self.current_layout
        self.layouts[layout.name] = layout.resized(side=side, bottom=bottom)
        await self.use_layout(layout.name)

    async def action_use_layout(self, name: str) -> None:
        await self.use_layout(name)

    async def use_layout(self, name: str) -> None:
        """Lay the screen out anew; the focus stays with its panel (and with it the
        footer's keys: a footer composed while nothing has focus shows none)."""
        focused = self.focused.id if self.focused is not None else None
        self.layout_name = name
        await self.recompose()
        self.fit_areas()
        if focused in PANELS and self.query(f"#{focused}"):
            self.focus_panel(focused)
        else:
            self.screen.focus_next()
        self.save_layout()
        self.request_refresh()

    def save_layout(self) -> None:
        self.store.save(self.current_layout.name, self.layouts)

    def action_help(self) -> None:
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    async def action_quit(self) -> None:
        self.save_layout()
        try:
            await self.target.close()
        finally:
            self.exit()

