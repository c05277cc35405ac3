"""VM benchmarks: `python benchmarks/vm_bench.py [--quick]` prints a table.

Each workload reports guest instructions per second and `ratio` = (time a plain Python
loop `acc = (acc + i) & M; i = (i + 1) & M` needs for the workload's iteration count) /
(VM time), both measured in this run. A ratio of 1.0 means the guest program runs as fast
as the equivalent hand-written Python loop; 0.2 means five times slower.
"""
from __future__ import annotations

import argparse
import sys
import time

from hsx.image.model import HxeImage
from hsx.isa import encode, make
from hsx.vm import Machine, StopReason

M = 0xFFFFFFFF


def words(*instrs) -> list[int]:
    out: list[int] = []
    for name, kwargs in instrs:
        out += encode(make(name, **kwargs))
    return out


def image(code: list[int], **kw) -> HxeImage:
    return HxeImage(code=b"".join(w.to_bytes(4, "big") for w in code), **kw)


def i(name, **kw):
    return (name, kw)


def python_loop(n: int) -> float:
    """Seconds for the reference Python loop over n iterations."""
    t0 = time.perf_counter()
    acc = i_ = 0
    while i_ != n:
        acc = (acc + i_) & M
        i_ = (i_ + 1) & M
    return time.perf_counter() - t0


def counted_loop(n: int) -> HxeImage:
    # R1 = i, R2 = acc, R3 = 1, R4 = n;  loop: ADD, ADD, CMP, JNZ
    return image(words(i("LDI", rd=1, imm=0), i("LDI", rd=2, imm=0), i("LDI", rd=3, imm=1),
                       i("LDI32", rd=4, imm=n),
                       i("ADD", rd=2, rs1=2, rs2=1), i("ADD", rd=1, rs1=1, rs2=3),
                       i("CMP", rs1=1, rs2=4), i("JNZ", imm=20),
                       i("MOV", rd=0, rs1=2), i("SVC", imm=0x100)))


def fib(n: int) -> HxeImage:
    # fib(R1) -> R0, recursive with CALL/RET/PUSH/POP
    main = [i("LDI", rd=1, imm=n), i("CALL", imm=2), i("SVC", imm=0x100)]
    body = [i("CMPI", rs1=1, imm=2),                    # fib (word 3)
            i("BLT", imm=11),
            i("PUSH", rs1=1), i("ADDI", rd=1, rs1=1, imm=-1), i("CALL", imm=-4),
            i("POP", rd=1), i("PUSH", rs1=0), i("ADDI", rd=1, rs1=1, imm=-2),
            i("CALL", imm=-8), i("POP", rd=2), i("ADD", rd=0, rs1=0, rs2=2), i("RET"),
            i("MOV", rd=0, rs1=1), i("RET")]           # base case (word 15)
    return image(words(*main, *body))


def leaf_calls(n: int) -> HxeImage:
    # for R1 in 0..n-1: CALL leaf (R2 += 2*R1) — the call and RET stay inside one block
    return image(words(
        i("LDI", rd=1, imm=0), i("LDI", rd=2, imm=0), i("LDI32", rd=4, imm=n),
        i("CALL", imm=6),                                          # loop: word 4
        i("ADDI", rd=1, rs1=1, imm=1), i("CMP", rs1=1, rs2=4), i("BNE", imm=-3),
        i("MOV", rd=0, rs1=2), i("SVC", imm=0x100),
        i("ADD", rd=3, rs1=1, rs2=1), i("ADD", rd=2, rs1=2, rs2=3), i("RET")))   # leaf


ARRAY_BASE = 0x8000


def fill_array(machine: Machine, ctx, count: int) -> None:
    data = b"".join(k.to_bytes(4, "little") for k in range(count))
    machine.write_memory(ctx, ARRAY_BASE, data)


def array_sum(count: int, passes: int) -> HxeImage:
    # R1 = pointer, R4 = end, R2 = sum, R6 = passes left; inner: LD, ADD, ADDI, CMP, BNE
    base = ARRAY_BASE
    return image(words(
        i("LDI", rd=2, imm=0), i("LDI", rd=6, imm=passes),
        i("LDI32", rd=1, imm=base), i("LDI32", rd=4, imm=base + 4 * count),   # outer: word 2
        i("LD", rd=5, rs1=1, imm=0), i("ADD", rd=2, rs1=2, rs2=5),             # inner: word 6
        i("ADDI", rd=1, rs1=1, imm=4), i("CMP", rs1=1, rs2=4), i("BNE", imm=-4),
        i("ADDI", rd=6, rs1=6, imm=-1), i("CMPI", rs1=6, imm=0), i("BNE", imm=-11),
        i("MOV", rd=0, rs1=2), i("SVC", imm=0x100)))


REPEATS = 5


# The engines compared: the Python engine's exact interpreter and its translator, and
# the native engine (the C core of port/c/).
ENGINES = {"interp": {"engine": "python", "translate": False},
           "translate": {"engine": "python"}, "native": {"engine": "native"}}


def timed_run(make_context, engine: str):
    """(stop, best VM seconds, best Python-loop ns/iteration) over REPEATS rounds, each a
    fresh context preceded by a measurement of the reference loop: on a shared host both
    sides then see the same conditions. The first round also pays for translating
    (compiled blocks are cached per process), later ones do not."""
    best, best_py, stop = float("inf"), float("inf"), None
    for _ in range(REPEATS):
        best_py = min(best_py, python_ns())
        machine = Machine(**ENGINES[engine])
        ctx = make_context(machine)
        t0 = time.perf_counter()
        stop = machine.run(ctx, 1 << 62)
        best = min(best, time.perf_counter() - t0)
    return stop, best, best_py


def python_ns(n: int = 200_000) -> float:
    return python_loop(n) * 1e9 / n


def workload_rows(quick: bool) -> list[tuple]:
    loop_n = 200_000 if quick else 1_000_000
    fib_n = 16 if quick else 20
    count, passes = (4096, 5) if quick else (16384, 15)
    calls = {16: 3193, 20: 21891}[fib_n]                       # fib call count
    cases = [   # name, image, iterations, expected exit status, context options, setup
        ("counted loop", counted_loop(loop_n), loop_n, loop_n * (loop_n - 1) // 2 & M, {},
         None),
        (f"fib({fib_n})", fib(fib_n), calls, {16: 987, 20: 6765}[fib_n], {}, None),
        ("leaf calls", leaf_calls(loop_n // 4), loop_n // 4, (loop_n // 4) * (loop_n // 4 - 1) & M,
         {}, None),
        ("array sum (LD)", array_sum(count, passes), count * passes,
         passes * count * (count - 1) // 2 & M, {"mem_size": 0x40000},
         lambda machine, ctx: fill_array(machine, ctx, count)),
    ]
    rows = []
    for name, img, iterations, expect, kw, setup in cases:
        def make_context(machine, img=img, kw=kw, setup=setup):
            ctx = machine.create_context(img, **kw)
            if setup:
                setup(machine, ctx)
            return ctx
        for engine in ENGINES:
            stop, seconds, py_ns = timed_run(make_context, engine)
            assert stop.reason is StopReason.EXITED and stop.status == expect, stop
            ratio = py_ns * 1e-9 * iterations / seconds
            rows.append((name, engine, stop.executed, seconds, stop.executed / seconds,
                         ratio))
    return rows


def switch_rows(quick: bool) -> list[tuple]:
    """Round-robin at quantum 1: cost per run(ctx, 1) call."""
    rounds = 20_000 if quick else 100_000
    img = counted_loop(1 << 30)
    rows = []
    for engine, mem_size, stack in [(e, m, s) for e in ("python", "native")
                                    for m, s in ((0x5000, 0x400), (0x40000, 0x2000))]:
        for tasks in (1, 8, 64):
            machine = Machine(engine=engine)
            ctxs = [machine.create_context(img, mem_size=mem_size, stack_size=stack)
                    for _ in range(tasks)]
            run = machine.run
            for ctx in ctxs:                    # warm up: first translations
                run(ctx, 100)
            best = float("inf")
            for _ in range(REPEATS):
                switches = 0
                t0 = time.perf_counter()
                while switches < rounds:
                    for ctx in ctxs:
                        run(ctx, 1)
                    switches += tasks
                best = min(best, (time.perf_counter() - t0) * 1e9 / switches)
            rows.append((engine, tasks, mem_size, switches, best))
    return rows


def breakpoint_rows(quick: bool) -> list[tuple]:
    n = 200_000 if quick else 1_000_000
    rows = []
    img = image(counted_loop(n).code_words + words(i("RET")))
    unreachable = len(img.code) - 4
    for engine in ENGINES:
        for with_bp in (False, True):
            def make_context(machine, with_bp=with_bp):
                ctx = machine.create_context(img)
                if with_bp:
                    machine.add_breakpoint(ctx, unreachable)
                return ctx
            stop, seconds, _ = timed_run(make_context, engine)
            assert stop.reason is StopReason.EXITED
            rows.append((engine, with_bp, seconds, stop.executed / seconds))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; plain Python loop: "
          f"{min(python_ns() for _ in range(REPEATS)):.1f} ns/iteration "
          "(re-measured with every VM run for the ratios)\n")
    print(f"{'workload':<16} {'engine':<10} {'guest instrs':>13} {'seconds':>8} "
          f"{'instr/s':>12} {'ratio':>6}")
    for name, engine, executed, seconds, ips, ratio in workload_rows(args.quick):
        print(f"{name:<16} {engine:<10} {executed:>13,} {seconds:>8.3f} {ips:>12,.0f} "
              f"{ratio:>6.2f}")
    print("\ncontext switch: round-robin, quantum 1 (one run(ctx, 1) call per switch)")
    print(f"{'engine':<7} {'contexts':>8} {'mem_size':>9} {'switches':>9} {'ns/switch':>10}")
    for engine, tasks, mem_size, switches, ns in switch_rows(args.quick):
        print(f"{engine:<7} {tasks:>8} {mem_size // 1024:>6} KiB {switches:>9,} {ns:>10.0f}")
    print("\nbreakpoints: counted loop with none vs one set but never hit")
    print(f"{'engine':<10} {'breakpoint':>10} {'seconds':>8} {'instr/s':>12}")
    for engine, with_bp, seconds, ips in breakpoint_rows(args.quick):
        print(f"{engine:<10} {'set' if with_bp else 'none':>10} {seconds:>8.3f} {ips:>12,.0f}")


if __name__ == "__main__":
    main()
