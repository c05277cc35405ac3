"""The token file, and how fast a client may guess the token (issue 17, group 5)."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest
from serverkit import Raw

from hsx.server import BackgroundServer, ServerConfig
from hsx.server.auth import AuthLimiter, TokenFileError, read_token_file

HSX = [sys.executable, "-m", "hsx"]


@pytest.mark.parametrize("content, why", [
    ("", "the file is empty"),
    ("\nsecret\n", "the first line is blank"),
    ("   \n", "the first line is blank"),
])
def test_a_token_file_that_would_turn_authentication_off_is_refused(tmp_path, content, why):
    path = tmp_path / "token"
    path.write_text(content)
    with pytest.raises(TokenFileError, match=why):
        read_token_file(path)
    done = subprocess.run([*HSX, "execd", "--port", "0", "--host", "0.0.0.0",
                           "--token-file", str(path)], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("hsx: token file") and why in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("token", ["", "   ", "\t"])
def test_a_blank_token_is_refused_too(tmp_path, token):
    done = subprocess.run([*HSX, "execd", "--port", "0", "--host", "0.0.0.0", "--token", token],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("hsx: --token: the token is blank\n  give a secret")
    with pytest.raises(ValueError, match="blank token"):
        BackgroundServer(ServerConfig(port=0, token=token, root=tmp_path)).__enter__()


def test_a_missing_or_unreadable_token_file_is_named(tmp_path):
    for path, why in [(tmp_path / "nope", "no such file"), (tmp_path, "is a directory")]:
        with pytest.raises(TokenFileError, match=why):
            read_token_file(path)
    assert read_token_file(_write(tmp_path / "ok", "  s3cret  \nsecond\n")) == "s3cret"


def _write(path, text):
    path.write_text(text)
    return path


def test_failed_attempts_slow_the_address_down():
    now = [0.0]
    limiter = AuthLimiter(clock=lambda: now[0])
    delays = [limiter.failed("10.0.0.1") for _ in range(12)]
    assert delays == sorted(delays) and delays[0] > 0 and delays[-1] == 30.0
    assert limiter.wait_s("10.0.0.1") == 30.0 and limiter.wait_s("10.0.0.2") == 0
    now[0] += 31
    assert limiter.wait_s("10.0.0.1") == 0
    limiter.succeeded("10.0.0.1")
    assert limiter.failed("10.0.0.1") == delays[0]


def test_guessing_over_many_connections_is_rate_limited(tmp_path):
    """Today's main checked ~3,000 guesses a second; now one address gets a handful."""
    with BackgroundServer(ServerConfig(port=0, token="s3cret", root=tmp_path)) as srv:
        outcomes = []
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            conn = Raw(srv)
            outcomes.append(conn.request({"cmd": "ps", "token": f"guess{len(outcomes)}"}))
            conn.close()
        checked = [o for o in outcomes if o["error"] == "auth_failed"]
        limited = [o for o in outcomes if o["error"] == "auth_rate_limited"]
        assert len(checked) <= 3 and len(limited) == len(outcomes) - len(checked)
        assert all(o["retry_after_s"] > 0 for o in limited)
        time.sleep(limited[-1]["retry_after_s"] + 0.05)
        conn = Raw(srv)
        assert conn.request({"cmd": "ps", "token": "s3cret"})["status"] == "ok"
        conn.close()
