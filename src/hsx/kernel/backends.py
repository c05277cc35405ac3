"""Choosing the executive's backends: one configuration file (TOML) and shorthands.

    [fs]        backend = "host" | "fat" | "can"        (the guests' file system)
    [persist]   backend = "none" | "sqlite" | "fram" | "flash"   (persistent values)
    [can]       interface, channel                       (the CAN bus, SVC module 0x02)
    [link]      backend = "socket" | "serial" | "pty"    (the framed link hsx execd also
                serves, as a board does; built by hsx.server.transports)
    [task]      stack_size, memory     (what a task gets; read by hsx.kernel.taskconfig)

docs/backends.md has every key and a complete example.  Relative paths in a file are
relative to the file.  `hsx run` and `hsx execd` also take `--fs host:DIR`,
`--fs fat:IMAGE` and `--fs can:CHANNEL`, which replace the file's [fs]; `hsx execd
--link URL` replaces its [link].
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .filesystems import FileSystem, SandboxFS

if TYPE_CHECKING:
    from .bus import Bus
    from .registry import PersistenceStore


class BackendError(ValueError):
    """A configuration that names something unknown, or a backend that cannot start."""

    def __init__(self, what: str, why: str, hint: str | None = None) -> None:
        super().__init__(f"{what}: {why}")
        self.what, self.why, self.hint = what, why, hint


@dataclass(frozen=True)
class Backend:
    """What a configuration table naming this backend may and must hold."""

    summary: str
    keys: dict[str, type]                   # the table's keys (besides `backend`) and types
    required: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()             # keys holding paths (relative to the file)


CATALOGUE: dict[str, dict[str, Backend]] = {
    "fs": {
        "host": Backend("a host directory the guests cannot leave (the default)",
                        {"root": str}, ("root",), ("root",)),
        "fat": Backend("FAT12/16/32 on an SD card image file (make one with hsx fs mkfs)",
                       {"image": str}, ("image",), ("image",)),
        "can": Backend("files served by another node over CAN ISO-TP (hsx fs serve there)",
                       {"channel": str, "interface": str, "server_id": int, "client_id": int,
                        "timeout_ms": int}, ("channel",)),
    },
    "persist": {
        "none": Backend("persistent values are not kept (the default)", {}),
        "sqlite": Backend("an SQLite database file (the default with --state-dir)",
                          {"path": str}, ("path",), ("path",)),
        "fram": Backend("an FRAM image: a byte-addressed file, a log of CRC-checked records",
                        {"path": str, "size": int, "fsync": bool}, ("path",), ("path",)),
        "flash": Backend("a NOR flash image: erase-before-write pages, wear-levelled",
                         {"path": str, "size": int, "page_size": int, "fsync": bool},
                         ("path",), ("path",)),
    },
    "can": {
        "python-can": Backend("CAN through python-can: interface 'virtual' (in-process, the "
                              "default), 'socketcan', ...", {"interface": str, "channel": str}),
    },
    "link": {
        "socket": Backend("the framed link a board speaks (docs/wire.md) on a TCP port: "
                          "socket://HOST:PORT", {"host": str, "port": int}, ("port",)),
        "serial": Backend("the framed link on a serial device: serial://DEVICE?baud=N",
                          {"device": str, "baud": int}, ("device",)),
        "pty": Backend("the framed link on a new pseudo-terminal (its path is printed)", {}),
    },
}
DEFAULT_BACKEND = {"fs": "host", "persist": "none", "can": "python-can"}
FRAM_SIZE = 2048              # the prior design's FRAM budget (≤ 2 KiB on AVR)
FLASH_SIZE, FLASH_PAGE = 16 * 1024, 4096
CAN_TIMEOUT_MS = 1000
TASK_TABLE = "task"           # the same file's task defaults: hsx.kernel.taskconfig reads it


@dataclass
class BackendConfig:
    """What to build: one table per kind ({"backend": name, key: value, ...}), or
    None for the executive's default."""

    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    origin: str = "the command line"

    def get(self, kind: str) -> dict[str, Any] | None:
        return self.tables.get(kind)


def list_backends() -> list[str]:
    """One line per backend, for `hsx execd --list-backends`."""
    return [f"{kind:<8} {name:<11} {backend.summary}"
            for kind, backends in CATALOGUE.items() for name, backend in backends.items()]


def load_config(path: str | os.PathLike[str]) -> BackendConfig:
    """Read and check a configuration file (BackendError says what is wrong, and where)."""
    import tomllib
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except OSError as error:
        raise BackendError(str(path), (error.strerror or str(error)).lower()) from None
    except tomllib.TOMLDecodeError as error:
        raise BackendError(str(path), f"not valid TOML: {error}") from None
    tables = {}
    for kind, table in data.items():
        if kind == TASK_TABLE:
            continue
        if kind not in CATALOGUE:
            raise BackendError(f"{path}: [{kind}]", "no such table", "the tables are "
                               f"{', '.join(f'[{k}]' for k in (*CATALOGUE, TASK_TABLE))}")
        if not isinstance(table, dict):
            raise BackendError(f"{path}: {kind}", "must be a table ([" + kind + "])")
        tables[kind] = _checked(f"{path}: [{kind}]", kind, dict(table), path.parent)
    return BackendConfig(tables, str(path))


def fs_shorthand(spec: str, config: BackendConfig | None = None) -> dict[str, Any]:
    """The [fs] table for `--fs host:DIR`, `--fs fat:IMAGE` or `--fs can:CHANNEL`."""
    name, sep, value = spec.partition(":")
    keys = {"host": "root", "fat": "image", "can": "channel"}
    if not sep or name not in keys or not value:
        raise BackendError(f"--fs {spec}", "not host:DIR, fat:IMAGE or can:CHANNEL",
                           "e.g. --fs fat:card.img (hsx execd --list-backends names them all)")
    table = {"backend": name, keys[name]: value}
    if name == "can" and config is not None and (can := config.get("can")):
        table["interface"] = can.get("interface", "virtual")  # the bus the file names
    return _checked(f"--fs {spec}", "fs", table, Path.cwd())


def link_shorthand(spec: str) -> dict[str, Any]:
    """The [link] table for `--link socket://HOST:PORT`, `serial://DEVICE?baud=N` or
    `pty`."""
    from urllib.parse import parse_qs, urlsplit
    where, hint = f"--link {spec}", "e.g. --link socket://127.0.0.1:4000, or --link pty"
    if spec == "pty":
        return {"backend": "pty"}
    parts = urlsplit(spec)
    try:
        if parts.scheme == "socket" and parts.port is not None:
            return {"backend": "socket", "host": parts.hostname or "127.0.0.1",
                    "port": parts.port}
        if parts.scheme == "serial" and parts.path:
            baud = parse_qs(parts.query).get("baud", ["115200"])[0]
            return {"backend": "serial", "device": parts.path, "baud": int(baud)}
    except ValueError as error:
        raise BackendError(where, str(error), hint) from None
    raise BackendError(where, "not socket://HOST:PORT, serial://DEVICE?baud=N or pty", hint)


def _checked(where: str, kind: str, table: dict[str, Any], base: Path) -> dict[str, Any]:
    name = table.pop("backend", DEFAULT_BACKEND[kind] if kind == "can" else None)
    choices = CATALOGUE[kind]
    if name not in choices:
        raise BackendError(where, f"backend {name!r} is not one of {', '.join(choices)}"
                           if name else "says no backend",
                           f'e.g. backend = "{next(iter(choices))}"')
    backend = choices[name]
    for key, value in table.items():
        if key not in backend.keys:
            allowed = ", ".join(backend.keys) or "no other keys"
            raise BackendError(f"{where} {key}", f"not a key of the {name} backend",
                               f"{name} takes {allowed}")
        wanted = backend.keys[key]
        if not isinstance(value, wanted) or (wanted is int and isinstance(value, bool)):
            raise BackendError(f"{where} {key}", f"must be {_type_name(wanted)}, not {value!r}")
    for key in backend.required:
        if key not in table:
            raise BackendError(where, f"the {name} backend needs {key}")
    for key in backend.paths:
        if key in table:
            table[key] = str(base / Path(table[key]).expanduser())
    return {"backend": name, **table}


def _type_name(wanted: type) -> str:
    return {str: "a string", int: "a whole number", bool: "true or false"}[wanted]


@dataclass
class Backends:
    """The backends built from a configuration (None: the executive's default)."""

    fs: FileSystem | None
    store: PersistenceStore | None
    bus: Bus | None


def build(config: BackendConfig, *, max_open_per_task: int = 32) -> Backends:
    """The backends the configuration names (None where the executive's default serves)."""
    return Backends(_build_fs(config, max_open_per_task), _build_store(config),
                    _build_bus(config))


def _build_fs(config: BackendConfig, max_open: int) -> FileSystem | None:
    table = config.get("fs")
    if table is None:
        return None
    name = table["backend"]
    try:
        if name == "host":
            return SandboxFS(table["root"], max_open_per_task=max_open)
        if name == "fat":
            from .blockdev import ImageBlockDevice
            from .filesystems.fat import FatFileSystem
            device = ImageBlockDevice(table["image"])
            try:
                return FatFileSystem(device, max_open_per_task=max_open)
            except OSError:
                device.close()
                raise
        from .filesystems.can import CanFileSystem, open_can_bus
        bus = open_can_bus(table.get("interface", "virtual"), table["channel"])
        ids = {k: table[k] for k in ("server_id", "client_id") if k in table}
        return CanFileSystem(bus, timeout=table.get("timeout_ms", CAN_TIMEOUT_MS) / 1000,
                             max_open_per_task=max_open, location=f"can:{table['channel']}",
                             **ids)
    except OSError as error:
        where = table.get("root") or table.get("image") or table.get("channel")
        why = (error.strerror or str(error)).lower() if error.strerror else str(error)
        hint = {"host": "choose another directory with --root or --fs host:DIR",
                "fat": "make an image with hsx fs mkfs"}.get(name)
        raise BackendError(where, f"cannot use it as the guests' file system: {why}",
                           hint) from None
    except Exception as error:                # python-can raises its own types
        raise BackendError(f"[fs] {name}", str(error)) from None


def _build_store(config: BackendConfig) -> PersistenceStore | None:
    table = config.get("persist")
    if table is None or table["backend"] == "none":
        return None
    name = table["backend"]
    from .registry import PersistError
    try:
        if name == "sqlite":
            from .registry.persist import PersistStore
            return PersistStore(table["path"])
        from .persistdev import FlashImage, FramImage
        from .registry.logstore import LogStore
        fsync = table.get("fsync", True)
        if name == "fram":
            return LogStore(FramImage(table["path"], table.get("size", FRAM_SIZE), fsync=fsync))
        return LogStore(FlashImage(table["path"], table.get("size", FLASH_SIZE),
                                   table.get("page_size", FLASH_PAGE), fsync=fsync))
    except (OSError, ValueError, PersistError) as error:
        raise BackendError(f"[persist] {name}", str(error)) from None


def _build_bus(config: BackendConfig) -> Bus | None:
    table = config.get("can")
    if table is None:
        return None
    from .bus import PythonCanBus
    return PythonCanBus(table.get("channel", "hsx"), table.get("interface", "virtual"))
