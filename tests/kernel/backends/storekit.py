"""One factory for every PersistenceStore backend, so a suite runs once per backend."""
from __future__ import annotations

from pathlib import Path

STORE_BACKENDS = ["sqlite", "fram", "flash"]
FRAM_SIZE = 2048              # the prior design's FRAM budget
FLASH_SIZE, FLASH_PAGE = 4 * 1024, 1024


def open_store(kind: str, directory: Path, *, fram_size: int = FRAM_SIZE,
               flash_size: int = FLASH_SIZE, flash_page: int = FLASH_PAGE):
    """The store of `kind` in `directory` (made on first use, opened again after)."""
    from hsx.kernel.persistdev import FlashImage, FramImage
    from hsx.kernel.registry import PersistStore
    from hsx.kernel.registry.logstore import LogStore
    if kind == "sqlite":
        return PersistStore(directory / "values.sqlite3")
    if kind == "fram":
        return LogStore(FramImage(directory / "values.fram", fram_size))
    if kind == "flash":
        return LogStore(FlashImage(directory / "values.flash", flash_size, flash_page))
    raise ValueError(kind)
