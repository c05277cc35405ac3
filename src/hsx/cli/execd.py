"""`hsx execd`: the executive daemon (DESIGN.md §5, §7).

Prints `hsx execd listening on HOST:PORT` once it accepts connections (scripts wait for
that line; with `--port 0` it is how they learn the port), and with a framed link
(`--link`, a config file's [link]) `hsx execd serving the framed link on URL` after it.  SIGINT, SIGTERM and the
`shutdown` command all end it cleanly with exit status 0; so does the end of stdin with
`--exit-on-eof`, which ties an executive to the process that started it.
"""
from __future__ import annotations

import asyncio
import errno
import gc
import os
import signal
import sys
import threading
from pathlib import Path

import click

from hsx.client.wire import DEFAULT_HOST, DEFAULT_PORT

from .backends import (backend_options, build_backends, choose_backends, chosen_link,
                       list_backends_option)
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
              help="Directory the tasks' sandboxed file system lives in (--fs host:DIR; "
                   "default: STATE_DIR/fs with --state-dir, else the sandbox hsx run uses).")
@click.option("--profile", default="development", show_default=True,
              type=click.Choice(["minimal", "development", "full"]),
              help="The variant: what the executive offers and its limits "
                   "(docs/variants.md; minimal has no debugger and no events).")
@click.option("--state-dir", type=click.Path(file_okay=False),
              help="Directory for persistent values (values.sqlite3, unless --config "
                   "names a [persist] backend) and traces; the default --root is DIR/fs.")
@click.option("--token", envvar="HSX_TOKEN", help="Secret clients must present.")
@click.option("--token-file", type=click.Path(),
              help="Read the secret from this file (its first line, which must not be "
                   "blank).")
@click.option("--echo", is_flag=True,
              help="Also print every task's output here, each line prefixed [app pid].")
@click.option("--pin", envvar="HSX_PIN",
              help="PIN for PIN-flagged values and commands (none: they refuse everyone).")
@click.option("--exit-on-eof", is_flag=True,
              help="Shut down when stdin ends: a program that starts an executive for "
                   "itself passes a pipe and keeps its other end, so the executive ends "
                   "with it, even when it is killed.")
@click.option("--link", "link_spec", metavar="URL",
              help="Also serve the framed link a board speaks, so front ends reach this "
                   "executive as they reach a board: socket://HOST:PORT, "
                   "serial://DEVICE?baud=N or pty (a new pseudo-terminal); replaces the "
                   "config file's [link].")
@backend_options
@list_backends_option
@engine_option
def execd_command(host: str, port: int, load: tuple[str, ...], root: str | None, profile: str,
                  state_dir: str | None, token: str | None, token_file: str | None,
                  pin: str | None, echo: bool, exit_on_eof: bool, link_spec: str | None,
                  engine: str | None, config_file: str | None, fs_spec: str | None) -> None:
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
    from .sandbox import default_root
    defaults = configured_profile(profile, config_file)      # checks the file's [task] now
    fallback = default_root() if state_dir is None else Path(state_dir) / "fs"
    chosen = choose_backends(config_file, fs_spec, root, fallback)
    link = chosen_link(chosen, link_spec)
    backends = build_backends(chosen, defaults.max_handles_per_task)
    config = ServerConfig(host=host, port=port, token=token, profile=profile,
                          state_dir=state_dir, load=list(load), pin=pin or None, echo=echo,
                          engine=resolve_engine(engine), backends=backends, link=link,
                          task_defaults={"stack_size": defaults.stack_size,
                                         "task_memory": defaults.task_memory})
    from hsx.server.loop import ENV, loop_name, run
    try:
        loop = loop_name()
    except ValueError as error:
        fail(ENV, str(error), "unset it: the daemon then uses uvloop where it is installed")
    try:
        sys.exit(run(_serve(config, exit_on_eof), loop))
    except KeyboardInterrupt:        # a second Ctrl-C while shutting down
        sys.exit(130)


async def _serve(config, exit_on_eof: bool) -> int:
    from hsx.server import Server
    _tune_gc()
    server = None
    try:
        server = Server(config)
        host, port = await server.start()
    except OSError as error:
        if server is not None and server.address is not None:     # TCP was up: the link
            fail("--link", (error.strerror or str(error)).lower())
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
    if exit_on_eof:
        _when_stdin_ends(loop, server.request_shutdown)
    click.echo(f"hsx execd listening on {host}:{port}")
    if server.link_url is not None:
        click.echo(f"hsx execd serving the framed link on {server.link_url}")
    sys.stdout.flush()
    await server.serve()
    return 0


def _when_stdin_ends(loop: asyncio.AbstractEventLoop, shut_down) -> None:
    """Call `shut_down` in `loop` once stdin ends: when every holder of the pipe's other
    end has closed it or died (the process that started us, even one killed outright; a
    pipe works the same on every OS, unlike PR_SET_PDEATHSIG).  A thread reads the file
    descriptor with `os.read`: blocked in `sys.stdin`'s buffered reader it would hold a
    lock that Python's shutdown then fails to take (a SIGABRT at exit)."""
    def watch() -> None:
        try:
            while os.read(0, 4096):                # descriptor 0: stdin
                pass                               # what is written is ignored
        except OSError:
            pass
        try:
            loop.call_soon_threadsafe(shut_down)
        except RuntimeError:                       # the loop is closed: shut down already
            pass
    threading.Thread(target=watch, name="execd-stdin", daemon=True).start()


def _tune_gc() -> None:
    """A daemon of its own streams events: each is a handful of short-lived objects the
    cyclic collector would traverse again and again (with Python's defaults ~11 % of the
    daemon's CPU under event load; benchmarks/README.md).  What was imported lives for
    good (frozen: never traversed again; the executive and its tasks are not, so a task
    loaded with --load and later killed is collected like any other), and young objects
    are collected in larger generations (10,000 of them take about 0.3 ms here)."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
