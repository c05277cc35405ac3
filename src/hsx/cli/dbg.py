"""`hsx dbg`: the terminal debugger (hsx.tui), or one debugger command as JSON (the
examples are in its --help).

Without an executive on --host/--port, `hsx dbg FILE` starts one for the session and
stops it on exit; `--connect URL` debugs on a board (socket://, serial://) instead.
Exit status: 0 ok, 1 the command failed, 2 bad usage or no executive.
"""
from __future__ import annotations

import asyncio
import json
import sys

import click

from hsx.client.wire import DEFAULT_HOST, DEFAULT_PORT

from .errors import input_file, no_executive

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


@click.command("dbg", context_settings={"ignore_unknown_options": False})
@click.argument("file", required=False)
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="The executive's address.")
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True,
              help="The executive's port (with FILE and no executive there: one is started "
                   "on it for the session).")
@click.option("--connect", "url", metavar="URL",
              help="The executive as a URL instead of --host/--port: tcp://HOST:PORT, or a "
                   "board's socket://HOST:PORT or serial:///dev/ttyACM0?baud=115200.")
@click.option("--token", envvar="HSX_TOKEN", help="Secret the executive requires.")
@click.option("--pid", type=int, help="Attach to this task.")
@click.option("--app", "app_name", help="Attach to the (newest live) task of this app.")
@click.option("-O", "optimise", type=click.IntRange(0, 2), default=0, show_default=True,
              help="Optimisation level when building a .c FILE (always with -g).")
@click.option("--json", "json_command", metavar="CMD",
              help="Run one debugger command (e.g. 'regs', 'bt', 'print x') and print "
                   "its result as JSON instead of starting the interface.")
def dbg_command(file: str | None, host: str, port: int, url: str | None, token: str | None,
                pid: int | None, app_name: str | None, optimise: int,
                json_command: str | None) -> None:
    """Debug FILE (.c, .mvasm, .hxe), or a running task (--pid, --app), full screen.

    \b
      hsx dbg prog.c              build with -g -O0, load, run to main
      hsx dbg prog.mvasm          assemble, load, stop at the entry point
      hsx dbg --pid 3             attach to a running task (taking its PID lock)
      hsx dbg --app sensor        ... found by its app name
      hsx dbg --pid 3 --json bt   one command, its result as JSON
      hsx dbg prog.c --connect socket://127.0.0.1:4000   on a board

    In the debugger F1 lists the keys (docs/tui.md).
    """
    from hsx.client.launch import LaunchError, launch
    if sum(x is not None for x in (file, pid, app_name)) != 1:
        _usage("give one of FILE, --pid or --app (hsx dbg --help)")
    if url is not None:
        from hsx.client.url import URLError, parse_url
        try:
            parse_url(url)
        except URLError as error:
            _usage(f"--connect: {error}")
        host = url                       # the client takes a URL where a host goes
    launched = None
    if file is not None:
        input_file(file, (".c", ".mvasm", ".hxe"), "a C, MVASM or HXE",
                   "hsx dbg debugs .c and .mvasm sources and .hxe images")
        try:
            launched = launch(file, host, port, token=token, optimise=optimise,
                              progress=lambda text: click.echo(text, err=True))
        except LaunchError as error:
            _usage(str(error))
        pid = launched.pid
    try:
        if json_command is not None:
            code = asyncio.run(_one_command(host, port, token, pid, app_name, json_command,
                                            start=launched is not None))
        else:
            code = _interactive(host, port, token, pid, app_name, start=launched is not None,
                                rebuild=launched.rebuild if launched is not None else None)
    finally:
        if launched is not None:
            launched.close()
    sys.exit(code)


def _interactive(host, port, token, pid, app_name, *, start: bool, rebuild=None) -> int:
    from hsx.tui import DebuggerApp
    from hsx.tui.target import Target
    app = DebuggerApp(Target(host, port, token), pid=pid, app_name=app_name,
                      start=Target.start if start else None, rebuild=rebuild)
    app.run()
    return app.return_code or EXIT_OK


async def _one_command(host, port, token, pid, app_name, line: str, *, start: bool) -> int:
    from hsx.tui.commands import UsageError, execute, help_text, parse
    from hsx.tui.target import ConnectionClosed, ProtocolError, Target
    target = Target(host, port, token)
    try:
        await target.connect()
        if pid is None:
            pid = await target.find_app(app_name)
        invocation = parse(line, default_pid=pid)
        if invocation.command.name == "help":
            click.echo(json.dumps({"help": help_text(invocation.values.get("command", ""))}))
            return EXIT_OK
        if invocation.command.local:
            raise UsageError(f"{invocation.command.name} belongs to the interactive console")
        if invocation.command.confirm and not invocation.force:
            raise UsageError(f"{invocation.command.name} changes the task: add -y to do it")
        await target.attach(pid)
        if start:
            waiter = asyncio.ensure_future(target.next_stop())
            try:
                if await target.start():
                    await asyncio.wait_for(waiter, 30)
            finally:
                waiter.cancel()
        result = await execute(target, invocation, wait=True)
    except UsageError as error:
        click.echo(f"hsx: {error}", err=True)
        return EXIT_USAGE
    except ProtocolError as error:
        click.echo(json.dumps({"error": error.code, "message": error.message}))
        click.echo(f"hsx: error {error.code}: {error.message}", err=True)
        return EXIT_ERROR
    except (ConnectionClosed, OSError, TimeoutError) as error:
        no_executive(host, port, error).show()
        return EXIT_USAGE
    finally:
        await target.close()
    click.echo(json.dumps(result, indent=2, default=str))
    return EXIT_OK


def _usage(message: str) -> None:
    click.echo(f"hsx: {message}", err=True)
    sys.exit(EXIT_USAGE)
