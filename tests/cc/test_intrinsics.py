"""Every integer, memory and float-class intrinsic clang emits for C, for every width
from i8 to i64 (intrinsic_programs.py): the programs print what the host's gcc build
prints, at every -O level; clang really emits each intrinsic for them; and the memory
intrinsics also take the i64 lengths a 64-bit target's clang writes."""
from __future__ import annotations

import re
import subprocess

import pytest
from cckit import requires_gcc, run_image

from intrinsic_programs import FAMILIES
from hsx.toolchain.cc import unit
from hsx.toolchain.cc.frontend import ClangRun
from hsx.toolchain.cc.driver import Options, build_c

LEVELS = [0, 1, 2, "s"]


@pytest.fixture(scope="module")
def gcc_output(tmp_path_factory):
    """What each family's program prints when the host's gcc builds it (made once)."""
    out = tmp_path_factory.mktemp("gcc")
    made: dict[str, str] = {}

    def get(family: str) -> str:
        if family not in made:
            source = out / f"{family}.c"
            source.write_text(FAMILIES[family][0])
            subprocess.run(["gcc", "-O0", "-w", "-fwrapv", "-o", str(out / family), str(source)],
                           check=True, capture_output=True)
            made[family] = subprocess.run([str(out / family)], capture_output=True, text=True,
                                          timeout=60, check=True).stdout
        return made[family]
    return get


def _built(tmp_path, family: str, opt) -> str:
    source = tmp_path / f"{family}.c"
    source.write_text(FAMILIES[family][0])
    result, _ = build_c([str(source)], Options(opt=opt))
    out, status = run_image(result.image)
    assert status == 0
    return out.decode()


@requires_gcc
@pytest.mark.parametrize("opt", LEVELS, ids=[f"O{o}" for o in LEVELS])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_intrinsics_compute_what_gcc_computes(family, opt, tmp_path, gcc_output):
    assert _built(tmp_path, family, opt) == gcc_output(family)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_clang_emits_every_intrinsic_the_family_is_about(family, tmp_path):
    source = tmp_path / f"{family}.c"
    source.write_text(FAMILIES[family][0])
    seen = set()
    for opt in LEVELS:
        seen |= set(re.findall(r"@(llvm\.[\w.]+)", unit.clang_ir(str(source), Options(opt=opt))))
    assert FAMILIES[family][1] <= seen


_MEM_CALL = re.compile(r"(@llvm\.mem(?:cpy|move|set)\.[\w.]*?)\.i32\((.*), i32 ([^,]+), (i1 \w+)\)")


def _with_i64_lengths(ir: str) -> str:
    """clang's IR with every memcpy/memmove/memset length widened to i64 (a variable
    length through a zext before the call)."""
    out = []
    for n, line in enumerate(ir.splitlines()):
        match = _MEM_CALL.search(line)
        if match:
            name, head, length, volatile = match.groups()
            if not length.lstrip("-").isdigit():
                indent = line[:len(line) - len(line.lstrip())]
                out.append(f"{indent}%wide.{n} = zext i32 {length} to i64")
                length = f"%wide.{n}"
            line = line[:match.start()] + f"{name}.i64({head}, i64 {length}, {volatile})" + \
                line[match.end():]
        out.append(line)
    return "\n".join(out) + "\n"


@requires_gcc
@pytest.mark.parametrize("opt", [0, 2], ids=["O0", "O2"])
def test_memory_intrinsics_with_i64_lengths(opt, tmp_path, gcc_output, monkeypatch):
    clang_ir = ClangRun.ir
    widened = []

    def wide(*args, **kwargs):
        ir = _with_i64_lengths(clang_ir(*args, **kwargs))
        widened.extend(re.findall(r"@llvm\.mem\w+\.[\w.]*i64\(", ir))
        return ir
    monkeypatch.setattr(ClangRun, "ir", wide)
    assert _built(tmp_path, "memory", opt) == gcc_output("memory")
    assert len(set(widened)) == 3          # memcpy, memmove and memset, all with i64
