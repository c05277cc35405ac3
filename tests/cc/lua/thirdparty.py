"""The Lua 5.4 interpreter's C sources (about 30,000 lines, lupa's source distribution
bundles them), fetched at test time and never kept in this repository.

Where they come from, first found: `$HSX_LUA_SOURCES` (a directory with Lua 5.4's
`lapi.c`, `lua.c`, …); a lupa sdist cached in hsx's cache directory; else `pip download`
of that sdist from PyPI into the cache, checked against its SHA-256.  `sources()` says
why not (a skip reason) when none of these works, e.g. without network.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import platformdirs

LUPA = "lupa==2.8"
SDIST = "lupa-2.8.tar.gz"
SHA256 = "d8022641b9ec8ecf2c5ecbe9f47e5a70e0b87c4b5ae921b92cb02a638e0acd08"
MEMBERS = "lupa-2.8/third-party/lua54/"
# The interpreter `lua` is every file but the test library and the one-file build.
LEFT_OUT = {"ltests.c", "onelua.c"}


class Unavailable(Exception):
    """Why the sources could not be had."""


def _cached_sdist() -> Path:
    cache = Path(platformdirs.user_cache_dir("hsx", appauthor=False)) / "third-party"
    sdist = cache / SDIST
    if sdist.is_file() and hashlib.sha256(sdist.read_bytes()).hexdigest() == SHA256:
        return sdist
    cache.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:",
                               "--no-deps", "--quiet", LUPA,
                               "-d", str(cache)], capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise Unavailable(f"pip download {LUPA} did not finish: {error}") from None
    if done.returncode != 0 or not sdist.is_file():
        said = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise Unavailable(f"pip download {LUPA} failed: {said[0]}")
    if hashlib.sha256(sdist.read_bytes()).hexdigest() != SHA256:
        sdist.unlink()
        raise Unavailable(f"{SDIST} from PyPI is not the expected file (SHA-256 differs)")
    return sdist


def sources(into: Path) -> list[Path]:
    """The interpreter's .c files (headers beside them), in `into` unless
    $HSX_LUA_SOURCES names a directory; raises Unavailable saying why not."""
    given = os.environ.get("HSX_LUA_SOURCES")
    if given:
        directory = Path(given)
        if not (directory / "lua.c").is_file():
            raise Unavailable(f"$HSX_LUA_SOURCES={given} has no lua.c")
    else:
        with tarfile.open(_cached_sdist()) as archive:
            members = [m for m in archive.getmembers()
                       if m.name.startswith(MEMBERS) and m.isfile()
                       and "/" not in m.name[len(MEMBERS):]]
            for member in members:
                member.name = member.name[len(MEMBERS):]
                archive.extract(member, into, filter="data")
        directory = into
    return sorted(p for p in directory.glob("*.c") if p.name not in LEFT_OUT)
