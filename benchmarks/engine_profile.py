"""Where the native engine's time goes, against wasm3 (issue 26, docs/port.md "Where the
engine's time goes"):

1. instructions: per workload of peer_bench.py, the HSX instructions `hsx cc -O2`'s code
   executes against the WebAssembly instructions clang's wasm32 -O2 code executes for
   the same C (counted by pywasm, at the --quick sizes, where the ratio has settled);
2. time per instruction: at peer_bench's full sizes, HSX native's nanoseconds per HSX
   instruction, and wasm3's per WebAssembly instruction (its count scaled by the ratio of 1.);
3. single instructions: the native engine's cost of one ADD, LD, ST, MUL64, DIVU64,
   DADD, DMUL, DDIV, a CALL and its RET, a PUSH and its POP, a CMP and its untaken
   branch: a loop of 16 of them against the same loop empty.

    pip install -e '.[bench]'
    python benchmarks/engine_profile.py [--only fib,sieve] [--skip-counts]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peer_bench  # noqa: E402  (the workloads, sizes and runners)

from hsx.toolchain.build import build_source  # noqa: E402

LOOPS = 200_000
COPIES = 16
ROUNDS = 5
SETUP = """
.data
word: .word 1
.text
.entry start
start:
    LDI32 R1, {loops}
    LDI R2, 3
    LDI R3, 5
    LDI R4, 7
    LDI R5, 0
    LDI32 R6, 0x12345
    LDI R7, 1
    LDI R8, 0
    LDI32 R9, 0x3FF00000      ; R8:R9 = 1.0
    LDI32 R10, word
loop:
{body}
    ADDI R1, R1, -1
    CMPI R1, 0
    BNE loop
    LDI R0, 0
    SVC MOD=1, FN=0
leaf:
    RET
"""
# name -> (one copy of the body, how many instructions that copy is)
BODIES = {
    "ADD": ("ADD R2, R2, R3", 1),
    "LD": ("LD R2, [R10+0]", 1),
    "ST": ("ST [R10+0], R2", 1),
    "MUL64": ("MUL64 R2, R2, R4", 1),
    "DIVU64": ("DIVU64 R2, R6, R4", 1),
    "DADD": ("DADD R2, R8, R8", 1),
    "DMUL": ("DMUL R2, R8, R8", 1),
    "DDIV": ("DDIV R2, R8, R8", 1),
    "CALL + RET": ("LCALL leaf", 2),
    "PUSH + POP": ("PUSH R2\n    POP R2", 2),
    "CMP + BEQ (not taken)": ("CMPI R2, 1234\n    BEQ leaf", 2),
}


def run_seconds(source: str) -> float:
    image = build_source(source, filename="profile.mvasm", app_name="profile")
    what = f"the {source.splitlines()[0]!r} loop"
    return peer_bench.run_image(image, "native", ROUNDS, what)[0]


def single_instructions() -> None:
    empty = run_seconds(SETUP.format(loops=LOOPS, body=""))
    loop_ns = empty / LOOPS * 1e9
    print(f"\nsingle instructions (native engine; a loop of {COPIES} of each, {LOOPS:,} "
          f"times, minus the empty loop: {loop_ns:.2f} ns for its 3 instructions)")
    for name, (body, count) in BODIES.items():
        copies = "\n".join(f"    {body}" for _ in range(COPIES))
        seconds = run_seconds(SETUP.format(loops=LOOPS, body=copies))
        each = (seconds - empty) / (LOOPS * COPIES) * 1e9
        print(f"  {name:<24} {each:6.2f} ns" + (f" ({each / count:.2f} per instruction)"
                                               if count > 1 else ""))


def wasm_instructions(module: Path) -> int:
    """WebAssembly instructions a call of run() executes (pywasm's interpreter logs
    each one through pywasm.log.debugln: counted there)."""
    pywasm = peer_bench.need("pywasm")
    count = 0

    def counted(*_args) -> None:
        nonlocal count
        count += 1
    pywasm.log.debugln = counted
    runtime = pywasm.core.Runtime()
    instance = runtime.instance_from_file(str(module))
    runtime.invocate(instance, "run", [])
    return count


def instructions(names: list[str], workdir: Path) -> dict[str, float]:
    """HSX instructions per WebAssembly instruction, per workload, at the quick sizes."""
    size = peer_bench.sizes(quick=True)
    print("instructions executed (hsx cc -O2 / clang wasm32 -O2, the --quick sizes):")
    ratios = {}
    for name in names:
        image = peer_bench.hsx_image(name, size, workdir)
        _, _, hsx_count = peer_bench.hsx(image, "native", 1)
        wasm_count = wasm_instructions(peer_bench.wasm_module(name, size, workdir))
        ratios[name] = hsx_count / wasm_count
        print(f"  {name:<9} HSX {hsx_count:>11,}   wasm {wasm_count:>11,}   "
              f"HSX/wasm {ratios[name]:.2f}")
    return ratios


def time_per_instruction(names: list[str], ratios: dict[str, float], workdir: Path) -> None:
    size = peer_bench.sizes(quick=False)
    print("\ntime per instruction (peer_bench's full sizes, best of 3):")
    for name in names:
        image = peer_bench.hsx_image(name, size, workdir)
        hsx_s, _, hsx_count = peer_bench.hsx(image, "native", 3)
        wasm3_s, _, _ = peer_bench.wasm3_run(peer_bench.wasm_module(name, size, workdir), 3)
        line = (f"  {name:<9} HSX {hsx_s:7.3f} s  {hsx_s / hsx_count * 1e9:5.2f} ns/instr   "
                f"wasm3 {wasm3_s:7.3f} s")
        if name in ratios:
            wasm_count = hsx_count / ratios[name]
            line += f"  {wasm3_s / wasm_count * 1e9:5.2f} ns/wasm instr (count scaled)"
        print(line + f"   HSX/wasm3 {hsx_s / wasm3_s:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="workloads, comma-separated (default: all four)")
    parser.add_argument("--skip-counts", action="store_true",
                        help="leave out the pywasm counts (a minute or two)")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(peer_bench.WORKLOADS)
    unknown = set(names) - set(peer_bench.WORKLOADS)
    if unknown:
        parser.error(f"no workload {', '.join(sorted(unknown))} "
                     f"(workloads: {', '.join(peer_bench.WORKLOADS)})")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        ratios = {} if args.skip_counts else instructions(names, workdir)
        time_per_instruction(names, ratios, workdir)
    single_instructions()


if __name__ == "__main__":
    main()
