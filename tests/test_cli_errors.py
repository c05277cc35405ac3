"""One voice for errors across `hsx` commands (issue 17, group 8), and `hsx run`'s
sandbox of its own (group 7): `hsx: WHAT: WHY`, then what to do, documented exit codes."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hsx.cli import errors
from hsx.cli.main import cli

HSX = [sys.executable, "-m", "hsx"]


def invoke(*args, env=None):
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


COMMANDS = [("run", "{}"), ("asm", "{}"), ("disasm", "{}"), ("link", "{}", "-o", "x.hxe"),
            ("cc", "{}"), ("dbg", "{}"), ("execd", "--port", "0", "--load", "{}")]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_missing_file_is_said_the_same_way_by_every_command(tmp_path, command):
    path = tmp_path / "nope.hxe"
    code, out, err = invoke(*(a.format(path) for a in command))
    assert code == errors.EXIT_USAGE
    assert err == f"hsx: {path}: no such file\n  check the name and the directory you are in\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_dev_null_and_directories_are_not_files(tmp_path, command):
    code, _, err = invoke(*(a.format("/dev/null") for a in command))
    assert code == 2 and err.startswith("hsx: /dev/null: not a regular file")
    code, _, err = invoke(*(a.format(tmp_path) for a in command))
    assert code == 2 and err.startswith(f"hsx: {tmp_path}: is a directory, not a file")


def test_a_file_of_the_wrong_kind_is_named_with_what_the_command_takes(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    code, _, err = invoke("disasm", str(notes))
    assert code == errors.EXIT_FAILED
    assert err.splitlines() == [
        f"hsx: {notes}: not an HXE image: file is 6 bytes; the smallest header is 32 bytes",
        "  hsx disasm lists .hxe images; `hsx asm -o X.hxe` or `hsx cc` make one"]
    code, _, err = invoke("link", str(notes), "-o", str(tmp_path / "x.hxe"))
    assert code == errors.EXIT_FAILED
    assert err.splitlines()[0] == f"hsx: {notes}: not an object file (.hxo)"
    for command in (("dbg", str(notes)), ("execd", "--load", str(notes))):
        code, _, err = invoke(*command)
        assert code == errors.EXIT_USAGE and err.startswith(f"hsx: {notes}: not a")


def test_an_output_that_cannot_be_written_is_named(tmp_path):
    source = tmp_path / "ok.mvasm"
    source.write_text(".text\n.entry start\nstart:\n    SVC MOD=1, FN=0\n")
    out = tmp_path / "no" / "such" / "x.hxe"
    code, _, err = invoke("asm", str(source), "-o", str(out))
    assert code == errors.EXIT_FAILED
    assert err == (f"hsx: {out}: cannot write: its directory does not exist\n"
                   "  create the directory, or choose another -o\n")


@pytest.mark.parametrize("args, first", [
    (["frob"], "hsx: no such command 'frob'"),
    (["asm"], "hsx: asm: missing argument 'SOURCE'"),
    (["run", "--quantum", "0", "x.hxe"],
     "hsx: run: invalid value for '--quantum': 0 is not in the range x>=1"),
])
def test_bad_usage_is_said_in_the_same_voice(capsys, args, first):
    with pytest.raises(SystemExit) as done:
        errors.main(cli, args=args, prog_name="hsx")
    assert done.value.code == errors.EXIT_USAGE
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == first and lines[1].startswith("  see `hsx")


def test_a_port_in_use_says_so_and_what_to_do(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([*HSX, "execd", "--port", str(port), "--root", str(tmp_path)],
                              capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"hsx: 127.0.0.1:{port}: the port is already in use\n")
    assert "--port" in done.stderr


DEADLOCK = """
.data
chan: .asciz "app:nobody"
buf: .zero 16
.text
.entry start
start:
    LDI32 R1, chan
    LDI R2, 0
    SVC MOD=5, FN=0          ; OPEN
    LDI32 R2, buf
    LDI R3, 16
    LDI32 R4, 0xFFFF         ; wait for ever
    LDI R5, 0
    SVC MOD=5, FN=3          ; RECV: nobody sends
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def test_a_deadlock_lists_each_task_and_what_it_waits_for(tmp_path):
    source = tmp_path / "waiter.mvasm"
    source.write_text(DEADLOCK)
    code, _, err = invoke("run", str(source), "--root", str(tmp_path / "fs"))
    assert code == errors.EXIT_GUEST
    assert err.splitlines() == [
        "hsx: no task can go on (deadlock)",
        "  waiter (pid 1) waits to receive from mailbox app:nobody, which nobody sends to"]


# A read of stdin into `buf` (R0: the count, 0 at its end).
READ_STDIN = """
    LDI R1, 0
    LDI32 R2, buf
    LDI R3, 16
    SVC MOD=4, FN=1          ; READ fd 0
"""
# The same waiter, after reading what stdin has (or its end).
READ_THEN_WAIT = DEADLOCK.replace("start:\n", "start:" + READ_STDIN, 1)


@pytest.mark.parametrize("stdin", ["/dev/null", "a closed pipe", "an open pipe"])
def test_a_task_waiting_for_what_no_input_can_bring_is_a_deadlock_whatever_stdin_is(
        tmp_path, stdin):
    """Host input only ever completes a stdin read: once the task waits for a mailbox
    instead, stdin being open (a pipe nobody closes, a terminal) must not keep hsx run
    waiting for ever."""
    source = tmp_path / "reader.mvasm"
    source.write_text(READ_THEN_WAIT)
    args = [*HSX, "run", str(source), "--root", str(tmp_path / "fs")]
    with open(os.devnull, "rb") as null:
        proc = subprocess.Popen(args, stdin=null if stdin == "/dev/null" else subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        if proc.stdin is not None:
            proc.stdin.write(b"hi\n")
            proc.stdin.flush()
            if stdin == "a closed pipe":
                proc.stdin.close()
        proc.wait(timeout=60)
        err = proc.stderr.read().decode()
    finally:
        proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert proc.returncode == errors.EXIT_GUEST
    assert err.splitlines() == [
        "hsx: no task can go on (deadlock)",
        "  reader (pid 1) waits to receive from mailbox app:nobody, which nobody sends to"]


READ_ONE = """
.data
buf: .zero 16
.text
.entry start
start:""" + READ_STDIN + """    SVC MOD=1, FN=0          ; exit with the count read
"""


def test_a_stdin_read_waits_while_stdin_is_open(tmp_path):
    """Not a deadlock: the input may still come (a terminal, a slow pipe)."""
    source = tmp_path / "one.mvasm"
    source.write_text(READ_ONE)
    proc = subprocess.Popen([*HSX, "run", str(source), "--root", str(tmp_path / "fs")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=1)
        _, err = proc.communicate(b"abc", timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert (proc.returncode, err) == (3, b"")


CAT = """
.data
buf: .zero 16
.text
.entry start
start:""" + READ_STDIN + """    CMPI R0, 0
    BEQ ended
    MOV R3, R0
    LDI R1, 1
    LDI32 R2, buf
    SVC MOD=4, FN=2          ; write it to fd 1
    JMP start
ended:
    LDI R1, 0
    LDI32 R2, buf
    LDI R3, 16
    SVC MOD=4, FN=1          ; READ again after the end: 0 again, as on a pipe
    ADDI R0, R0, 5
    SVC MOD=1, FN=0          ; exit 5 when it was 0
"""


def test_reads_after_the_end_of_stdin_see_the_end_again(tmp_path):
    source = tmp_path / "cat.mvasm"
    source.write_text(CAT)
    result = CliRunner().invoke(cli, ["run", str(source), "--root", str(tmp_path / "fs")],
                                input="a line\nand a longer second line\n")
    assert (result.exit_code, result.stdout, result.stderr) == (
        5, "a line\nand a longer second line\n", "")


CRASH = """
.text
.entry start
start:
    CALL outer
    LDI R0, 0
    SVC MOD=1, FN=0
outer:
    PUSH R14
    MOV R14, R15
    CALL inner
    POP R14
    RET
inner:
    PUSH R14
    MOV R14, R15
    LDI R1, 0
    LD R2, [R1+16]           ; the null page: a fault
    POP R14
    RET
"""


def test_a_fault_names_the_function_the_line_and_the_callers(tmp_path):
    source = tmp_path / "crash.mvasm"
    source.write_text(CRASH)
    code, _, err = invoke("run", str(source), "--root", str(tmp_path / "fs"))
    lines = err.splitlines()
    assert code == errors.EXIT_GUEST
    assert lines[0].startswith("hsx: fault: crash (pid 1): memory at pc ")
    assert [line.split(" in ")[1] for line in lines[1:4]] == [
        "inner at crash.mvasm:18", "outer at crash.mvasm:11", "start at crash.mvasm:5"]


def test_a_fault_in_c_built_without_g_still_names_the_line(tmp_path):
    source = tmp_path / "crash.c"
    source.write_text("int main(void) {\n    volatile int *p = (int *)16;\n"
                      "    return *p;\n}\n")
    code, _, err = invoke("run", str(source), "--root", str(tmp_path / "fs"))   # -O2, no -g
    lines = err.splitlines()
    assert code == errors.EXIT_GUEST and lines[0].startswith("hsx: fault: crash (pid 1): ")
    assert " in main at " in lines[1] and lines[1].endswith("crash.c:3"), lines
    assert " in _start" in lines[2] and len(lines) == 3        # the start: nothing cut short


def test_hsx_run_never_uses_the_current_directory_as_the_guests_root(tmp_path, monkeypatch):
    precious = tmp_path / "notes.txt"
    precious.write_text("mine")
    source = tmp_path / "deleter.mvasm"
    source.write_text("""
.data
name: .asciz "notes.txt"
.text
.entry start
start:
    LDI32 R1, name
    SVC MOD=4, FN=0x0B       ; DELETE notes.txt
    SVC MOD=1, FN=0
""")
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data"
    code, _, err = invoke("run", "deleter.mvasm", env={"XDG_DATA_HOME": str(data)})
    assert precious.read_text() == "mine"
    assert code == 0xFE                       # -ENOENT: not in the sandbox
    sandbox = data / "hsx" / "sandbox"
    assert err == (f"hsx: guest files: in {sandbox}\n"
                   "  choose another directory with --root\n")
    assert sandbox.is_dir()


def test_anything_unexpected_is_one_line_not_a_traceback(capsys):
    @click.command()
    def broken():
        raise RuntimeError("boom")

    with pytest.raises(SystemExit) as done:
        errors.main(broken, args=[], prog_name="hsx")
    assert done.value.code == errors.EXIT_GUEST
    err = capsys.readouterr().err
    assert err.startswith("hsx: internal error: RuntimeError: boom\n") and "Traceback" not in err


def test_the_documented_exit_codes_are_the_helpers():
    docs = (Path(__file__).parents[1] / "docs" / "cli.md").read_text()
    for name in ("EXIT_OK", "EXIT_FAILED", "EXIT_USAGE", "EXIT_GUEST", "EXIT_MAX_STEPS",
                 "EXIT_INTERRUPTED"):
        assert f"| {getattr(errors, name)} |" in docs, name


SPAWN_CRASHER = """
.data
path:   .asciz "/crash.hxe"
.text
.entry start
start:
    LDI32 R1, path
    SVC MOD=6, FN=4          ; SPAWN: the new task faults at once
    LDI R0, 20
    SVC MOD=6, FN=0          ; sleep while it does
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def test_a_fault_of_a_task_spawned_by_another_is_reported(tmp_path):
    """Tasks hsx run did not load itself (EXEC SPAWN) have no source of its: the fault is
    reported without symbols (it was an internal error, a KeyError on the pid)."""
    from hsx.toolchain.build import assemble_source, link_objects
    from hsx.image.hxe import write_hxe
    crash, _ = link_objects([assemble_source(".entry s\ns: LDI R1, 4\n LD R0, [R1]\n",
                                             "crash.mvasm")], app_name="crash")
    (tmp_path / "fs").mkdir()
    (tmp_path / "fs" / "crash.hxe").write_bytes(write_hxe(crash))
    source = tmp_path / "parent.mvasm"
    source.write_text(SPAWN_CRASHER)
    code, _, err = invoke("run", str(source), "--root", str(tmp_path / "fs"))
    assert code == 0
    assert err.splitlines()[0].startswith("hsx: fault: crash (pid 2): memory at pc 0x0004")
    assert "internal error" not in err
