"""Input to a task's stdin from the console, against a real `hsx execd`."""
from __future__ import annotations

from shellkit import ECHO_C, LINES_C, Terminal, build_c


def test_stdin_with_a_pid_writes_to_that_task_not_the_current_one(execd, tmp_path):
    echo = build_c(tmp_path, ECHO_C, "echo")
    term = Terminal(execd, tmp_path / "data")
    term.run(f"load {echo} one", "loaded one as pid 1")
    term.run(f"load {echo} two", "loaded two as pid 2")
    term.run("use 1", "current task: 1 one")
    term.run("stdin 2 hello world", "wrote 12 bytes to the stdin of 2 two",
             r"2\| got \[hello world")                        # without the "2 "
    term.run("stdin 9 pears", r"stdin: no task with pid 9")    # not task 1's text
    term.run('stdin "9 pears"', "wrote 8 bytes", r"1\| got \[9 pears")   # quoted: text
    term.run("stdin 5", "wrote 2 bytes", r"1\| got \[5")      # a number alone: text
    term.run("output 1", r"got \[9 pears")
    assert "hello" not in term.child.before
    assert term.close() == 0


def test_stdin_sends_lines_and_one_eof_ends_the_input(execd, tmp_path):
    lines = build_c(tmp_path, LINES_C, "lines")
    term = Terminal(execd, tmp_path / "data")
    term.run(f"load {lines}", "loaded lines as pid 1")
    term.run("use 1", "current task: 1 lines")
    term.run("stdin abc", "wrote 4 bytes to the stdin of 1 lines",   # a line: "abc\n"
             r"1\| line 1: \[abc\]")
    term.run(r'stdin "tab\there\n"', "wrote 9 bytes",                # C escapes, one newline
             r"1\| line 2: \[tab\there\]")
    term.run("stdin -n partial", "wrote 7 bytes")                   # no newline: no line yet
    term.run("stdin --eof", "ended the input of 1 lines",          # one EOF ends it all
             r"1\| line 3: \[partial\] \(no newline\)", r"1\| done after 3 lines",
             r"\[1 lines\] \w+ -> returned with status 3")
    term.run("stdin 1 more", r"stdin: task 1 has ended")
    assert term.close() == 0
