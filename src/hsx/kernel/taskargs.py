"""What a load asks of its task besides the image: the stack and memory sizes, the
command-line arguments and the environment, and the block in task memory that carries
the arguments and environment to `main` (docs/abi.md, "Program start")."""
from __future__ import annotations

import struct
from dataclasses import dataclass

MAX_ARGS_BYTES = 0x10000        # the arguments block: argv, environment and their strings


@dataclass(frozen=True)
class TaskOptions:
    """None or empty: what the image asks for, else the executive's profile."""

    stack_size: int | None = None
    memory: int | None = None
    args: tuple[str, ...] = ()      # argv[1:]
    env: tuple[str, ...] = ()       # "NAME=VALUE" each
    program: str | None = None      # argv[0]; None: the task's app name


def argument_block(argv: list[str], env: list[str], base: int) -> tuple[bytes, int, int]:
    """The block laid at `base`: argv[0..argc-1], NULL, envp[0..], NULL (4-byte
    pointers), then the NUL-terminated strings, padded to 4 bytes; with the addresses of
    argv and envp."""
    strings = [text.encode() + b"\0" for text in argv + env]
    table = 4 * (len(argv) + len(env) + 2)
    pointers, at = [], base + table
    for data in strings:
        pointers.append(at)
        at += len(data)
    words = pointers[:len(argv)] + [0] + pointers[len(argv):] + [0]
    block = struct.pack(f"<{len(words)}I", *words) + b"".join(strings)
    return block + bytes(-len(block) % 4), base, base + 4 * (len(argv) + 1)


def block_size(argv: list[str], env: list[str]) -> int:
    size = 4 * (len(argv) + len(env) + 2) + sum(len(t.encode()) + 1 for t in argv + env)
    return size + -size % 4


def check_env(entries: tuple[str, ...] | list[str]) -> None:
    """ValueError naming an entry that is not NAME=VALUE."""
    for entry in entries:
        name, sep, _ = entry.partition("=")
        if not sep or not name or "\0" in entry:
            raise ValueError(f"environment entry {entry!r} is not NAME=VALUE")
