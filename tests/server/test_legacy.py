"""The prior executive's `attach`, `detach` and `stdio_fanout`, sent as its clients sent
them (bare JSON lines): they keep working (docs/protocol.md, "Compatibility")."""
from __future__ import annotations

from serverkit import ECHO, LOOP, image_b64, wait_for

ECHOES = ECHO.replace("    LDI R0, 0\n    SVC MOD=1, FN=0\n", "    JMP start\n")


def ok(conn, **message) -> dict:
    reply = conn.request(message)
    assert reply["status"] == "ok", reply
    return reply


def test_attach_and_detach_acknowledge_with_the_info_reply_and_change_nothing(raw):
    conn = raw()
    pid = ok(conn, cmd="load", image=image_b64(LOOP, "loop"))["pid"]
    for cmd in ("attach", "detach"):
        info = ok(conn, cmd=cmd)["info"]
        assert info["attached"] is True and info["program"] == "hsx-execd"
        assert [t["pid"] for t in info["tasks"]] == [pid] and info["auto"] is True
    # detached, as the prior executive put it: the task still runs on the clock
    ran = ok(conn, cmd="ps", pid=pid)["tasks"]["tasks"][0]["instructions"]
    wait_for(lambda: ok(conn, cmd="ps", pid=pid)["tasks"]["tasks"][0]["instructions"] > ran)


def output_seen_by_a_second_reader(conn, fanout: bool) -> list[str]:
    """Echo a line with a client's reader on the task's stdout; what that reader gets."""
    pid = ok(conn, cmd="load", image=image_b64(ECHOES, "echo"), paused=True)["pid"]
    handle = ok(conn, cmd="mailbox.open", target=f"svc:stdio.out@{pid}", mode="r")["handle"]
    if fanout:
        config = ok(conn, cmd="stdio_fanout", pid=pid, stream="out", mode="fanout")["config"]
        assert config["scope"] == "pid" and config["mode"] == "fanout"
        assert config["streams"] == [{"stream": "out", "mode_mask": 0x1B, "mode": "fanout"}]
        assert config["applied"] == [{"pid": pid, "stream": "out", "mode_mask": 0x1B}]
    ok(conn, cmd="stdio", pid=pid, data="hi\n")
    ok(conn, cmd="resume", pid=pid)
    # the line is there at the first read: the task waits at the second, after the echo
    wait_for(lambda: ok(conn, cmd="ps", pid=pid)["tasks"]["tasks"][0]["state"] == "waiting_mbx")
    return [m["text"] for m in ok(conn, cmd="listen", handle=handle)["messages"]]


def test_stdio_fanout_gives_every_reader_of_a_task_its_output(raw):
    conn = raw()
    assert output_seen_by_a_second_reader(conn, fanout=False) == []   # the executive took it
    assert output_seen_by_a_second_reader(conn, fanout=True) == ["hi\n"]


def test_stdio_fanout_reports_and_sets_the_default_for_new_tasks(raw):
    conn = raw()
    config = ok(conn, cmd="stdio_fanout")["config"]
    assert config["scope"] == "default"
    assert [(s["stream"], s["mode"], s["mode_mask"]) for s in config["streams"]] == [
        ("in", "off", 3), ("out", "off", 3), ("err", "off", 3)]
    old = ok(conn, cmd="load", image=image_b64(LOOP, "old"))["pid"]
    config = ok(conn, cmd="stdio_fanout", pid="default", stream="both", mode="fanout_block")["config"]
    assert [(s["stream"], s["mode"]) for s in config["streams"]] == [
        ("out", "fanout_block"), ("err", "fanout_block")]
    assert {"pid": old, "stream": "err", "mode_mask": 0x2B} in config["applied"]
    new = ok(conn, cmd="load", image=image_b64(LOOP, "new"))["pid"]
    listing = ok(conn, cmd="stdio_fanout", pid="all")["config"]
    assert listing["scope"] == "all"
    modes = {t["pid"]: [s["mode"] for s in t["streams"]] for t in listing["tasks"]}
    assert modes == {old: ["off", "fanout_block", "fanout_block"],
                     new: ["off", "fanout_block", "fanout_block"]}
    config = ok(conn, cmd="stdio_fanout", pid=new, mode="off")["config"]
    assert [s["mode"] for s in config["streams"]] == ["off", "off", "off"]


def test_stdio_fanout_refuses_what_it_cannot_do(raw):
    conn = raw()
    for fields, code, words in (({"stream": "sideways"}, "bad_argument", "'stream' must be"),
                                ({"mode": "loud"}, "bad_argument", "'mode' must be"),
                                ({"pid": "everyone"}, "bad_argument", "\"default\" or \"all\""),
                                ({"pid": 99}, "unknown_pid", "no task with pid 99")):
        reply = conn.request({"cmd": "stdio_fanout", **fields})
        assert reply["status"] == "error" and reply["error"] == code, reply
        assert words in reply["message"]
