"""math.h against the host's libm: every function of double and float, on special values
and pseudo-random arguments over each function's interesting ranges, run on the VM and
compared (in ulps) with the same call through ctypes.  HSX's results are correctly
rounded in nearly all cases, so the bound is glibc's own documented error (its
libm-test-ulps) and 1 ulp where glibc is correctly rounded."""
from __future__ import annotations

import ctypes
import ctypes.util
import math
import random
import struct

import pytest
from cckit import run_image

LIBM = ctypes.util.find_library("m")
requires_libm = pytest.mark.skipif(LIBM is None, reason="no host libm to compare with")

# name -> arity; each also has an `f` (float) version
GROUPS = [
    {"sin": 1, "cos": 1, "tan": 1},
    {"asin": 1, "acos": 1, "atan": 1, "atan2": 2},
    {"sinh": 1, "cosh": 1, "tanh": 1},
    {"asinh": 1, "acosh": 1, "atanh": 1},
    {"exp": 1, "exp2": 1, "expm1": 1},
    {"log": 1, "log2": 1, "log10": 1, "log1p": 1},
    {"pow": 2, "hypot": 2},
    {"sqrt": 1, "cbrt": 1, "fmod": 2, "remainder": 2},
    {"erf": 1, "erfc": 1},
    {"lgamma": 1, "tgamma": 1},
    {"floor": 1, "ceil": 1, "trunc": 1, "round": 1, "rint": 1, "nearbyint": 1, "logb": 1},
    {"fdim": 2, "fmax": 2, "fmin": 2, "nextafter": 2, "copysign": 2},
]
# glibc's bounds (x86_64 libm-test-ulps) where it is not within an ulp
TOLERANCE = {"cbrt": 4, "cosh": 2, "sinh": 2, "tanh": 2, "asinh": 2, "acosh": 2, "atanh": 2,
             "log10": 2, "erfc": 5, "lgamma": 4, "tgamma": 9, "erf": 2, "expm1": 2,
             "cbrtf": 2, "erfcf": 3, "lgammaf": 7, "tgammaf": 8}
SAMPLES = 40
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, math.inf, -math.inf, math.nan, 5e-324,
           2.2250738585072014e-308, 1.7976931348623157e308, 1e-300, -1e300]


def _samples(rng: random.Random, single: bool) -> list[float]:
    """Arguments over small, unit, moderate, large and extreme magnitudes."""
    out = []
    for _ in range(SAMPLES):
        kind = rng.random()
        if kind < 0.3:
            v = rng.uniform(-10, 10)
        elif kind < 0.5:
            v = rng.uniform(-1, 1)
        elif kind < 0.7:
            v = math.ldexp(rng.uniform(0.5, 1), rng.randint(-60, 60)) * rng.choice([-1, 1])
        elif kind < 0.85:
            v = rng.uniform(-800, 800) if not single else rng.uniform(-120, 120)
        else:
            lo, hi = (-149, 127) if single else (-1074, 1023)
            v = math.ldexp(rng.uniform(0.5, 1), rng.randint(lo, hi)) * rng.choice([-1, 1])
        out.append(_to_float(v) if single else v)
    return out


def _to_float(v: float) -> float:
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _bits(v: float, single: bool) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0] if single else \
        struct.unpack("<Q", struct.pack("<d", v))[0]


def _from_bits(b: int, single: bool) -> float:
    return struct.unpack("<f", struct.pack("<I", b))[0] if single else \
        struct.unpack("<d", struct.pack("<Q", b))[0]


def _ulps(a: float, b: float, single: bool) -> int:
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else 1 << 62
    top = 31 if single else 63

    def key(v):
        u = _bits(v, single)
        return -(u & ((1 << top) - 1)) if u >> top else u
    return abs(key(a) - key(b))


def _cases(group: dict) -> list[tuple[str, tuple, bool]]:
    rng = random.Random(20240613)
    cases = []
    for name, arity in group.items():
        for single in (False, True):
            args = [_to_float(v) if single else v for v in SPECIAL] + _samples(rng, single)
            if arity == 1:
                cases += [(name + "f" * single, (a,), single) for a in args]
            else:
                second = list(args)
                rng.shuffle(second)
                if name == "pow":              # plenty of moderate exponents too
                    second = [s if rng.random() < 0.5 else rng.uniform(-30, 30) for s in second]
                    second = [_to_float(s) if single else s for s in second]
                cases += [(name + "f" * single, (a, b), single) for a, b in zip(args, second)]
    return cases


def _program(cases: list) -> str:
    """C that prints the bits of every case's result, one hex word per line."""
    lines = ["#include <stdio.h>", "#include <math.h>", "#include <stdint.h>",
             "#include <string.h>",
             "static double d(uint64_t b) { double v; memcpy(&v, &b, 8); return v; }",
             "static float f(uint32_t b) { float v; memcpy(&v, &b, 4); return v; }",
             "static void outd(double v) { uint64_t b; memcpy(&b, &v, 8);"
             " printf(\"%llx\\n\", (unsigned long long)b); }",
             "static void outf(float v) { uint32_t b; memcpy(&b, &v, 4); printf(\"%x\\n\", b); }"]
    names = list(dict.fromkeys(c[0] for c in cases))
    body = []
    for name in names:
        mine = [c for c in cases if c[0] == name]
        single, arity = mine[0][2], len(mine[0][1])
        words = ", ".join(f"0x{_bits(a, single):x}" for _, args, _ in mine for a in args)
        ctype, conv, out = ("uint32_t", "f", "outf") if single else ("uint64_t", "d", "outd")
        lines.append(f"static const {ctype} in_{name}[] = {{ {words} }};")
        args = ", ".join(f"{conv}(in_{name}[{arity} * i + {k}])" for k in range(arity))
        body.append(f"    for (int i = 0; i < {len(mine)}; i++) {out}({name}({args}));")
    return "\n".join(lines + ["int main(void) {"] + body + ["    return 0;", "}"])


def _host(name: str, args: tuple, single: bool) -> float:
    lib = ctypes.CDLL(LIBM)
    fn = getattr(lib, name)
    t = ctypes.c_float if single else ctypes.c_double
    fn.restype, fn.argtypes = t, [t] * len(args)
    return fn(*args)


@requires_libm
@pytest.mark.parametrize("group", GROUPS, ids=["-".join(g) for g in GROUPS])
def test_math_functions_agree_with_the_host_libm(group, tmp_path):
    from hsx.toolchain.cc.driver import Options, build_c
    cases = _cases(group)
    source = tmp_path / "libm.c"
    source.write_text(_program(cases))
    result, _ = build_c([str(source)], Options(opt=1))
    out, status = run_image(result.image)
    assert status == 0
    values = out.decode().split()
    assert len(values) == len(cases)
    bad = []
    for (name, args, single), word in zip(cases, values):
        mine = _from_bits(int(word, 16), single)
        ref = _host(name, args, single)
        distance = _ulps(mine, ref, single)
        if distance > TOLERANCE.get(name, 1):
            bad.append(f"{name}{args}: {mine!r}, host libm {ref!r} ({distance} ulps)")
    assert not bad, "\n".join(bad[:20])
