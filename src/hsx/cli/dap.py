"""`hsx dap`: the Debug Adapter Protocol server editors start (docs/dap.md).

    hsx dap                     one debug session on stdin/stdout (VS Code's way)
    hsx dap --port 4711         sessions over TCP, one client at a time (debugServer)
"""
from __future__ import annotations

from pathlib import Path

import click


@click.command("dap")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Serve DAP on this TCP port (0: any free one, printed) instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on with --port.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the adapter's log (every message with -v) to this file "
                   "instead of stderr.")
@click.option("-v", "--verbose", is_flag=True, help="Log every DAP message.")
def dap_command(port: int | None, host: str, log_file: Path | None, verbose: bool) -> None:
    """Debug HSX programs from an editor: a DAP server on stdio (or --port).

    The editor sends `launch` (a .c, .mvasm or .hxe program, built with -g and loaded
    into an executive it finds or starts) or `attach` (a running task by PID or app
    name); see docs/dap.md for the configuration attributes.
    """
    from hsx.dap.server import serve_stdio, serve_tcp, setup_logging

    setup_logging(log_file, verbose)
    if port is None:
        serve_stdio()
        return

    def ready(bound_host: str, bound_port: int) -> None:
        click.echo(f"hsx dap listening on {bound_host}:{bound_port}", err=False)

    serve_tcp(host, port, ready)
