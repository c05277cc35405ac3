"""`load` of a C file: built for debugging, with the compiler's options."""
from __future__ import annotations

from shellkit import Terminal

BUILD_C = """#include "conf.h"
#ifndef LIMIT
#define LIMIT 1
#endif

static int take(int *stock, int count) {
    if (*stock < count)
        return 0;
    *stock -= count;
    return count;
}

int main(void) {
    int stock = 9;
    int got = take(&stock, 2);
    return got + BASE + LIMIT;
}
"""


def test_load_builds_c_with_g_o0_and_takes_o_i_and_d(execd, tmp_path):
    source = tmp_path / "build.c"
    source.write_text(BUILD_C)
    include = tmp_path / "inc"
    include.mkdir()
    (include / "conf.h").write_text("#define BASE 5\n")
    term = Terminal(execd, tmp_path / "data")
    term.run(f"load {source} -I {include} --paused", "loaded build as pid 1")
    term.run("bp set 1 build.c:9", r"at take\+0x[0-9A-Fa-f]+  build.c:9 ")   # -O0: not inlined
    term.run(f"load {source} -O2 -I {include} --paused fast", "loaded fast as pid 2")
    term.run("bp set 2 build.c:9", r"breakpoint \d+ at main")    # -O2: take is inlined
    term.run(f"load {source} -I{include} -DLIMIT=3 three", "loaded three as pid 3",
             r"\[3 three\] .*returned with status 10")             # 2 + BASE 5 + LIMIT 3
    term.run(f"load {source} -O9", r"LEVEL: level must be one of 0, 1, 2, 3, s, z",
             r"usage: load PATH")
    term.run(f"load {tmp_path}/x.mvasm -O2", r"-O, -g, -I and -D are for a .c file")
    assert term.close() == 0
