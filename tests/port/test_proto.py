"""Protocol v1 over the framed link of the host board, per variant (docs/wire.md,
docs/port.md): the same commands, fields, reply shapes and error codes as hsx execd,
what each variant lacks answered with the variant that has it, and the link's own
rules (hello, at-most-once, events after replies)."""
from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest

from framedclient import FramedClient
from boardkit import clear

from hsx import __version__
from hsx.link.frames import encode_frame

import cbor2

FEATURES = {"minimal": ["commands", "load_stream", "mailbox", "memory", "stdio", "values"],
            "development": ["commands", "load_stream", "mailbox", "memory", "stdio", "values",
                            "debug", "events", "stack", "trace", "watch"]}
FEATURES["full"] = FEATURES["development"] + ["observers"]


def loaded(host, built, name="spin", **fields):
    reply = host.load(built(name), paused=True, **fields)
    return reply["pid"]


def test_the_hello_says_what_the_board_offers(board, host):
    hello = host.hello_info
    assert hello["proto"] == 1 and hello["variant"] == board.variant
    assert hello["features"] == FEATURES[board.variant]
    assert hello["max_frame"] <= hello["window"]
    assert hello["board"] == "host" and hello["hsx_version"] == __version__
    assert host.hello()["boot"] == hello["boot"]     # the same boot until a reset


def test_ping_and_the_envelope(host):
    reply = host.request("ping", id={"any": ["cbor", 1]})
    assert reply == {"version": 1, "status": "ok", "id": {"any": ["cbor", 1]}, "reply": "pong",
                     "protocol": 1, "server": "hsx-exec", "hsx_version": __version__}
    assert "id" not in host.request("PING")                # names are case-insensitive
    assert host.call("nosuch")["error"] == "unknown_cmd"
    assert host.call("ping", version=2)["error"] == "unsupported_version"
    kind, reply = host.reply(host.send_request({"id": 3}))
    assert reply == {"status": "error", "error": "bad_request"}   # the frame's seq is the id


def test_the_board_takes_canonical_requests_only(host, built):
    """hsx.client sends a command's own name and fields in their own forms; anything
    else reaching the board is refused with the field it names, and never run."""
    pid = loaded(host, built)
    raw = [({"cmd": "dumpregs", "pid": pid}, "unknown_cmd", None),
           ({"cmd": "regs", "pid": str(pid)}, "bad_argument", "pid"),
           ({"cmd": "step", "pid": pid, "count": "2"}, "bad_argument", "count"),
           ({"cmd": "poke", "pid": pid, "addr": 0x5000, "data": "01"}, "bad_argument", "data")]
    for request, code, field in raw:
        _, reply = host.reply(host.send_request(request))
        assert reply["error"] == code and reply.get("field") == field, request
        assert "message" not in reply                 # hsx.client words it
    assert host.request("regs", pid=pid)["registers"]["steps"] == 0
    assert host.call("regs", pid=str(pid))["registers"]["pid"] == pid    # canonicalised


def test_a_payload_that_is_not_a_map_is_refused_on_the_link(host):
    host.send_raw(encode_frame("Q", 9, cbor2.dumps([1, 2])))
    kind, reply = host.reply(9)
    assert kind == b"N" and reply["error"] == "bad_payload"
    assert host.request("ping")["reply"] == "pong"


def test_load_ps_regs_step_peek_poke_kill(host, built):
    pid = loaded(host, built)
    row = host.request("ps", pid=pid)["tasks"]["tasks"][0]
    assert row["state"] == "paused" and row["app_name"] == "spin" and row["pc"] == 0
    regs = host.request("dumpregs", pid=pid)["registers"]      # an older alias
    assert regs["pc"] == 0 and len(regs["regs"]) == 16 and regs["sp"] == row["sp"]
    result = host.request("step", pid=pid, count=5)["result"]
    assert result["executed"] == 5 and result["state"] == "paused"
    assert host.request("regs", pid=pid)["registers"]["pc"] == result["pc"] != 0
    code = host.request("peek", pid=pid, addr=0, length=8, space="code")
    assert len(code["data"]) == 8 and code["space"] == "code"
    host.request("poke", pid=pid, addr=0x5000, data="0102a0ff")      # hex text, as JSON has it
    host.request("poke", pid=pid, addr=0x5004, data=b"\x07")          # a CBOR byte string
    assert host.request("peek", pid=pid, addr=0x5000, length=5)["data"] == b"\x01\x02\xa0\xff\x07"
    assert host.call("peek", pid=pid, addr=0xFFFFFFF0, length=64)["error"] == "bad_argument"
    killed = host.request("kill", pid=pid)["task"]
    assert killed["state"] == "killed"
    assert host.call("kill", pid=999)["error"] == "unknown_pid"


def test_a_long_reply_streams_past_the_boards_buffers(host, built, board):
    """ps of every task is longer than max_frame: it streams in one frame."""
    limit = host.request("info")["info"]["limits"]["max_tasks"]
    for _ in range(limit):
        loaded(host, built)
    tasks = host.request("ps")["tasks"]["tasks"]
    assert len(tasks) == limit
    assert host.call("load.begin")["status"] == "ok"


def test_bad_arguments_name_the_field(host, built):
    pid = loaded(host, built)
    reply = host.call("sched", pid=pid, quantum=0)
    assert reply["error"] == "bad_argument" and "'quantum'" in reply["message"]
    assert "requires 'pid'" in host.call("regs")["message"]
    assert host.request("sched", pid=pid, quantum="0x10")["task"]["quantum"] == 16


def test_the_older_op_form(host, built):
    pid = loaded(host, built)
    assert host.request("session", op="list")["sessions"] == []
    assert host.request("mem", op="read", pid=pid, addr=0, length=4, space="code")["length"] == 4


def test_a_retried_change_runs_once(host, built):
    """At most once: the same seq again gets the kept reply; the step is not run twice."""
    pid = loaded(host, built)
    seq = host.send_request({"cmd": "step", "pid": pid, "count": 3})
    _, first = host.reply(seq)
    host.send_request({"cmd": "step", "pid": pid, "count": 3}, seq=seq)
    _, again = host.reply(seq)
    assert again == first
    assert host.request("regs", pid=pid)["registers"]["steps"] == 3


def test_streamed_load_acknowledges_each_chunk_and_aborts(host, built):
    data = built("spin")
    stream = host.request("load.begin")["stream"]
    assert host.request("load.write", stream=stream, data=data[:100])["received"] == 100
    assert host.request("load.abort", stream=stream)["aborted"] == stream
    assert host.call("load.write", stream=stream, data=b"x")["error"] == "unknown_stream"
    assert host.call("load.end", stream=stream + 1000)["error"] == "unknown_stream"


def test_a_bad_image_is_refused(host):
    stream = host.request("load.begin")["stream"]
    reply = host.call("load.write", stream=stream, data=b"NOPE" * 30)
    if reply["status"] == "ok":
        reply = host.call("load.end", stream=stream)
    assert reply["error"].startswith("bad_image:")


def test_load_by_path_is_the_hosts_business(host):
    reply = host.call("load", path="/tmp/x.hxe")
    assert reply["error"] == "bad_argument" and "image" in reply["message"]


def test_debugger_commands_by_variant(board, host, built):
    pid = loaded(host, built)
    reply = host.call("bp.set", pid=pid, addr=0)
    if board.variant == "minimal":
        assert reply["error"] == "unsupported" and reply["variant_required"] == "development"
        assert "bp.set needs the development or full variant" in reply["message"]
        assert "minimal" in reply["message"]
        assert host.call("events.subscribe")["variant_required"] == "development"
        return
    assert reply["status"] == "ok" and reply["breakpoint"]["address"] == 0
    listing = host.request("bp.list", pid=pid)["breakpoints"]
    assert [b["id"] for b in listing if b["kind"] == "breakpoint"] == [reply["breakpoint_id"]]
    brk = [b for b in listing if b["kind"] == "brk"]      # the C library's BRKs, listed
    assert all(isinstance(b["code"], int) for b in brk)
    if brk:
        assert host.call("bp.clear", breakpoint_id=brk[0]["id"])["error"] == "static_breakpoint"
    assert host.request("bp.disable", breakpoint_id=reply["breakpoint_id"])["breakpoint"]["enabled"] is False
    assert len(host.request("bp.clear", breakpoint_id=reply["breakpoint_id"])["cleared"]) == 1
    assert host.call("bp.clear", breakpoint_id=reply["breakpoint_id"])["error"] == "unknown_breakpoint"


def test_symbols_are_resolved_by_the_host(board, host, built):
    if board.variant == "minimal":
        pytest.skip("the debugger's commands need development or full")
    pid = loaded(host, built)
    for fields in ({"addr": "main"}, {"symbol": "main"}, {"file": "spin.c", "line": 10}):
        reply = host.call("bp.set", pid=pid, **fields)
        assert reply["error"] == "bad_argument" and "host" in reply["message"]


def test_a_breakpoint_stops_the_task_and_the_event_follows_the_reply(board, host, built):
    if board.variant == "minimal":
        pytest.skip("events need development or full")
    pid = loaded(host, built)
    host.request("step", pid=pid, count=5000)      # past printf, into the loop
    pc = host.request("regs", pid=pid)["registers"]["pc"]
    host.request("events.subscribe", categories=["debug_break", "task_state"], pids=[pid])
    bp = host.request("bp.set", pid=pid, addr=pc)["breakpoint_id"]
    host.request("resume", pid=pid)
    stop = host.wait_event(lambda e: e["type"] == "debug_break")
    assert stop["data"]["reason"] == "breakpoint" and stop["data"]["breakpoint_id"] == bp
    assert stop["data"]["pc"] == pc and stop["pid"] == pid
    assert host.request("ps", pid=pid)["tasks"]["tasks"][0]["state"] == "paused"
    frames = host.request("stack.info", pid=pid)["stack"]["frames"]
    assert frames[0]["pc"] == pc


def test_run_to_and_watch(board, host, built):
    if board.variant == "minimal":
        pytest.skip("run.to and watches need development or full")
    pid = loaded(host, built)
    host.request("step", pid=pid, count=5000)      # past printf, into the loop
    pc = host.request("regs", pid=pid)["registers"]["pc"]
    host.request("step", pid=pid, count=3)
    host.request("events.subscribe", categories=["debug_break"])
    result = host.request("run.to", pid=pid, addr=pc)["result"]
    stop = host.wait_event(lambda e: e["type"] == "debug_break")
    assert stop["data"]["breakpoint_id"] == result["breakpoint_id"] and stop["data"]["pc"] == pc
    watch = host.request("watch.add", pid=pid, addr=0x5000, length=4)["watch"]
    assert watch["length"] == 4 and host.request("watch.list")["watches"][0]["id"] == watch["id"]
    assert host.request("watch.remove", watch_id=watch["id"])["watch"]["id"] == watch["id"]


def test_sessions_lock_pids(board, host, built):
    pid = loaded(host, built)
    session = host.request("session.open", client="test", pid_lock=pid)["session"]
    assert session["pid_lock"] == [pid] and session["handle"].startswith("s")
    refused = host.call("kill", pid=pid)                       # anonymous: locked out
    assert refused["error"] == f"pid_locked:{pid}"
    assert host.request("kill", pid=pid, session=session["id"])["task"]["state"] == "killed"
    assert host.request("session.close", session=session["id"])["closed"] == session["handle"]
    assert host.call("session.keepalive", session=session["id"])["error"] == "session_required"


def test_observers_need_the_full_variant(board, host):
    reply = host.call("session.open", observer=True)
    if board.variant != "full":
        assert reply["error"] == "unsupported" and reply["variant_required"] == "full"
        return
    session = reply["session"]
    assert session["observer"] is True
    assert host.call("pause", session=session["id"])["error"] == "read_only"


def test_a_new_host_ends_the_old_hosts_sessions(board, host):
    session = host.request("session.open", client="old")["session"]
    host.hello()                                    # a host (re)connecting starts with H
    assert host.request("session.list")["sessions"] == []
    assert host.call("session.keepalive", session=session["id"])["error"] == "session_required"


def test_values_and_commands(host, built):
    pid = loaded(host, built, "values_app")
    values = host.request("val.list")["values"]
    names = {v.get("name") for v in values}
    assert {"setpoint", "temperature"} <= names
    got = host.request("val.get", name="setpoint")["value"]
    assert got["value"] == 20.5 and got["status"] == 0
    done = host.request("val.set", name="setpoint", value=42.5)["value"]
    assert done["f16"] == 0x5150 and done["changed"] is True and done["value"] == 42.5
    refused = host.call("val.set", name="temperature", value=1)     # read-only
    assert refused["error"] == "val_eperm" and refused["val_status"] == 2
    assert host.call("val.get", name="nosuch")["error"] == "unknown_name"
    commands = host.request("cmd.list", pid=pid)["commands"]
    assert [c["name"] for c in commands] == ["stats"]


def test_stdin_and_recent_output(host, built):
    pid = loaded(host, built)
    host.request("resume", pid=pid)
    recent = []
    for _ in range(200):
        recent = host.request("stdio", op="recent", pid=pid)["recent"]
        if recent and recent[0]["output"]:
            break
    assert recent[0]["output"][0]["text"] == "spin starts\n"
    written = host.request("stdio", pid=pid, data="hi")
    assert written == {"version": 1, "status": "ok", "pid": pid, "written": 2}


def test_the_trace_ring(board, host, built):
    if board.variant == "minimal":
        assert host.call("trace.on", pid=loaded(host, built))["variant_required"] == "development"
        return
    pid = loaded(host, built)
    status = host.request("trace.on", pid=pid)["trace"]
    assert status["enabled"] is True and status["format"] == "hsx.trace/1"
    pcs = []
    for _ in range(5):
        pcs.append(host.request("regs", pid=pid)["registers"]["pc"])
        host.request("step", pid=pid)
    trace = host.request("trace.records", pid=pid, limit=5)["trace"]
    assert [r["pc"] for r in trace["records"]] == pcs and trace["returned"] == 5
    assert [r["seq"] for r in trace["records"]] == [1, 2, 3, 4, 5]
    assert host.request("trace.off", pid=pid)["trace"]["enabled"] is False


def test_stdio_subscribe_with_recent_output(board, host, built):
    pid = loaded(host, built)
    host.request("resume", pid=pid)
    for _ in range(200):
        if host.request("stdio", op="recent", pid=pid)["recent"][0]["output"]:
            break
    reply = host.call("stdio", pid=pid, recent=True)
    if board.variant == "minimal":
        assert reply["variant_required"] == "development"
        return
    assert reply["events"]["filters"][-1] == {"pids": [pid], "categories": ["stdout", "stderr"]}
    assert reply["recent"] == [{"pid": pid, "output": [{"stream": "stdout", "text": "spin starts\n"}],
                                "dropped_chars": 0}]


def test_a_locked_tasks_output_is_its_owners(host, built):
    pid = loaded(host, built)
    session = host.request("session.open", pid_lock=pid)["session"]
    assert host.call("stdio", op="recent", pid=pid)["error"] == f"pid_locked:{pid}"
    assert host.request("stdio", op="recent", pid=pid, session=session["id"])["recent"][0]["pid"] == pid
    assert host.request("stdio", op="recent")["recent"] == []


def slow_reader(board) -> FramedClient:
    """A host whose link backs up as soon as it stops reading."""
    parts = urlsplit(board.url)
    client = FramedClient.tcp(parts.hostname, parts.port, receive_buffer=4096)
    client.hello()
    return client


def read_until_warned(host) -> tuple[list, list]:
    """Stop reading a while, then read what came, until the board has dropped events."""
    seen, warnings = [], []
    end = time.monotonic() + 60
    while not warnings and time.monotonic() < end:
        time.sleep(0.2)                       # not reading: the link backs up
        host.pump(0.2)
        for event in host.events():
            (warnings if event["type"] == "warning" else seen).append(event)
    return seen, warnings


def test_a_slow_host_makes_the_queue_drop_the_oldest_and_say_how_many(board, built):
    """Events wait for room on the link; a host that reads slowly gets warnings that
    count what was dropped, in seq order, never silence; requests are still served."""
    if board.variant == "minimal":
        pytest.skip("events need development or full")
    host = slow_reader(board)
    try:
        pid = loaded(host, built, "chatter")
        host.request("events.subscribe", categories=["stdout"], pids=[pid])
        host.request("resume", pid=pid)
        seen, warnings = read_until_warned(host)
        assert warnings, "no event was dropped in a minute"
        warning = warnings[0]
        assert warning["data"]["reason"] == "events_dropped" and warning["data"]["dropped"] > 0
        assert warning["data"]["first_seq"] <= warning["data"]["last_seq"] == warning["seq"]
        seqs = [e["seq"] for e in seen]
        assert seqs == sorted(seqs)                     # what arrives keeps its order
        assert host.request("pause", pid=pid)["task"]["state"] == "paused"
    finally:
        clear(host)
        host.close()


def test_the_owners_stop_is_never_dropped(board, built):
    if board.variant == "minimal":
        pytest.skip("events need development or full")
    host = slow_reader(board)
    try:
        pid = loaded(host, built, "chatter")
        session = host.request("session.open", pid_lock=pid)["session"]["id"]
        host.request("events.subscribe", session=session, categories=["stdout", "task_state"])
        host.request("resume", pid=pid, session=session)
        assert read_until_warned(host)[1], "no event was dropped in a minute"
        host.request("pause", pid=pid, session=session)
        stop = host.wait_event(lambda e: e["type"] == "task_state" and e["data"]["reason"] == "user_pause")
        assert stop["pid"] == pid and stop["data"]["new_state"] == "paused"
    finally:
        clear(host)
        host.close()


def test_a_session_that_misses_its_heartbeat_expires(host, built):
    pid = loaded(host, built)
    session = host.request("session.open", pid_lock=pid, heartbeat_s=1)["session"]
    assert session["heartbeat_s"] == 1.0
    for _ in range(600):                              # up to a minute on a loaded machine
        if host.request("ps", pid=pid)["tasks"]["tasks"][0]["locked_by"] is None:
            break
        time.sleep(0.1)
    assert host.call("session.keepalive", session=session["id"])["error"] == "session_required"
    assert host.request("kill", pid=pid)["task"]["state"] == "killed"    # the lock went


def test_lists_of_pids_and_categories(board, host, built):
    first, second = loaded(host, built), loaded(host, built)
    session = host.request("session.open", pid_lock=[first, second, first])["session"]
    assert session["pid_lock"] == [first, second]
    if board.variant == "minimal":
        return
    events = host.request("events.subscribe", categories=["task_state", "debug", "mailbox"],
                          pids=[first, second])["events"]
    assert events["filters"] == [{"pids": [first, second], "categories": [
        "task_state", "debug_break", "mailbox_send", "mailbox_recv"]}]
    reply = host.call("events.subscribe", categories=["task_state", "nonsense"])
    assert reply["error"] == "unsupported_category" and reply["category"] == "nonsense"
