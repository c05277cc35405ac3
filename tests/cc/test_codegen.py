"""The code `hsx cc -O2` makes for loops of 64-bit and double arithmetic (issue 18's
`mix` workload, benchmarks/peer_bench.py): operands of the float and 64-bit
instructions stay in register pairs wherever the allocator puts them, loop-carried
values stay in registers, a 64-bit compare branches without making a 0 or 1 first."""
from __future__ import annotations

import io

from hsx.toolchain.cc.driver import Options, build_c, compile_c_file
from hsx.vm import Machine, StandaloneSvc, StopReason

LOOP = r"""
#include <stdint.h>
#include <stdio.h>
unsigned run(void)
{
    uint64_t h = 1469598103934665603ull;
    double x = 0.5, acc = 0.0;
    for (int i = 1; i <= N; i++) {
        h = (h ^ (uint64_t)i) * 1099511628211ull;
        uint64_t q = h / (uint64_t)(i | 1);
        acc += (double)(q % 65521u) / (double)i + x * x;
        x = x * 0.999 + 0.001;
    }
    return (unsigned)(h ^ (h >> 32)) ^ (unsigned)(long long)acc;
}
int main(void) { printf("%u\n", run()); return 0; }
"""


def executed(tmp_path, n: int) -> tuple[int, str]:
    path = tmp_path / f"loop{n}.c"
    path.write_text(LOOP)
    result, _ = build_c([str(path)], Options(opt=2, defines=(f"N={n}",)), "loop")
    out = io.BytesIO()
    machine = Machine(StandaloneSvc(stdout=out))
    stop = machine.run(machine.create_context(result.image), 1 << 30)
    assert stop.reason in (StopReason.EXITED, StopReason.RETURNED)
    return stop.executed, out.getvalue().decode().strip()


def test_the_loop_computes_what_python_computes(tmp_path):
    h, x, acc = 1469598103934665603, 0.5, 0.0
    for i in range(1, 301):
        h = ((h ^ i) * 1099511628211) & (2**64 - 1)
        q = h // (i | 1)
        acc += float(q % 65521) / float(i) + x * x
        x = x * 0.999 + 0.001
    expected = ((h ^ (h >> 32)) & 0xFFFFFFFF) ^ (int(acc) & 0xFFFFFFFF)
    assert executed(tmp_path, 300)[1] == str(expected)


def test_an_iteration_costs_a_few_dozen_instructions(tmp_path):
    # 91 per iteration when every double and 64-bit operation copied its operands to
    # R0..R3 and its result out, the loop's values were spilled and reloaded, and the
    # exit test made a 0/1 to compare; 31 with the counter in a register pair (clang
    # widens it to 64 bits; narrow.py), 27 now
    (short, _), (long, _) = executed(tmp_path, 100), executed(tmp_path, 300)
    assert (long - short) / 200 <= 36


def test_no_spills_no_materialised_compare(tmp_path):
    path = tmp_path / "loop.c"
    path.write_text(LOOP)
    text = compile_c_file(str(path), Options(opt=2, defines=("N=4000",))).mvasm
    body = text[text.index("\nrun:"):text.index("\nmain:")]
    assert "[R14" not in body                  # nothing goes through the frame
    assert "CMP" in body and "LDI32" in body    # the counter compared with 4001
    lines = [line.split() for line in body.splitlines() if line.strip()]
    for a, b in zip(lines, lines[1:]):         # no `LDI Rx, 1 ... CMPI Rx, 0`
        assert not (a[0] == "LDI" and b[0] == "CMPI" and b[2] == "0"), body
    for mnemonic in ("MUL64", "DIVU64", "REMU64", "UL2D", "U2D", "DDIV", "DMUL", "DADD"):
        assert mnemonic in body
    # pair operands anywhere: not all of them in R0..R3
    assert any(line[0] in ("DADD", "DMUL") and line[1] not in ("R0,",) for line in lines)


def test_64_bit_compares_branch_on_words(tmp_path):
    path = tmp_path / "cmp.c"
    path.write_text(r"""
        #include <stdio.h>
        #include <stdint.h>
        volatile int64_t V[] = {0, 1, -1, 4294967296LL, -4294967296LL, 4294967295LL,
                                 9223372036854775807LL, -9223372036854775807LL - 1, 2047, -2048};
        int main(void) {
            unsigned n = sizeof V / sizeof V[0], bits = 0, k = 0;
            for (unsigned i = 0; i < n; i++)
                for (unsigned j = 0; j < n; j++) {
                    int64_t a = V[i], b = V[j];
                    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
                    unsigned r = 0;
                    if (a == b) r |= 1; if (a != b) r |= 2; if (a < b) r |= 4;
                    if (a <= b) r |= 8; if (a > b) r |= 16; if (a >= b) r |= 32;
                    if (ua < ub) r |= 64; if (ua <= ub) r |= 128; if (ua > ub) r |= 256;
                    if (ua >= ub) r |= 512; if (a < 2047) r |= 1024; if (ua > 4294967295ULL) r |= 2048;
                    if (a == -2048) r |= 4096;
                    bits = bits * 31 + r; k += r;
                }
            printf("%u %u\n", bits, k);
            return 0;
        }""")
    expected_bits = expected_k = 0
    values = [0, 1, -1, 4294967296, -4294967296, 4294967295, 2**63 - 1, -2**63, 2047, -2048]
    for a in values:
        for b in values:
            ua, ub = a % 2**64, b % 2**64
            r = sum(bit for bit, c in (
                (1, a == b), (2, a != b), (4, a < b), (8, a <= b), (16, a > b), (32, a >= b),
                (64, ua < ub), (128, ua <= ub), (256, ua > ub), (512, ua >= ub),
                (1024, a < 2047), (2048, ua > 4294967295), (4096, a == -2048)) if c)
            expected_bits = (expected_bits * 31 + r) & 0xFFFFFFFF
            expected_k += r
    for opt in (0, 2):
        result, _ = build_c([str(path)], Options(opt=opt), "cmp")
        out = io.BytesIO()
        machine = Machine(StandaloneSvc(stdout=out))
        machine.run(machine.create_context(result.image), 1 << 30)
        assert out.getvalue().decode().split() == [str(expected_bits), str(expected_k)]


def _outputs(tmp_path, name: str, source: str, builds) -> list[str]:
    path = tmp_path / f"{name}.c"
    path.write_text(source)
    outs = []
    for opt, soft in builds:
        result, _ = build_c([str(path)], Options(opt=opt, soft_float=soft), name)
        out = io.BytesIO()
        machine = Machine(StandaloneSvc(stdout=out))
        stop = machine.run(machine.create_context(result.image), 1 << 30)
        assert stop.reason in (StopReason.EXITED, StopReason.RETURNED)
        outs.append(out.getvalue().decode())
    return outs


def test_float_compares_branch_as_the_library_compares(tmp_path):
    # hard float at -O2: FCMPS/DCMP and the predicate's branch (or its negation's, NaN
    # included); soft float: the library's compare, materialised
    source = r"""
        #include <stdio.h>
        volatile double D[] = {0.0, -0.0, 1.0, -2.5, 1e308, -1e308, 0.0 / 0.0, 1.0 / 0.0};
        volatile float F[] = {0.0f, -0.0f, 1.0f, -2.5f, 3e38f, 0.0f / 0.0f};
        static unsigned r;
        __attribute__((noinline)) static void hit(unsigned bit) { r = r * 3 + bit; }
        int main(void) {
            for (unsigned i = 0; i < 8; i++)
                for (unsigned j = 0; j < 8; j++) {
                    double a = D[i], b = D[j];
                    if (a == b) hit(1); if (a != b) hit(2); if (a < b) hit(3);
                    if (a <= b) hit(4); if (a > b) hit(5); if (a >= b) hit(6);
                    if (!(a < b)) hit(7); if (!(a <= b)) hit(8); if (!(a > b)) hit(9);
                    if (!(a >= b)) hit(10);
                }
            for (unsigned i = 0; i < 6; i++)
                for (unsigned j = 0; j < 6; j++) {
                    float a = F[i], b = F[j];
                    if (a < b) hit(11); if (a >= b) hit(12); if (!(a > b)) hit(13);
                    if (a != b) hit(14);
                }
            double x = 1.0; unsigned n = 0;
            while (x < 1e6) { x = x * 1.5 + 0.25; n++; }
            printf("%u %u\n", r, n);
            return 0;
        }"""
    outs = _outputs(tmp_path, "fcmp", source, [(0, True), (0, False), (2, False), (2, True)])
    assert len(set(outs)) == 1, outs


def test_compare_and_select_fused(tmp_path):
    source = r"""
        #include <stdio.h>
        volatile int V[] = {5, -3, 2047, -2048, 100000, -100000, 0, 7};
        __attribute__((noinline)) int smax(int a, int b) { return a > b ? a : b; }
        __attribute__((noinline)) unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
        __attribute__((noinline)) int clamp(int a) { return a < -100 ? -100 : a > 4000 ? 4000 : a; }
        __attribute__((noinline)) long long pick(int a, long long x, long long y) {
            return a >= 3 ? x : y; }
        int main(void) {
            long long s = 0;
            for (unsigned i = 0; i < 8; i++)
                for (unsigned j = 0; j < 8; j++)
                    s = s * 7 + smax(V[i], V[j]) + umin(V[i], V[j]) + clamp(V[i] + V[j])
                        + pick(V[i], (long long)V[j] << 33, -V[j]);
            printf("%lld\n", s);
            return 0;
        }"""
    vals = [5, -3, 2047, -2048, 100000, -100000, 0, 7]
    s = 0
    for a in vals:
        for b in vals:
            umin = min(a % 2**32, b % 2**32)
            c = a + b
            s = s * 7 + max(a, b) + umin + (-100 if c < -100 else 4000 if c > 4000 else c) \
                + ((b << 33) if a >= 3 else -b)
            s = (s + 2**63) % 2**64 - 2**63
    for out in _outputs(tmp_path, "sel", source, [(0, False), (1, False), (2, False)]):
        assert out.split() == [str(s)]
    path = tmp_path / "sel.c"
    text = compile_c_file(str(path), Options(opt=2)).mvasm
    smax = text[text.index("\nsmax:"):text.index("\numin:")]
    assert "LDI" not in smax                   # no 0/1 made: CMP, a branch, MOV


def test_constants_leave_loops_and_an_address_is_added_once(tmp_path):
    # the sieve's marking loop: `LDI32 comp; ADD; LDI 1; STB; ADD; LDI32 20000; CMP;
    # BLTU` an iteration before constants left the loop, `ADD; STB; ADD; CMP; BLTU` now
    source = r"""
        #include <stdio.h>
        static unsigned char comp[20001];
        __attribute__((noinline)) void mark(int i) {
            for (int j = i + i; j <= 20000; j += i) comp[j] = 1;
        }
        __attribute__((noinline)) void clear(void) {
            for (int j = 0; j < 20000; j += 2) { comp[j] = 0; comp[j + 1] = 0; }
        }
        int main(void) {
            clear(); mark(STEP);
            unsigned n = 0;
            for (int j = 0; j <= 20000; j++) n += comp[j];
            printf("%u\n", n);
            return 0;
        }"""
    path = tmp_path / "mark.c"
    path.write_text(source)
    counts = {}
    for step in (1, 2):
        result, _ = build_c([str(path)], Options(opt=2, defines=(f"STEP={step}",)), "mark")
        out = io.BytesIO()
        machine = Machine(StandaloneSvc(stdout=out))
        stop = machine.run(machine.create_context(result.image), 1 << 30)
        assert out.getvalue().decode().split() == [str(20000 // step - 1)]
        counts[step] = stop.executed
    # mark(1) runs 9,999 more iterations than mark(2), and the final count loop is the
    # same length
    assert (counts[1] - counts[2]) / 9999 <= 5.1
    text = compile_c_file(str(path), Options(opt=2, defines=("STEP=1",))).mvasm
    clear = text[text.index("\nclear:"):text.index("\nmain:")]
    # clang unrolls clear()'s loop five times: ten stores at comp + j + 0..9, the address
    # added once for all of them
    assert clear.count("STB") == 10 and clear.count("\n    ADD ") == 1, clear
    # its exit test reads j before `j + 10`: the addition moves onto the back edge, so
    # j and j + 10 share a register (no MOV each iteration)
    assert "MOV" not in clear, clear
