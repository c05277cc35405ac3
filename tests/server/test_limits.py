"""Nothing a client asks for grows the executive without bound (issue 17, group 4):
connections, sessions, breakpoints and watches each have a ceiling, refused with a
documented code that says what to do; what was there before keeps working."""
from __future__ import annotations

import os
import socket

from serverkit import LOOP, load

from hsx.client import Client, ProtocolError
from hsx.debug import breakpoints, trace, watches
from hsx.server import BackgroundServer, ServerConfig, sessions


def _refused(call, code: str) -> str:
    try:
        call()
    except ProtocolError as error:
        assert error.code == code, error
        return error.message
    raise AssertionError(f"expected {code}")


def test_connections_beyond_the_limit_are_told_why_and_closed(tmp_path):
    config = ServerConfig(port=0, root=tmp_path / "fs", max_connections=3)
    with BackgroundServer(config) as srv:
        held = [Client(srv.host, srv.port, timeout=10) for _ in range(3)]
        for client in held:
            assert client.request("ps")["tasks"]
        with socket.create_connection((srv.host, srv.port), timeout=10) as extra:
            reply = extra.makefile("rb").readline()
            assert b'"too_many_connections"' in reply and b"close one" in reply
            assert extra.recv(10) == b""                     # and then closed
        held.pop().close()
        again = Client(srv.host, srv.port, timeout=10)      # a freed slot is usable
        assert again.request("ps")["tasks"]
        for client in held + [again]:
            assert client.request("ps")["tasks"]
            client.close()


def test_sessions_per_connection_are_bounded_and_freed_on_close(connect):
    client = connect()
    opened = [client.request("session.open")["session"]["id"]
              for _ in range(sessions.MAX_PER_CONNECTION)]
    message = _refused(lambda: client.request("session.open"), "too_many_sessions")
    assert "session.close" in message
    other = connect()                                   # another connection is not affected
    assert other.request("session.open")["session"]["id"]
    client.request("session.close", session=opened[0])
    assert client.request("session.open")["session"]["id"]


def test_breakpoints_per_task_are_bounded(client):
    pid = load(client, LOOP, "loop", paused=True)
    for n in range(breakpoints.MAX_PER_TASK):
        client.request("bp.set", pid=pid, addr=0, condition=f"R7 == {n}")
    message = _refused(lambda: client.request("bp.set", pid=pid, addr=0, condition="R7 == -1"),
                       "too_many_breakpoints")
    assert "clear some" in message
    first = client.request("bp.list", pid=pid)["breakpoints"][0]["id"]
    client.request("bp.clear", breakpoint_id=first)
    assert client.request("bp.set", pid=pid, addr=0, condition="R7 == -1")["breakpoint_id"]


def test_watches_per_task_are_bounded(client):
    pid = load(client, LOOP, "loop", paused=True)
    for n in range(watches.MAX_PER_TASK):
        client.request("watch.add", pid=pid, expr=0x100 + 4 * n, length=4)
    _refused(lambda: client.request("watch.add", pid=pid, expr=0x100, length=4),
             "too_many_watches")
    first = client.request("watch.list", pid=pid)["watches"][0]["id"]
    client.request("watch.remove", watch_id=first)
    assert client.request("watch.add", pid=pid, expr=0x100, length=4)["watch"]


def test_history_of_all_tasks_together_is_bounded(client):
    first, second = (load(client, LOOP, name, paused=True) for name in ("one", "two"))
    client.request("history.on", pid=first, budget_mb=1000)
    message = _refused(lambda: client.request("history.on", pid=second, budget_mb=100),
                       "bad_argument")
    assert "1100 MiB" in message and "history.off" in message
    assert client.request("history.on", pid=second, budget_mb=24)["history"]["recording"]
    client.request("history.on", pid=first, budget_mb=1000)      # its own budget again: fine
    client.request("history.off", pid=first)
    assert client.request("history.on", pid=second, budget_mb=1024)["history"]["recording"]


def test_error_messages_quote_a_long_argument_shortened(client):
    pid = load(client, LOOP, "loop", paused=True)
    for command, fields in [("bp.set", {"pid": pid, "addr": 0, "condition": "(" * 4000}),
                            ("bp.set", {"pid": pid, "addr": "%" * 4000}),
                            ("watch.add", {"pid": pid, "expr": "*" * 4000 + "x"})]:
        try:
            client.request(command, **fields)
        except ProtocolError as error:
            assert len(error.message) < 300 and "..." in error.message, error.message
        else:
            raise AssertionError(f"{command} accepted {fields}")
    message = _refused(lambda: client.request("clock.rate", rate=-1), "bad_argument")
    assert message == "'rate' must be 0 or a number 0.01..1000000000000, not -1"


def test_files_a_client_names_must_be_regular_and_not_huge(client, tmp_path):
    """/dev/zero would be read for ever, a pipe would block, a huge file fill memory."""
    pid = load(client, LOOP, "loop", paused=True)
    fifo = tmp_path / "pipe.sym"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.sym"
    with open(huge, "wb") as out:
        out.truncate(100 << 20)                               # sparse: costs no disk
    for path, code in [(huge, "file_too_large"), (tmp_path, "symbol_file"),  # safe ones first
                       (fifo, "symbol_file"), ("/dev/zero", "symbol_file")]:
        _refused(lambda: client.request("symbols.load", pid=pid, path=str(path)), code)
    _refused(lambda: client.request("trace.load", path="/dev/zero"), "trace_file")
    for name in ("pipe.hxe", "huge.hxe"):
        (fifo.rename(tmp_path / name) if name == "pipe.hxe"
         else huge.rename(tmp_path / name))
    _refused(lambda: client.request("load", path=str(tmp_path / "pipe.hxe")), "file_not_found")
    _refused(lambda: client.request("load", path=str(tmp_path / "huge.hxe")), "file_too_large")
    assert client.request("ps")["tasks"]
