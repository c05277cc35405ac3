"""hsx.client.launch: building a program, starting an executive when none listens,
loading paused -- with real child processes and sockets -- and leaving nothing behind
when something fails."""
from __future__ import annotations

import socket

import pytest

from hsx.client import Client
from hsx.client.launch import LaunchError, launch, listening


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_mvasm_without_an_executive_starts_one_for_the_launch(counter):
    source = counter.with_suffix(".mvasm")                  # the fixture's program
    port = free_port()
    said: list[str] = []
    with launch(source, "127.0.0.1", port, progress=said.append) as program:
        assert program.daemon is not None and program.build_dir.is_dir()
        assert said == ["building counter.mvasm (MVASM)…",
                        f"starting an executive on 127.0.0.1:{port}…"]
        with Client("127.0.0.1", port) as client:
            row = client.request("ps", pid=program.pid)["tasks"]["tasks"][0]
            assert row["state"] == "paused" and row["app_name"] == program.app_name
            assert row["pc"] == 0 and row.get("steps", 0) == 0         # before its first instruction
            main = client.request("symbols.lookup", pid=program.pid, name="main")["symbol"]
            assert main["address"] > 0                                  # the build's .sym came along
    assert program.daemon.poll() is not None                            # stopped with it
    assert not program.build_dir.exists() and not listening("127.0.0.1", port)


def test_an_image_on_a_running_executive(server, counter):
    with launch(counter, server.host, server.port) as program:
        assert program.daemon is None and program.build_dir is None
        with Client(server.host, server.port) as client:
            assert client.request("ps", pid=program.pid)["tasks"]["tasks"][0]["state"] == "paused"
    assert listening(server.host, server.port)                          # not ours to stop


@pytest.mark.parametrize("name, text, message", [
    ("missing.c", None, "no such file"),
    ("notes.txt", "hello", "expected a .c, .mvasm or .hxe file"),
    ("broken.mvasm", ".text\n    FROB R1\n", "FROB"),
])
def test_bad_programs_are_said_and_nothing_is_left(tmp_path, monkeypatch, name, text, message):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    if text is not None:
        (tmp_path / name).write_text(text)
    port = free_port()
    with pytest.raises(LaunchError, match=message):
        launch(tmp_path / name, "127.0.0.1", port)
    assert list((tmp_path / "tmp").iterdir()) == []                     # no build left
    assert not listening("127.0.0.1", port)                             # no executive started


def test_a_refused_image_is_said(server, tmp_path):
    junk = tmp_path / "junk.hxe"
    junk.write_bytes(b"not an image")
    with pytest.raises(LaunchError, match="the executive refused junk.hxe"):
        launch(junk, server.host, server.port)
