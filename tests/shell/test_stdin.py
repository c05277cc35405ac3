"""Input to a task's stdin from the console, against a real `hsx execd`."""
from __future__ import annotations

from shellkit import ECHO_C, Terminal, build_c


def test_stdin_with_a_pid_writes_to_that_task_not_the_current_one(execd, tmp_path):
    echo = build_c(tmp_path, ECHO_C, "echo")
    term = Terminal(execd, tmp_path / "data")
    term.run(f"load {echo} one", "loaded one as pid 1")
    term.run(f"load {echo} two", "loaded two as pid 2")
    term.run("use 1", "current task: 1 one")
    term.run("stdin 2 hello world", r"written", r"2\| got \[hello world")  # without "2 "
    term.run("stdin 9 pears", r"stdin: no task with pid 9")        # not task 1's text
    term.run('stdin "9 pears"', r"written", r"1\| got \[9 pears")   # quoted: text
    term.run("stdin 5", r"written", r"1\| got \[5")                  # a number alone: text
    term.run("output 1", r"got \[9 pears")
    assert "hello" not in term.child.before
    assert term.close() == 0
