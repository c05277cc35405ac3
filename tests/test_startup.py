"""What the quick `hsx` commands import (issue 26, start-up): each loads only what it
uses.  Not their time, which depends on the machine: the modules that made them slow
(the terminal UI, the prompt, LLVM, asyncio, the layers a command does not need) must
not come back.  Each command runs as a user runs it, in its own process (in a terminal
where colour matters), and reports `sys.modules` as it exits."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pexpect
import pytest
from execdkit import execd_child

# Never on these paths: the terminal debugger's and the prompt's toolkits, and LLVM.
HEAVY = ("textual", "prompt_toolkit", "llvmlite")
# What `hsx run` builds or imports only when a program uses it: the value and command
# registries and their SVC modules (but the PIN, which the kernel checks when it starts),
# command handlers' upcalls, CAN, the translator's code generator (for hot code), trace
# records, mailbox metadata's JSON -- and hashlib (the native library is found by a
# zlib checksum), textwrap (its regexes).
ON_FIRST_USE = ("hsx.kernel.registry.values", "hsx.kernel.registry.commands",
                "hsx.kernel.registry.model", "hsx.kernel.registry.constants",
                "hsx.kernel.syscalls.values", "hsx.kernel.upcall", "hsx.kernel.bus",
                "hsx.kernel.syscalls.can", "hsx.vm.blockgen", "hsx.vm.blockops",
                "hsx.vm.trace", "json", "hashlib", "textwrap")
REPORT = textwrap.dedent("""
    import atexit, os, runpy, sys
    def report():
        with open(os.environ["HSX_TEST_MODULES"], "w") as out:
            out.write("\\n".join(sorted(sys.modules)))
    atexit.register(report)
    sys.argv = ["hsx", *sys.argv[1:]]
    runpy.run_module("hsx", run_name="__main__", alter_sys=True)
""")


def run_hsx(tmp_path: Path, *args: str, terminal: bool = False,
            engine: str | None = None) -> tuple[int, str, set[str]]:
    """`hsx ARGS` in a process of its own (on `engine`, else the default): (exit status,
    its output, the modules it had imported when it ended)."""
    report = tmp_path / "modules.txt"
    env = {**os.environ, "HSX_TEST_MODULES": str(report), "TERM": "xterm",
           **({"HSX_ENGINE": engine} if engine else {})}
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-c", REPORT, *args]
    if terminal:
        child = pexpect.spawn(command[0], command[1:], env=env, cwd=str(tmp_path),
                              encoding="utf-8", timeout=120)
        output = child.read()
        child.close()
        status = child.exitstatus
    else:
        done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
        status, output = done.returncode, done.stdout + done.stderr
    return status, output, set(report.read_text().split())


def loaded(modules: set[str], *packages: str) -> list[str]:
    """The modules of `modules` in any of `packages` (a package or its submodules)."""
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


@pytest.fixture(scope="module")
def empty_program(tmp_path_factory) -> Path:
    """A program that returns at once, with its .sym, as `hsx asm` writes them."""
    from hsx.image.hxe import write_hxe
    from hsx.image.sym import write_sym
    from hsx.toolchain.build import assemble_file, link_modules
    directory = tmp_path_factory.mktemp("empty")
    source = directory / "empty.mvasm"
    source.write_text("        .entry main\nmain:   LDI R0, 0\n        SVC MOD=1, FN=0\n")
    result = link_modules([assemble_file(source)], app_name="empty")
    (directory / "empty.sym").write_bytes(write_sym(result.symbols))
    image = directory / "empty.hxe"
    image.write_bytes(write_hxe(result.image))
    return image


def test_help_lists_the_commands_and_imports_none_of_them(tmp_path):
    status, output, modules = run_hsx(tmp_path, "--help")
    assert status == 0
    for name in ("asm", "cc", "dap", "dbg", "disasm", "execd", "fs", "link", "run", "shell"):
        assert f"\n  {name} " in output
    assert "hsx.cli.main" in modules
    assert loaded(modules, *HEAVY, "asyncio", "hsx.kernel", "hsx.vm", "hsx.toolchain",
                  "hsx.debug", "hsx.client", "hsx.shell", "hsx.image", "hsx.server") == []


def test_each_command_shows_the_summary_help_lists():
    """A command's own `short_help` is the table's summary (the table is the one place)."""
    from hsx.cli.main import SUBCOMMANDS, cli
    from click import Context
    context = Context(cli)
    for name, (_, summary) in SUBCOMMANDS.items():
        assert cli.get_command(context, name).get_short_help_str(200) == summary


def test_run_loads_the_executive_and_nothing_for_debugging_or_building(tmp_path,
                                                                       empty_program):
    """Nor the symbols beside the program: they are read when a report needs them."""
    status, output, modules = run_hsx(tmp_path, "run", str(empty_program))
    assert (status, output) == (0, "")
    assert "hsx.kernel.executive" in modules and "hsx.vm.machine" in modules
    assert loaded(modules, *HEAVY, "asyncio", "sqlite3", "subprocess", "tomllib",
                  "hsx.debug", "hsx.toolchain", "hsx.image.sym",
                  "hsx.client", "hsx.server", "hsx.shell") == []
    assert loaded(modules, *ON_FIRST_USE) == []
    assert loaded(modules, "hsx.kernel.registry") == ["hsx.kernel.registry",
                                                      "hsx.kernel.registry.access"]


# A value registered, set and read back (R0 = its raw f16, 0x3C2A), then a CAN receive
# with no frame on the bus (R0 = 3): exit status 0x2A + 3.
VALUE_AND_CAN = """
.bss
frame: .zero 8
.text
.entry main
main:
    LDI R1, 1
    LDI R2, 2
    LDI R3, 0
    LDI R4, 0
    SVC MOD=7, FN=0          ; REGISTER 1:2 -> R1 its OID
    MOV R5, R1
    LDI32 R2, 0x3C2A
    SVC MOD=7, FN=3          ; SET
    MOV R1, R5
    SVC MOD=7, FN=2          ; GET -> R0 0x3C2A
    MOV R6, R0
    LDI32 R1, frame
    SVC MOD=2, FN=1          ; RX -> R0 3: no frame
    ADD R0, R0, R6
    SVC MOD=1, FN=0
"""

# A loop hot enough to be translated (the Python engine), exit status 0.
HOT_LOOP = """
.text
.entry main
main:
    LDI32 R4, 5000
again:
    ADDI R4, R4, -1
    CMPI R4, 0
    BNE again
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def test_run_builds_what_a_program_uses_when_it_first_uses_it(tmp_path):
    """The registry and CAN, left out of the start, are there at a task's first call."""
    (tmp_path / "uses.mvasm").write_text(VALUE_AND_CAN)
    status, output, modules = run_hsx(tmp_path, "run", "--root", str(tmp_path), "uses.mvasm")
    assert (status, output) == (0x2A + 3, "")
    assert {"hsx.kernel.registry.values", "hsx.kernel.syscalls.values",
            "hsx.kernel.syscalls.can", "hsx.kernel.bus"} <= modules


def test_run_compiles_hot_code_with_the_generator_it_imports_then(tmp_path):
    (tmp_path / "hot.mvasm").write_text(HOT_LOOP)
    status, output, modules = run_hsx(tmp_path, "run", "--root", str(tmp_path), "hot.mvasm",
                                      engine="python")
    assert (status, output) == (0, "")
    assert {"hsx.vm.blockgen", "hsx.vm.blockops"} <= modules


def test_a_fault_still_reports_where_loading_the_debugger_then(tmp_path):
    """The debugger's stack walk is imported when a report needs it."""
    source = tmp_path / "fault.mvasm"
    source.write_text("        .entry main\nmain:   LDI32 R1, 0x7FFFFFF0\n"
                      "        LD R0, [R1+0]\n        SVC MOD=1, FN=0\n")
    status, output, modules = run_hsx(tmp_path, "run", str(source))
    assert status == 70 and "fault" in output and "main" in output
    assert "hsx.debug.stack" in modules


def test_cc_loads_the_compiler_and_not_the_runtime(tmp_path):
    (tmp_path / "one.c").write_text("int one(void) { return 1; }\n")
    status, output, modules = run_hsx(tmp_path, "cc", "-c", "one.c", "-o", "one.hxo")
    assert (status, output) == (0, "") and (tmp_path / "one.hxo").is_file()
    assert "hsx.toolchain.cc.unit" in modules
    assert loaded(modules, *HEAVY, "asyncio", "hsx.kernel", "hsx.vm", "hsx.debug",
                  "hsx.client", "hsx.server", "hsx.shell") == []
    # -c links nothing: neither the linker nor the image formats it writes
    assert loaded(modules, "hsx.toolchain.linker", "hsx.image.hxe", "hsx.image.sym") == []


def test_one_shell_command_in_a_terminal_needs_no_prompt_nor_event_loop(tmp_path):
    """`hsx shell ps` at a terminal: its answer in colour (no tasks: a dim "(none)"),
    written without prompt_toolkit, the command sent without asyncio."""
    root = tmp_path / "fs"
    root.mkdir()
    for host, port in execd_child(root):
        status, output, modules = run_hsx(tmp_path, "shell", "--host", host, "--port",
                                          str(port), "ps", terminal=True)
        assert status == 0
        assert "\x1b[38;5;102m(none)\x1b[0m" in output       # "dim": #888888, 256 colours
        assert "hsx.shell.core" in modules and "hsx.client.sync" in modules
        assert loaded(modules, *HEAVY, "asyncio", "encodings.idna", "hsx.kernel", "hsx.vm",
                      "hsx.toolchain", "hsx.debug", "hsx.server") == []
