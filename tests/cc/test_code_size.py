"""What `hsx cc -Os` does to keep code small (benchmarks/density_bench.py measures it):
each check names the sequence that used to be there, and the program still computes
what the host's C computes."""
from __future__ import annotations

import pytest

from cckit import compile_and_run

from hsx.toolchain.cc.driver import Options, compile_c_file

RETURNS = r"""
#include <stdio.h>
int weigh(const char *s, int limit)             /* many returns, values live across calls */
{
    int total = 0, words = 0;
    for (; *s; s++) {
        if (*s == '!')
            return -1;
        if (*s == ' ') {
            words++;
            if (puts(s) < 0)
                return -2;
            continue;
        }
        total += *s;
        if (total > limit)
            return words ? total / words : total;
    }
    return total + words;
}

unsigned checksum(const unsigned char *p, int n)   /* a leaf needing R6 and up */
{
    unsigned a = 1, b = 0, c = 0, d = 0, e = 7, f = 3;
    for (int i = 0; i < n; i++) {
        a += p[i]; b += a; c ^= b << 3; d += c >> 2; e = e * 31 + d; f += e ^ a;
    }
    return a ^ b ^ c ^ d ^ e ^ f;
}

int main(void)
{
    static const unsigned char data[] = "the quick brown fox";
    static const char *const texts[] = {"ab!", "ab cd", "zzzz", "a b c", "x y!"};
    static const int limits[] = {1000, 1000, 200, 10000, 10000};
    for (int k = 0; k < 5; k++)
        printf("%d\n", weigh(texts[k], limits[k]));
    printf("%u\n", checksum(data, sizeof data - 1));
    return 0;
}
"""


def function_lines(mvasm: str, name: str) -> list[str]:
    """The instructions of one function of a listing."""
    lines = mvasm.splitlines()
    start = lines.index(f"{name}:") + 1
    out = []
    for line in lines[start:]:
        if line.startswith(".export") or (line and not line.startswith((" ", ".L"))):
            break
        if line.startswith("    "):
            out.append(line.split()[0] + " " + " ".join(line.split()[1:]))
    return out


@pytest.fixture(scope="module")
def listing(tmp_path_factory):
    path = tmp_path_factory.mktemp("size") / "returns.c"
    path.write_text(RETURNS)
    return compile_c_file(str(path), Options(opt="s")).mvasm


def test_a_function_has_one_epilogue(listing):
    """Every return but one is a BR to the epilogue (the POPs were copied to each)."""
    code = function_lines(listing, "weigh")
    assert sum(line.startswith("RET") for line in code) == 1
    assert sum(line.startswith("POP R14") for line in code) == 1


def test_a_leaf_keeps_sp_where_its_saved_registers_end(listing):
    """A function that calls nothing needs no 16-byte SP alignment, so neither its
    prologue nor its epilogue moves SP beyond its PUSHes and POPs."""
    code = function_lines(listing, "checksum")
    assert "PUSH R6" in code
    assert not [line for line in code if "R15" in line and not line.startswith("MOV R14")]


@pytest.mark.parametrize("opt", [0, 2, "s"])
def test_the_program_computes_what_c_computes(tmp_path, opt):
    out, status = compile_and_run(tmp_path, RETURNS, opt=opt)
    data = b"the quick brown fox"
    a, b, c, d, e, f = 1, 0, 0, 0, 7, 3
    for byte in data:
        a = (a + byte) & 0xFFFFFFFF
        b = (b + a) & 0xFFFFFFFF
        c ^= (b << 3) & 0xFFFFFFFF
        d = (d + (c >> 2)) & 0xFFFFFFFF
        e = (e * 31 + d) & 0xFFFFFFFF
        f = (f + (e ^ a)) & 0xFFFFFFFF
    weighs = "".join(weigh(text, limit) for text, limit in (
        ("ab!", 1000), ("ab cd", 1000), ("zzzz", 200), ("a b c", 10000), ("x y!", 10000)))
    assert status == 0
    assert out == f"{weighs}{a ^ b ^ c ^ d ^ e ^ f}\n"


def weigh(text: str, limit: int) -> str:
    """What the C `weigh` prints (its puts lines) and returns, as printed."""
    total = words = 0
    printed = ""
    for k, char in enumerate(text):
        if char == "!":
            return printed + "-1\n"
        if char == " ":
            words += 1
            printed += text[k:] + "\n"
            continue
        total += ord(char)
        if total > limit:
            return printed + f"{int(total / words) if words else total}\n"
    return printed + f"{total + words}\n"
