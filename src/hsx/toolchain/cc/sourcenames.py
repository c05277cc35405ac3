"""How the compiler names source files in what it writes (line tables, function and
variable records of the `.sym`), and where those files are.

A name is the file's path relative to the directory the build runs in when the file is
below it (`prog.c`, `include/util.h`), else its absolute path, with `/` separators.  The files of HSX's C library
are `lib/…` wherever hsx is installed (`lib/include/stdio.h`, `lib/src/printf.c`,
`lib/crt0.mvasm`): the same in every build, as the library is compiled once for all of
them; a file of the build's own that would also be called `lib/…` is `./lib/…`.  The
`.sym`'s `sources` maps every name to the absolute path of the file, so a debugger finds
the text wherever it runs (`source_paths`).
"""
from __future__ import annotations

import os
from pathlib import Path

LIBRARY = "lib/"


def lib_dir() -> Path:
    """The C runtime sources: $HSX_LIB_DIR, else `lib/` of the source tree."""
    env = os.environ.get("HSX_LIB_DIR")
    if env:
        return Path(env).absolute()
    return Path(__file__).resolve().parents[4] / "lib"


def source_name(path: str, directory: str | None = None) -> str:
    """The name of the file at `path` (relative to `directory`, else to the current
    directory), as the compiler writes it.  clang 22 names a DIFile by `directory` and a
    `filename` that may be relative to it, and that directory need be neither the
    current one nor the file's own: the two are joined before anything else."""
    if directory and not os.path.isabs(path):
        path = os.path.join(directory, path)
    full = os.path.normpath(os.path.abspath(path))
    library = os.path.realpath(lib_dir())
    real = os.path.realpath(full)
    if real.startswith(library + os.sep):
        return LIBRARY + os.path.relpath(real, library).replace(os.sep, "/")
    name = os.path.relpath(full)
    if name == os.pardir or name.startswith(os.pardir + os.sep):
        return full.replace(os.sep, "/")            # not below the build directory
    name = name.replace(os.sep, "/")
    return "./" + name if name.startswith(LIBRARY) else name


def source_path(name: str) -> str:
    """The absolute path of the file the compiler called `name` in this directory."""
    if name.startswith(LIBRARY):
        return str(lib_dir() / name[len(LIBRARY):])
    return os.path.abspath(name)


def source_paths(names) -> dict[str, str]:
    """`sources` of a `.sym`: each name (None and duplicates left out) to its path."""
    return {name: source_path(name) for name in sorted({n for n in names if n})}
