"""`--engine` for the commands that run guest code (`hsx run`, `hsx execd`)."""
from __future__ import annotations

import click

from hsx.vm.errors import MachineError
from hsx.vm.machine import ENGINES, select_engine
from hsx.vm.native.engine import unavailable_reason

EXIT_USAGE = 2                  # as every hsx command for a bad command line

engine_option = click.option(
    "--engine", type=click.Choice(ENGINES), envvar="HSX_ENGINE", default=None,
    help="Which VM runs the tasks: the native C core (the default when it could be built) "
         "or the Python reference engine. Also $HSX_ENGINE.")


def resolve_engine(requested: str | None) -> str:
    """The engine to run on; says so in one line when the native one is unavailable."""
    try:
        chosen = select_engine(requested)
    except MachineError as error:
        click.echo(f"hsx: {error}", err=True)
        raise SystemExit(EXIT_USAGE) from None
    if requested is None and chosen == "python":
        click.echo(f"hsx: the native engine is not available ({unavailable_reason()}); "
                   "running on the Python engine", err=True)
    return chosen
