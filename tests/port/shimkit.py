"""Build test-only shared libraries from port/c sources with the ziglang wheel's zig cc
(cached by a hash of the sources and flags), for ctypes tests of single C modules."""
from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

from hsx.vm.native.build import cache_dir

PORT = Path(__file__).resolve().parents[2] / "port" / "c"
HERE = Path(__file__).resolve().parent
FLAGS = ("-std=c99", "-O1", "-g", "-fPIC", "-shared", "-Wall", "-Wextra", "-Werror")


def zig() -> str:
    import ziglang
    return str(Path(ziglang.__file__).resolve().parent / "zig")


def build_shim(name: str, sources: list[Path], defines: dict[str, int] | None = None) -> ctypes.CDLL:
    """Compile `sources` (with port/c on the include path) into a library and load it."""
    flags = [*FLAGS, *(f"-D{k}={v}" for k, v in sorted((defines or {}).items()))]
    digest = hashlib.sha256(" ".join(flags).encode())
    for source in sorted(sources) + sorted(PORT.glob("*.h")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    out_dir = cache_dir().parent / "shims"
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{name}-{digest.hexdigest()[:16]}.so"
    if not target.is_file():
        partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        subprocess.run([zig(), "cc", *flags, "-I", str(PORT), "-o", str(partial),
                        *map(str, sources)], check=True, capture_output=True, text=True,
                       timeout=600, cwd=tempfile.gettempdir())
        os.replace(partial, target)
    return ctypes.CDLL(str(target))
