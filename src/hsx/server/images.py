"""Reading an image named by a path: `.hxe` as is, `.mvasm` and `.c` built on the fly (as
`hsx run` does), so a developer can load a source file straight into the executive.
A program built here keeps its symbols (written to a build directory of this process),
so breakpoints by name and source lines work as for an `.hxe` with its `.sym`.

Compiling C takes long enough to matter, so `needs_thread` tells the caller to build off
the event loop; reading never touches the kernel, loading does (on the loop).  C is
compiled by `hsx cc` in a child process: clang and LLVM are large native code, and
whatever goes wrong in them must never take the executive down.  Its options (`-O`,
`-g`, `-I`, `-D`) come with the request (`cc_flags`), and a build that fails replies
with every diagnostic the compiler printed."""
from __future__ import annotations

import atexit
import itertools
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hsx.image.errors import ImageError
from hsx.image.hxe import normalize_app_name, read_hxe_file
from hsx.image.model import HxeImage
from hsx.image.sym import write_sym
from hsx.kernel.executive import Kernel
from hsx.kernel.task import Task
from hsx.kernel.taskargs import TaskOptions

from .errors import RequestError


LOADABLE = (".hxe", ".mvasm", ".c")
MAX_PROGRAM_FILE = 64 << 20          # bytes of an .hxe, .mvasm or .c named by `load`
OPT_LEVELS = ("0", "1", "2", "3", "s", "z")
MAX_DIAGNOSTICS = 64 * 1024          # characters of compiler output in a reply
_MACRO = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(=.*)?\Z", re.S)


@dataclass(frozen=True)
class Program:
    image: HxeImage
    symbols: Path | None      # the .sym beside the file, or the one its build wrote


def cc_flags(options: dict | None) -> tuple[str, ...]:
    """`hsx cc` arguments for a load's `cc` object {opt, debug, include, define}
    (already checked by the schema; macros are checked here)."""
    options = options or {}
    flags = [f"-O{options.get('opt') or '2'}"]
    if options.get("debug"):
        flags.append("-g")
    flags += [f"-I{d}" for d in options.get("include") or ()]
    for macro in options.get("define") or ():
        if not _MACRO.match(macro):
            raise RequestError("bad_argument", f"'cc.define' must be NAME or NAME=VALUE, "
                               f"not {macro!r}")
        flags.append(f"-D{macro}")
    return tuple(flags)


def read_program(path: str | os.PathLike, flags: tuple[str, ...] = ()) -> Program:
    """The checked image at `path` and its symbols, or a RequestError saying what is
    wrong with it; a `.c` is compiled with `flags` (see `cc_flags`)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in LOADABLE:
        raise RequestError("unsupported_file", f"{path}: not an HXE image, MVASM or C "
                           f"source (the name must end in {', '.join(LOADABLE)})")
    host_file(path, MAX_PROGRAM_FILE, "file_not_found", "program")
    try:
        if suffix in (".mvasm", ".c"):
            from hsx.toolchain.diagnostics import ToolchainError
            try:
                return _compile_c(path, flags) if suffix == ".c" else _assemble(path)
            except ToolchainError as error:
                raise RequestError("build_failed", f"{path}: {error}") from None
        sym = path.with_suffix(".sym")
        return Program(read_hxe_file(path), sym if sym.is_file() else None)
    except ImageError as error:
        raise RequestError(f"bad_image:{error.code}", f"{path}: {error}") from None
    except OSError as error:
        raise RequestError("file_not_found", f"{path}: {error.strerror or error}") from None


def host_file(path: str | os.PathLike, max_bytes: int, code: str, what: str) -> Path:
    """`path` if it names a regular file of at most `max_bytes` (a client may name any
    path: /dev/zero, a pipe or a huge file must be refused before anything reads it)."""
    path = Path(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise RequestError(code, f"no such file: {path}") from None
    except OSError as error:
        raise RequestError(code, f"{path}: {(error.strerror or str(error)).lower()}") from None
    if stat.S_ISDIR(info.st_mode):
        raise RequestError(code, f"{path}: is a directory, not a {what} file")
    if not stat.S_ISREG(info.st_mode):
        raise RequestError(code, f"{path}: not a regular file (a device, pipe or socket)")
    if info.st_size > max_bytes:
        raise RequestError("file_too_large", f"{path}: {info.st_size} bytes, more than a "
                           f"{what} file may have ({max_bytes >> 20} MiB)")
    return path


def _assemble(path: Path) -> Program:
    from hsx.toolchain.build import assemble_file, link_objects
    image, symbols = link_objects([assemble_file(path)], app_name=normalize_app_name(path.stem))
    sym = _build_file(path, ".sym")
    sym.write_bytes(write_sym(symbols))
    return Program(image, sym)


def _compile_c(path: Path, flags: tuple[str, ...]) -> Program:
    with tempfile.TemporaryDirectory(prefix="hsx-cc-") as tmp:
        out = Path(tmp) / f"{path.stem}.hxe"
        done = subprocess.run([sys.executable, "-m", "hsx", "cc", *flags, "-o", str(out),
                               "--", str(path)], capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or not out.is_file():
            said = (done.stderr or done.stdout).strip() or \
                f"the compiler ended with status {done.returncode}"
            if len(said) > MAX_DIAGNOSTICS:
                said = said[:MAX_DIAGNOSTICS] + "\n… (more diagnostics left out)"
            raise RequestError("build_failed", f"{path}: the build failed:\n{said}")
        sym = None
        if out.with_suffix(".sym").is_file():
            sym = _build_file(path, ".sym")
            shutil.copyfile(out.with_suffix(".sym"), sym)
        return Program(read_hxe_file(out), sym)


_builds: list[Path] = []
_serial = itertools.count(1)


def _build_file(source: Path, suffix: str) -> Path:
    """A fresh file for what building `source` produced, in a directory this process
    removes when it exits."""
    if not _builds:
        _builds.append(Path(tempfile.mkdtemp(prefix="hsx-execd-")))
        atexit.register(shutil.rmtree, _builds[0], True)
    return _builds[0] / f"{source.stem}-{next(_serial)}{suffix}"


def needs_thread(path: str | os.PathLike) -> bool:
    return Path(path).suffix.lower() == ".c"


def load_program(kernel: Kernel, program: Program, path: str | os.PathLike,
                 name: str | None = None, flags: tuple[str, ...] = (),
                 options: TaskOptions | None = None) -> Task:
    """Load a program read from `path`, remembering the file, its symbols and the
    compiler flags it was built with (a restart builds it the same way)."""
    task = kernel.load(program.image, name=name, options=options)
    task.source = os.fspath(path)
    task.symbols_path = program.symbols
    task.build_flags = flags
    return task


def load_file(kernel: Kernel, path: str | os.PathLike, name: str | None = None,
              options: TaskOptions | None = None) -> Task:
    return load_program(kernel, read_program(path), path, name, options=options)
