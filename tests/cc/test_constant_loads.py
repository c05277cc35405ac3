"""Constants and addresses in one word where an instruction holds them (LDI's 12 bits,
LDI20's signed 20, LDIH's top 20), and programs whose addresses LDI20 cannot reach
(more than 512 KiB before a symbol), which hsx cc builds with LDI32 instead."""
from __future__ import annotations

import io

import pytest
from cckit import compile_and_run

from hsx.isa import decode_code
from hsx.toolchain.cc.driver import Options, build_c, compile_c_file
from hsx.toolchain.cc.runtime import link_program
from hsx.toolchain.diagnostics import ToolchainError
from hsx.toolchain.fixups import FAR_ADDRESSES, wider_load
from hsx.vm import Machine, StandaloneSvc, StopReason

# At the edges of what LDI, LDI20 and LDIH hold, and just past them.
EDGE_CONSTANTS = [2047, -2048, 2048, -2049, 524287, -524288, 524288, -524289, 0x7FF00000,
                  0x80000000, 0xFFFFF000, 0x000FFFFF, 0x7FFFFFFF, 0x12345678, 0x1000, -4096]

EDGES = r"""
#include <stdio.h>
__attribute__((noinline)) static unsigned mix(unsigned k, unsigned i) { return k + i; }
volatile unsigned one = 1;
int main(void) {
    unsigned k = one;
    printf("%u\n", TERMS);
    return 0;
}
""".replace("TERMS", " ^ ".join(f"(mix(k, {i}) * 0x{c & 0xFFFFFFFF:X}u)"
                               for i, c in enumerate(EDGE_CONSTANTS)))


@pytest.mark.parametrize("opt", [0, 2, "s"])
def test_constants_at_the_edges_compute_right(tmp_path, opt):
    expected = 0
    for i, c in enumerate(EDGE_CONSTANTS):
        expected ^= ((1 + i) * (c & 0xFFFFFFFF)) & 0xFFFFFFFF
    assert compile_and_run(tmp_path, EDGES, opt) == (f"{expected}\n", 0)


def test_no_constant_one_word_holds_takes_two(tmp_path):
    path = tmp_path / "edges.c"
    path.write_text(EDGES)
    module = compile_c_file(str(path), Options(opt=2, compact=False)).module
    relocated = {r.position - 1 for r in module.relocs if r.section == "code"}
    k, used = 0, set()
    while k < len(module.code):
        ins = decode_code(module.code, k)
        used.add(ins.op.mnemonic)
        if ins.op.mnemonic == "LDI32" and k not in relocated:
            assert wider_load(ins.imm) == "LDI32", f"LDI32 0x{ins.imm:X} fits one word"
        k += ins.size // 4
    assert {"LDI20", "LDIH"} <= used


NEAR = r"""
#include <stdio.h>
int counter = 5;
int (*out)(const char *, ...) = printf;
int main(void) { counter += 2; out("%d\n", counter); return 0; }
"""

FAR = r"""
#include <stdio.h>
char first[600 * 1024];
char second[600 * 1024];
int main(void) {
    first[sizeof first - 1] = 7;
    second[5] = 9;
    printf("%d %d %d\n", first[sizeof first - 1], second[5], (int)(second - first));
    return 0;
}
"""


def test_an_address_takes_one_word(tmp_path):
    path = tmp_path / "near.c"
    path.write_text(NEAR)
    module = compile_c_file(str(path), Options(opt=2)).module
    code_relocs = {r.type for r in module.relocs if r.section == "code" and r.symbol}
    assert "imm20" in code_relocs and "imm32" not in code_relocs
    assert compile_and_run(tmp_path, NEAR) == ("7\n", 0)


def test_a_program_with_more_data_loads_addresses_in_two_words(tmp_path):
    """Linked from objects compiled near, it fails naming the fix; built by hsx cc, it
    is compiled again with far addresses and runs."""
    path = tmp_path / "far.c"
    path.write_text(FAR)
    with pytest.raises(ToolchainError) as error:
        link_program([compile_c_file(str(path), Options(opt=2)).module])
    assert any("LDI20: the address" in d.message and FAR_ADDRESSES in d.message
               and "'second'" in d.message for d in error.value.diagnostics)
    result, _ = build_c([str(path)], Options(opt=2), "far")
    out = io.BytesIO()
    machine = Machine(StandaloneSvc(stdout=out))
    stop = machine.run(machine.create_context(result.image, mem_size=2 << 20), 1 << 30)
    assert stop.reason in (StopReason.EXITED, StopReason.RETURNED)
    assert out.getvalue().decode() == f"7 9 {600 * 1024}\n"
