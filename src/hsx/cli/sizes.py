"""Byte sizes on the command line (`--stack-size 64K`, `--memory 1M`; hsx.kernel.taskargs
reads them) and the options that take them."""
from __future__ import annotations

import click



class Size(click.ParamType):
    """A positive byte count that is a multiple of `multiple`."""

    name = "size"

    def __init__(self, multiple: int = 1) -> None:
        self.multiple = multiple

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int):
            return value
        from hsx.kernel.taskargs import parse_size     # (given: `hsx cc` loads no kernel else)
        try:
            return parse_size(value, self.multiple)
        except ValueError as error:
            self.fail(str(error), param, ctx)


STACK_SIZE = Size(4)
MEMORY = Size(16)


def task_size_options(command, who: str = "the image asks for (in its header)"):
    """`--stack-size N` and `--memory N`; `who` says who gets them, for the help."""
    command = click.option("--memory", type=MEMORY, metavar="SIZE",
                           help=f"Bytes of task memory {who} (e.g. 1M; a multiple of "
                                f"16).")(command)
    return click.option("--stack-size", type=STACK_SIZE, metavar="SIZE",
                        help=f"Bytes of stack {who} (e.g. 64K; a multiple of 4).")(command)


def with_task_sizes(image, stack_size: int | None, memory: int | None):
    """`image` asking for this stack and memory (the .hxe header's stack_size and
    mem_size, which the executive honours unless a load asks otherwise)."""
    from dataclasses import replace
    return replace(image, stack_size=stack_size or image.stack_size,
                   mem_size=memory or image.mem_size)


def configured_profile(name: str, config_file: str | None):
    """The profile `name` with the defaults of the configuration file's [task] table
    (hsx.kernel.taskconfig), or a clear error naming the file and the key."""
    from hsx.kernel.profiles import get_profile
    from hsx.kernel.taskconfig import ConfigError, task_defaults, with_task_defaults

    from .errors import fail
    profile = get_profile(name)
    if config_file is None:
        return profile
    try:
        return with_task_defaults(profile, task_defaults(config_file))
    except (ConfigError, ValueError) as error:
        where, _, why = str(error).partition(": ")
        fail(where, why or str(error), "docs/machine.md, \"Stack and memory per program\"")
