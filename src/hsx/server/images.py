"""Reading an image named by a path: `.hxe` as is, `.mvasm` and `.c` built on the fly (as
`hsx run` does), so a developer can load a source file straight into the executive.

Compiling C takes long enough to matter, so `needs_thread` tells the caller to build off
the event loop; reading never touches the kernel, loading does (on the loop).  C is
compiled by `hsx cc` in a child process: clang and LLVM are large native code, and
whatever goes wrong in them must never take the executive down."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hsx.image.errors import ImageError
from hsx.image.hxe import read_hxe_file
from hsx.image.model import HxeImage
from hsx.kernel.executive import Kernel
from hsx.kernel.task import Task

from .errors import RequestError


def read_image(path: str | os.PathLike) -> HxeImage:
    """The checked image at `path`, or a RequestError saying what is wrong with it."""
    path = Path(path)
    if not path.is_file():
        raise RequestError("file_not_found", f"no such file: {path}")
    suffix = path.suffix.lower()
    try:
        if suffix in (".mvasm", ".c"):
            from hsx.toolchain.diagnostics import ToolchainError
            try:
                if suffix == ".c":
                    return _compile_c(path)
                from hsx.toolchain.build import build_file
                return build_file(path)
            except ToolchainError as error:
                raise RequestError("build_failed", f"{path}: {error}") from None
        return read_hxe_file(path)
    except ImageError as error:
        raise RequestError(f"bad_image:{error.code}", f"{path}: {error}") from None
    except OSError as error:
        raise RequestError("file_not_found", f"{path}: {error.strerror or error}") from None


def _compile_c(path: Path) -> HxeImage:
    with tempfile.TemporaryDirectory(prefix="hsx-cc-") as tmp:
        out = Path(tmp) / f"{path.stem}.hxe"
        done = subprocess.run([sys.executable, "-m", "hsx", "cc", "-O2", str(path), "-o", str(out)],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or not out.is_file():
            why = (done.stderr or done.stdout).strip().splitlines() or [
                f"the compiler ended with status {done.returncode}"]
            raise RequestError("build_failed", f"{path}: {why[-1]}")
        return read_hxe_file(out)


def needs_thread(path: str | os.PathLike) -> bool:
    return Path(path).suffix.lower() == ".c"


def load_image(kernel: Kernel, image: HxeImage, path: str | os.PathLike,
               name: str | None = None) -> Task:
    """Load an image read from `path`, remembering the file (and its `.sym`)."""
    task = kernel.load(image, name=name)
    task.source = os.fspath(path)
    symbols = Path(path).with_suffix(".sym")
    task.symbols_path = symbols if symbols.is_file() else None
    return task


def load_file(kernel: Kernel, path: str | os.PathLike, name: str | None = None) -> Task:
    return load_image(kernel, read_image(path), path, name)
