"""Every command's happy path, with real MVASM programs, over a real socket."""
from __future__ import annotations

import base64

import pytest
from mvasmkit import BREAKER, FAULTER, HELLO
from serverkit import ECHO, LOOP, SLEEPER, image_b64, load, state, wait_event, wait_for

from hsx.client import ProtocolError
from hsx.image.hxe import write_hxe
from hsx.toolchain.build import build_source


def test_ping_and_info(client):
    reply = client.request("ping")
    assert reply["reply"] == "pong" and reply["version"] == 1 and reply["id"] == 1
    pid = load(client, LOOP, "loop")
    info = client.request("info", pid=pid)["info"]
    assert info["protocol"] == 1 and info["profile"] == "development"
    assert info["selected_registers"]["pid"] == pid
    assert "events" in info["features"] and info["clock"]["running"] is True


def test_load_runs_and_exit_status_is_reported(client):
    pid = load(client, HELLO, "hello")
    wait_for(lambda: state(client, pid) == "returned")
    row = client.request("ps", pid=pid)["tasks"]["tasks"][0]
    assert row["exit_status"] == 3 and row["app_name"] == "hello"


def test_load_from_path_builds_mvasm_and_reads_hxe(client, tmp_path):
    source = tmp_path / "sleepy.mvasm"
    source.write_text(SLEEPER)
    pid = client.request("load", path=str(source))["pid"]
    hxe = tmp_path / "hello.hxe"
    hxe.write_bytes(write_hxe(build_source(HELLO, filename="hello.mvasm", app_name="hello")))
    reply = client.request("exec", path=str(hxe))                # the older name
    assert reply["image"]["program"] == str(hxe) and reply["image"]["code_len"] > 0
    wait_for(lambda: state(client, pid) == "returned")
    with pytest.raises(ProtocolError) as missing:
        client.request("load", path=str(tmp_path / "nope.hxe"))
    assert missing.value.code == "file_not_found"
    bad = tmp_path / "bad.mvasm"
    bad.write_text("FROB R1\n")
    with pytest.raises(ProtocolError) as broken:
        client.request("load", path=str(bad))
    assert broken.value.code == "build_failed"


def test_a_source_built_on_load_keeps_its_symbols(client, tmp_path):
    source = tmp_path / "sleepy.mvasm"
    source.write_text(SLEEPER)
    reply = client.request("load", path=str(source), paused=True)
    pid = reply["pid"]
    assert reply["image"]["symbols"] is not None
    info = client.request("symbols.info", pid=pid)["symbols"]
    assert info["loaded"] and info["count"] > 0
    bp = client.request("bp.set", pid=pid, addr="start")["breakpoint"]
    assert (bp["address"], bp["file"], bp["line"]) == (0, "sleepy.mvasm", 5)
    again = client.request("restart", pid=pid, paused=True)      # rebuilt, symbols again
    assert client.request("symbols.lookup", pid=again["pid"], name="start")["symbol"][
        "address"] == 0


def test_streamed_load(client):
    data = base64.b64decode(image_b64(LOOP, "streamed"))
    stream = client.request("load.begin", name="streamed")["stream"]
    for i in range(0, len(data), 7):
        chunk = base64.b64encode(data[i:i + 7]).decode()
        assert client.request("load.write", stream=stream, data=chunk)["received"] > 0
    reply = client.request("load.end", stream=stream, paused=True)
    assert reply["task"]["state"] == "paused" and reply["image"]["app_name"] == "streamed"
    other = client.request("load.begin")["stream"]
    assert client.request("load.abort", stream=other)["aborted"] == other
    with pytest.raises(ProtocolError) as gone:
        client.request("load.write", stream=other, data="AAAA")
    assert gone.value.code == "unknown_stream"
    bad = client.request("load.begin")["stream"]
    with pytest.raises(ProtocolError) as refused:
        client.request("load.write", stream=bad, data=base64.b64encode(b"NOPE" * 30).decode())
    assert refused.value.code.startswith("bad_image:")


def test_pause_step_resume_kill(client):
    pid = load(client, LOOP, "loop", paused=True)
    before = client.request("regs", pid=pid)["registers"]
    stepped = client.request("step", pid=pid, count=3)["result"]
    assert stepped["executed"] == 3 and stepped["state"] == "paused"
    after = client.request("dumpregs", pid=pid)["registers"]     # the older name
    assert after["steps"] == before["steps"] + 3 and after["regs"][1] == 1
    assert client.request("resume", pid=pid)["task"]["state"] == "ready"
    wait_for(lambda: client.request("regs", pid=pid)["registers"]["steps"] > 1000)
    assert client.request("pause")["tasks"][0]["state"] == "paused"      # every task
    assert client.request("resume")["tasks"][0]["state"] == "ready"
    assert client.request("kill", pid=pid)["task"]["state"] == "killed"
    with pytest.raises(ProtocolError) as ended:
        client.request("step", pid=pid)
    assert ended.value.code == "task_ended"


def test_global_step_and_clock(client):
    client.request("clock.stop")
    pid = load(client, LOOP, "loop")
    assert client.request("clock", op="status")["clock"]["state"] == "stopped"
    result = client.request("step", count=500)["result"]
    assert result["executed"] == 500 and result["pid"] == pid
    result = client.request("clock", op="step", steps=10)["result"]    # the older form
    assert result["executed"] == 10
    assert client.request("regs", pid=pid)["registers"]["steps"] == 510
    client.request("clock.rate", rate=1000)
    client.request("clock", op="start")
    wait_for(lambda: client.request("regs", pid=pid)["registers"]["steps"] > 560)
    clock = client.request("clock")["clock"]
    assert clock["rate_hz"] == 1000 and clock["mode"] in ("rate", "running")
    steps = client.request("regs", pid=pid)["registers"]["steps"]
    assert steps < 510 + 1000                      # ~1000 instructions per second at most
    client.request("clock.rate", rate=0)
    client.request("clock", op="halt")
    assert client.request("clock.status")["clock"]["running"] is False
    with pytest.raises(ProtocolError) as bad_op:
        client.request("clock", op="warp")
    assert bad_op.value.code == "bad_argument"


def test_big_step_is_sliced_and_answers(client):
    client.request("clock.stop")
    load(client, LOOP, "loop")
    result = client.request("step", count=300_000)["result"]
    assert result["executed"] == 300_000


def test_sched(client):
    pid = load(client, LOOP, "loop")
    row = client.request("sched", pid=pid, quantum=50, priority=12)["task"]
    assert row["quantum"] == 50 and row["priority"] == 12
    overview = client.request("sched")["scheduler"]
    assert pid in overview["queued"]
    with pytest.raises(ProtocolError) as bad:
        client.request("sched", pid=pid, quantum=0)
    assert bad.value.code == "bad_argument"


def test_peek_poke(client):
    pid = load(client, LOOP, "loop", paused=True)
    client.request("poke", pid=pid, addr=0x5000, data="deadbeef")
    assert client.request("peek", pid=pid, addr="0x5000", length=4)["data"] == "deadbeef"
    assert client.request("mem.read", pid=pid, addr=0x5000, length=2)["data"] == "dead"
    with pytest.raises(ProtocolError) as outside:
        client.request("peek", pid=pid, addr=0x20000, length=4)
    assert outside.value.code == "bad_argument"
    with pytest.raises(ProtocolError) as not_hex:
        client.request("poke", pid=pid, addr=0x5000, data="xyz")
    assert not_hex.value.code == "bad_argument"


def test_regs_of_a_faulted_task_show_the_fault(client):
    pid = load(client, FAULTER, "faulter")
    wait_for(lambda: state(client, pid) == "faulted")
    row = client.request("ps", pid=pid)["tasks"]["tasks"][0]
    assert row["fault"]["kind"] == "divide_by_zero"
    assert client.request("regs", pid=pid)["registers"]["regs"][1] == 1


def test_brk_pauses_with_a_debug_break_event_and_step_continues(client):
    client.subscribe(["debug_break", "task_state"])
    pid = load(client, BREAKER, "breaker")
    event = wait_event(client, "debug_break")
    assert event["pid"] == pid and event["data"]["reason"] == "brk" and event["data"]["code"] == 9
    assert state(client, pid) == "paused"
    client.request("resume", pid=pid)
    wait_for(lambda: state(client, pid) == "returned")


def test_stdio_subscribe_and_stdin(client):
    pid = load(client, ECHO, "echo")
    client.request("stdio", pid=pid)
    wait_for(lambda: state(client, pid) == "waiting_mbx")
    assert client.request("stdio", pid=pid, data="hi there")["written"] == 8
    event = client.next_event(timeout=5)
    assert event["type"] == "stdout" and event["data"]["text"] == "hi there"
    wait_for(lambda: state(client, pid) == "returned")


def test_send_to_stdin_by_pid_is_the_older_form(client):
    pid = load(client, ECHO, "echo")
    client.request("stdio", pid=pid, streams=["stdout"])
    assert client.request("send", pid=pid, data="yo")["mbx_status"] == 0
    assert client.next_event(timeout=5)["data"]["text"] == "yo"


def test_mailboxes_from_the_host(client):
    box = client.request("mailbox.open", target="app:telemetry")
    handle = box["handle"]
    client.request("send", target="app:telemetry", data="one")
    client.request("send", handle=handle, data_hex="0102", channel=7)
    messages = client.request("listen", handle=handle, limit=5)["messages"]
    assert [m["data_hex"] for m in messages] == ["6f6e65", "0102"]
    assert messages[1]["channel"] == 7 and messages[0]["src_pid"] == 0
    snapshot = client.request("mailbox.snapshot")
    targets = [d["target"] for d in snapshot["descriptors"]]
    assert "app:telemetry" in targets and "active_descriptors" in snapshot["stats"]
    assert client.request("mailbox_snapshot")["stats"] == snapshot["stats"]
    client.request("send", target="app:telemetry", data="three")
    assert client.request("listen", target="app:telemetry")["messages"][0]["text"] == "three"
    assert client.request("mailbox.close", handle=handle)["closed"] == handle
    with pytest.raises(ProtocolError) as closed:
        client.request("listen", handle=handle)
    assert closed.value.code == "unknown_handle"
    with pytest.raises(ProtocolError) as malformed:
        client.request("send", target="bogus:x", data="1")
    assert malformed.value.code == "mbx_invalid_argument"


def test_send_to_a_full_mailbox_is_a_clear_error(client):
    client.request("mailbox.open", target="app:tiny")
    with pytest.raises(ProtocolError) as full:
        for _ in range(100):
            client.request("send", target="app:tiny", data="x" * 100)
    assert full.value.code == "mbx_wouldblock" and full.value.reply["mbx_status"] == 1


def test_restart_reloads_and_keeps_the_lock(client, tmp_path):
    source = tmp_path / "hello.mvasm"
    source.write_text(HELLO)
    pid = client.request("load", path=str(source))["pid"]
    session = client.open_session("restarter", pid_lock=pid)
    wait_for(lambda: state(client, pid) == "returned")
    reply = client.request("restart", pid=pid, paused=True)
    new = reply["reload"]["new_pid"]
    assert reply["reload"]["old_pid"] == pid and new != pid
    assert reply["task"]["state"] == "paused" and reply["task"]["locked_by"] == session["handle"]
    with pytest.raises(ProtocolError) as no_pid:
        client.request("restart", targets=["exec"])
    assert no_pid.value.code == "unsupported"


def test_dmesg_records_what_happened(client):
    pid = load(client, FAULTER, "faulter")
    wait_for(lambda: state(client, pid) == "faulted")
    logs = client.request("dmesg", limit=50)["logs"]
    assert any("faulted" in e["message"] and e.get("pid") == pid for e in logs)
    errors = client.request("dmesg", level="error")["logs"]
    assert errors and all(e["level"] == "error" for e in errors)


def test_shutdown_ends_the_server(server, client):
    load(client, LOOP, "loop")
    assert client.request("shutdown")["shutdown"] is True
    wait_for(lambda: server.server.closing)


def test_load_compiles_c_off_the_event_loop(client, tmp_path):
    source = tmp_path / "seven.c"
    source.write_text("int main(void) { return 7; }\n")
    pid = client.request("load", path=str(source))["pid"]
    wait_for(lambda: state(client, pid) == "returned")
    assert client.request("ps", pid=pid)["tasks"]["tasks"][0]["exit_status"] == 7


def test_c_the_compiler_cannot_handle_is_a_build_error_and_the_server_lives_on(client, tmp_path):
    source = tmp_path / "wide.c"
    source.write_text("int main(void) { volatile __int128 x = 1; return (int)x; }\n")
    with pytest.raises(ProtocolError) as error:
        client.request("load", path=str(source))
    assert error.value.code == "build_failed" and "i128 are not supported" in error.value.message
    assert client.request("ping")["status"] == "ok"
