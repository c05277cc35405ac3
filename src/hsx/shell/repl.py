"""The prompt: prompt_toolkit with history kept in the user's data directory, Ctrl-R
search, Tab completion, the typed command's usage in the bottom toolbar, and live
events printed above the line being typed."""
from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from pathlib import Path

from platformdirs import user_data_dir
from prompt_toolkit import PromptSession
from prompt_toolkit.application.current import get_app
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.patch_stdout import patch_stdout

from hsx.client import ConnectionClosed
from hsx.client.commands import (TABLE, UsageError, complete, line_task, names_pid,
                                 split_words, value_words)
from hsx.client.commands.syntax import PID

from hsx.client.commands.cache import CompletionCache
from .core import EXIT_OK, EXIT_USAGE, QUIT, Shell
from .output import prompt_style

FORGET = {"load", "restart", "kill", "sym load", "bp set", "bp clear", "bp clearall",
          "watch add", "watch rm"}


def history_file() -> Path:
    return Path(user_data_dir("hsx", appauthor=False)) / "shell_history"


def open_history() -> tuple[History, str | None]:
    """The history file (made if needed), or one in memory and why."""
    path = history_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
        return FileHistory(str(path)), None
    except OSError as error:
        return InMemoryHistory(), f"history not saved ({path}: {error.strerror or error})"


class ShellCompleter(Completer):
    """Completes from what the cache knows; when the line wants what a task offers (its
    symbols, the variables where it stopped), Tab first asks the executive for that (the
    prompt stays live meanwhile, and typing on abandons the completion)."""

    def __init__(self, shell: Shell, cache: CompletionCache) -> None:
        self.shell, self.cache = shell, cache

    def get_completions(self, document, complete_event):
        yield from self._completions(document.text_before_cursor, self.cache)

    async def get_completions_async(self, document, complete_event):
        text = document.text_before_cursor
        asked = _Asked(self.cache)
        found = list(self._completions(text, asked))
        if asked.task_items:
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                await self.cache.task_ready(line_task(text, self.shell.pid))
            found = list(self._completions(text, self.cache))
        for completion in found:
            yield completion

    def _completions(self, text: str, sources):
        for candidate in complete(text, sources, self.shell.pid):
            yield Completion(candidate.text, candidate.start - len(text),
                             display_meta=candidate.meta)


class _Asked:
    """The cache, noting whether completion asked for what a task offers."""
    TASK_ITEMS = ("code", "data", "expr")

    def __init__(self, cache: CompletionCache) -> None:
        self.cache = cache
        self.task_items = False

    def items(self, what: str, pid: int | None) -> list[tuple[str, str]]:
        self.task_items = self.task_items or (what in self.TASK_ITEMS and pid is not None)
        return self.cache.items(what, pid)


def toolbar(shell: Shell, where: str):
    """The bottom toolbar, drawn from the line being typed."""
    return lambda: toolbar_fragments(get_app().current_buffer.document.text_before_cursor,
                                     shell.pid, shell.ctx.task(shell.pid), where)


def toolbar_fragments(text: str, pid: int | None, task: str, where: str) -> list:
    """The usage of the command being typed, the argument at the cursor underlined; with
    no command yet, where the console is connected and the keys that help."""
    try:
        words = split_words(text)
    except UsageError:
        words = []
    command, used = TABLE.find([w.text for w in words]) if words else (None, 0)
    if command is None:
        current = f" · current task {task}" if pid is not None else ""
        return [("class:toolbar.dim", f" {where}{current} · Tab completes · Ctrl-R searches "
                                      "history · help lists commands · quit leaves")]
    typing = not text or text[-1].isspace()
    done = words if typing else words[:-1]
    given = [w.text for w in value_words(command, done[used:])]
    slots = [a for a in command.args if a.slot]
    index = len(given) if len(done) >= used else -1
    current = pid if command.current else None
    if index >= 0 and current is not None and slots and slots[0].kind is PID and not names_pid(
            slots, given + ["" if typing else words[-1].text], set(), current):
        index += 1
    index = min(index, next((i for i, a in enumerate(slots) if a.rest), index))
    current_arg = slots[index] if 0 <= index < len(slots) else None
    out = [("class:toolbar.usage", f" {command.name}")]
    for arg in command.args:
        out += [("", " "), ("class:toolbar.current" if arg is current_arg else "", arg.usage())]
    return out + [("class:toolbar.dim", f"   {command.summary}")]


async def run_repl(shell: Shell, cache: CompletionCache, where: str, color: bool) -> int:
    history, warning = open_history()
    style = prompt_style()
    session: PromptSession = PromptSession(
        history=history, completer=ShellCompleter(shell, cache), complete_while_typing=False,
        bottom_toolbar=toolbar(shell, where),
        auto_suggest=AutoSuggestFromHistory(), style=style, include_default_pygments_style=False,
        color_depth=None if color else _monochrome())
    confirming: PromptSession = PromptSession(style=style)

    async def confirm(question: str) -> bool:
        answer = await confirming.prompt_async(f"{question} [y/N] ")
        return answer.strip().lower() in ("y", "yes")

    shell.confirm = confirm
    shell.out.interactive = True
    if warning:
        shell.out.text(warning, "warn")
    await cache.refresh()
    while True:
        prompt = f"hsx[{shell.pid}]> " if shell.pid is not None else "hsx> "
        try:
            # Output that arrives while the prompt is shown (events) goes above it.  A
            # command's own output is written straight out, before the next prompt is
            # drawn: through patch_stdout's writer thread, its tail could come after.
            with patch_stdout(raw=True):
                line = await session.prompt_async(prompt)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return EXIT_OK
        if not line.strip():
            continue
        try:
            code = await _interruptible(shell.execute(line))
        except ConnectionClosed as error:
            shell.out.error(str(error))
            return EXIT_USAGE
        if code == QUIT:
            return EXIT_OK
        if shell.lost is not None:
            return EXIT_USAGE
        if _command_name(line) in FORGET:        # tasks changed: complete the new ones
            cache.forget()
            await cache.refresh()


async def _interruptible(work) -> int:
    """Run a command; Ctrl-C cancels it (not the console)."""
    task = asyncio.ensure_future(work)
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, task.cancel)
    except (NotImplementedError, RuntimeError):      # Windows: no signal handlers
        pass
    try:
        return await task
    except asyncio.CancelledError:
        print("interrupted", file=sys.stdout)
        return EXIT_OK
    finally:
        try:
            loop.remove_signal_handler(signal.SIGINT)
        except (NotImplementedError, RuntimeError):
            pass


def _command_name(line: str) -> str | None:
    try:
        command, _ = TABLE.find(line.split())
    except UsageError:
        return None
    return command.name if command else None


def _monochrome():
    from prompt_toolkit.output import ColorDepth
    return ColorDepth.MONOCHROME
