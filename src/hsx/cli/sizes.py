"""Byte sizes on the command line (`--stack-size 64K`, `--memory 1M`): a number, in
decimal or 0x hex, optionally followed by K, M or G (KiB, MiB, GiB: powers of 1024)."""
from __future__ import annotations

import re

import click

_SIZE = re.compile(r"(0x[0-9a-f]+|\d+)\s*([kmg])?(?:i?b)?", re.IGNORECASE)
_UNITS = {None: 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


class Size(click.ParamType):
    """A positive byte count that is a multiple of `multiple`."""

    name = "size"

    def __init__(self, multiple: int = 1) -> None:
        self.multiple = multiple

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int):
            return value
        match = _SIZE.fullmatch(str(value).strip())
        if match is None:
            self.fail(f"{value!r} is not a size (e.g. 65536, 0x10000, 64K, 1M)", param, ctx)
        size = int(match.group(1), 0) * _UNITS[(match.group(2) or "").lower() or None]
        if size <= 0 or size >= 1 << 32 or size % self.multiple:
            self.fail(f"{value} ({size} bytes) must be a positive multiple of "
                      f"{self.multiple} below 4 GiB", param, ctx)
        return size


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
