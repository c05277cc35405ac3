"""`hsx execd` and `hsx shell` as processes, and token authentication."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from execdkit import readline
from mvasmkit import HELLO
from serverkit import LOOP, Raw

from hsx.client import Client, ConnectionClosed, ProtocolError
from hsx.server import BackgroundServer, Server, ServerConfig

HSX = [sys.executable, "-m", "hsx"]


def start_execd(*args: str, cwd: Path) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([*HSX, "execd", "--port", "0", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = readline(proc.stdout)
    assert line.startswith("hsx execd listening on 127.0.0.1:"), (line, proc.stderr.read())
    return proc, int(line.rsplit(":", 1)[1])


@contextmanager
def running_execd(*args: str, cwd: Path):
    """A client of `hsx execd ARGS`, which must then shut down cleanly when asked."""
    proc, port = start_execd(*args, cwd=cwd)
    try:
        with Client("127.0.0.1", port) as client:
            yield client
            client.request("shutdown")
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def shell(port: int, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*HSX, "shell", "--port", str(port), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=30)


@pytest.fixture
def daemon(tmp_path):
    (tmp_path / "loop.mvasm").write_text(LOOP)
    proc, port = start_execd("--load", "loop.mvasm", "--root", "fs", cwd=tmp_path)
    yield proc, port
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_execd_loads_serves_and_stops_cleanly_on_sigterm(daemon, tmp_path):
    proc, port = daemon
    (tmp_path / "hello.mvasm").write_text(HELLO)
    ps = shell(port, "ps", "--json", cwd=tmp_path)
    assert ps.returncode == 0
    rows = json.loads(ps.stdout)["tasks"]["tasks"]
    assert rows[0]["app_name"] == "loop" and rows[0]["state"] == "ready"
    loaded = shell(port, "load", "hello.mvasm", cwd=tmp_path)       # relative to the shell
    assert loaded.returncode == 0 and 'as pid 2' in loaded.stdout
    human = shell(port, "ps", cwd=tmp_path)
    assert "PID" in human.stdout and "loop" in human.stdout
    refused = shell(port, "kill", "99", cwd=tmp_path)
    assert refused.returncode == 1 and "unknown_pid" in refused.stderr
    as_json = shell(port, "--json", "kill", "99", cwd=tmp_path)
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["error"] == "unknown_pid"
    raw = shell(port, '{"cmd": "peek", "pid": 1, "addr": 16384, "length": 4}', cwd=tmp_path)
    assert raw.returncode == 0 and '"length": 4' in raw.stdout
    with Client("127.0.0.1", port) as watcher:                     # sees the shutdown
        watcher.subscribe(["task_state"])
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        states = []
        with pytest.raises(ConnectionClosed):               # after the last event
            for event in watcher.events(timeout=5):
                states.append(event["data"]["new_state"])
    assert "killed" in states


def test_shutdown_command_exits_zero(daemon, tmp_path):
    proc, port = daemon
    assert shell(port, "shutdown", cwd=tmp_path).returncode == 0
    assert proc.wait(timeout=10) == 0
    gone = shell(port, "ping", cwd=tmp_path)
    assert gone.returncode == 2 and f"hsx: 127.0.0.1:{port}: no executive is listening" in gone.stderr
    assert "start one with `hsx execd`" in gone.stderr


def test_sigint_is_clean_too(daemon):
    proc, _ = daemon
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 0


@pytest.mark.parametrize("loop", ["asyncio", "uvloop", ""])
def test_execd_runs_on_uvloop_where_installed_and_on_the_standard_loop(loop, tmp_path,
                                                                       monkeypatch):
    """uvloop by default when it is installed; HSX_EVENT_LOOP=asyncio for the standard
    library's loop, which the daemon must keep working on (Windows has no uvloop)."""
    try:
        import uvloop  # noqa: F401
        expected = loop or "uvloop"
    except ImportError:
        if loop == "uvloop":
            pytest.skip("uvloop is not installed here")
        expected = "asyncio"
    monkeypatch.setenv("HSX_EVENT_LOOP", loop)
    (tmp_path / "loop.mvasm").write_text(LOOP)
    with running_execd("--load", "loop.mvasm", cwd=tmp_path) as client:
        logs = client.request("dmesg")["logs"]
        assert any(f"({expected} event loop)" in e["message"] for e in logs), logs
        client.request("pause", pid=1)
        pcs = {client.request("step", pid=1, count=1)["result"]["pc"] for _ in range(4)}
        assert len(pcs) == 2                              # ADDI, JMP, ADDI, JMP


def test_execd_refuses_an_event_loop_it_does_not_know(tmp_path, monkeypatch):
    monkeypatch.setenv("HSX_EVENT_LOOP", "trio")
    done = subprocess.run([*HSX, "execd", "--port", "0"], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("hsx: HSX_EVENT_LOOP: 'trio' is not asyncio, uvloop or auto")
    assert "Traceback" not in done.stderr


def test_execd_refuses_bad_startup(tmp_path):
    public = subprocess.run([*HSX, "execd", "--host", "0.0.0.0", "--port", "0"],
                            capture_output=True, text=True, timeout=30)
    assert public.returncode == 2 and "token" in public.stderr
    missing = subprocess.run([*HSX, "execd", "--port", "0", "--load", "nope.hxe"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2 and "nope.hxe" in missing.stderr


def test_shell_usage_errors(tmp_path):
    bad = subprocess.run([*HSX, "shell", "--port", "1", "ps"], capture_output=True, text=True,
                         timeout=30)
    assert bad.returncode == 2


def test_non_loopback_needs_a_token():
    with pytest.raises(ValueError, match="token"):
        Server(ServerConfig(host="0.0.0.0", port=0))
    Server(ServerConfig(host="0.0.0.0", port=0, token="t"))        # accepted


def test_token_is_checked_on_first_request_or_session_open(tmp_path):
    with BackgroundServer(ServerConfig(port=0, token="s3cret", root=tmp_path)) as srv:
        conn = Raw(srv)
        assert conn.request({"cmd": "ps"})["error"] == "auth_required"
        failed = conn.request({"cmd": "ps", "token": "guess"})
        assert failed["error"] == "auth_failed"
        time.sleep(failed["retry_after_s"])                # a wrong token slows the address
        assert conn.request({"cmd": "ps", "token": "s3cret"})["status"] == "ok"
        assert conn.request({"cmd": "ps"})["status"] == "ok"        # the connection is trusted
        other = Raw(srv)
        opened = other.request({"cmd": "session.open", "client": "t", "token": "s3cret"})
        assert opened["status"] == "ok"
        with Client(srv.host, srv.port, token="s3cret") as client:
            assert client.request("ping")["reply"] == "pong"
        with pytest.raises(ProtocolError) as wrong:
            Client(srv.host, srv.port, token="nope")
        assert wrong.value.code == "auth_failed"
        time.sleep(wrong.value.reply["retry_after_s"])
        pest = Raw(srv)
        for _ in range(3):
            pest.request({"cmd": "ps", "token": "x"})
        with pytest.raises(ConnectionError):
            pest.line()                                             # cut off after 3 tries
        for c in (conn, other, pest):
            c.close()


def test_token_file_for_the_daemon(tmp_path):
    secret = tmp_path / "token"
    secret.write_text("from-a-file\n")
    proc, port = start_execd("--token-file", str(secret), cwd=tmp_path)
    try:
        env = {**os.environ, "HSX_TOKEN": "from-a-file"}
        ok = subprocess.run([*HSX, "shell", "--port", str(port), "ping"], env=env,
                            capture_output=True, text=True, timeout=30)
        assert ok.returncode == 0 and ok.stdout.strip() == "pong"
        denied = shell(port, "ping", cwd=tmp_path)
        assert denied.returncode == 1 and "auth_required" in denied.stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="the user's data directory is XDG_DATA_HOME on Linux only")
def test_execd_keeps_guest_files_where_hsx_run_does_unless_told(tmp_path, monkeypatch):
    """Without --root or --state-dir, tasks' files live in hsx's own sandbox under the
    user's data directory, as with `hsx run`: what a task wrote is there next time."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with running_execd(cwd=tmp_path) as client:
        logs = [e["message"] for e in client.request("dmesg")["logs"]]
    sandbox = tmp_path / "data" / "hsx" / "sandbox"
    assert sandbox.is_dir()
    assert any(f"guest files in {sandbox}" in message for message in logs), logs
