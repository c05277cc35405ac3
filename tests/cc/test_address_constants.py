"""Constants clang folds out of addresses: a function that walks a string literal, once
inlined, becomes `(@s + 16) + (0 - @s) + 1` -- the symbols cancel -- and an integer
difference of two objects' addresses is left for the code to compute, at every -O."""
from __future__ import annotations

import pytest
from cckit import compile_and_run

from hsx.toolchain.cc.ir import CompileError

OPTS = [0, 1, 2, "s"]

LENGTHS = r"""
#include <stdio.h>
#include <string.h>
static int len(const char *s) { const char *p = s; while (*p) p++; return (int)(p - s); }
typedef struct { const char *name; int qty; } Item;
static Item stock[] = { {"bolts", 3}, {"sixteen chars!!!", 5}, {"nuts", 7} };
int main(void) {
    int total = 0;
    for (int i = 0; i < 3; i++)
        total += len(stock[i].name);
    char buf[32];
    int n = len("sixteen chars!!!");
    memcpy(buf, "sixteen chars!!!", n + 1);
    printf("%d %d %s %d\n", total, len("sixteen chars!!!"), buf, len(buf));
    return n;
}
"""

DIFFERENCE = r"""
#include <stdint.h>
#include <stdio.h>
char first[4] = "abc", second[4] = "xyz";
int main(void) {
    printf("%ld\n", (long)((intptr_t)second - (intptr_t)first));
    return 0;
}
"""


@pytest.mark.parametrize("opt", OPTS)
def test_lengths_of_string_literals_fold_to_numbers(tmp_path, opt):
    assert compile_and_run(tmp_path, LENGTHS, opt) == ("25 16 sixteen chars!!! 16\n", 16)


@pytest.mark.parametrize("opt", OPTS)
def test_a_difference_of_two_addresses_is_computed_by_the_code(tmp_path, opt):
    from hsx.toolchain.cc.driver import Options, build_c
    source = tmp_path / "diff.c"
    source.write_text(DIFFERENCE)
    result, _ = build_c([str(source)], Options(opt=opt))
    table = result.symbols
    expected = table.address_of("second") - table.address_of("first")
    out, status = compile_and_run(tmp_path, DIFFERENCE, opt, name="diff")
    assert (out, status) == (f"{expected}\n", 0)


def test_a_difference_of_addresses_in_a_static_initialiser_is_refused_by_name():
    """No C initialiser asks for one (it is not a constant expression in C), but IR
    could: the linker places the two objects independently, so it is refused clearly."""
    from hsx.toolchain.cc.unit import compile_ir
    ir = """
@a = global i32 1
@b = global i32 2
@d = global i32 sub (i32 ptrtoint (ptr @b to i32), i32 ptrtoint (ptr @a to i32))
"""
    with pytest.raises(CompileError, match="difference of the addresses of b and a"):
        compile_ir(ir, "d.ll", False, "d.mvasm")
