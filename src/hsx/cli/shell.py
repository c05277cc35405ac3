"""`hsx shell`: the operator console lives in `hsx.shell`; the CLI only wires it."""
from hsx.shell.cli import shell_command

__all__ = ["shell_command"]
