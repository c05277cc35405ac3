"""The debug console (expressions and shell commands), setVariable and setExpression,
memory, disassembly and loaded sources."""
from __future__ import annotations

import base64
import shutil
import subprocess
import sys

from dapkit import PROGRAMS, line_of


def stop_in_accumulate(dap, built, execd) -> tuple[int, dict]:
    source = built / "prog.c"
    pid = dap.launch(built / "prog.hxe", execd, lines={"prog.c": [line_of(source, "count")]})
    dap.stopped("breakpoint")
    return pid, dap.top_frame(pid)


def test_console_takes_expressions_and_shell_commands(dap, built, execd):
    pid, top = stop_in_accumulate(dap, built, execd)
    repl = lambda text: dap.ok("evaluate", expression=text, frameId=top["id"],  # noqa: E731
                               context="repl")
    assert repl("total + 1")["result"] == "21"
    table = repl("table")
    assert table["indexedVariables"] == 4 and table["variablesReference"] > 0
    tasks = repl("!ps")["result"]
    assert f"{pid}" in tasks and "prog" in tasks and "paused" in tasks
    backtrace = repl("bt")["result"]                  # not C: the shell's command
    assert "accumulate" in backtrace and "main" in backtrace
    assert "peek" in repl("!help")["result"]
    message = dap.fails("evaluate", expression="!kill", frameId=top["id"], context="repl")
    assert "-y" in message
    assert "nosuch" in dap.fails("evaluate", expression="nosuch * 2", frameId=top["id"],
                                 context="repl")


def test_set_variable_in_a_scope_and_a_struct_field(dap, built, execd):
    pid, top = stop_in_accumulate(dap, built, execd)
    scopes = {s["name"]: s["variablesReference"]
              for s in dap.ok("scopes", frameId=top["id"])["scopes"]}
    changed = dap.ok("setVariable", variablesReference=scopes["Locals"], name="total",
                     value="100 + 1")
    assert changed["value"] == "101"
    origin = next(v for v in dap.ok("variables", variablesReference=scopes["Globals"])[
        "variables"] if v["name"] == "origin")
    dap.ok("setVariable", variablesReference=origin["variablesReference"], name="right",
           value="-7")
    assert dap.ok("evaluate", expression="origin.right", frameId=top["id"])["result"] == "-7"
    assert dap.ok("evaluate", expression="total", frameId=top["id"])["result"] == "101"
    message = dap.fails("setVariable", variablesReference=scopes["Locals"], name="total",
                        value="nosuch")
    assert "nosuch" in message


def test_set_expression_writes_what_a_watch_names(dap, built, execd):
    pid, top = stop_in_accumulate(dap, built, execd)
    changed = dap.ok("setExpression", expression="origin.right", value="total * 2",
                     frameId=top["id"])
    assert changed["value"] == "40"
    assert dap.ok("evaluate", expression="origin.right", frameId=top["id"],
                  context="watch")["result"] == "40"
    assert "cannot be assigned" in dap.fails(
        "setExpression", expression="total + 1", value="3", frameId=top["id"])
    assert "expression" in dap.fails("setExpression", value="3", frameId=top["id"])


def test_read_and_write_memory(dap, built, execd):
    pid, top = stop_in_accumulate(dap, built, execd)
    table = dap.ok("evaluate", expression="table", frameId=top["id"], context="watch")
    reference = table["memoryReference"]
    read = dap.ok("readMemory", memoryReference=reference, offset=4, count=8)
    assert base64.b64decode(read["data"]) == (20).to_bytes(4, "little") + \
        (30).to_bytes(4, "little")
    written = dap.ok("writeMemory", memoryReference=reference, offset=0,
                     data=base64.b64encode((99).to_bytes(4, "little")).decode())
    assert written["bytesWritten"] == 4
    assert dap.ok("evaluate", expression="table[0]", frameId=top["id"])["result"] == "99"
    tail = dap.ok("readMemory", memoryReference="0xfffffff0", count=64)
    assert tail["unreadableBytes"] == 64 - len(base64.b64decode(tail["data"]))


def test_disassemble_around_the_pc_and_loaded_sources(dap, built, execd):
    pid, top = stop_in_accumulate(dap, built, execd)
    pc = top["instructionPointerReference"]
    listing = dap.ok("disassemble", memoryReference=pc, instructionOffset=-4,
                     instructionCount=10)["instructions"]
    assert len(listing) == 10 and listing[4]["address"] == pc
    assert listing[4]["line"] == line_of(built / "prog.c", "count")
    assert listing[4]["location"]["path"] == str(built / "prog.c")
    assert all(ins["instruction"] for ins in listing)
    ahead = dap.ok("disassemble", memoryReference=pc, instructionOffset=-8,
                   instructionCount=40)["instructions"]        # more after than before
    assert ahead[8]["address"] == pc
    assert all(ins.get("presentationHint") != "invalid" for ins in ahead)
    start = dap.ok("disassemble", memoryReference="0x0", instructionOffset=-3,
                   instructionCount=5)["instructions"]
    assert [i.get("presentationHint") for i in start[:3]] == ["invalid"] * 3
    assert start[3]["address"] == "0x00000000" and start[3]["instruction"]
    sources = dap.ok("loadedSources")["sources"]
    assert {"name": "prog.c", "path": str(built / "prog.c")} in sources


def test_console_completions(dap, built, execd):
    pid, top = stop_in_accumulate(dap, built, execd)

    def labels(text: str) -> dict[str, dict]:
        targets = dap.ok("completions", text=text, column=len(text) + 1,
                         frameId=top["id"])["targets"]
        return {t["label"]: t for t in targets}

    found = labels("1 + tot")
    assert "total" in found and found["total"]["start"] == 5 and found["total"]["length"] == 3
    assert "$r0" in labels("$r") and "counter" in labels("cou")
    assert "bp" in labels("b")                            # a first word: commands too
    assert "bp" not in labels("1 + b")
    assert "accumulate" in labels("!bp set acc")
    assert str(pid) in labels("!regs ")


def test_a_source_only_the_executive_finds_is_read_through_it(dap, execd, tmp_path):
    """The editor's machine lacks the `.sym` that maps `src/prog.c` to where it was
    built; the executive still has that map, so the adapter gives a sourceReference
    and the text comes over the protocol (as from an executive on another machine)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "build").mkdir()
    shutil.copy(PROGRAMS / "prog.c", tmp_path / "src" / "prog.c")
    subprocess.run([sys.executable, "-m", "hsx", "cc", "-g", "-O0", "src/prog.c", "-o",
                    "build/prog.hxe"], cwd=tmp_path, check=True, capture_output=True,
                   timeout=600)
    pid = dap.launch(tmp_path / "build" / "prog.hxe", execd, stopOnEntry=True)
    dap.stopped("entry")
    (tmp_path / "build" / "prog.sym").unlink()
    source = dap.top_frame(pid)["source"]
    assert source["name"] == "prog.c" and "path" not in source and source["sourceReference"] > 0
    text = dap.ok("source", source=source, sourceReference=source["sourceReference"])
    assert text == {"content": (tmp_path / "src" / "prog.c").read_text(),
                    "mimeType": "text/x-c"}
    assert "not one this session gave" in dap.fails("source", sourceReference=999)
