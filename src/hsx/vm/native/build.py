"""Build the native engine (port/c/) into a shared library with the ziglang wheel's
`zig cc`, so no system C compiler is needed.

The library's file name carries a checksum of the C sources: a build made at install
time (setup.py) or later into the user's cache is used only while it matches the
sources, so an edited core is rebuilt instead of silently running stale code. This module uses
the standard library only: setup.py runs it before hsx is installed.
"""
from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
SOURCES = ("hsx_vm.c", "hsx_decode.c", "hsx_f16.c", "hsx_fp.c")
HEADERS = ("hsx_vm.h", "hsx_decode.h", "hsx_f16.h", "hsx_fp.h", "hsx_opcodes.h", "hsx_ops.inc")
# -enable-tail-merge=false keeps a copy of the dispatch at the end of every instruction
# of the threaded run loop (merged into one, its indirect jump predicts like a switch);
# -fomit-frame-pointer gives that loop one more register for its hot values (with the
# compact pairs' code in it, the peer workloads ran 2-7 % slower for want of one);
# -Bsymbolic binds the core's calls into its own float routines directly, not through
# the PLT (ELF only).
FLAGS = ("-std=c99", "-O2", "-fomit-frame-pointer", "-mllvm", "-enable-tail-merge=false",
         "-ffreestanding", "-nostdlib", "-fPIC", "-shared", "-Wall", "-Wextra", "-Werror",
         *(("-Wl,-Bsymbolic",) if sys.platform.startswith("linux") else ()))
# Build variants: the host's pre-decoding core, and the one microcontrollers use, which
# decodes at fetch (built on the host too, so the tests run it).
VARIANTS = {"": (), "fetch": ("-DHSX_DECODE_AT_FETCH",)}


class BuildError(Exception):
    """The native engine cannot be built here (the message says why)."""


def source_dir() -> Path | None:
    """port/c of the source tree, when hsx runs from one (an editable install)."""
    env = os.environ.get("HSX_PORT_DIR")
    candidate = Path(env) if env else PACKAGE_DIR.parents[3] / "port" / "c"
    return candidate if (candidate / SOURCES[0]).is_file() else None


def source_digest(sources: Path, names: tuple[str, ...], flags: tuple[str, ...]) -> str:
    """A checksum of the named files under `sources` and the compiler flags: what a build
    in the cache is keyed by, so an edited source is rebuilt, never run stale.

    CRC-32 and Adler-32 of the lot (64 bits), from zlib, which every `hsx run` has
    loaded already to check the image: SHA-256 meant importing hashlib, whose OpenSSL
    was 2.5 ms of each start-up, and the key guards against edits, not forgeries."""
    data = b"".join(name.encode() + (sources / name).read_bytes() for name in names)
    data += " ".join(flags).encode()
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def library_name(sources: Path, variant: str = "") -> str:
    flags = FLAGS + VARIANTS[variant]
    suffix = ".dll" if os.name == "nt" else ".dylib" if sys.platform == "darwin" else ".so"
    stem = f"libhsxvm{'-' + variant if variant else ''}"
    return f"{stem}-{source_digest(sources, SOURCES + HEADERS, flags)}{suffix}"


def cache_dir() -> Path:
    import tempfile                 # (here: every hsx process finds the library, few build it)
    base = os.environ.get("HSX_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), f"hsx-cc-{os.getuid() if hasattr(os, 'getuid') else 0}")
    return Path(base) / "native"


def zig_cc(args: list[str], target: Path) -> Path:
    """Run the ziglang wheel's `zig cc ARGS -o TARGET` (written under a temporary name
    and renamed, so a parallel or interrupted build never leaves half a file); the
    target's path. BuildError on failure."""
    try:
        import ziglang
    except ImportError:
        raise BuildError("the 'ziglang' package (its C compiler) is not installed") from None
    import subprocess
    zig = Path(ziglang.__file__).resolve().parent / ("zig.exe" if os.name == "nt" else "zig")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        done = subprocess.run([str(zig), "cc", *args, "-o", str(partial)], capture_output=True,
                              text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BuildError(f"cannot run zig cc: {error}") from None
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["(no output)"])[0]
        raise BuildError(f"zig cc failed: {first}")
    os.replace(partial, target)
    return target


def build(sources: Path, out_dir: Path, variant: str = "") -> Path:
    """Compile the core into out_dir; the library's path. BuildError on failure."""
    target = out_dir / library_name(sources, variant)
    if target.is_file():
        return target
    return zig_cc([*FLAGS, *VARIANTS[variant], *(str(sources / s) for s in SOURCES)], target)


def installed_library() -> Path | None:
    """A library built at install time into the package, when there are no sources to
    check it against (a wheel install)."""
    found = sorted(PACKAGE_DIR.glob("libhsxvm-[0-9a-f]*"))
    return found[-1] if found else None


def find_or_build(variant: str = "") -> Path:
    """The library matching the sources (built into the cache on first use)."""
    sources = source_dir()
    if sources is None:
        lib = installed_library() if not variant else None
        if lib is None:
            raise BuildError("it was not built at install time and its C sources are "
                             "not available")
        return lib
    name = library_name(sources, variant)
    if (PACKAGE_DIR / name).is_file():
        return PACKAGE_DIR / name
    return build(sources, cache_dir(), variant)     # (or the one built there before)


if __name__ == "__main__":          # setup.py: python build.py PORT_DIR OUT_DIR
    print(build(Path(sys.argv[1]), Path(sys.argv[2])))
