"""C compiler benchmarks: `python benchmarks/cc_bench.py [--quick | --whole RUNS]`.

Without --whole it prints two tables:

1. Compile time of a generated 1,000-line C file (clang + the HSX back end + assembly,
   not linking) at -O0 and -O2, best of 3, next to the time of clang alone producing
   the IR for the same file (wall clock, and CPU seconds of this process and clang).
2. Run speed of a small CoreMark-like workload compiled with `hsx cc -O2` (linked list
   build/reverse/sort/search, 8x8 integer matrix multiply, a state machine scanning
   text, CRC-16): guest instructions per second on the VM, and `ratio` = time of the
   same workload written in plain Python / time of the compiled C on the VM (both
   measured in this run; 1.0 = as fast as the Python version, 0.2 = five times slower).

`--whole RUNS` instead times `hsx cc -c` of the same file as a user runs it, a whole
process (Python's start-up, imports and clang included), at -O0 and -O2 in turn: the
median wall-clock and CPU seconds (the process and its clang) of RUNS runs.
"""
from __future__ import annotations

import argparse
import io
import resource
import sys
import tempfile
import time
from pathlib import Path

from hsx.toolchain.cc.driver import (Options, build_c, clang_ir, compile_c_file,
                                     runtime_objects)
from hsx.vm import Machine, StandaloneSvc, StopReason

M32 = 0xFFFFFFFF

# -- compile time ------------------------------------------------------------------------


def generated_source(lines: int = 1000) -> str:
    """About `lines` lines of C: small functions with loops, branches, a switch,
    struct and array accesses, 64-bit arithmetic, calling each other."""
    out = ["#include <stdint.h>", "", "struct pt { int x, y; long long w; };", ""]
    k = 0
    while len(out) < lines - 12:
        out += [
            f"int f{k}(int a, int b, struct pt *p) {{",
            f"    int acc = a * {k % 7 + 3} + b;",
            f"    for (int i = 0; i < (a & 15); i++) {{",
            f"        if ((acc ^ i) & 1) acc += i * {k % 5 + 1};",
            f"        else acc -= p->x >> (i & 3);",
            "    }",
            f"    switch (acc & 3) {{",
            f"    case 0: p->y += acc; break;",
            f"    case 1: p->w += (long long)acc * {k + 11}; break;",
            f"    case 2: acc = acc / (b | 1); break;",
            "    default: acc ^= (int)(p->w >> 7);",
            "    }",
            f"    return {f'f{k - 1}(acc, b + 1, p) + ' if k else ''}acc;",
            "}",
            "",
        ]
        k += 1
    out += ["int main(void) {", "    struct pt p = { 1, 2, 3 };", "    int s = 0;",
            f"    for (int i = 0; i < 3; i++) s += f{k - 1}(i, 7, &p);",
            "    return (s + p.y + (int)p.w) & 0x7F;", "}"]
    return "\n".join(out) + "\n"


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def best_time(work, rounds: int) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds (this process and its children) of `work`."""
    wall = cpu = float("inf")
    for _ in range(rounds):
        w0, c0 = time.perf_counter(), _cpu()
        work()
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, _cpu() - c0)
    return wall, cpu


# -- the CoreMark-like workload -------------------------------------------------------------

WORKLOAD_C = r"""
#include <stdio.h>
#include <stdint.h>

#define NODES 32
#define N 8

struct node { int value; struct node *next; };
static struct node pool[NODES];

static uint16_t crc16(uint16_t crc, uint32_t data, int bytes) {
    for (int b = 0; b < bytes; b++) {
        crc ^= (uint16_t)((data >> (8 * b)) & 0xFF);
        for (int i = 0; i < 8; i++)
            crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xA001) : (uint16_t)(crc >> 1);
    }
    return crc;
}

static int list_work(int seed) {
    struct node *head = 0;
    for (int i = 0; i < NODES; i++) {             /* build */
        pool[i].value = (seed * (i + 7) + i * i) & 1023;
        pool[i].next = head;
        head = &pool[i];
    }
    struct node *rev = 0;                         /* reverse */
    while (head) { struct node *n = head->next; head->next = rev; rev = head; head = n; }
    struct node *sorted = 0;                      /* insertion sort */
    while (rev) {
        struct node *n = rev->next, **pp = &sorted;
        while (*pp && (*pp)->value < rev->value) pp = &(*pp)->next;
        rev->next = *pp; *pp = rev; rev = n;
    }
    int found = 0, pos = 0;                       /* search */
    for (struct node *p = sorted; p; p = p->next, pos++)
        if (p->value == (seed & 1023)) found = pos;
    return sorted->value + found;
}

static int matrix_work(int seed) {
    static int a[N][N], b[N][N], c[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (seed + i * N + j) & 255;
            b[i][j] = (seed ^ (j * N + i)) & 255;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
    int t = 0;
    for (int i = 0; i < N; i++) t += c[i][i] ^ c[i][N - 1 - i];
    return t;
}

static const char text[] = "12,345;6789 +42,-7 ;;0,99999 x 31337,5";

static int state_work(void) {
    enum { START, NUMBER, SIGN, OTHER } state = START;
    int counts[4] = {0, 0, 0, 0}, value = 0, total = 0;
    for (const char *p = text; *p; p++) {
        char ch = *p;
        switch (state) {
        case START:
        case OTHER:
            if (ch >= '0' && ch <= '9') { state = NUMBER; value = ch - '0'; }
            else if (ch == '+' || ch == '-') state = SIGN;
            else state = OTHER;
            break;
        case SIGN:
            if (ch >= '0' && ch <= '9') { state = NUMBER; value = ch - '0'; }
            else state = OTHER;
            break;
        case NUMBER:
            if (ch >= '0' && ch <= '9') value = value * 10 + (ch - '0');
            else { total += value; state = (ch == '+' || ch == '-') ? SIGN : OTHER; }
            break;
        }
        counts[state]++;
    }
    if (state == NUMBER) total += value;
    return total + counts[0] + 3 * counts[1] + 5 * counts[2] + 7 * counts[3];
}

int main(void) {
    uint16_t crc = 0;
    for (int it = 0; it < ITERATIONS; it++) {
        crc = crc16(crc, (uint32_t)list_work(it), 4);
        crc = crc16(crc, (uint32_t)matrix_work(it), 4);
        crc = crc16(crc, (uint32_t)state_work(), 4);
    }
    printf("crc %04x\n", crc);
    return 0;
}
"""


def python_workload(iterations: int) -> int:
    """The same workload in plain Python (same results, checked against the C)."""
    NODES, N = 32, 8
    text = "12,345;6789 +42,-7 ;;0,99999 x 31337,5"

    def crc16(crc: int, data: int, nbytes: int) -> int:
        for b in range(nbytes):
            crc ^= (data >> (8 * b)) & 0xFF
            for _ in range(8):
                crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
        return crc

    def list_work(seed: int) -> int:
        values = [(seed * (i + 7) + i * i) & 1023 for i in range(NODES)]
        nxt: list = [None] * NODES
        head = None
        for i in range(NODES):
            nxt[i] = head
            head = i
        rev = None
        while head is not None:
            n = nxt[head]
            nxt[head] = rev
            rev = head
            head = n
        sorted_head = None
        while rev is not None:
            n = nxt[rev]
            prev, cur = None, sorted_head
            while cur is not None and values[cur] < values[rev]:
                prev, cur = cur, nxt[cur]
            nxt[rev] = cur
            if prev is None:
                sorted_head = rev
            else:
                nxt[prev] = rev
            rev = n
        found = pos = 0
        p = sorted_head
        while p is not None:
            if values[p] == (seed & 1023):
                found = pos
            p = nxt[p]
            pos += 1
        return values[sorted_head] + found

    def matrix_work(seed: int) -> int:
        a = [[(seed + i * N + j) & 255 for j in range(N)] for i in range(N)]
        b = [[(seed ^ (j * N + i)) & 255 for j in range(N)] for i in range(N)]
        c = [[sum(a[i][k] * b[k][j] for k in range(N)) for j in range(N)] for i in range(N)]
        return sum(c[i][i] ^ c[i][N - 1 - i] for i in range(N))

    def state_work() -> int:
        START, NUMBER, SIGN, OTHER = range(4)
        state, counts, value, total = START, [0, 0, 0, 0], 0, 0
        for ch in text:
            digit = "0" <= ch <= "9"
            if state in (START, OTHER):
                if digit:
                    state, value = NUMBER, ord(ch) - 48
                else:
                    state = SIGN if ch in "+-" else OTHER
            elif state == SIGN:
                if digit:
                    state, value = NUMBER, ord(ch) - 48
                else:
                    state = OTHER
            else:
                if digit:
                    value = value * 10 + ord(ch) - 48
                else:
                    total += value
                    state = SIGN if ch in "+-" else OTHER
            counts[state] += 1
        if state == NUMBER:
            total += value
        return total + counts[0] + 3 * counts[1] + 5 * counts[2] + 7 * counts[3]

    crc = 0
    for it in range(iterations):
        crc = crc16(crc, list_work(it) & M32, 4)
        crc = crc16(crc, matrix_work(it) & M32, 4)
        crc = crc16(crc, state_work() & M32, 4)
    return crc


def run_c(image, translate: bool) -> tuple[str, int, float]:
    """Run on a fresh machine (so translation, if on, starts cold)."""
    out = io.BytesIO()
    machine = Machine(StandaloneSvc(stdout=out, stderr=io.BytesIO()), translate=translate)
    ctx = machine.create_context(image)
    t0 = time.perf_counter()
    while True:
        stop = machine.run(ctx, 1 << 24)
        if stop.reason in (StopReason.EXITED, StopReason.RETURNED):
            break
        if stop.reason is not StopReason.BUDGET:
            raise SystemExit(f"workload stopped: {stop.reason}")
    return out.getvalue().decode(), ctx.steps, time.perf_counter() - t0


def whole_process(runs: int) -> None:
    """Median wall and CPU seconds of `hsx cc -c gen.c -O0/-O2`, alternated, after one
    warm-up run of each."""
    import statistics

    from startup_bench import timed
    hsx = str(Path(sys.executable).with_name("hsx"))
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "gen.c"
        src.write_text(generated_source())
        times: dict[int, list[tuple[float, float]]] = {0: [], 2: []}
        for round_ in range(runs + 1):
            for opt, results in times.items():
                result = timed([hsx, "cc", "-c", str(src), "-o", f"{tmp}/gen{opt}.hxo",
                                f"-O{opt}"])
                if round_:
                    results.append(result)
    print(f"hsx cc -c of a generated 1,000-line file, whole process (medians of {runs}):")
    print(f"{'opt':<5}{'wall s':>8}{'cpu s':>8}")
    for opt, results in times.items():
        print(f"-O{opt:<3}{statistics.median(w for w, _ in results):>8.3f}"
              f"{statistics.median(c for _, c in results):>8.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and iterations")
    parser.add_argument("--whole", type=int, metavar="RUNS",
                        help="time whole `hsx cc -c` processes instead (RUNS of each)")
    args = parser.parse_args()
    if args.whole:
        whole_process(args.whole)
        return 0
    rounds = 1 if args.quick else 3
    iterations = 20 if args.quick else 200
    t0 = time.perf_counter()
    runtime_objects()                        # build/load the C library outside the timings
    print(f"Python {sys.version.split()[0]}; C library ready in "
          f"{time.perf_counter() - t0:.2f} s")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "gen.c"
        src.write_text(generated_source())
        n_lines = src.read_text().count("\n")
        print(f"\ncompile time of a generated {n_lines}-line C file (best of {rounds}), "
              f"seconds:")
        print(f"{'opt':<5}{'hsx cc':>8}{'(cpu)':>7}{'clang':>8}{'(cpu)':>7}{'lines/s':>9}")
        for opt in (0, 2):
            options = Options(opt=opt)
            wall, cpu = best_time(lambda: compile_c_file(str(src), options), rounds)
            clang_wall, clang_cpu = best_time(lambda: clang_ir(str(src), options), rounds)
            print(f"-O{opt:<3}{wall:>8.2f}{cpu:>7.2f}{clang_wall:>8.2f}{clang_cpu:>7.2f}"
                  f"{n_lines / wall:>9,.0f}")

        work = Path(tmp) / "coremark.c"
        work.write_text(WORKLOAD_C.replace("ITERATIONS", str(iterations)))
        result, _ = build_c([str(work)], Options(opt=2))
        image = result.image
        expected = f"crc {python_workload(iterations):04x}\n"
        best = {False: float("inf"), True: float("inf")}
        best_py = float("inf")
        steps = 0
        for _ in range(rounds):
            for translate in (False, True):
                out, steps, seconds = run_c(image, translate)
                if out != expected:
                    raise SystemExit(f"C workload printed {out!r}, Python {expected!r}")
                best[translate] = min(best[translate], seconds)
            t1 = time.perf_counter()
            python_workload(iterations)
            best_py = min(best_py, time.perf_counter() - t1)
        print(f"\nCoreMark-like workload, {iterations} iterations, hsx cc -O2, "
              f"{len(image.code):,} bytes of code (best of {rounds}); "
              f"plain Python: {best_py:.3f} s")
        print(f"{'engine':<11}{'guest instrs':>13}{'seconds':>9}{'instr/s':>12}{'ratio':>7}")
        for translate, name in ((False, "interp"), (True, "translate")):
            s = best[translate]
            print(f"{name:<11}{steps:>13,}{s:>9.2f}{steps / s:>12,.0f}{best_py / s:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
