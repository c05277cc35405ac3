"""HSX against its peers on the same four C workloads, in one run: ratios, checksums, targets.

    pip install -e '.[bench]'                         # pywasm3 and wasmtime, pinned
    python benchmarks/peer_bench.py [--quick] [--only W] [--runner R] [--rss]

Workloads (benchmarks/peers/*.c, sizes below; peer.h has the same defaults): recursive
fib(35); a sieve of 20,000, 1,000 times; a CoreMark-like mix (list, matrix, state
machine, CRC) 30,000 times; 2,000,000 rounds of 64-bit integer and double arithmetic.
Each C source is compiled once per runner, at -O2:

- `hsx native`, `hsx python`: `hsx cc -O2`, run on that engine (machine time: compiling
  and loading excluded);
- `wasm3` (pywasm3, the interpreter built for microcontrollers) and `wasmtime` (a JIT):
  the ziglang wheel's clang for wasm32 (`python -m ziglang cc -target
  wasm32-freestanding`), call time;
- `cc`: the host C compiler (`$CC`, else `cc`, else `python -m ziglang cc`), the time
  of `run()` measured inside the program;
- `cpython`: the same algorithm in plain Python (benchmarks/peers/*.py).

Every runner's checksum must equal CPython's. The table gives each runner's seconds and
`hsx/x`, HSX native's time over that runner's; the targets of issue 26 follow (HSX
native <= 1.0x wasm3, stretch 0.7x, and <= 20x the host compiler's -O2). `hsx python`
and `pywasm` (a pure-Python interpreter) take minutes at these sizes: ask for them with
--runner, or use --quick.
"""
from __future__ import annotations

import argparse
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hsx.toolchain.cc.driver import Options, build_c
from hsx.vm import Machine, StandaloneSvc, StopReason

PEERS = Path(__file__).resolve().parent / "peers"
QUICK = {"FIB_N": 24, "SIEVE_N": 5000, "SIEVE_ROUNDS": 4, "CORE_ITERATIONS": 100,
         "MIX_N": 2000}
# workload -> the sizes its Python version takes, in order
WORKLOADS = {"fib": ("FIB_N",), "sieve": ("SIEVE_N", "SIEVE_ROUNDS"),
             "coremark": ("CORE_ITERATIONS", "CORE_LIST"), "mix": ("MIX_N",)}
RUNNERS = ("hsx native", "wasm3", "wasmtime", "cc", "hsx python", "pywasm")
SLOW = ("hsx python", "pywasm")             # not run at full size unless asked for
ROUNDS = 3                                  # best of, for all but the slow ones
WASM3_TARGET, WASM3_STRETCH, CC_TARGET = 1.0, 0.7, 20.0


def sizes(quick: bool) -> dict[str, int]:
    found = dict(re.findall(r"#define (\w+) (\d+)", (PEERS / "peer.h").read_text()))
    values = {name: int(value) for name, value in found.items()}
    if quick:
        values.update(QUICK)
    return values


def best_of(rounds: int, call) -> tuple[float, int]:
    best, result = float("inf"), None
    for _ in range(rounds):
        t0 = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - t0)
    return best, result


def need(module: str):
    """An optional runner's module, or a clear exit naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise SystemExit(f"{module} is not installed: pip install -e '.[bench]' "
                         "(or leave its runner out with --runner)") from None


def defines(size: dict[str, int]) -> list[str]:
    return [f"-D{k}={v}" for k, v in size.items()]


# -- runners: each returns (seconds, checksum, guest instructions or None) ---------------


def cpython(name: str, size: dict[str, int], rounds: int):
    spec = importlib.util.spec_from_file_location(f"peer_{name}", PEERS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = [size[k] for k in WORKLOADS[name]]
    return (*best_of(rounds, lambda: module.run(*args)), None)


def hsx_image(name: str, size: dict[str, int], workdir: Path):
    source = workdir / f"{name}.c"
    source.write_text((PEERS / f"{name}.c").read_text())
    (workdir / "peer.h").write_text((PEERS / "peer.h").read_text())
    result, _ = build_c([str(source)], Options(opt=2, defines=tuple(
        f"{k}={v}" for k, v in size.items())), name)
    return result.image


def run_image(image, engine: str, rounds: int, what: str):
    """The best of `rounds` runs of `image` to its end (seconds), the last run's stop
    and stdout; `what` names it if it stops for any other reason."""
    best = float("inf")
    for _ in range(rounds):
        out = io.BytesIO()
        machine = Machine(StandaloneSvc(stdout=out), engine=engine)
        ctx = machine.create_context(image)
        t0 = time.perf_counter()
        stop = machine.run(ctx, 1 << 40)
        best = min(best, time.perf_counter() - t0)
        if stop.reason not in (StopReason.EXITED, StopReason.RETURNED):
            raise SystemExit(f"{what} stopped: {stop}")
    return best, stop, out.getvalue()


def hsx(image, engine: str, rounds: int):
    best, stop, out = run_image(image, engine, rounds, f"hsx ({engine})")
    return best, int(out.split()[0]), stop.executed


def wasm_module(name: str, size: dict[str, int], workdir: Path) -> Path:
    out = workdir / f"{name}.wasm"
    subprocess.run([sys.executable, "-m", "ziglang", "cc", "-target", "wasm32-freestanding",
                    "-O2", "-nostdlib", "-DPEER_WASM", *defines(size), "-Wl,--no-entry",
                    "-Wl,--export=run", "-o", str(out), str(PEERS / f"{name}.c")], check=True)
    return out


def wasm3_run(module: Path, rounds: int):
    wasm3 = need("wasm3")
    best, value = float("inf"), None
    for _ in range(rounds):                  # a fresh instance each time: run() sets memory
        environment = wasm3.Environment()
        runtime = environment.new_runtime(64 * 1024)
        runtime.load(environment.parse_module(module.read_bytes()))
        seconds, value = best_of(1, runtime.find_function("run"))
        best = min(best, seconds)
    return best, value & 0xFFFFFFFF, None


def wasmtime_run(module: Path, rounds: int):
    wasmtime = need("wasmtime")
    store = wasmtime.Store()
    instance = wasmtime.Instance(store, wasmtime.Module.from_file(store.engine, str(module)),
                                 [])
    run = instance.exports(store)["run"]
    seconds, value = best_of(rounds, lambda: run(store))
    return seconds, value & 0xFFFFFFFF, None


def pywasm_run(module: Path, rounds: int):
    pywasm = need("pywasm")
    runtime = pywasm.core.Runtime()
    instance = runtime.instance_from_file(str(module))
    seconds, value = best_of(rounds, lambda: runtime.invocate(instance, "run", [])[0])
    return seconds, value & 0xFFFFFFFF, None


def host_compiler() -> list[str]:
    chosen = os.environ.get("CC") or shutil.which("cc")
    return [chosen] if chosen else [sys.executable, "-m", "ziglang", "cc"]


def cc_run(name: str, size: dict[str, int], workdir: Path, rounds: int):
    """The host compiler's -O2 build; the program times run() itself (PEER_TIMED)."""
    program = workdir / f"{name}.host"
    subprocess.run([*host_compiler(), "-O2", "-DPEER_TIMED", *defines(size), "-o",
                    str(program), str(PEERS / f"{name}.c")], check=True)
    best, value = float("inf"), None
    for _ in range(rounds):                  # one call a process: nothing carried over
        checksum, seconds = subprocess.run([str(program)], capture_output=True, text=True,
                                           check=True).stdout.split()
        best, value = min(best, float(seconds)), int(checksum)
    return best, value, None


def peak_rss_mib(image, workdir: Path) -> float:
    """Peak RSS of a whole `hsx run --engine python` process on `image`."""
    from hsx.image.hxe import write_hxe
    path = workdir / "rss.hxe"
    path.write_bytes(write_hxe(image))
    probe = ("import resource, subprocess, sys;"
             "subprocess.run([sys.executable, '-m', 'hsx', 'run', '--engine', 'python', "
             f"{str(path)!r}], stdout=subprocess.DEVNULL, check=True);"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    return int(done.stdout) / 1024


# -- the run -----------------------------------------------------------------------------


def measure(name: str, size: dict[str, int], runners: list[str], workdir: Path,
            quick: bool, rss: bool) -> dict[str, tuple]:
    """runner -> (seconds, checksum, guest instructions); CPython's checksum is the one
    every other must equal."""
    results = {"cpython": cpython(name, size, ROUNDS if quick else 1)}
    image = hsx_image(name, size, workdir)
    module = wasm_module(name, size, workdir) if {"wasm3", "wasmtime", "pywasm"} & set(
        runners) else None
    for runner in runners:
        rounds = 1 if runner in SLOW and not quick else ROUNDS
        if runner.startswith("hsx "):
            results[runner] = hsx(image, runner[4:], rounds)
        elif runner == "cc":
            results[runner] = cc_run(name, size, workdir, rounds)
        else:
            results[runner] = {"wasm3": wasm3_run, "wasmtime": wasmtime_run,
                               "pywasm": pywasm_run}[runner](module, rounds)
    expected = results["cpython"][1]
    for runner, (_, checksum, _) in results.items():
        if checksum != expected:
            raise SystemExit(f"{name}: {runner} computed {checksum}, CPython {expected}")
    if rss:
        print(f"{name}: peak RSS of hsx run --engine python "
              f"{peak_rss_mib(image, workdir):.1f} MiB")
    return results


def report(name: str, results: dict[str, tuple]) -> None:
    ours = results.get("hsx native", (None,))[0]
    for runner, (seconds, _, executed) in results.items():
        ratio = f"{ours / seconds:9.2f}x" if ours is not None else ""
        count = f"{executed:>14,}" if executed is not None else f"{'':>14}"
        print(f"{name:<9} {runner:<11} {seconds:>10.5f} {ratio:>10} {count}")
    print()


def targets(table: dict[str, dict[str, tuple]]) -> None:
    print("targets (issue 26): HSX native in-process time against")
    for name, results in table.items():
        if "hsx native" not in results:
            continue
        ours = results["hsx native"][0]
        checks = []
        if "wasm3" in results:
            ratio = ours / results["wasm3"][0]
            verdict = ("met, stretch too" if ratio <= WASM3_STRETCH else "met"
                       if ratio <= WASM3_TARGET else "NOT met")
            checks.append(f"wasm3 {ratio:.2f}x (<= {WASM3_TARGET}x: {verdict})")
        if "cc" in results:
            ratio = ours / results["cc"][0]
            checks.append(f"cc -O2 {ratio:.1f}x (<= {CC_TARGET:.0f}x: "
                          f"{'met' if ratio <= CC_TARGET else 'NOT met'})")
        print(f"  {name:<9} " + "; ".join(checks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="small sizes (seconds, not minutes), every runner")
    parser.add_argument("--only", choices=sorted(WORKLOADS), action="append",
                        help="run only these workloads")
    parser.add_argument("--runner", choices=RUNNERS, action="append",
                        help="run only these runners besides CPython (the checksums' base)")
    parser.add_argument("--rss", action="store_true",
                        help="also measure peak RSS of `hsx run --engine python`")
    args = parser.parse_args()
    runners = args.runner or [r for r in RUNNERS if args.quick or r not in SLOW]
    size = sizes(args.quick)
    print(f"Python {sys.version.split()[0]}; host compiler {' '.join(host_compiler())}; "
          "sizes: " + ", ".join(f"{k}={v}" for k, v in size.items()) + "\n")
    print(f"{'workload':<9} {'runner':<11} {'seconds':>10} {'hsx/x':>10} {'guest instrs':>14}")
    table = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or WORKLOADS:
            table[name] = measure(name, size, runners, Path(tmp), args.quick, args.rss)
            report(name, table[name])
    targets(table)


if __name__ == "__main__":
    main()
