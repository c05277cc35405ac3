"""`hsx asm`, `hsx link`, `hsx disasm` through click: files, messages and exit codes."""
from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from hsx.cli.main import cli
from hsx.image.hxe import read_hxe_file
from hsx.image.sym import load_sym

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mvasm"


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return invoke


def write(name: str, text: str) -> Path:
    path = Path(name)
    path.write_text(text)
    return path


def test_asm_to_image_writes_hxe_and_sym(run):
    write("prog.mvasm", ".entry main\nmain: LDI R0, 3\nRET\n")
    result = run("asm", "prog.mvasm", "-o", "prog.hxe")
    assert result.exit_code == 0, result.output
    image = read_hxe_file("prog.hxe")
    assert image.app_name == "prog" and image.code_words == [0x01000003, 0x25000000]
    assert load_sym("prog.sym").address_of("main") == 0


def test_asm_then_link_multiple_objects(run):
    write("lib.mvasm", ".export twice\ntwice: ADD R0, R0, R0\nRET\n")
    write("main.mvasm", ".entry main\nmain: LDI R0, 4\nCALL twice\nRET\n")
    assert run("asm", "lib.mvasm").exit_code == 0                 # default: lib.hxo
    assert run("asm", "main.mvasm", "-o", "main.hxo").exit_code == 0
    result = run("link", "main.hxo", "lib.hxo", "-o", "app.hxe", "--sym", "out.sym",
                 "--app-name", "demo", "--single-instance", "--req-cap", "0x12")
    assert result.exit_code == 0, result.output
    image = read_hxe_file("app.hxe")
    assert (image.app_name, image.flags, image.req_caps, image.entry) == ("demo", 0, 0x12, 0)
    assert image.code_words[1] == 0x24000002
    assert load_sym("out.sym").address_of("twice") == 12
    first = Path("app.hxe").read_bytes()
    assert run("link", "main.hxo", "lib.hxo", "-o", "app.hxe", "--sym", "out.sym",
               "--app-name", "demo", "--single-instance", "--req-cap", "0x12").exit_code == 0
    assert Path("app.hxe").read_bytes() == first


def test_link_entry_option(run):
    write("a.mvasm", ".export go\nNOP\ngo: RET\n")
    run("asm", "a.mvasm")
    assert run("link", "a.hxo", "-o", "a.hxe", "--entry", "go").exit_code == 0
    assert read_hxe_file("a.hxe").entry == 4


def test_asm_errors_are_file_line_col_with_exit_status_1(run):
    write("bad.mvasm", "NOP\nFOO R1\nLDI R1, 9999\n")
    result = run("asm", "bad.mvasm", "-o", "bad.hxo")
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "bad.mvasm:2:1: unknown mnemonic 'FOO'",
        "bad.mvasm:3:9: LDI: immediate 9999 (0x270F) does not fit signed 12 bits (-2048..2047); "
        "use LDI20"]
    assert not Path("bad.hxo").exists()


def test_link_errors_and_warnings(run):
    write("a.mvasm", ".entry a\na: CALL missing\n")
    write("b.mvasm", ".entry b\nb: RET\n")
    run("asm", "a.mvasm")
    run("asm", "b.mvasm")
    result = run("link", "a.hxo", "-o", "x.hxe")
    assert result.exit_code == 1
    assert result.output == "a.mvasm:2:9: undefined symbol 'missing' (referenced by a.hxo)\n"
    write("c.mvasm", ".entry c\nc: RET\n")
    run("asm", "c.mvasm")
    result = run("link", "b.hxo", "c.hxo", "-o", "x.hxe")
    assert result.exit_code == 0
    assert result.output.startswith("warning: several modules declare an entry point")


def test_link_rejects_bad_objects_and_options(run):
    write("junk.hxo", "{not json")
    result = run("link", "junk.hxo", "-o", "x.hxe")
    assert result.exit_code == 1 and result.output.startswith("hsx: junk.hxo: not an object file (.hxo)")
    result = run("link", "missing.hxo", "-o", "x.hxe")
    assert result.exit_code == 2 and result.output.startswith("hsx: missing.hxo: no such file\n")
    result = run("link", "junk.hxo", "-o", "x.hxe", "--req-cap", "lots")
    assert result.exit_code == 2
    write("a.mvasm", "RET\n")
    run("asm", "a.mvasm")
    result = run("link", "a.hxo", "-o", "x.hxe", "--app-name", "x" * 40)
    assert result.exit_code == 1 and "app_name" in result.output


def test_asm_missing_source(run):
    result = run("asm", "nope.mvasm", "-o", "x.hxo")
    assert result.exit_code == 2
    assert result.output.startswith("hsx: nope.mvasm: no such file\n  check the name")


def test_include_dirs_option(run):
    Path("inc").mkdir()
    write("inc/consts.inc", ".equ ANSWER, 42\n")
    write("prog.mvasm", '.include "consts.inc"\nLDI R0, ANSWER\nRET\n')
    assert run("asm", "prog.mvasm", "-o", "p.hxe").exit_code == 1
    assert run("asm", "prog.mvasm", "-o", "p.hxe", "-I", "inc").exit_code == 0
    assert read_hxe_file("p.hxe").code_words[0] == 0x0100002A


def test_disasm_uses_the_sym_next_to_the_image(run):
    write("prog.mvasm", ".entry main\nhelper: RET\nmain: CALL helper\nRET\n")
    run("asm", "prog.mvasm", "-o", "prog.hxe")
    result = run("disasm", "prog.hxe")
    assert result.exit_code == 0
    assert "main:\n  0004:  24000FFF" in result.output and "CALL helper" in result.output
    Path("prog.sym").unlink()
    result = run("disasm", "prog.hxe")
    assert "CALL L_0000" in result.output


def test_disasm_mvasm_to_file_reassembles(run):
    write("prog.mvasm", (EXAMPLES / "hello.mvasm").read_text())
    run("asm", "prog.mvasm", "-o", "prog.hxe")
    assert run("disasm", "prog.hxe", "--mvasm", "-o", "again.mvasm").exit_code == 0
    assert run("asm", "again.mvasm", "-o", "prog2.hxe").exit_code == 0
    a, b = read_hxe_file("prog.hxe"), read_hxe_file("prog2.hxe")
    assert (a.code, a.rodata, a.entry, a.metadata) == (b.code, b.rodata, b.entry, b.metadata)


def test_disasm_reads_v1_images_with_their_32_byte_header(run):
    code = bytes.fromhex("01000007 25000000")
    header = struct.pack(">IHHIIIIII", 0x48535845, 1, 0, 0, len(code), 0, 0, 0, 0)
    crc = zlib.crc32(header[:0x1C] + code)
    Path("old.hxe").write_bytes(header[:0x1C] + crc.to_bytes(4, "big") + code)
    result = run("disasm", "old.hxe")
    assert result.exit_code == 0
    assert "HXE v1" in result.output
    assert "0000:  01000007" in result.output and "LDI R0, 7" in result.output


def test_disasm_of_a_bad_image_is_one_message(run):
    Path("bad.hxe").write_bytes(b"nope")
    result = run("disasm", "bad.hxe")
    assert result.exit_code == 1
    assert result.output.startswith("hsx: bad.hxe: not an HXE image: ")
    assert len(result.output.splitlines()) == 2 and "Traceback" not in result.output


def test_hello_example(run):
    result = run("asm", str(EXAMPLES / "hello.mvasm"), "-o", "hello.hxe")
    assert result.exit_code == 0, result.output
    image = read_hxe_file("hello.hxe")
    assert image.rodata == b"Hello from HSX\n"
    words = image.code_words
    assert words[:2] == [0x60100000, 0x4000]                      # LDI32 R1, greeting
    assert words[2] == 0x0120000F                                 # LDI R2, 15
    assert words[3] == 0x30000101 and words[5] == 0x30000100      # UART write, exit
    sym = json.loads(Path("hello.sym").read_text())
    assert [f["name"] for f in sym["symbols"]["functions"]] == ["main"]
