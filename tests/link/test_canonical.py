"""Requests as a board takes them and the words of a board's errors
(hsx.client.link.canonical; docs/wire.md "Requests" and "Errors"): what hsx execd
accepts becomes the one form the board reads, what execd refuses is refused on the host
in execd's words, and a board's terse error gets its message from its code and fields."""
from __future__ import annotations

import pytest

from hsx.client.link.canonical import board_request, explain
from hsx.server.errors import RequestError


def refused(message: dict) -> RequestError:
    with pytest.raises(RequestError) as error:
        board_request(message)
    return error.value


def test_aliases_and_the_op_form_become_the_commands_own_name():
    assert board_request({"cmd": "dumpregs", "pid": 1}) == {"cmd": "regs", "pid": 1}
    assert board_request({"cmd": "PING"}) == {"cmd": "ping"}
    assert board_request({"cmd": "mem", "op": "read", "pid": 2, "address": 16, "size": 4}) == {
        "cmd": "peek", "pid": 2, "addr": 16, "length": 4}
    assert board_request({"cmd": "stdio", "op": "recent"}) == {"cmd": "stdio", "op": "recent"}


def test_fields_take_their_canonical_forms():
    assert board_request({"cmd": "sched", "pid": "0x3", "quantum": "16"}) == {
        "cmd": "sched", "pid": 3, "quantum": 16}
    assert board_request({"cmd": "pause", "pid": 1, "session": "ab"})["session"] == "ab"
    assert board_request({"cmd": "load.end", "stream": 1, "paused": "on"})["paused"] is True
    assert board_request({"cmd": "step", "pid": 1, "steps": 3})["count"] == 3
    assert board_request({"cmd": "val.set", "name": "x", "value": 42.5})["f16"] == 0x5150
    assert board_request({"cmd": "val.set", "oid": 1, "value": True})["f16"] == 0x3C00
    opened = board_request({"cmd": "session.open", "heartbeat_s": 1.5, "auth": "admin",
                            "pid_lock": [3, 4, 3]})
    assert (opened["heartbeat_ms"], opened["auth"], opened["pid_lock"]) == (1500, 2, [3, 4])
    assert board_request({"cmd": "stdio", "op": "subscribe", "pid": [1, 2]})["pids"] == [1, 2]
    assert board_request({"cmd": "poke", "pid": 1, "addr": 0, "data": b"\x01"})["data"] == b"\x01"
    assert board_request({"cmd": "ping", "n": 7})["n"] == 7        # undeclared: as it is


def test_a_nested_filter_is_flattened_and_categories_are_checked():
    request = board_request({"cmd": "subscribe", "filters": {"pid": [5], "categories": "debug"}})
    assert request == {"cmd": "events.subscribe", "pids": [5], "categories": ["debug_break"]}
    # a category is the board's types it names (a prefix: both mailbox types); none given
    # is hsx execd's default set
    mailbox = board_request({"cmd": "events.subscribe", "categories": ["mailbox", "fault"]})
    assert mailbox["categories"] == ["fault", "mailbox_send", "mailbox_recv"]
    assert "debug_break" in board_request({"cmd": "events.subscribe"})["categories"]
    error = refused({"cmd": "events.subscribe", "categories": ["task_state", "nonsense"]})
    assert (error.code, error.fields) == ("unsupported_category", {"category": "nonsense"})


def test_what_execd_refuses_is_refused_on_the_host_in_its_words():
    assert refused({"cmd": "nosuch"}).code == "unknown_cmd"
    assert refused({"cmd": "ping", "version": 2}).code == "unsupported_version"
    error = refused({"cmd": "sched", "pid": 1, "quantum": 0})
    assert error.code == "bad_argument" and "'quantum'" in error.message
    assert refused({"cmd": "bp", "op": "nosuch"}).message == "unknown bp op 'nosuch'"


def test_what_only_the_host_can_do_is_refused_on_the_host():
    for fields in ({"addr": "main"}, {"symbol": "main"}, {"file": "a.c", "line": 3}):
        error = refused({"cmd": "bp.set", "pid": 1, **fields})
        assert error.code == "bad_argument" and "host resolves" in error.message
    assert board_request({"cmd": "watch.add", "pid": 1, "expr": 16})["addr"] == 16
    assert "image" in refused({"cmd": "load", "path": "/tmp/x.hxe"}).message


HELLO = {"variant": "minimal"}


def test_a_boards_error_is_worded_from_its_code_and_fields():
    def words(reply: dict, request: dict) -> str:
        return explain({"status": "error", **reply}, request, HELLO)["message"]
    unsupported = {"error": "unsupported", "variant_required": "development"}
    assert words(unsupported, {"cmd": "bp.set"}) == (
        "bp.set needs the development or full variant; this board runs minimal")
    assert "full variant" in words({**unsupported, "variant_required": "full"},
                                   {"cmd": "session.open", "observer": True})
    assert words({"error": "bad_argument", "field": "pid"}, {"cmd": "regs"}) == (
        "regs requires 'pid'")
    assert words({"error": "bad_argument", "field": "oid"}, {"cmd": "val.get"}) == (
        "val.get requires 'oid' or 'name'")
    assert "10000" in words({"error": "bad_argument", "field": "count"},
                            {"cmd": "step", "pid": 1, "count": 20000})
    assert words({"error": "pid_locked:3"}, {"cmd": "kill", "pid": 3}) == (
        "pid 3 is locked by another session")
    assert words({"error": "unknown_pid"}, {"cmd": "kill", "pid": 9}) == "no task with pid 9"
    assert words({"error": "bad_image:crc_mismatch"}, {"cmd": "load.end"}).endswith(
        "crc_mismatch")
    ok = {"status": "ok", "pid": 1}
    assert explain(ok, {"cmd": "kill"}, HELLO) is ok               # not an error: as it is
