"""What the host knows of the images a board runs: the image, its `.sym`, where its
files are.  Keyed by the image's code (SHA-256 of the code bytes, what the board can
show the host with `peek {space: code}`), in memory and in a directory
(`$HSX_IMAGE_STORE`, else the user's cache directory), so a debugger started later,
or another front end, finds the symbols of a task it did not load."""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from hsx.image.hxe import ImageError, read_hxe
from hsx.image.model import HxeImage
from hsx.image.sym import SymbolFileError, SymbolTable, read_sym, write_sym

MAX_KEPT = 256                     # images kept on disk (the oldest go first)


@dataclass
class Known:
    image: HxeImage
    table: SymbolTable | None
    sym_path: str | None = None    # the .sym it came from (sources are looked for beside it)
    source: str | None = None      # the program file on this machine


def code_key(code: bytes) -> str:
    return hashlib.sha256(code).hexdigest()[:32]


def default_directory() -> Path:
    configured = os.environ.get("HSX_IMAGE_STORE")
    return Path(configured) if configured else platformdirs.user_cache_path("hsx") / "images"


class ImageStore:
    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else default_directory()
        self._known: dict[str, Known] = {}

    def remember(self, data: bytes, image: HxeImage, table: SymbolTable | None,
                 sym_path: str | None, source: str | None) -> Known:
        known = Known(image, table, sym_path, source)
        key = code_key(image.code)
        self._known[key] = known
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if data:
                (self.directory / f"{key}.hxe").write_bytes(data)
            if table is not None:
                (self.directory / f"{key}.sym").write_bytes(write_sym(table))
            (self.directory / f"{key}.json").write_text(json.dumps(
                {"sym_path": sym_path, "source": source}))
            self._trim()
        except OSError:
            pass                   # a read-only cache: this process still knows it
        return known

    def remember_table(self, image: HxeImage, table: SymbolTable | None,
                       sym_path: str | None) -> None:
        """New symbols for an image already known (`symbols.load`)."""
        key = code_key(image.code)
        known = self._known.get(key)
        if known is not None:
            known.table, known.sym_path = table, sym_path
            self.remember(self._image_bytes(key), image, table, sym_path, known.source)

    def _image_bytes(self, key: str) -> bytes:
        try:
            return (self.directory / f"{key}.hxe").read_bytes()
        except OSError:
            return b""

    def find(self, code: bytes) -> Known | None:
        key = code_key(code)
        known = self._known.get(key)
        if known is None:
            known = self._read(key)
            if known is not None and known.image.code == code:
                self._known[key] = known
            else:
                known = None
        return known

    def _read(self, key: str) -> Known | None:
        try:
            image = read_hxe((self.directory / f"{key}.hxe").read_bytes())
        except (OSError, ImageError):
            return None
        try:
            table = read_sym((self.directory / f"{key}.sym").read_text())
        except (OSError, SymbolFileError, UnicodeDecodeError):
            table = None
        try:
            where = json.loads((self.directory / f"{key}.json").read_text())
        except (OSError, ValueError):
            where = {}
        return Known(image, table, where.get("sym_path"), where.get("source"))

    def _trim(self) -> None:
        images = sorted(self.directory.glob("*.hxe"), key=lambda p: p.stat().st_mtime)
        for old in images[:-MAX_KEPT]:
            for suffix in (".hxe", ".sym", ".json"):
                old.with_suffix(suffix).unlink(missing_ok=True)


_stores: dict[Path, ImageStore] = {}


def shared_store() -> ImageStore:
    """This process's store for the configured directory (gateways share what they
    loaded)."""
    directory = default_directory()
    store = _stores.get(directory)
    if store is None:
        store = _stores[directory] = ImageStore(directory)
    return store
