"""Round trips of the C-level inspection commands over loopback.

    python benchmarks/variables_bench.py [--seconds 2] [--opt 0]

Builds a C program with `hsx cc -g -O<opt>` whose function has 20 locals (ints, a char,
a double, a struct, an array, pointers), runs it under `hsx execd` (its own process) to
a breakpoint in that function, then times back-to-back requests from the blocking
client: `frame.variables` of that frame (all scopes, and locals only) and of its caller
(an outer frame: with -O2, registers unwound from the callee's saves), `evaluate` of a
field through a pointer, and `variables.expand` of a struct.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym
from hsx.toolchain.cc.driver import Options, build_c

from server_bench import Daemon, percentiles

SOURCE = """\
struct point { int x, y; };
struct shape { char name[8]; struct point pts[3]; int sides; };
struct shape shape = { "tri", {{1, 2}, {3, 4}, {5, 6}}, 3 };
__attribute__((noinline)) int work(int a, int b) {
    int l0 = a, l1 = b, l2 = a + b, l3 = a - b, l4 = a * b, l5 = l0 + 1, l6 = l1 + 2;
    int l7 = l2 * 3, l8 = l3 ^ 5, l9 = l4 | 1, l10 = l5 & 7, l11 = l6 << 1;
    char c = 'q';
    double d = 2.5;
    struct point p = { a, b };
    int arr[4] = { 1, 2, 3, 4 };
    struct shape *sp = &shape;
    int *ip = &arr[2];
    struct point *pp = &p;
    return l0 + l1 + l2 + l3 + l4 + l5 + l6 + l7 + l8 + l9 + l10 + l11 + c + (int)d
           + p.x + arr[1] + sp->sides + *ip + pp->y;
}
int main(void) { return work(3, 4) & 0x7F; }
"""
MARK = "           + p.x + arr[1] + sp->sides + *ip + pp->y;"


def program(folder: Path, opt: int) -> Path:
    source = folder / "vars.c"
    source.write_text(SOURCE)
    result, _ = build_c([str(source)], Options(opt=opt, debug=True), "vars")
    path = folder / "vars.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    return path


def timed(call, seconds: float) -> dict[str, float]:
    for _ in range(20):
        call()
    samples = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return percentiles(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--opt", type=int, default=0, choices=(0, 1, 2))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, Daemon() as daemon, daemon.client() as c:
        path = program(Path(tmp), args.opt)
        pid = c.request("load", path=str(path), paused=True)["pid"]
        c.open_session("bench", pid_lock=pid)
        c.subscribe(["debug_break"], pids=[pid])
        line = SOURCE.splitlines().index(MARK) + 1
        c.run_to(pid, f"vars.c:{line}")
        while (event := c.next_event(timeout=10)) and event["type"] != "debug_break":
            pass
        listing = c.frame_variables(pid, 0)
        count = len(listing["arguments"]) + len(listing["locals"])
        if args.opt == 0:
            shape_ref = next(v["ref"] for v in listing["locals"] if v["name"] == "sp")
            expression, expanded = "sp->pts[1].x + *ip", "a pointer to a struct"
        else:                   # optimised: the locals live in registers or are gone
            shape_ref = next(v["ref"] for v in listing["globals"] if v["name"] == "shape")
            expression, expanded = "shape.pts[1].x + shape.sides", "a struct"
        rows = {
            f"frame.variables, all scopes ({count} args+locals)":
                lambda: c.frame_variables(pid, 0),
            "frame.variables, locals only": lambda: c.frame_variables(pid, 0, "locals"),
            "frame.variables of the caller (frame 1)": lambda: c.frame_variables(pid, 1),
            f"evaluate {expression}": lambda: c.evaluate(pid, expression),
            f"variables.expand ({expanded})": lambda: c.expand(shape_ref),
        }
        print(f"{'request':<48} {'median ms':>10} {'p99 ms':>8} {'n':>7}")
        for name, call in rows.items():
            figures = timed(call, args.seconds)
            print(f"{name:<48} {figures['median_ms']:>10.3f} {figures['p99_ms']:>8.3f} "
                  f"{figures['n']:>7}")


if __name__ == "__main__":
    main()
