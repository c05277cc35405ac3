"""What `hsx cc -Os` does to keep code small (benchmarks/density_bench.py measures it):
each check names the sequence that used to be there, and the program still computes
what the host's C computes."""
from __future__ import annotations

import pytest

from cckit import compile_and_run, function_lines

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

unsigned scramble(unsigned x);

unsigned mix(const unsigned *p, int n)   /* 8 values live across a hot loop (scramble is
                                            defined after: clang cannot move the calls) */
{
    unsigned h0 = scramble(0), h1 = scramble(1), h2 = scramble(2), h3 = scramble(3);
    unsigned h4 = scramble(4), h5 = scramble(5), h6 = scramble(6), h7 = scramble(7);
    unsigned s = 0, t = 1, u = 2, v = 3, w = 4;
    for (int i = 0; i < n; i++) {
        s += p[i]; t ^= s << 1; u += t >> 3; v = v * 33 + u; w += v ^ s;
    }
    return s + t + u + v + w + (h0 ^ h1 ^ h2 ^ h3 ^ h4 ^ h5 ^ h6 ^ h7);
}

unsigned middle(unsigned long long x) { return (unsigned)(x >> 20); }

__attribute__((noinline)) unsigned churn(unsigned x) { return x * 2654435761u ^ (x >> 3); }

unsigned mix_late(const unsigned *p, int n)     /* churn has no effects: clang moves its */
{                                               /* calls past the loop, laid out after them */
    unsigned h0 = churn(0), h1 = churn(1), h2 = churn(2), h3 = churn(3);
    unsigned h4 = churn(4), h5 = churn(5), h6 = churn(6), h7 = churn(7);
    unsigned s = 0, t = 1, u = 2, v = 3, w = 4;
    for (int i = 0; i < n; i++) {
        s += p[i]; t ^= s << 1; u += t >> 3; v = v * 33 + u; w += v ^ s;
    }
    return s + t + u + v + w + (h0 ^ h1 ^ h2 ^ h3 ^ h4 ^ h5 ^ h6 ^ h7);
}

int main(void)
{
    static const unsigned char data[] = "the quick brown fox";
    static const unsigned words[] = {3, 1, 4, 1, 5, 9, 2, 6};
    printf("%u %u %u\n", mix(words, 8), middle(0x123456789abcdefull), mix_late(words, 8));
    static const char *const texts[] = {"ab!", "ab cd", "zzzz", "a b c", "x y!"};
    static const int limits[] = {1000, 1000, 200, 10000, 10000};
    for (int k = 0; k < 5; k++)
        printf("%d\n", weigh(texts[k], limits[k]));
    printf("%u\n", checksum(data, sizeof data - 1));
    return 0;
}
"""


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


def test_a_hot_loop_keeps_its_values_in_registers(listing):
    """With more values live than registers, those used only after the loop go to the
    frame, not the loop's own (which were reloaded and stored on every iteration
    when the value whose interval ended last was the one spilled)."""
    code = function_lines(listing, "mix")
    head = next(k for k, line in enumerate(code) if line.startswith("LSLI"))
    loop = code[head:next(k for k in range(head, len(code)) if code[k].startswith("BNE"))]
    assert loop and not [line for line in loop if "[R14" in line]


def test_values_share_a_register_between_their_uses(listing):
    """Lifetime holes: the loop's values are live only in the loop and after it, not
    in the calls laid out between (a value's interval once ran from its first to its
    last position, calls included, so they needed R6..R13 and went to the frame)."""
    assert not [line for line in function_lines(listing, "mix_late") if "[R14" in line]


def test_an_unread_word_of_a_64_bit_value_is_not_computed(listing):
    """`(unsigned)(x >> 20)`: the shift's high word is not made (dce.py)."""
    lines = function_lines(listing, "middle")
    assert [line.split()[0] for line in lines] == ["LSRI", "LSLI", "OR", "RET"]
    assert lines[0].endswith("R1, 20") and lines[1].endswith("R2, 12")   # low word >> 20 | high << 12


@pytest.mark.parametrize("opt", [0, 2, "s"])
def test_the_program_computes_what_c_computes(tmp_path, opt):
    scramble = "unsigned scramble(unsigned x) { return x * 2654435761u ^ (x >> 3); }\n"
    out, status = compile_and_run(tmp_path, RETURNS + scramble, opt=opt)
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
    s_, t, u, v, w = 0, 1, 2, 3, 4
    for word in (3, 1, 4, 1, 5, 9, 2, 6):
        s_ = (s_ + word) & M
        t ^= (s_ << 1) & M
        u = (u + (t >> 3)) & M
        v = (v * 33 + u) & M
        w = (w + (v ^ s_)) & M
    h = 0
    for x in range(8):
        h ^= (x * 2654435761 & M) ^ (x >> 3)
    mixed = (s_ + t + u + v + w + h) & M
    assert status == 0
    assert out == (f"{mixed} {0x123456789abcdef >> 20 & M} {mixed}\n{weighs}"
                   f"{a ^ b ^ c ^ d ^ e ^ f}\n")


M = 0xFFFFFFFF


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
