"""`hsx shell`: the operator console (docs/shell.md).

    hsx shell                          the prompt
    hsx shell ps                       one command, then exit (0 ok, 1 error, 2 no connection)
    hsx shell peek 1 counter --json    the result as JSON
    hsx shell -f setup.hsx             a file of commands
    hsx shell --spawn                  start an executive first if none is running
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from hsx.client.commands import UsageError, parse
from hsx.client.errors import ConnectionClosed, ProtocolError
from hsx.client.render import event_lines
from hsx.client.wire import DEFAULT_HOST, DEFAULT_PORT

from .core import EXIT_ERROR, EXIT_OK, EXIT_USAGE, QUIT, Shell
from .immediate import finish_now
from .output import Printer, refusal, wants_color
from .spawn import NoExecutive, connect_immediately, connect_or_spawn

FOLLOW = {"stdio", "events.subscribe", "subscribe"}
NEEDS_EVENTS = FOLLOW | {"wait"}


_DOUBLE_DASH = "\0--"        # a `--` of the COMMAND, kept from click's own reading of it


class _CommandKeepsDoubleDash(click.Command):
    """`hsx shell load prog.c -- a b`: a `--` after a word of the COMMAND belongs to
    the command (load's program arguments); click would take it as its own end of
    options and drop it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        kept, seen_word = [], False
        for arg in args:
            kept.append(_DOUBLE_DASH if arg == "--" and seen_word else arg)
            seen_word = seen_word or not arg.startswith("-")
        return super().parse_args(ctx, kept)


@click.command("shell", cls=_CommandKeepsDoubleDash,
               context_settings={"ignore_unknown_options": True,
                                 "help_option_names": ["-h", "--help"]})
@click.option("--host", default=DEFAULT_HOST, show_default=True)
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True)
@click.option("--token", envvar="HSX_TOKEN", help="Secret the executive requires.")
@click.option("--json", "as_json", is_flag=True, help="Print results (and events) as JSON.")
@click.option("--timeout", type=float, default=30.0, show_default=True,
              help="Seconds to wait for a reply.")
@click.option("--no-color", is_flag=True, help="No colour (also when NO_COLOR is set).")
@click.option("-f", "--file", "script", type=click.Path(dir_okay=False, path_type=Path),
              help="Run the commands in this file, one a line (# starts a comment).")
@click.option("--keep-going", is_flag=True, help="With -f: go on after a failing command.")
@click.option("-y", "--force", is_flag=True,
              help="Do memory and register writes without asking (needed without a prompt).")
@click.option("--spawn", is_flag=True, help="Start an executive if none is listening.")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def shell_command(host: str, port: int, token: str | None, as_json: bool, timeout: float,
                  no_color: bool, script: Path | None, keep_going: bool, force: bool,
                  spawn: bool, command: tuple[str, ...]) -> None:
    """Talk to a running executive: a prompt, one COMMAND, or a script (-f).

    `help` at the prompt (or `hsx shell help`) lists the commands; `help CMD` shows one
    with examples.  Exit status: 0 ok, 1 an error reply, 2 no connection or a bad
    command line.
    """
    if script is not None and command:
        click.echo("hsx: give a COMMAND or -f SCRIPT, not both", err=True)
        sys.exit(EXIT_USAGE)
    printer = Printer(wants_color(no_color), as_json)
    line = None
    command = tuple("--" if word == _DOUBLE_DASH else word for word in command)
    if command:     # a JSON request is one word (or several, if the shell split it)
        line = " ".join(command) if command[0].lstrip().startswith("{") else join_words(command)
    # A command that needs no events runs without an event loop (immediate.py).
    at_once = line is not None and not spawn and _name(line) not in NEEDS_EVENTS
    main = _main(connect_immediately if at_once else connect_or_spawn, host, port, token,
                 timeout, printer, line, script, keep_going, force, spawn)
    try:
        if at_once:
            code = finish_now(main)
        else:
            import asyncio
            code = asyncio.run(main)
    except KeyboardInterrupt:
        code = EXIT_OK
    sys.exit(code)


def join_words(words: tuple[str, ...]) -> str:
    """argv back into a line the parser reads the same way (quoted where needed)."""
    def quote(word: str) -> str:
        if word and not any(c.isspace() or c in "\"'\\" for c in word):
            return word
        return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return " ".join(quote(w) for w in words)


async def _main(connect, host: str, port: int, token: str | None, timeout: float,
                printer: Printer, line: str | None, script: Path | None, keep_going: bool,
                force: bool, spawn: bool) -> int:
    """The console: `connect` (spawn.py) gives the client and the executive it started."""
    try:
        client, daemon = await connect(host, port, token, timeout, spawn, printer)
    except NoExecutive as why:
        printer.error(str(why))
        return EXIT_USAGE
    except ProtocolError as error:
        printer.error(refusal(f"{host}:{port}", error))
        return EXIT_ERROR
    piped = line is None and script is None and not sys.stdin.isatty()
    interactive = line is None and script is None and not piped
    shell = Shell(client, printer, interactive=interactive, force=force)
    try:
        if line is not None:
            return await _one(shell, line)
        if script is not None:
            await shell.start()
            return await _script(shell, script, keep_going)
        if piped:            # lines from a pipe, as typed at a prompt: errors do not stop it
            await shell.start()
            await _lines(shell, sys.stdin.read().splitlines(), "<stdin>", keep_going=True,
                         quiet=True)
            return EXIT_OK
        from hsx.client.commands.cache import CompletionCache
        from .repl import run_repl
        await shell.start()
        _banner(shell, host, port, daemon is not None)
        return await run_repl(shell, CompletionCache(client), f"{host}:{port}", printer.color)
    except ConnectionClosed as error:
        printer.error(str(error))
        return EXIT_USAGE
    finally:
        await shell.stop()
        await client.close()
        if daemon is not None:
            daemon.stop()


async def _one(shell: Shell, line: str) -> int:
    """One command; `stdio` (and a subscribe) then shows events until Ctrl-C, and `wait`
    listens for the stop it waits for."""
    name = _name(line)
    await shell.start(events=name == "wait")
    code = await shell.execute(line)
    if code != EXIT_OK or name not in FOLLOW:
        return EXIT_OK if code == QUIT else code
    while True:
        event = await shell.client.next_event()
        if event is not None:
            if shell.out.as_json:
                shell.out.json(event)
            else:
                shell.out.lines(event_lines(event, shell.ctx))


def _name(line: str) -> str | None:
    """The command a line names (a protocol command by its own name), if it parses."""
    try:
        invocation = parse(line)
    except UsageError:
        return None
    if invocation.extra.get("op") in ("write", "unsubscribe"):
        return None
    if invocation.command.name != "raw":
        return invocation.command.name
    return invocation.extra.get("cmd")


async def _script(shell: Shell, path: Path, keep_going: bool) -> int:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        shell.out.error(f"cannot read {path}: {getattr(error, 'strerror', None) or error}")
        return EXIT_USAGE
    return await _lines(shell, lines, str(path), keep_going)


async def _lines(shell: Shell, lines: list[str], path: str, keep_going: bool,
                 quiet: bool = False) -> int:
    """Run lines one by one (# comments and blank lines skipped); the first failure
    stops them unless `keep_going`; `quiet` does not remark on failures."""
    worst = EXIT_OK
    for number, text in enumerate(lines, 1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        code = await shell.execute(text)
        if code == QUIT:
            break
        if code != EXIT_OK:
            worst = worst or code
            if not keep_going:
                shell.out.error(f"{path}:{number}: stopped at `{text}` "
                                "(--keep-going runs the rest)")
                return code
            if not quiet:
                shell.out.error(f"{path}:{number}: `{text}` failed; going on")
    return worst


def _banner(shell: Shell, host: str, port: int, spawned: bool) -> None:
    tasks = len(shell.ctx.names)
    started = " (started for this console; it stops when you leave)" if spawned else ""
    shell.out.text(f"connected to the executive at {host}:{port}{started}, "
                   f"{tasks} task{'s' if tasks != 1 else ''}", "dim")
    shell.out.text("help lists the commands, Tab completes, Ctrl-R searches history, "
                   "quit leaves", "dim")

