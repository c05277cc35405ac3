"""HSX against its peers on the same four C workloads, with ratios from one run.

    python benchmarks/peer_bench.py [--quick] [--rss]
    (pip install -e '.[bench]' first for the WebAssembly peers)

Workloads (benchmarks/peers/*.c, sizes in peer.h): recursive fib, a sieve, a CoreMark-like
mix (list, matrix, state machine, CRC), and 64-bit integer + double arithmetic. Each runs:

- on HSX, built with `hsx cc -O2`, on the native engine and on the Python engine
  (machine time only: compiling and loading excluded);
- as the same algorithm written in plain CPython (benchmarks/peers/*.py);
- compiled to WebAssembly by the ziglang wheel's clang (-O2) and run by wasmtime (JIT)
  and by pywasm (a pure-Python interpreter), when they are installed (call time only).

Every run's checksum is checked against the others. `ratio` = time / CPython's time
(below 1.0: faster than the plain Python version). `--rss` adds the peak RSS of a whole
`hsx run --engine python` process per workload.
"""
from __future__ import annotations

import argparse
import importlib.util
import io
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hsx.toolchain.cc.driver import Options, build_c
from hsx.vm import Machine, StandaloneSvc, StopReason

PEERS = Path(__file__).resolve().parent / "peers"
QUICK = {"FIB_N": 22, "SIEVE_N": 5000, "SIEVE_ROUNDS": 4, "CORE_ITERATIONS": 100,
         "MIX_N": 500}
# workload -> the peer.h sizes its Python version takes, in order
RUNNERS = ("native", "python", "wasmtime", "pywasm")
WORKLOADS = {"fib": ("FIB_N",), "sieve": ("SIEVE_N", "SIEVE_ROUNDS"),
             "coremark": ("CORE_ITERATIONS", "CORE_LIST"), "mix": ("MIX_N",)}


def sizes(quick: bool) -> dict[str, int]:
    found = dict(re.findall(r"#define (\w+) (\d+)", (PEERS / "peer.h").read_text()))
    values = {name: int(value) for name, value in found.items()}
    if quick:
        values.update(QUICK)
    return values


def best_of(rounds: int, call) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(rounds):
        t0 = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - t0)
    return best, result


def cpython(name: str, size: dict[str, int]) -> tuple[float, int]:
    spec = importlib.util.spec_from_file_location(f"peer_{name}", PEERS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = [size[k] for k in WORKLOADS[name]]
    return best_of(3, lambda: module.run(*args))


def hsx_image(name: str, size: dict[str, int], workdir: Path):
    source = workdir / f"{name}.c"
    source.write_text((PEERS / f"{name}.c").read_text())
    (workdir / "peer.h").write_text((PEERS / "peer.h").read_text())
    defines = tuple(f"{k}={v}" for k, v in size.items())
    result, _ = build_c([str(source)], Options(opt=2, defines=defines), name)
    return result.image


def hsx(image, engine: str) -> tuple[float, int, int]:
    """(best machine seconds, checksum, guest instructions)."""
    best, checksum, executed = float("inf"), None, 0
    for _ in range(2 if engine == "python" else 3):
        out = io.BytesIO()
        machine = Machine(StandaloneSvc(stdout=out), engine=engine)
        ctx = machine.create_context(image)
        t0 = time.perf_counter()
        stop = machine.run(ctx, 1 << 40)
        best = min(best, time.perf_counter() - t0)
        if stop.reason not in (StopReason.EXITED, StopReason.RETURNED):
            raise SystemExit(f"hsx ({engine}) stopped: {stop}")
        checksum, executed = int(out.getvalue().split()[0]), stop.executed
    return best, checksum, executed


def wasm(name: str, size: dict[str, int], workdir: Path) -> Path:
    import ziglang
    zig = Path(ziglang.__file__).resolve().parent / "zig"
    out = workdir / f"{name}.wasm"
    subprocess.run([str(zig), "cc", "-target", "wasm32-freestanding", "-O2", "-nostdlib",
                    "-DPEER_WASM", *(f"-D{k}={v}" for k, v in size.items()),
                    "-Wl,--no-entry", "-Wl,--export=run", "-o", str(out),
                    str(PEERS / f"{name}.c")], check=True)
    return out


def wasmtime_run(path: Path) -> tuple[float, int] | None:
    try:
        import wasmtime
    except ImportError:
        return None
    store = wasmtime.Store()
    instance = wasmtime.Instance(store, wasmtime.Module.from_file(store.engine, str(path)), [])
    run = instance.exports(store)["run"]
    seconds, value = best_of(3, lambda: run(store))
    return seconds, value & 0xFFFFFFFF


def pywasm_run(path: Path) -> tuple[float, int] | None:
    try:
        import pywasm
    except ImportError:
        return None
    runtime = pywasm.core.Runtime()
    module = runtime.instance_from_file(str(path))
    seconds, value = best_of(1, lambda: runtime.invocate(module, "run", [])[0])
    return seconds, value & 0xFFFFFFFF


def peak_rss_mib(image_path: Path) -> float:
    """Peak RSS of a whole `hsx run --engine python` process."""
    probe = ("import resource, subprocess, sys;"
             "subprocess.run([sys.executable, '-m', 'hsx', 'run', '--engine', 'python', "
             f"{str(image_path)!r}], stdout=subprocess.DEVNULL, check=True);"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    return int(done.stdout) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads")
    parser.add_argument("--rss", action="store_true",
                        help="also measure peak RSS of `hsx run --engine python`")
    parser.add_argument("--only", choices=sorted(WORKLOADS), action="append",
                        help="run only these workloads")
    parser.add_argument("--runner", choices=RUNNERS, action="append",
                        help="run only these runners besides CPython (the base of the "
                             "ratios)")
    args = parser.parse_args()
    runners = args.runner or RUNNERS
    size = sizes(args.quick)
    print(f"Python {sys.version.split()[0]}; sizes: "
          + ", ".join(f"{k}={v}" for k, v in size.items()) + "\n")
    print(f"{'workload':<9} {'runner':<15} {'seconds':>9} {'ratio':>8} {'guest instrs':>14}"
          + (f" {'peak RSS':>9}" if args.rss else ""))
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for name in args.only or WORKLOADS:
            base, expected = cpython(name, size)
            rows = [("cpython", base, expected, None)]
            image = hsx_image(name, size, workdir)
            for engine in (e for e in ("native", "python") if e in runners):
                seconds, checksum, executed = hsx(image, engine)
                rows.append((f"hsx {engine}", seconds, checksum, executed))
            peers = [(runner, run) for runner, run in (("wasmtime", wasmtime_run),
                                                       ("pywasm", pywasm_run))
                     if runner in runners]
            module = wasm(name, size, workdir) if peers else None
            for runner, run in peers:
                measured = run(module)
                if measured is not None:
                    rows.append((runner, measured[0], measured[1], None))
            rss = None
            if args.rss and "python" in runners:
                from hsx.image.hxe import write_hxe
                path = workdir / f"{name}.hxe"
                path.write_bytes(write_hxe(image))
                rss = peak_rss_mib(path)
            for runner, seconds, checksum, executed in rows:
                if checksum != expected:
                    raise SystemExit(f"{name}: {runner} computed {checksum}, "
                                     f"CPython {expected}")
                line = (f"{name:<9} {runner:<15} {seconds:>9.4f} {seconds / base:>8.2f} "
                        f"{executed if executed is not None else '':>14,}"
                        if executed is not None else
                        f"{name:<9} {runner:<15} {seconds:>9.4f} {seconds / base:>8.2f} "
                        f"{'':>14}")
                if args.rss:
                    line += f" {rss:>6.1f} MiB" if runner == "hsx python" else f" {'':>9}"
                print(line)
            print()


if __name__ == "__main__":
    main()
