"""The console against `hsx execd --profile minimal`: it says what the executive lacks
and which variant has it, and what the minimal variant offers still works."""
from __future__ import annotations

import pytest
from shellkit import Terminal


@pytest.mark.profile("minimal")
def test_the_console_says_which_variant_has_what_a_minimal_executive_lacks(execd, delayed,
                                                                           tmp_path):
    term = Terminal(execd, tmp_path / "data")
    assert "this executive runs the minimal variant: no live events" in term.child.before
    term.run(f"load {delayed} --paused", "loaded delayed as pid 1")
    term.run("bp set 1 target", r"bp\.set needs the development or full variant; this "
                                r"executive runs minimal \(unsupported\)")
    term.run("bt 1", r"stack\.info needs the development or full variant")
    term.run("help", r"bp\*", r"not in this executive's variant")
    term.run("help all", r"bp set +Set a breakpoint[^\n]*\[development variant\]",
             r"peek +Memory as hex and ASCII[^\[\n]*\n")
    term.run("help watch add", r"Needs the development or full variant; this executive "
                               r"runs minimal\.")
    # what minimal offers: tasks, stepping, registers, memory, stdio (read, not followed)
    term.run("step 1 2", r"now at 0x0008")
    term.run("peek 1 0x4000 4", r"0x4000  44 33 22 11")
    term.run("load examples/mvasm/hello.mvasm", "loaded hello as pid 2")
    term.run("wait 2", r"2 hello\] returned with status 0")    # no events: it looks
    term.run("output 2", r"Hello from HSX")
    assert term.close() == 0
