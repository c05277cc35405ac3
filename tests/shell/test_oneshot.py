"""`hsx shell COMMAND --json` for every command, parsed; scripts; exit codes."""
from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from execdkit import readline
from shellkit import DELAYED, MOTOR, REPO, VARS_C, build, build_c

from hsx.client.commands import COMMANDS, parse
from hsx.server import BackgroundServer, ServerConfig
from hsx.shell.cli import shell_command


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    directory = tmp_path_factory.mktemp("programs")
    return {"delayed": build(directory, DELAYED, "delayed"),
            "motor": build(directory, MOTOR, "motor"),
            "vars": build_c(directory, VARS_C, "vars"), "dir": directory}


@pytest.fixture
def server(tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as srv:
        yield srv


def one_shot(server, line: str, *options: str) -> tuple[int, list, str]:
    """Exit code, the JSON documents printed (one a line), stderr."""
    words = [line] if line.startswith("{") else shlex.split(line)
    result = CliRunner().invoke(shell_command, ["--port", str(server.port), "--json",
                                                *options, *words])
    docs = [json.loads(text) for text in result.stdout.splitlines() if text.strip()]
    return result.exit_code, docs, result.stderr


def session_lines(p) -> list[tuple[str, str]]:
    """A session touching every command, each with a key its JSON must have."""
    return [
        ("ping", "reply"), ("info", "info"),
        (f"load {p['delayed']} --paused", "pid"), (f"load {p['motor']}", "pid"),
        (f"load {p['vars']} --paused", "pid"), ("ps", "tasks"), ("sched", "scheduler"),
        ("sched 2 4 20", "task"), ("dmesg 5", "logs"), ("clock", "clock"),
        ("clock stop", "clock"), ("clock step 10", "result"), ("clock rate 0", "clock"),
        ("clock start", "clock"), ("step 1 2", "result"), ("bp set 1 loop", "breakpoint"),
        ("bp disable {bp}", "breakpoint"), ("bp enable {bp}", "breakpoint"),
        ("bp", "breakpoints"),
        ("pause 1", "task"), ("resume 1", "task"), ("wait 1", "type"), ("regs 1", "registers"),
        ("stack 1", "stack"), ("disasm 1", "disasm"), ("peek 1 counter", "data"),
        ("x/2xw 1 counter", "data"), ("poke 1 counter 01 --force", "length"),
        ("reg 1 R3 5 --force", "result"), ("memory 1", "memory"), ("symbols 1", "symbols"),
        ("sym 1 counter", "symbol"), (f"sym load 1 {p['dir'] / 'delayed.sym'}", "symbols"),
        ("watch add 1 counter", "watch"), ("watch", "watches"), ("watch rm 1", "watch"),
        ("record 1 on", "history"), ("step 1 3", "result"), ("back 1", "result"),
        ("back continue 1", "result"), ("record 1 status", "history"),
        ("record 1 off", "history"), ("next 1", "result"), ("wait 1", "type"),
        ("nexti 1", "result"), ("bp clear {bp}", "cleared"), ("bp clearall 1", "cleared"),
        ("trace 1 on", "trace"), ("step 1 2", "result"), ("trace 1 records 2", "trace"),
        ("trace 1 off", "trace"), ("until 3 add", "result"), ("wait 3", "type"),
        ("into 3", "result"), ("wait 3", "type"),
        ("locals 3", "variables"), ("vars 3 0 globals", "variables"),
        ("print 3 *p", "result"), ("expand {ref}", "variables"), ("finish 3", "result"),
        ("wait 3", "type"), ("set 3 here.x = 7 --force", "result"), ("list 3", "source"),
        ("list 3 add", "source"), ("jump 3 main", "result"),
        ("timeline start", "timeline"), ("timeline", "timeline"), ("timeline stop", "timeline"),
        (f"timeline export {p['dir'] / 'run.pftrace'}", "timeline"),
        ("mailboxes", "descriptors"), ("send 2 hello", "length"),
        ("listen svc:stdio.in@2", "messages"), ("stdin 2 more", "written"),
        ("grant 2 1", "granted"), ("output 1", "recent"),
        ("values", "values"), ("val get rpm", "value"), ("val set rpm 5", "value"),
        ("commands", "commands"), ("call boost", "command"), ("sessions", "sessions"),
        ("session open tester", "session"), ("events", "shown"), ("use 1", "pid"),
        ("help", "help"), ("help peek", "help"), ('{"cmd": "trace.exports"}', "exports"),
        ("trace.exports", "exports"), ("restart 3", "reload"), ("kill 1", "task"),
    ]


def test_every_command_prints_json(server, programs):
    covered = set()
    found: dict[str, int] = {}                  # ids later lines use
    for line, key in session_lines(programs):
        if "{" in line and not line.startswith("{"):
            line = line.format(**found)
        code, docs, err = one_shot(server, line)
        assert code == 0, (line, err)
        assert docs and key in docs[-1], (line, docs)
        if line.startswith("print"):
            found["ref"] = docs[-1]["result"]["ref"]
            assert found["ref"] > 0
        if line.startswith("bp set"):
            found["bp"] = docs[-1]["breakpoint_id"]
        covered.add(parse(line).command.name)
    # kept for a session of its own: lock, unlock, session close (script below), stdio,
    # shutdown (the end), quit (prints nothing)
    left = {c.name for c in COMMANDS} - covered - {"lock", "unlock", "session close",
                                                     "stdio", "shutdown", "quit"}
    assert not left, f"no JSON test for {sorted(left)}"
    code, docs, _ = one_shot(server, "shutdown")
    assert code == 0 and docs == [{"version": 1, "status": "ok", "id": docs[0]["id"],
                                   "shutdown": True}]


def test_a_script_runs_in_one_session_and_stops_at_the_first_error(server, programs, tmp_path):
    script = tmp_path / "setup.hsx"
    script.write_text(f"# a comment\nload {programs['delayed']} --paused\nsession open me\n"
                      "lock 1\nunlock 1\nsession close\nkill 7\nping\n")
    code, docs, err = one_shot(server, "", "-f", str(script))
    assert code == 1
    assert any(d.get("type") == "task_state" for d in docs)    # events come as JSON too
    docs = [d for d in docs if "seq" not in d]                # the replies
    assert [next(iter(k for k in d if k not in ("version", "status", "id"))) for d in docs] \
        == ["pid", "session", "session", "session", "closed", "error"]
    assert docs[-1]["error"] == "unknown_pid"
    assert f"{script}:7: stopped at `kill 7`" in err
    code, docs, err = one_shot(server, "", "-f", str(script), "--keep-going")
    assert code == 1 and "reply" in docs[-1]                   # ping ran after kill 7
    assert f"{script}:7: `kill 7` failed; going on" in err


def test_one_shot_exit_codes_and_writes_need_force(server, programs):
    assert one_shot(server, f"load {programs['delayed']} --paused")[0] == 0
    code, docs, err = one_shot(server, "poke 1 counter 01")
    assert code == 2 and docs == [] and "add --force" in err
    code, docs, err = one_shot(server, "peek 1 nosuch")
    assert code == 1 and docs[0]["error"] == "unknown_symbol"
    code, docs, err = one_shot(server, "peek 1 counter lots")
    assert code == 2 and "usage: peek PID ADDR [LENGTH]" in err
    assert one_shot(server, "kill 1")[0] == 0                  # no question without a prompt


def test_stdio_follows_a_tasks_output_until_interrupted(server, programs):
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "shell", "--port", str(server.port),
                             "--json", "stdio"], stdout=subprocess.PIPE, text=True)
    try:
        first = json.loads(readline(proc.stdout))
        assert "events" in first
        code, docs, _ = one_shot(server, f"load {REPO / 'examples/mvasm/hello.mvasm'}")
        assert code == 0
        event = json.loads(readline(proc.stdout))
        assert event["type"] == "stdout" and event["data"]["text"] == "Hello from HSX\n"
        code, docs, _ = one_shot(server, "output hello")          # kept by the executive
        assert docs[0]["recent"][0]["output"] == [{"stream": "stdout",
                                                   "text": "Hello from HSX\n"}]
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0


def test_an_error_reply_is_said_in_the_common_voice(server):
    code, _, err = one_shot(server, "kill 99")
    assert code == 1
    assert err == "hsx: kill: no task with pid 99 (unknown_pid)\n"


def test_list_shows_the_source_around_a_place_with_its_line_marked(server, programs):
    _, docs, _ = one_shot(server, f"load {programs['vars']} --paused")
    pid = str(docs[-1]["pid"])
    listed = CliRunner().invoke(shell_command, ["--port", str(server.port), "list", pid,
                                                "vars.c:7"])
    shown = listed.stdout.splitlines()
    assert listed.exit_code == 0 and shown[0].endswith("vars.c:7"), listed.output
    assert [row for row in shown if row.startswith(" >")] == [" >     7      total += sum;"]
    assert any("int add(struct point *p, int n) {" in row for row in shown)
    refused = CliRunner().invoke(shell_command, ["--port", str(server.port), "list", pid,
                                                 "nosuch"])
    assert refused.exit_code != 0 and "nosuch" in refused.stderr


def test_load_passes_arguments_environment_and_sizes(server, tmp_path):
    """`load prog.c stack_size=… memory=… env=… -- ARGS` (what follows `--` is the
    program's command line, also in one-shot form, where hsx shell's own options end
    before the command)."""
    source = tmp_path / "show.c"
    source.write_text('#include <stdio.h>\n#include <stdlib.h>\n'
                      'int main(int argc, char **argv) {\n'
                      '    for (int i = 1; i < argc; i++) printf("[%s]", argv[i]);\n'
                      '    printf(" %s\\n", getenv("MODE"));\n    return 0;\n}\n')
    code, docs, err = one_shot(server, f"load {source} stack_size=16K memory=128K "
                                       f"env=MODE=slow env=X=1 -- a 'b c' --paused",
                               "--timeout", "120")
    assert code == 0, err
    pid = docs[0]["pid"]
    row = docs[0]["task"]
    assert row["stack_top"] - row["stack_base"] == 16 << 10
    deadline = time.monotonic() + 60
    while one_shot(server, f"ps {pid}")[1][0]["tasks"]["tasks"][0]["state"] != "returned":
        assert time.monotonic() < deadline, "the task did not end"
        time.sleep(0.05)
    code, docs, err = one_shot(server, f"output {pid}")
    assert "[a][b c][--paused] slow\\n" in json.dumps(docs), docs
