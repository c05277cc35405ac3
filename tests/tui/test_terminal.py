"""`hsx dbg` as a user runs it: a real terminal (pexpect), and `--json` one-shots.  With
no executive on the port, each starts one for itself and stops it at the end."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pexpect
from tuikit import free_port

ROOT = Path(__file__).resolve().parents[2]
HSX = [sys.executable, "-m", "hsx"]


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def test_dbg_of_a_c_example_starts_draws_steps_and_quits_cleanly(tmp_path):
    port = free_port()
    child = pexpect.spawn(sys.executable, ["-m", "hsx", "dbg", "--port", str(port),
                                           str(ROOT / "examples/c/sensor.c")],
                          dimensions=(24, 80), encoding="utf-8", timeout=60,
                          env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
                               "TERM": "xterm-256color", "PATH": "/usr/bin:/bin"})
    try:
        child.expect("PAUSED")                       # built, loaded, run to main's first line
        child.expect("main")
        child.send("n")                              # step over
        child.expect(r"sensor\.c:21")
        assert listening(port)                       # the session's own executive
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert not listening(port)                       # stopped with the session
    assert (tmp_path / "hsx" / "dbg-layout.json").is_file()     # the layout was remembered


def test_terminal_is_left_usable(tmp_path):
    """After quitting, the alternate screen is left and the cursor shown again."""
    port = free_port()
    log = tmp_path / "screen.log"
    child = pexpect.spawn(sys.executable, ["-m", "hsx", "dbg", "--port", str(port),
                                           str(ROOT / "tests/tui/programs/count.mvasm")],
                          dimensions=(24, 80), encoding="utf-8", timeout=60,
                          env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
                               "TERM": "xterm-256color", "PATH": "/usr/bin:/bin"})
    child.logfile_read = log.open("w")
    child.expect("PAUSED")
    child.send("i")
    child.expect("0x0004")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    child.logfile_read.close()
    screen = log.read_text()
    assert child.exitstatus == 0
    assert screen.rfind("\x1b[?1049l") > screen.rfind("\x1b[?1049h")   # main screen back
    assert screen.rfind("\x1b[?25h") > screen.rfind("\x1b[?25l")       # cursor visible


def test_json_one_shot(tmp_path):
    port = free_port()
    done = subprocess.run([*HSX, "dbg", "--port", str(port), "--json", "regs",
                           str(ROOT / "examples/c/sensor.c")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    registers = json.loads(done.stdout)["registers"]
    assert registers["state"] == "paused" and len(registers["regs"]) == 16
    assert not listening(port)

    bad = subprocess.run([*HSX, "dbg", "--port", str(port), "--json", "print nosuchthing",
                          str(ROOT / "examples/c/sensor.c")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and json.loads(bad.stdout)["error"] == "bad_expression"
    assert "nosuchthing" in bad.stderr and "Traceback" not in bad.stderr


def test_json_with_the_shells_language_on_an_mvasm_program(tmp_path):
    """An MVASM program stays at its entry (no main to run to); gdb's words and the
    shell's run there; what changes the task needs -y."""
    program = tmp_path / "count.mvasm"
    program.write_text((ROOT / "tests/tui/programs/count.mvasm").read_text())
    port = free_port()

    def dbg(command: str) -> subprocess.CompletedProcess:
        return subprocess.run([*HSX, "dbg", "--port", str(port), "--json", command,
                               str(program)], capture_output=True, text=True, timeout=120)
    stepped = dbg("ni")
    assert stepped.returncode == 0, stepped.stderr
    result = json.loads(stepped.stdout)
    assert result["stopped"]["reason"] == "step" and result["task"]["pc"] == 4
    refused = dbg("kill")
    assert refused.returncode == 2 and "add -y" in refused.stderr
    assert dbg("kill -y").returncode == 0


def test_usage_errors_are_clear(tmp_path):
    none = subprocess.run([*HSX, "dbg"], capture_output=True, text=True, timeout=60)
    assert none.returncode == 2 and "give one of FILE, --pid or --app" in none.stderr
    missing = subprocess.run([*HSX, "dbg", str(tmp_path / "nope.c")], capture_output=True,
                             text=True, timeout=60)
    assert missing.returncode == 2 and "no such file" in missing.stderr
    port = free_port()
    unreachable = subprocess.run([*HSX, "dbg", "--port", str(port), "--pid", "1", "--json",
                                  "regs"], capture_output=True, text=True, timeout=60)
    assert unreachable.returncode == 2 and "no executive is listening" in unreachable.stderr
    assert "start one with `hsx execd`" in unreachable.stderr
    assert "Traceback" not in unreachable.stderr
