"""The configuration file's `[task]` table (TOML, conventionally `hsx.toml`, given with
`hsx run --config FILE` or `hsx execd --config FILE`): what a task gets when neither
its load nor its image asks for something else.

    [task]
    stack_size = "64K"      # bytes of stack (a number or a size: 65536, 0x10000, 64K)
    memory = "1M"           # bytes of task memory, its data address space

Other tables are left to whoever reads them; a key of [task] that is not known, or a
value that is not a size, is an error naming the file and the key.
"""
from __future__ import annotations

import os
from pathlib import Path

from .profiles import Profile
from .taskargs import memory_for_stack, parse_size

# key in [task] -> (the profile's limit it sets, the multiple it must be of)
TASK_KEYS = {"stack_size": ("stack_size", 4), "memory": ("task_memory", 16)}


class ConfigError(ValueError):
    """A configuration file that cannot be read or says something wrong."""


def task_defaults(path: str | os.PathLike) -> dict[str, int]:
    """The profile limits the file's [task] table sets (empty without one)."""
    import tomllib                       # only with --config: `hsx run` starts without it
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except OSError as error:
        raise ConfigError(f"{path}: {(error.strerror or str(error)).lower()}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    table = data.get("task", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: task must be a table ([task])")
    limits = {}
    for key, value in table.items():
        if key not in TASK_KEYS:
            raise ConfigError(f"{path}: [task] has no key {key!r} (the keys are "
                              f"{', '.join(TASK_KEYS)})")
        limit, multiple = TASK_KEYS[key]
        try:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ValueError(f"{value!r} is not a size")
            limits[limit] = parse_size(str(value), multiple)
        except ValueError as error:
            raise ConfigError(f"{path}: [task] {key}: {error}") from None
    return limits


def with_task_defaults(profile: Profile, limits: dict[str, int]) -> Profile:
    """`profile` with the [task] defaults; a bigger stack without a memory grows the
    memory as a load's would (taskargs.memory_for_stack), and a memory above the
    profile's cap raises the cap too (the configuration is the operator's choice)."""
    if not limits:
        return profile
    stack = limits.get("stack_size", profile.stack_size)
    memory = limits.get("task_memory") or memory_for_stack(profile.task_memory,
                                                           profile.stack_size, stack)
    return profile.with_overrides(max_task_memory=max(profile.max_task_memory, memory),
                                  stack_size=stack, task_memory=memory)
