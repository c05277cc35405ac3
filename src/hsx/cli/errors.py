"""One voice for every `hsx` command's problems (docs/cli.md, "Errors and exit codes").

Each is reported on stderr as `hsx: WHAT: WHY`, then, indented, what to do about it, and
the command exits with a documented status:

    hsx: notes.txt: not a C source file
      hsx cc compiles .c files; give it a .c file

Commands raise `CliError` (or call `fail`), a `click.ClickException`, so click prints it
and exits with its status; `main` also turns anything else that escapes into an
`internal error` line instead of a Python traceback (HSX_DEBUG=1 shows the traceback).  `input_file` is the one check of an input path, so every
command says "no such file", "is a directory" or "not a … file" the same way.
"""
from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path
from typing import Iterable, NoReturn

import click

EXIT_OK = 0
EXIT_FAILED = 1          # the work failed: build errors, an error reply from the executive
EXIT_USAGE = 2           # it could not start: bad usage, a missing or wrong input file,
                         # no executive on the port, a port in use
EXIT_GUEST = 70          # a guest faulted or was left stuck (deadlock, BRK); an internal error
EXIT_MAX_STEPS = 124     # hsx run --max-steps ran out
EXIT_INTERRUPTED = 130   # Ctrl-C


class CliError(click.ClickException):
    def __init__(self, what: str, why: str, hint: str | None = None,
                 code: int = EXIT_USAGE) -> None:
        super().__init__(f"{what}: {why}")
        self.what, self.why, self.hint, self.exit_code = what, why, hint, code

    def show(self, file=None) -> None:
        report(self.what, self.why, self.hint)


def report(what: str, why: str | None = None, hint: str | None = None) -> None:
    """Print one problem in the common form (stdout is flushed first, so the order of
    guest output and the message stays as it happened)."""
    sys.stdout.flush()
    click.echo(f"hsx: {what}: {why}" if why else f"hsx: {what}", err=True)
    for line in (hint or "").splitlines():
        click.echo(f"  {line}", err=True)


def fail(what: str, why: str, hint: str | None = None, code: int = EXIT_USAGE) -> NoReturn:
    raise CliError(what, why, hint, code)


def input_file(path: str | os.PathLike, suffixes: Iterable[str] | None = None,
               kind: str = "an input", hint: str | None = None) -> Path:
    """`path` if it is a readable regular file (with one of `suffixes`, when given;
    `kind` names what those are, e.g. "a C source")."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        fail(str(path), "no such file", "check the name and the directory you are in")
    except PermissionError:
        fail(str(path), "permission denied", "check the file's permissions")
    except OSError as error:
        fail(str(path), os.strerror(error.errno or errno.EIO).lower())
    if stat.S_ISDIR(mode):
        fail(str(path), "is a directory, not a file", hint or "give the path of a file")
    if not stat.S_ISREG(mode):
        fail(str(path), "not a regular file (a device, pipe or socket)",
             hint or "give the path of a file")
    if suffixes is not None:
        suffixes = tuple(suffixes)
        if path.suffix.lower() not in suffixes:
            fail(str(path), f"not {kind} file",
                 hint or f"expected a file ending in {', '.join(suffixes)}")
    if not os.access(path, os.R_OK):
        fail(str(path), "permission denied", "check the file's permissions")
    return path


def cannot_write(path: str | os.PathLike, error: OSError) -> CliError:
    """An output file that could not be written (the work itself succeeded)."""
    reason = _reason(error)
    if error.errno == errno.ENOENT and not Path(path).parent.is_dir():
        reason, hint = "its directory does not exist", "create the directory, or choose another -o"
    elif error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        hint = "choose a place you may write to with -o"
    elif error.errno == errno.EISDIR:
        reason, hint = "is a directory", "give -o a file name"
    else:
        hint = "check that the disk has room and the path is right"
    return CliError(str(path), f"cannot write: {reason}", hint, EXIT_FAILED)


def no_executive(host: str, port: int, error: BaseException | None = None) -> CliError:
    """Nothing answers on host:port, or at the URL `host` (or the link broke)."""
    refused = isinstance(error, ConnectionRefusedError) or error is None
    why = ("no executive is listening" if refused
           else f"cannot talk to the executive ({_reason(error)})")
    if "://" in host:
        return CliError(host, why, "is the board running HSX? (`hsx board run --board host "
                        "--listen socket://127.0.0.1:PORT` serves the executive's host build)")
    return CliError(f"{host}:{port}", why,
                    "start one with `hsx execd` (or give --host/--port of a running one)")


def port_in_use(host: str, port: int) -> CliError:
    return CliError(f"{host}:{port}", "the port is already in use",
                    "stop what listens there (an executive: `hsx shell shutdown`), or choose "
                    "another one with --port (0 picks a free port)")


def _sentence(text: str) -> str:
    """click's message in the common form: lower-case start, no final full stop."""
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:]


def _reason(error: BaseException | None) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


def main(command: click.Command, **kwargs) -> NoReturn:
    """Run the click command; every problem leaves as one message and an exit status."""
    try:
        command.main(standalone_mode=False, **kwargs)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.Abort:
        click.echo("", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.UsageError as error:            # click's own "Usage: ... Error: ..."
        where = error.ctx.command_path if error.ctx is not None else "hsx"
        message = _sentence(error.format_message())
        if where == "hsx":
            report(message, None, "see `hsx --help`")
        else:
            report(where.removeprefix("hsx "), message, f"see `{where} --help`")
        sys.exit(error.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:                  # `hsx disasm x.hxe | head`
        sys.stderr.close()
        sys.exit(EXIT_FAILED)
    except SystemExit:
        raise
    except Exception as error:
        if os.environ.get("HSX_DEBUG"):
            raise
        report("internal error", f"{type(error).__name__}: {error}",
               "this is a bug in hsx; HSX_DEBUG=1 shows the traceback for a report")
        sys.exit(EXIT_GUEST)
    sys.exit(EXIT_OK)
