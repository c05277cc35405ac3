"""One factory for every PersistenceStore backend, so a suite runs once per backend."""
from __future__ import annotations

from pathlib import Path

from hsx.kernel.registry import PersistKey

STORE_BACKENDS = ["sqlite", "fram", "flash"]
FRAM_SIZE = 2048              # the prior design's FRAM budget
FLASH_SIZE, FLASH_PAGE = 4 * 1024, 1024


def open_store(kind: str, directory: Path, *, fram_size: int = FRAM_SIZE,
               flash_size: int = FLASH_SIZE, flash_page: int = FLASH_PAGE, fsync: bool = True):
    """The store of `kind` in `directory` (made on first use, opened again after)."""
    from hsx.kernel.persistdev import FlashImage, FramImage
    from hsx.kernel.registry import PersistStore
    from hsx.kernel.registry.logstore import LogStore
    if kind == "sqlite":
        return PersistStore(directory / "values.sqlite3")
    if kind == "fram":
        return LogStore(FramImage(directory / "values.fram", fram_size, fsync=fsync))
    if kind == "flash":
        return LogStore(FlashImage(directory / "values.flash", flash_size, flash_page, fsync=fsync))
    raise ValueError(kind)


KEYS = [PersistKey(f"app{n % 3}", 1 + n) for n in range(16)]


def batch(step: int) -> dict[PersistKey, int]:
    """What commit number `step` writes: one to three values, decided by the step alone."""
    return {KEYS[(step * 5 + j * 11) % len(KEYS)]: (step * 3 + j) & 0xFFFF
            for j in range(1 + step % 3)}
