"""`hsx execd`: the executive daemon (DESIGN.md §5, §7).

Prints `hsx execd listening on HOST:PORT` once it accepts connections (scripts wait for
that line; with `--port 0` it is how they learn the port).  SIGINT, SIGTERM and the
`shutdown` command all end it cleanly with exit status 0.
"""
from __future__ import annotations

import asyncio
import errno
import gc
import signal
import sys

import click

from hsx.client.wire import DEFAULT_HOST, DEFAULT_PORT

from .engine import engine_option, resolve_engine
from .errors import fail, input_file, port_in_use
from .sizes import configured_profile


@click.command("execd")
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on; anything but loopback needs a token.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="TCP port (0 picks a free one).")
@click.option("--load", "load", multiple=True, metavar="FILE",
              help="Program to load at start (.hxe, .mvasm or .c); repeatable.")
@click.option("--root", type=click.Path(file_okay=False),
              help="Directory the tasks' sandboxed file system lives in (default: "
                   "STATE_DIR/fs with --state-dir, else the sandbox hsx run uses).")
@click.option("--profile", default="development", show_default=True,
              type=click.Choice(["minimal", "development", "full"]),
              help="Resource limits of the executive.")
@click.option("--state-dir", type=click.Path(file_okay=False),
              help="Directory for persistent values (values.sqlite3); the default "
                   "--root is DIR/fs.")
@click.option("--token", envvar="HSX_TOKEN", help="Secret clients must present.")
@click.option("--token-file", type=click.Path(),
              help="Read the secret from this file (its first line, which must not be "
                   "blank).")
@click.option("--echo", is_flag=True,
              help="Also print every task's output here, each line prefixed [app pid].")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="A configuration file (hsx.toml): its [task] table sets the stack and "
                   "memory tasks get by default (docs/machine.md).")
@click.option("--pin", envvar="HSX_PIN",
              help="PIN for PIN-flagged values and commands (none: they refuse everyone).")
@engine_option
def execd_command(host: str, port: int, load: tuple[str, ...], root: str | None, profile: str,
                  state_dir: str | None, token: str | None, token_file: str | None,
                  config_file: str | None, pin: str | None, echo: bool,
                  engine: str | None) -> None:
    """Run the executive: tasks under one kernel, served over protocol v1."""
    from hsx.server import ServerConfig
    if token_file is not None:
        if token is not None:
            fail("--token-file", "give --token or --token-file, not both")
        from hsx.server.auth import TokenFileError, read_token_file
        try:
            token = read_token_file(token_file)
        except TokenFileError as error:
            what, _, why = str(error).partition(": ")
            fail(what, why or str(error), "put the secret on the file's first line")
    for path in load:
        input_file(path, (".hxe", ".mvasm", ".c"), "an HXE image, MVASM or C",
                   "hsx execd --load takes .hxe images and .mvasm or .c sources")
    if token is not None and not token.strip():
        fail("--token", "the token is blank",
             "give a secret with at least one visible character (a blank one would let "
             "anyone in)")
    if root is None and state_dir is None:
        from .sandbox import default_root
        root = str(default_root())
    defaults = configured_profile(profile, config_file)      # checks the file now
    config = ServerConfig(host=host, port=port, token=token, profile=profile, root=root,
                          state_dir=state_dir, load=list(load), pin=pin or None, echo=echo,
                          engine=resolve_engine(engine),
                          task_defaults={"stack_size": defaults.stack_size,
                                         "task_memory": defaults.task_memory})
    from hsx.server.loop import ENV, loop_name, run
    try:
        loop = loop_name()
    except ValueError as error:
        fail(ENV, str(error), "unset it: the daemon then uses uvloop where it is installed")
    try:
        sys.exit(run(_serve(config), loop))
    except KeyboardInterrupt:        # a second Ctrl-C while shutting down
        sys.exit(130)


async def _serve(config) -> int:
    from hsx.server import Server
    _tune_gc()
    try:
        server = Server(config)
        host, port = await server.start()
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise port_in_use(config.host, config.port) from None
        fail(f"{config.host}:{config.port}", (error.strerror or str(error)).lower())
    except ValueError as error:
        fail(f"--host {config.host}", str(error),
             "give a secret with --token or --token-file, or listen on 127.0.0.1")
    except Exception as error:           # a startup image that cannot be loaded
        fail("--load", f"{getattr(error, 'message', None) or error}")
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, server.request_shutdown)
    click.echo(f"hsx execd listening on {host}:{port}")
    sys.stdout.flush()
    await server.serve()
    return 0


def _tune_gc() -> None:
    """A daemon of its own streams events: each is a handful of short-lived objects the
    cyclic collector would traverse again and again (with Python's defaults ~11 % of the
    daemon's CPU under event load; benchmarks/README.md).  What was imported lives for
    good (frozen: never traversed again; the executive and its tasks are not, so a task
    loaded with --load and later killed is collected like any other), and young objects
    are collected in larger generations (10,000 of them take about 0.3 ms here)."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
