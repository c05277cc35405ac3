"""Helpers for the C compiler tests: build C with `hsx cc`'s driver, run it on the VM
in-process, and build/run the same program natively with gcc for comparison."""
from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hsx.vm import Machine, StandaloneSvc, StopReason

PROGRAMS = Path(__file__).parent / "programs"
CONFORMANCE = Path(__file__).parent / "conformance"
MAX_STEPS = 200_000_000


requires_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


def run_image(image, max_steps: int = MAX_STEPS, engine: str | None = None) -> tuple[bytes, int]:
    """Run an image with the standalone SVCs (on `engine`, "python" or "native"; None:
    $HSX_ENGINE's); (stdout bytes, exit status & 0xFF)."""
    out, err = io.BytesIO(), io.BytesIO()
    machine = Machine(StandaloneSvc(stdout=out, stderr=err), engine=engine)
    ctx = machine.create_context(image)
    while True:
        stop = machine.run(ctx, min(1 << 22, max_steps - ctx.steps))
        if stop.reason in (StopReason.EXITED, StopReason.RETURNED):
            return out.getvalue(), stop.status & 0xFF
        if stop.reason is StopReason.FAULT:
            raise AssertionError(f"fault: {stop.fault.describe()}\nstdout so far:\n"
                                 f"{out.getvalue().decode(errors='replace')}")
        if stop.reason is StopReason.BRK:
            raise AssertionError(f"BRK {stop.code} at pc 0x{stop.pc:04X}")
        if ctx.steps >= max_steps:
            raise AssertionError(f"still running after {max_steps} instructions")


def compile_and_run(tmp_path: Path, source: str, opt: int = 2, name: str = "t") -> tuple[str, int]:
    """Compile C text with hsx cc and run it; (stdout text, exit status)."""
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path / f"{name}.c"
    path.write_text(source)
    result, _ = build_c([str(path)], Options(opt=opt))
    out, status = run_image(result.image)
    return out.decode("utf-8", errors="replace"), status


def function_lines(mvasm: str, name: str) -> list[str]:
    """The instructions of one function of a listing."""
    lines = mvasm.splitlines()
    start = lines.index(f"{name}:") + 1
    out = []
    for line in lines[start:]:
        if line.startswith(".export") or (line and not line.startswith((" ", ".L"))):
            break
        if line.startswith("    "):
            out.append(line.strip())
    return out


def hsx(*args, cwd) -> subprocess.CompletedProcess:
    """Run the `hsx` command line in `cwd`; its status and text output."""
    return subprocess.run([sys.executable, "-m", "hsx", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def native_run(source: Path, workdir: Path, cwd: Path | None = None) -> tuple[bytes, int]:
    """Build `source` with the host's gcc and run it (in `cwd`); (stdout, exit status)."""
    exe = workdir / (source.stem + ".native")
    subprocess.run(["gcc", "-O0", "-w", "-fwrapv", "-o", str(exe), str(source), "-lm"],
                   check=True, capture_output=True)
    result = subprocess.run([str(exe.resolve())], capture_output=True, timeout=60, cwd=cwd)
    return result.stdout, result.returncode & 0xFF


def run_in_kernel(image, fs_root: Path, max_steps: int = MAX_STEPS) -> tuple[bytes, int]:
    """Run an image as a task of an executive whose sandbox is `fs_root`, on virtual
    time; (stdout bytes, exit status & 0xFF)."""
    from hsx.kernel.clock import VirtualClock
    from hsx.kernel.executive import Kernel
    from hsx.kernel.runner import run_to_completion
    out = bytearray()

    def sink(task, fd, data):
        if fd == 1:
            out.extend(data)
    kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=fs_root, output=sink)
    task = kernel.load(image, name="conformance")
    outcome = run_to_completion(kernel, max_instructions=max_steps)
    if task.fault is not None:
        raise AssertionError(f"fault: {task.fault.describe()}\nstdout so far:\n"
                             f"{out.decode(errors='replace')}")
    if outcome.reason != "done" or task.exit_status is None:
        raise AssertionError(f"did not finish: {outcome.reason}\nstdout so far:\n"
                             f"{out.decode(errors='replace')}")
    return bytes(out), task.exit_status & 0xFF


def expected_text(stdout: bytes, status: int) -> bytes:
    """A conformance program's `.expected` file: its stdout, then `<exit N>`."""
    return stdout + b"<exit %d>\n" % status
