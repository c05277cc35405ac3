"""`hsx run`: exit codes, stderr lines, --stats, --max-steps."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hsx.cli.main import cli
from hsx.image.hxe import write_hxe
from vmkit import asm, image

ROOT = Path(__file__).resolve().parents[2]


def hxe(tmp_path: Path, *lines, rodata: bytes = b"", name: str = "prog.hxe") -> str:
    path = tmp_path / name
    path.write_bytes(write_hxe(image(asm(*lines), rodata)))
    return str(path)


def run(*args):
    result = CliRunner().invoke(cli, ["run", *args])
    return result.exit_code, result.stdout, result.stderr


def test_mvasm_hello_runs_in_a_real_process():
    proc = subprocess.run([sys.executable, "-m", "hsx", "run",
                           str(ROOT / "examples/mvasm/hello.mvasm")],
                          capture_output=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == b"Hello from HSX\n" and proc.stderr == b""


def test_exit_status_is_masked(tmp_path):
    code, out, err = run(hxe(tmp_path, "LDI R0, 300", "SVC 0x100"))
    assert (code, out, err) == (44, "", "")


def test_return_from_entry_frame_gives_r0(tmp_path):
    assert run(hxe(tmp_path, "LDI R0, 7", "RET"))[0] == 7


def test_guest_stdout_and_stderr(tmp_path):
    path = hxe(tmp_path, "LDI R1, 2", "LDI32 R2, 0x4000", "LDI R3, 4", "SVC 0x402",
               "LDI32 R1, 0x4004", "LDI R2, 3", "SVC 0x101", "LDI R0, 0", "SVC 0x100",
               rodata=b"err\nout")
    assert run(path) == (0, "out", "err\n")


def test_fault_names_the_task_and_where_and_exits_70(tmp_path):
    code, out, err = run(hxe(tmp_path, "LDI R1, 0", "LD R2, [R1+16]"))
    assert code == 70
    first, hint = err.splitlines()
    assert first.startswith("hsx: fault: prog (pid 1): memory at pc 0x0004")
    assert "addr 0x00000010" in first and "no symbols" in hint


def test_brk_without_debugger_exits_70(tmp_path):
    code, out, err = run(hxe(tmp_path, "BRK 9"))
    assert code == 70 and err == ("hsx: prog (pid 1): BRK 9 at pc 0x0000 with no debugger "
                                  "attached\n  debug it with `hsx dbg` to stop there\n")


def test_max_steps(tmp_path):
    code, out, err = run(hxe(tmp_path, "ADDI R1, R1, 1", "JMP 0"), "--max-steps", "101")
    assert code == 124 and err.startswith("hsx: --max-steps: stopped after 101 instructions\n")


def test_stats(tmp_path):
    code, out, err = run(hxe(tmp_path, "LDI R0, 3", "LDI R1, 4", "SVC 0x100"), "--stats")
    assert code == 3 and re.fullmatch(r"instructions=3 seconds=\d+\.\d+\n", err)


@pytest.mark.parametrize("content,name", [(None, "missing.hxe"), (b"HSXE", "short.hxe"),
                                          (b"main: FOO R1\n", "bad.mvasm")])
def test_load_errors_exit_2_with_what_why_and_what_to_do(tmp_path, content, name):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    code, out, err = run(str(path))
    message = err.splitlines()[-2:] if name.endswith(".mvasm") else err.splitlines()
    assert code == 2 and message[0].startswith(f"hsx: {path}: ")
    assert len(message) == 2 and message[1].startswith("  ")


def test_image_that_does_not_fit_is_a_load_error(tmp_path):
    path = tmp_path / "big.hxe"
    img = image(asm("RET"))
    img.bss_size = 0xC000
    path.write_bytes(write_hxe(img))
    code, out, err = run(str(path))
    assert code == 2 and "does not fit" in err


def test_several_files_run_together_and_the_first_gives_the_exit_code(tmp_path):
    a = hxe(tmp_path, "LDI R0, 5", "RET", name="a.hxe")
    b = hxe(tmp_path, "LDI R1, 0", "LD R2, [R1]", name="b.hxe")
    code, out, err = run(a, b, a)
    assert code == 5
    assert err.startswith("hsx: fault: b (pid 2): memory at pc 0x0004")


def _linked_hxe(tmp_path: Path, source: str) -> Path:
    """source assembled and linked to prog.hxe with prog.sym beside it, as `hsx asm` does."""
    from hsx.image.sym import write_sym
    from hsx.toolchain.build import assemble_file, link_modules
    (tmp_path / "prog.mvasm").write_text(source)
    linked = link_modules([assemble_file(tmp_path / "prog.mvasm")], app_name="prog")
    (tmp_path / "prog.sym").write_bytes(write_sym(linked.symbols))
    (tmp_path / "prog.hxe").write_bytes(write_hxe(linked.image))
    return tmp_path / "prog.hxe"


FAULTS_IN_READER = ("        .entry main\nmain:   CALL reader\n        SVC MOD=1, FN=0\n"
                    "reader: LDI R1, 0\n        LD R2, [R1+16]\n        RET\n")


def test_a_fault_in_an_image_names_functions_from_the_sym_beside_it(tmp_path):
    """The .sym is read when the report needs it (not at start), and still used."""
    code, _, err = run(str(_linked_hxe(tmp_path, FAULTS_IN_READER)))
    assert code == 70
    assert "in reader" in err and "main" in err and "no symbols" not in err


def test_a_broken_sym_beside_an_image_only_costs_the_names(tmp_path):
    image_path = _linked_hxe(tmp_path, FAULTS_IN_READER)
    image_path.with_suffix(".sym").write_text("not a symbol file")
    code, _, err = run(str(image_path))
    assert code == 70 and "no symbols" in err and "reader" not in err
