"""`hsx shell --connect URL` against boards (the C executive's host build, and a board
whose executive is hsx execd; in the development and minimal variants): the same
console, symbols answered on the host, and a command the variant lacks reported as
needing another variant."""
from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from execdkit import readline

from hostboard import board_available, host_board
from hsx.server import BackgroundServer, ServerConfig
from simdevice import bridged_device

PROGRAM = """
.data
counter: .word 0
.text
.entry start
start:
    CALL main
    LDI R0, 0
    SVC MOD=1, FN=0
main:
    LDI32 R2, counter
loop:
    LD R1, [R2+0]
    ADDI R1, R1, 1
    ST [R2+0], R1
    JMP loop
"""


@pytest.fixture
def execd(tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as server:
        yield server


@pytest.fixture(params=["host", "bridged"])
def boards(request, tmp_path):
    """`make(variant)` -> a board's URL: the host build, or hsx execd behind a fake board."""
    stops = []

    def make(variant: str) -> str:
        if request.param == "host":
            if not board_available():
                pytest.skip("no host build of the C executive in this checkout")
            url, stop = host_board(tmp_path / f"board-{len(stops)}", variant)
            stops.append(stop)
            return url
        server = BackgroundServer(ServerConfig(port=0, root=tmp_path / f"fs-{len(stops)}"))
        server.__enter__()
        device = bridged_device(server.host, server.port, variant=variant)
        stops.append(lambda: (device.close(), device.bridge.close(),
                              server.__exit__(None, None, None)))
        return device.url
    yield make
    for stop in stops:
        stop()


def board(execd, variant: str):
    return bridged_device(execd.host, execd.port, variant=variant)


def shell(url: str, *words: str, home) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hsx", "shell", "--connect", url, "--no-color",
                           *words], capture_output=True, text=True, timeout=120,
                          env={"HSX_IMAGE_STORE": str(home), "PATH": "/usr/bin:/bin",
                               "HOME": str(home)})


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "counter.mvasm"
    path.write_text(PROGRAM)
    return path


def test_the_shell_loads_and_disassembles_by_symbol_on_a_board(boards, program, tmp_path):
    url = boards("development")
    done = shell(url, "load", str(program), "--paused", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "loaded counter as pid 1" in done.stdout
    done = shell(url, "disasm", "1", "main", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "main" in done.stdout and "LDI32" in done.stdout
    done = shell(url, "bp", "set", "1", "loop", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "at main+0x8  counter.mvasm:13 in pid 1" in done.stdout


def test_a_command_the_variant_lacks_names_the_variant_that_has_it(boards, program, tmp_path):
    url = boards("minimal")
    assert shell(url, "load", str(program), "--paused", home=tmp_path).returncode == 0
    done = shell(url, "bp", "set", "1", "main", home=tmp_path)
    assert done.returncode == 1
    assert ("bp.set needs the development or full variant; this board runs minimal "
            "(unsupported)") in done.stderr               # as hsx execd's (tests/shell)
    assert "Traceback" not in done.stderr
    done = shell(url, "stack", "1", home=tmp_path)                   # the host walks it
    assert done.returncode == 0, done.stderr
    assert "#0  0x0000 in start counter.mvasm:7" in done.stdout


def test_a_bad_url_is_a_usage_error(tmp_path):
    done = shell("socket://nowhere", "ps", home=tmp_path)
    assert done.returncode == 2
    assert "--connect: socket://nowhere: expected socket://HOST:PORT" in done.stderr


def test_the_console_says_when_the_board_resets(execd, tmp_path):
    device = board(execd, "development")
    try:
        console = subprocess.Popen(
            [sys.executable, "-m", "hsx", "shell", "--connect", device.url, "--no-color",
             "events.subscribe"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={"HSX_IMAGE_STORE": str(tmp_path), "PATH": "/usr/bin:/bin",
                 "HOME": str(tmp_path)})
        try:
            readline(console.stdout)                # the subscription: events follow
            device.reset()
            said = ""
            while "the board was reset" not in said:
                said = readline(console.stdout)
            assert "the board was reset (boot 2): its tasks, sessions and subscriptions " \
                   "are gone" in said
        finally:
            console.send_signal(signal.SIGINT)
            console.wait(30)
    finally:
        device.close()
        device.bridge.close()


def test_info_and_the_executives_commands_answer_on_a_board(tmp_path):
    """`info` says which board and variant answered (it showed None for the address,
    clock and clients a board does not have); dmesg, clock, mailboxes answer."""
    if not board_available():
        pytest.skip("no host build of the C executive in this checkout")
    url, stop = host_board(tmp_path / "board", "development")
    try:
        done = shell(url, "info", home=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "on the host board" in done.stdout and "development variant" in done.stdout
        assert "None" not in done.stdout
        for words, said in ((("clock",), "clock running (running), unlimited\n"),
                            (("mailboxes",), "of 40 mailboxes\n"), (("dmesg",), "")):
            done = shell(url, *words, home=tmp_path)
            assert done.returncode == 0 and said in done.stdout, done.stderr
    finally:
        stop()
