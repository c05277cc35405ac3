"""The host build of the C executive beside `hsx run`: build images once per session,
run them under both, and compare what a user sees (stdout and the exit status)."""
from __future__ import annotations

import functools
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from hsx.board.build import VARIANTS, find_or_build
from hsx.image.hxe import normalize_app_name, write_hxe

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PROGRAMS = ROOT / "tests" / "cc" / "programs"
CONFORMANCE = ROOT / "tests" / "cc" / "conformance"
HERE = Path(__file__).resolve().parent
TIMEOUT = 120
ALL_VARIANTS = tuple(VARIANTS)


@dataclass(frozen=True)
class Outcome:
    stdout: bytes
    stderr: bytes
    status: int


@functools.lru_cache(maxsize=None)
def executable(variant: str) -> Path:
    """The host executive for `variant` (built on first use, then cached)."""
    return find_or_build(variant)


def build_image(source: Path, out_dir: Path) -> Path:
    """An .hxe from an .mvasm or .c source (as `hsx asm` / `hsx cc -O2` build it)."""
    target = out_dir / f"{source.stem}.hxe"
    if target.is_file():
        return target
    name = normalize_app_name(source.stem)
    if source.suffix == ".mvasm":
        from hsx.toolchain.build import assemble_file, link_objects
        image, _ = link_objects([assemble_file(source)], app_name=name)
    else:
        from hsx.toolchain.cc.driver import Options, build_c
        result, _ = build_c([str(source)], Options(opt=2), name)
        image = result.image
    target.write_bytes(write_hxe(image))
    return target


def _run(cmd: list[str], stdin: bytes, timeout: float) -> Outcome:
    done = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
    return Outcome(done.stdout, done.stderr, done.returncode)


def run_python(images: list[Path], root: Path, stdin: bytes = b"", *extra: str,
               timeout: float = TIMEOUT) -> Outcome:
    """`hsx run IMAGES --root ROOT` (the Python executive, the reference)."""
    return _run([sys.executable, "-m", "hsx", "run", *map(str, images), "--root", str(root),
                 *extra], stdin, timeout)


def run_host(variant: str, images: list[Path], root: Path, stdin: bytes = b"", *extra: str,
             timeout: float = TIMEOUT) -> Outcome:
    """`hsx-exec-host --run IMAGES --root ROOT` (the C executive)."""
    return _run([str(executable(variant)), "--run", *map(str, images), "--root", str(root),
                 *extra], stdin, timeout)
