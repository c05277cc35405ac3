"""Launching: a built program stops on its breakpoints, shows its stack, variables and
output, steps, and exits; a C source is built and an executive started for it."""
from __future__ import annotations

import shutil

from dapkit import PROGRAMS, DapClient, free_port, line_of, listens


def test_breakpoint_stack_variables_steps_output_and_exit(dap, built, execd):
    source = built / "prog.c"
    capabilities = dap.initialize()
    assert capabilities["supportsConfigurationDoneRequest"]
    assert capabilities["supportsStepBack"] is False        # not before an executive says so
    seq = dap.send("launch", program=str(built / "prog.hxe"), host=execd[0], port=execd[1])
    dap.wait_event("initialized")
    line = line_of(source, "call twice")
    result = dap.ok("setBreakpoints", source={"path": str(source)},
                    breakpoints=[{"line": line}])["breakpoints"]
    assert result[0]["verified"] and result[0]["line"] == line
    assert result[0]["source"]["path"] == str(source)
    dap.ok("configurationDone")
    assert dap.response(seq)["success"]

    stop = dap.stopped("breakpoint")
    assert stop["hitBreakpointIds"] == [result[0]["id"]] and stop["allThreadsStopped"] is False
    pid = stop["threadId"]
    assert any(t["id"] == pid and "prog" in t["name"] for t in dap.ok("threads")["threads"])
    frames = dap.ok("stackTrace", threadId=pid)["stackFrames"]
    assert [f["name"] for f in frames[:2]] == ["accumulate", "main"]
    assert frames[0]["line"] == line and frames[0]["source"]["path"] == str(source)
    assert frames[1]["line"] == line_of(source, "call accumulate")
    assert int(frames[0]["instructionPointerReference"], 16) > 0

    scopes = [s["name"] for s in dap.ok("scopes", frameId=frames[0]["id"])["scopes"]]
    assert scopes == ["Arguments", "Locals", "Globals", "Registers"]
    assert dap.scope_variables(frames[0]["id"], "Arguments")["n"]["value"] == "4"
    local = dap.scope_variables(frames[0]["id"], "Locals")
    assert local["total"]["value"] == "0" and local["i"]["value"] == "0"
    glob = dap.scope_variables(frames[0]["id"], "Globals")
    fields = dap.ok("variables", variablesReference=glob["origin"]["variablesReference"])
    assert {v["name"]: v["value"] for v in fields["variables"]} == {"left": "1", "right": "2"}
    assert glob["table"]["indexedVariables"] == 4
    page = dap.ok("variables", variablesReference=glob["table"]["variablesReference"],
                  start=1, count=2)["variables"]
    assert [v["value"] for v in page] == ["20", "30"]
    assert page[0]["evaluateName"] == "table[1]"
    registers = dap.scope_variables(frames[0]["id"], "Registers")
    assert "r0" in registers or "R0" in registers

    dap.ok("stepIn", threadId=pid)
    dap.stopped("step")
    top = dap.top_frame(pid)
    assert top["name"] == "twice" and top["line"] == line_of(source, "twice body")
    assert dap.ok("evaluate", expression="x * 3", frameId=top["id"],
                  context="watch")["result"] == "30"
    dap.ok("stepOut", threadId=pid)
    dap.stopped("step")
    assert dap.top_frame(pid)["name"] == "accumulate"
    dap.ok("next", threadId=pid)
    dap.stopped("step")
    top = dap.top_frame(pid)
    assert top["line"] == line_of(source, "count")
    assert dap.ok("evaluate", expression="total", frameId=top["id"],
                  context="hover")["result"] == "20"

    dap.ok("setBreakpoints", source={"path": str(source)}, breakpoints=[])
    dap.ok("continue", threadId=pid)
    assert dap.wait_event("exited")["exitCode"] == 3
    dap.wait_event("terminated")
    assert f"[prog {pid}] sum 200\n" in dap.output("stdout")


def test_c_source_is_built_and_its_own_executive_started_and_stopped(dap, built):
    port = free_port()
    source = built / "prog.c"
    dap.ok("initialize", adapterID="hsx", linesStartAt1=True, supportsProgressReporting=True)
    seq = dap.send("launch", program="prog.c", cwd=str(built), port=port, stopOnEntry=True)
    dap.wait_event("initialized", timeout=120)
    dap.ok("configurationDone")
    assert dap.response(seq, timeout=120)["success"]
    stop = dap.stopped("entry")
    top = dap.top_frame(stop["threadId"])
    assert top["name"] == "main" and top["line"] == line_of(source, "call accumulate")
    assert "starting an executive" in dap.output()
    assert dap.wait_event("progressStart")["title"] == "Launching prog.c"
    assert "building prog.c" in dap.wait_event("progressUpdate")["message"]
    dap.wait_event("progressEnd")
    dap.ok("disconnect")
    assert not listens(port), "the executive still listens"


def test_log_file(built, tmp_path):
    log = tmp_path / "dap.log"
    dap = DapClient.start("--log", str(log), "-v")
    try:
        dap.initialize()
        dap.ok("disconnect")
    finally:
        dap.close()
    text = log.read_text()
    assert '"command": "initialize"' in text or "'command': 'initialize'" in text


def test_restart_builds_again_and_keeps_the_breakpoints(dap, execd, tmp_path):
    source = tmp_path / "prog.c"
    shutil.copy(PROGRAMS / "prog.c", source)
    original, count = source.read_text(), line_of(source, "count")
    pid = dap.launch(source, execd, lines={"prog.c": [count]})
    first = dap.stopped("breakpoint")["hitBreakpointIds"]

    source.write_text("int main(void) { return nosuch; }\n")
    assert "nosuch" in dap.fails("restart")                      # the old task stays
    assert dap.top_frame(pid)["line"] == count

    source.write_text(original.replace("return sum == 200 ? 3 : 1;", "return 9;"))
    dap.ok("restart")
    assert "restarted prog as PID" in dap.wait_output("restarted")
    stop = dap.stopped("breakpoint")
    assert stop["threadId"] != pid and stop["hitBreakpointIds"] == first
    assert dap.top_frame(stop["threadId"])["line"] == count
    dap.ok("setBreakpoints", source={"path": str(source)}, breakpoints=[])
    dap.ok("continue", threadId=stop["threadId"])
    assert dap.wait_event("exited")["exitCode"] == 9              # the new build ran


def test_launch_args_and_env_reach_main_and_getenv(dap, execd, tmp_path):
    source = tmp_path / "show.c"
    source.write_text('#include <stdio.h>\n#include <stdlib.h>\n'
                      'int main(int argc, char **argv) {\n'
                      '    for (int i = 1; i < argc; i++) printf("[%s]", argv[i]);\n'
                      '    printf(" %s\\n", getenv("MODE"));\n    return argc;\n}\n')
    pid = dap.launch(source, execd, args=["in.txt", "two words"], env={"MODE": "fast"})
    assert dap.wait_event("exited")["exitCode"] == 3
    assert f"[show {pid}] [in.txt][two words] fast\n" in dap.output("stdout")
