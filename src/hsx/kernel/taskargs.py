"""What a load asks of its task besides the image: the stack and memory sizes (and how
people write sizes), the command-line arguments and the environment, and the block in
task memory that carries the arguments and environment to `main` (docs/abi.md,
"Program start")."""
from __future__ import annotations

import re
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


def memory_for_stack(memory: int, default_stack: int, stack: int) -> int:
    """The task memory to give along with a `stack` when no memory size was asked for:
    `memory` grown by as much as the stack exceeds its default, so the heap keeps the
    size it has by default."""
    return memory + (max(0, stack - default_stack) + 15) // 16 * 16


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


# Byte sizes as people write them (`64K`, `1M`, `0x10000`, `65536`): a number, decimal or
# 0x hex, optionally followed by K, M or G (KiB, MiB, GiB: powers of 1024).  (A pattern
# `re` compiles and caches on first use: most commands are given no size.)
_SIZE = r"(0x[0-9a-f]+|\d+)\s*([kmg])?(?:i?b)?"
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def parse_size(text: str, multiple: int = 1) -> int:
    """The byte count `text` says; ValueError unless it is a positive multiple of
    `multiple` below 4 GiB."""
    match = re.fullmatch(_SIZE, str(text).strip(), re.IGNORECASE)
    if match is None:
        raise ValueError(f"{text!r} is not a size (e.g. 65536, 0x10000, 64K, 1M)")
    size = int(match.group(1), 0) * _UNITS[(match.group(2) or "").lower()]
    if size <= 0 or size >= 1 << 32 or size % multiple:
        raise ValueError(f"{text} ({size} bytes) must be a positive multiple of {multiple} "
                         f"below 4 GiB")
    return size
