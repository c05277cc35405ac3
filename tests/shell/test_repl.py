"""The console in a pseudo-terminal against a real `hsx execd`."""
from __future__ import annotations

import socket
import subprocess
import sys
import time

from execdkit import readline
from shellkit import INV_C, REPO, Terminal, build_c, drawn, terminal_env


def test_an_operator_session(execd, delayed, tmp_path):
    term = Terminal(execd, tmp_path / "data")
    term.run(f"load {delayed} --paused", r"loaded delayed as pid 1 \(\d+ bytes of code, with "
                                         r"symbols; paused\)")
    term.send("disas\t")                                  # a command completes ...
    term.expect(drawn("disasm"))
    term.send(" \t")                                      # ... and so does the PID
    term.expect("1")
    term.run("", r"=> 0x0000 <start\+0>", "target:")     # (without it: "needs PID")
    term.run("bp set 1 target", r"breakpoint 1 at start\+0x8  delayed.mvasm:11")
    term.run("resume 1")
    term.send("peek 1 cou")                               # typing while the task runs ...
    term.expect(r"stopped: breakpoint 1 at 0x0008 start\+0x8")  # ... the hit shows above
    term.expect(drawn("peek 1 cou"))                      # and the line is still there
    term.send("nter 8\r")
    term.expect(r"0x4000  44 33 22 11 74 69 63 6b")
    term.prompt()
    term.run("peek 1 msg 16", r"\|tick\.{12}\|")            # hex + ASCII
    term.run("load examples/mvasm/hello.mvasm", "loaded hello as pid 2",
             r"2\| Hello from HSX")                        # a task's stdout
    term.run("stdio hello", r"2\| Hello from HSX", "showing stdout and stderr of pid 2")
    term.send("poke 1 counter 01\r")                      # a write is confirmed first
    term.expect(r"really poke 1 counter 01\? \[y/N\]")
    term.send("n\r")
    term.expect("not done")
    term.prompt()
    term.run("peek 1 counter 4", r"0x4000  44 33 22 11")
    term.send("poke 1 counter 05\r")
    term.expect(r"\[y/N\]")
    term.send("y\r")
    term.expect("wrote 1 bytes at 0x4000")
    term.prompt()
    term.run("poke 1 counter 06 -y", "wrote 1 bytes")     # -y: no question
    term.run("x/1xw 1 counter", "0x11223306")
    term.run("regs", r"regs needs PID", r"usage: regs PID")
    term.run("use 1", "current task: 1 delayed")
    term.run("bt", r"#0  0x0008 in start\+0x8 delayed.mvasm:11")   # the PID left out
    assert term.close() == 0


def test_history_is_recalled_by_a_new_console(execd, tmp_path):
    first = Terminal(execd, tmp_path / "data")
    first.run("dmesg 1", r"info")
    first.run("clock", "clock running")
    assert first.close() == 0
    assert "clock" in (tmp_path / "data" / "hsx" / "shell_history").read_text()
    second = Terminal(execd, tmp_path / "data")
    second.send("\x1b[A")                                   # Up: the last command,
    second.expect(drawn("quit"))
    second.send("\x1b[A")                                   # and the one before
    second.expect(drawn("clock"))
    second.send("\x15")                                     # Ctrl-U: clear the line
    second.send("\x12dmes")                                 # Ctrl-R: search backwards
    second.expect(r"reverse-i-search.*dmes.*g 1")
    second.send("\r\r")                                    # accept the match, run it
    second.expect(r"\d+ info")
    second.prompt()
    assert second.close() == 0


def test_spawn_starts_an_executive_for_the_console_and_stops_it(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run([sys.executable, "-m", "hsx", "shell", "--port", str(port),
                           "--spawn", "ping"], capture_output=True, text=True, timeout=60,
                          env=terminal_env(tmp_path), cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "pong" in done.stdout and f"started an executive on 127.0.0.1:{port}" in done.stdout
    with socket.socket() as again:                        # it went with the console
        assert again.connect_ex(("127.0.0.1", port)) != 0
    missing = subprocess.run([sys.executable, "-m", "hsx", "shell", "--port", str(port)],
                             capture_output=True, text=True, timeout=60,
                             env=terminal_env(tmp_path))
    assert missing.returncode == 2
    assert "no executive is listening" in missing.stderr and "--spawn" in missing.stderr


def test_a_debugging_session_reads_right(execd, tmp_path):
    inv = build_c(tmp_path, INV_C, "inv")
    term = Terminal(execd, tmp_path / "data")
    seen = term.run(f"load {inv} --paused", "loaded inv as pid 1", r"\[1 inv\] loaded, ready")
    assert "None" not in seen
    for pid, name in ((2, "two"), (3, "three"), (4, "four")):
        term.run(f"load {inv} {name} --paused", f"loaded {name} as pid {pid}")
    term.run("use 1", "current task: 1 inv")
    term.send("bp set 4 ma")
    term.expect(drawn("bp set 4 ma"))
    term.send("\t")                                 # task 4's symbols, with task 1 current
    term.expect(drawn("in"))
    term.run("", r"breakpoint \d+ at main\+0x[0-9A-F]+ .* in pid 4")   # past its prologue
    term.run("bp set inv.c:8", r"at take\+0x[0-9A-F]+  inv.c:8 in pid 1")
    seen = term.run("c", "continuing 1 inv", r"stopped: breakpoint \d+ at .* inv.c:8")
    term.send("p sto")
    term.expect(drawn("p sto"))
    term.send("\t")                                 # a variable, by Tab
    term.expect(drawn("ck"))
    term.run("[0].qty", r"stock\[0\].qty = 5 ")          # line 8 has not run yet
    seen = term.run("finish", r"run till exit from take", r"Value returned by take: 2 \(int\)")
    assert seen.index("run till exit") < seen.index("stopped: step")  # the reply first
    term.run("bp clearall", r"cleared breakpoint \d+")
    seen = term.run("c", "continuing 1 inv", r"\[1 inv\] .*returned with status 6")
    assert "STATE" not in seen and "0x0000" not in seen               # no stale task row
    term.run("use", "no current task")
    term.run("regs", r"regs needs PID")             # forgotten: the PID is needed again
    overview = term.run("help", r"help all.*lists every command", r"console +The console")
    assert "Memory as hex" not in overview           # groups, not every command's summary
    term.run("help run", r"finish +Run until the current function returns")
    assert term.close() == 0


def test_a_spawned_executive_ends_with_a_killed_console(tmp_path):
    """--spawn's executive is tied to the console by a pipe: a console killed with
    SIGKILL (no chance to stop it) still leaves nothing listening on the port.  (Not in
    a pty: a pty's hangup would end the executive whatever the console did.)"""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    console = subprocess.Popen([sys.executable, "-m", "hsx", "shell", "--port", str(port),
                                "--spawn", "stdio"], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=terminal_env(tmp_path), cwd=REPO)
    try:
        assert f"started an executive on 127.0.0.1:{port}" in readline(console.stdout)
        console.kill()
        console.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as again:
                if again.connect_ex(("127.0.0.1", port)) != 0:
                    break
            time.sleep(0.05)
        else:
            raise AssertionError(f"an executive still listens on {port} after the console died")
    finally:
        if console.poll() is None:
            console.kill()
