"""Run control: MVASM programs and instruction steps, pause, terminate, stepping
backwards, and the adapter on a TCP port."""
from __future__ import annotations

import socket
import time
import subprocess
import sys

from dapkit import DapClient, line_of
from execdkit import readline


def test_mvasm_entry_instruction_steps_and_exit(dap, built, execd):
    pid = dap.launch(built / "count.mvasm", execd, stopOnEntry=True)
    stop = dap.stopped("entry")
    assert stop["threadId"] == pid
    top = dap.top_frame(pid)
    assert top["instructionPointerReference"] == "0x00000000"
    assert top["source"]["name"] == "count.mvasm" and top["line"] == 5
    assert "outermost frame" in dap.fails("stepOut", threadId=pid)
    dap.ok("next", threadId=pid, granularity="instruction")
    dap.stopped("step")
    assert dap.top_frame(pid)["instructionPointerReference"] == "0x00000004"
    dap.ok("stepIn", threadId=pid)                      # an MVASM line is an instruction
    dap.stopped("step")
    assert dap.top_frame(pid)["line"] == 8               # ADDI ran: at CMPI
    registers = dap.scope_variables(dap.top_frame(pid)["id"], "Registers")
    assert int(registers["r1"]["value"], 0) == 1
    dap.ok("continue", threadId=pid)
    assert dap.wait_event("exited")["exitCode"] == 3
    dap.wait_event("terminated")


def test_pause_a_paused_task_and_terminate(dap, built, execd):
    pid = dap.launch(built / "prog.hxe", execd, stopOnEntry=True)
    dap.stopped("entry")
    dap.ok("pause", threadId=pid)
    assert dap.stopped("pause")["threadId"] == pid
    dap.ok("terminate")
    assert dap.wait_event("exited")["exitCode"] == 1
    dap.wait_event("terminated")
    assert "was killed" in dap.output()


def test_step_back_and_reverse_continue(dap, built, execd):
    source = built / "prog.c"
    call, count = line_of(source, "call twice"), line_of(source, "count")
    pid = dap.launch(built / "prog.hxe", execd, lines={"prog.c": [count]})
    assert dap.wait_event("capabilities")["capabilities"]["supportsStepBack"] is True
    dap.stopped("breakpoint")
    dap.ok("stepBack", threadId=pid)
    dap.stopped("step")
    assert dap.top_frame(pid)["line"] in (call, line_of(source, "twice body") + 1)
    dap.ok("continue", threadId=pid)                     # forward: the breakpoint again
    dap.stopped("breakpoint")
    assert dap.ok("evaluate", expression="i", frameId=dap.top_frame(pid)["id"])["result"] == "0"
    dap.ok("continue", threadId=pid)
    dap.stopped("breakpoint")
    assert dap.ok("evaluate", expression="i", frameId=dap.top_frame(pid)["id"])["result"] == "1"
    dap.ok("reverseContinue", threadId=pid)              # back to the previous hit
    dap.stopped("breakpoint")
    assert dap.ok("evaluate", expression="i", frameId=dap.top_frame(pid)["id"])["result"] == "0"


def test_without_history_step_back_says_how_to_get_it(dap, built, execd):
    pid = dap.launch(built / "prog.hxe", execd, stopOnEntry=True, reverse=False)
    dap.stopped("entry")
    assert "\"reverse\": true" in dap.fails("stepBack", threadId=pid)


def test_tcp_port_serves_clients_one_after_another():
    server = subprocess.Popen([sys.executable, "-m", "hsx", "dap", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = readline(server.stdout)
        assert line.startswith("hsx dap listening on 127.0.0.1:"), line
        port = int(line.rsplit(":", 1)[1])
        for _ in range(2):
            client = DapClient(sock=socket.create_connection(("127.0.0.1", port)))
            assert client.initialize()["supportsConfigurationDoneRequest"]
            assert client.ok("threads") == {"threads": []}
            client.ok("disconnect")
            client.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_brk_and_fault_stop_and_a_fault_ends_the_session_on_continue(dap, built, execd):
    pid = dap.launch(built / "trap.mvasm", execd)
    stop = dap.stopped("breakpoint")
    assert stop["description"] == "BRK 5" and stop["threadId"] == pid
    assert "not stopped on a fault" in dap.fails("exceptionInfo", threadId=pid)
    dap.ok("continue", threadId=pid)
    stop = dap.stopped("exception")
    assert stop["description"] == "memory fault" and "0x0000" in stop["text"]
    top = dap.top_frame(pid)
    assert top["line"] == 8 and top["source"]["name"] == "trap.mvasm"
    registers = dap.scope_variables(top["id"], "Registers")
    assert int(registers["r1"]["value"], 0) == 7                    # as it was at the fault
    info = dap.ok("exceptionInfo", threadId=pid)
    assert info["exceptionId"] == "memory" and info["breakMode"] == "always"
    assert "0x0000" in info["description"] and "trap.mvasm:8" in info["details"]["stackTrace"]
    dap.ok("continue", threadId=pid)
    assert dap.wait_event("exited")["exitCode"] == 1
    dap.wait_event("terminated")


def test_breakpoints_asked_before_launch_are_set_and_announced(dap, built, execd):
    source = built / "prog.c"
    dap.initialize()
    early = dap.ok("setBreakpoints", source={"path": str(source)},
                   breakpoints=[{"line": line_of(source, "count")}])["breakpoints"][0]
    assert not early["verified"] and "not set yet" in early["message"]
    pid = dap.launch(built / "prog.hxe", execd)
    changed = dap.wait_event("breakpoint")
    assert changed["reason"] == "changed" and changed["breakpoint"]["id"] == early["id"]
    assert changed["breakpoint"]["verified"]
    assert dap.stopped("breakpoint")["hitBreakpointIds"] == [early["id"]]
    assert dap.top_frame(pid)["line"] == line_of(source, "count")


def test_a_flood_of_output_arrives_whole_and_the_adapter_stays_responsive(dap, built, execd):
    pid = dap.launch(built / "flood.mvasm", execd)
    started = time.monotonic()
    dap.ok("threads")                                   # answered during the flood
    assert time.monotonic() - started < 5
    assert dap.wait_event("exited", timeout=60)["exitCode"] == 0
    lines = dap.output("stdout").splitlines()
    assert lines == [f"[flood {pid}] tick"] * 5000
    stdout_events = [e for e in dap.events
                     if e["event"] == "output" and e["body"]["category"] == "stdout"]
    assert len(stdout_events) < 1000                    # coalesced, not one per write


def test_jump_to_cursor_reruns_a_line_and_stays_in_its_function(dap, built, execd):
    source = built / "prog.c"
    call, count = line_of(source, "call twice"), line_of(source, "count")
    pid = dap.launch(built / "prog.hxe", execd, lines={"prog.c": [count]})
    dap.stopped("breakpoint")
    frame = dap.top_frame(pid)
    assert dap.ok("evaluate", expression="total", frameId=frame["id"])["result"] == "20"
    [target] = dap.ok("gotoTargets", source={"path": str(source)}, line=call)["targets"]
    assert target["line"] == call and "accumulate" in target["label"]
    dap.ok("goto", threadId=pid, targetId=target["id"])
    dap.stopped("goto")
    assert dap.top_frame(pid)["line"] == call
    dap.ok("continue", threadId=pid)
    dap.stopped("breakpoint")
    frame = dap.top_frame(pid)                         # twice(table[0]) added once more
    assert dap.ok("evaluate", expression="total", frameId=frame["id"])["result"] == "40"
    [outside] = dap.ok("gotoTargets", source={"path": str(source)},
                       line=line_of(source, "after accumulate"))["targets"]
    message = dap.fails("goto", threadId=pid, targetId=outside["id"])
    assert "within accumulate" in message
    assert dap.top_frame(pid)["line"] == count
