"""Bad requests fail with a message a person understands, never a traceback, and the
adapter carries on."""
from __future__ import annotations

import json

from dapkit import frame


def test_malformed_messages_and_unknown_requests(dap):
    dap.send_bytes(b"Content-Length: 9\r\n\r\n{not json")
    reply = dap.response(0)
    assert not reply["success"] and "not JSON" in reply["message"]
    dap.send_bytes(frame({"seq": 7, "type": "event", "event": "x"}))
    assert "not a request" in dap.response(7)["message"]
    dap.send_bytes(frame({"seq": 8, "type": "request", "command": "next", "arguments": 3}))
    assert "arguments" in dap.response(8)["message"]
    assert "does not support the request 'frobnicate'" in dap.fails("frobnicate")
    assert dap.initialize()["supportsDataBreakpoints"]          # still serving


def test_requests_before_a_program(dap):
    dap.initialize()
    assert dap.ok("threads") == {"threads": []}
    assert "launch or attach first" in dap.fails("stackTrace", threadId=1)
    assert "launch or attach first" in dap.fails("continue", threadId=1)


def test_bad_launches(dap, built, execd, tmp_path):
    dap.initialize()
    host, port = execd
    assert "needs \"program\"" in dap.fails("launch", host=host, port=port)
    assert "no such file" in dap.fails("launch", program=str(tmp_path / "gone.c"),
                                       host=host, port=port)
    assert ".c, .mvasm and .hxe" in dap.fails("launch", program=str(tmp_path / "x.txt"),
                                              host=host, port=port)
    assert "\"args\" must be a list of strings" in dap.fails(
        "launch", program=str(built / "prog.hxe"), args="-v", host=host, port=port)
    assert "\"env\" must be an object" in dap.fails(
        "launch", program=str(built / "prog.hxe"), env=["A=1"], host=host, port=port)
    assert "TCP port" in dap.fails("launch", program=str(built / "prog.hxe"), port="x")
    broken = tmp_path / "broken.c"
    broken.write_text("int main(void) { return nosuch; }\n")
    message = dap.fails("launch", program=str(broken), host=host, port=port)
    assert "nosuch" in message and "Traceback" not in message


def test_bad_attaches(dap, execd):
    dap.initialize()
    host, port = execd
    message = dap.fails("attach", pid=4242, host=host, port=port)
    assert "no task with PID 4242" in message
    assert "no task called 'nosuch'" in dap.fails("attach", app="nosuch", host=host, port=port)
    assert "\"pid\"" in dap.fails("attach", host=host, port=port)
    message = dap.fails("attach", pid=1, host="127.0.0.1", port=1)
    assert "cannot connect to an executive at 127.0.0.1:1" in message


def test_bad_requests_in_a_session(dap, built, execd):
    pid = dap.launch(built / "prog.hxe", execd, stopOnEntry=True)
    dap.stopped("entry")
    frame_id = dap.top_frame(pid)["id"]
    message = dap.fails("evaluate", expression="nosuch + 1", frameId=frame_id, context="watch")
    assert "nosuch" in message
    assert "no longer" in dap.fails("variables", variablesReference=987654)
    assert "\"threadId\"" in dap.fails("next", threadId="one")
    assert "base64" in dap.fails("writeMemory", memoryReference="0x4000", data="!!")
    assert "already debugging" in dap.fails("attach", pid=pid, host=execd[0], port=execd[1])


def test_stdout_carries_only_dap(dap, built, execd):
    """Every byte the adapter wrote parsed as a DAP message (DapClient checks each)."""
    pid = dap.launch(built / "prog.hxe", execd)
    dap.wait_event("exited")
    dap.ok("disconnect")
    dap.proc.wait(timeout=10)
    assert dap.closed and pid > 0
    assert json.dumps(dap.events)          # all were JSON
