"""The mps2-an385 board under QEMU, as a user drives it: the firmware boots and answers
its hello in every variant, programs load over its UART in acknowledged chunks and run
(hello world from the shell, the mailbox demo as two tasks, a loop of compact pairs),
a persistent value survives a power cycle and a reset, a reset in the middle of a load
is reported and the load starts again, `hsx board run` serves it until Ctrl-C (on a
socket and on a pty) or SIGTERM, leaving nothing behind."""
from __future__ import annotations

import base64
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from hsx.client import Client
from mps2kit import mps2_board, requires_qemu, wait_for

sys.path.insert(0, str(Path(__file__).parents[1] / "shell"))
from shellkit import PROMPT, terminal_env  # noqa: E402

pytestmark = requires_qemu


def image(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


def tasks(client: Client) -> list[dict]:
    return client.request("ps")["tasks"]["tasks"]


def run_to_end(client: Client, pids: list[int], timeout: float = 60.0) -> tuple[str, dict]:
    """What the tasks print until all of them have ended, and their exit statuses."""
    out, statuses = [], {}

    def ended() -> bool:
        for event in client.drain_events():
            if event["type"] == "stdout":
                out.append(event["data"]["text"])
        listed = {t["pid"]: t for t in tasks(client)}
        statuses.update({pid: listed[pid].get("exit_status") for pid in pids
                         if listed[pid]["state"] == "returned"})
        return len(statuses) == len(pids)
    wait_for(ended, timeout, "the tasks' end")
    for event in client.drain_events():
        if event["type"] == "stdout":
            out.append(event["data"]["text"])
    return "".join(out), statuses


@pytest.mark.parametrize("variant,window", [("minimal", 600), ("development", 600),
                                            ("full", 2048)])
def test_the_firmware_boots_and_answers_its_hello(variant, window, tmp_path):
    with mps2_board(tmp_path / "flash.bin", variant) as served:
        hello = served.hello
        assert (hello["board"], hello["variant"], hello["window"]) == ("mps2-an385", variant,
                                                                       window)
        assert hello["max_frame"] <= hello["window"]
        wait_for(lambda: "hsx-mps2: ready (values persist)" in served.diagnostics(), 10,
                 "the firmware's diagnostics")
        with Client.connect(served.url) as client:
            assert client.request("ping")["reply"] == "pong"
            assert tasks(client) == []


def test_hello_world_loads_over_the_uart_and_runs_in_the_shell(board, programs, tmp_path):
    console = pexpect.spawn(sys.executable, ["-m", "hsx", "shell", "--connect", board.url],
                            env=terminal_env(tmp_path / "data"), encoding="utf-8", timeout=60,
                            dimensions=(50, 160))
    try:
        console.expect(PROMPT)
        assert "(mps2-an385, development variant), 0 tasks" in console.before
        console.sendline(f"load {programs['hello']}")
        for line in ("Hello from C on HSX", r"fib\(90\) = 2880067194370816120",
                     r"pi is about 3\.141593", r"\[1 hello\] ready -> returned with status 0"):
            console.expect(line)                # 64-bit and double arithmetic, soft on an M3
        console.sendline("quit")
        console.expect(pexpect.EOF)
    finally:
        console.close(force=True)


def test_the_mailbox_demo_runs_as_two_tasks_on_the_board(board, programs):
    with Client.connect(board.url) as client:
        client.subscribe(["stdout"])
        consumer = client.request("load", image=image(programs["consumer"]))["pid"]
        producer = client.request("load", image=image(programs["producer"]))["pid"]
        out, statuses = run_to_end(client, [consumer, producer])
    assert statuses == {consumer: 0, producer: 0}
    got = [line for line in out.splitlines() if line.startswith("consumer: got")]
    assert got == [f"consumer: got {n * n} from task {producer}" for n in range(1, 11)]
    assert "producer: sent 10 squares" in out and "consumer: 10 messages, total 385" in out


def test_compact_pairs_run_on_the_board(board):
    """The firmware's core (Cortex-M3, decode at fetch) runs a compact pair as one
    instruction of two operations: 1 + ... + 10 in a loop of two pairs."""
    from hsx.image.hxe import write_hxe
    from hsx.isa import make
    from hsx.isa.compact import pack
    from hsx.toolchain.build import assemble_source, link_objects
    count = pack(make("ADDI", rd=1, rs1=1, imm=1), make("ADD", rd=2, rs1=2, rs2=1))
    until_ten = pack(make("CMPI", rs1=1, imm=10), make("BNE", imm=-1))
    source = (f".entry main\nmain: LDI R1, 0\n LDI R2, 0\nloop: .word 0x{count:08X}\n"
              f" .word 0x{until_ten:08X}\n MOV R0, R2\n SVC MOD=1, FN=0\n")
    img, _ = link_objects([assemble_source(source, "pairs.mvasm")], app_name="pairs")
    with Client.connect(board.url) as client:
        pid = client.request("load", image=base64.b64encode(write_hxe(img)).decode())["pid"]
        _, statuses = run_to_end(client, [pid])
        listed = {t["pid"]: t for t in tasks(client)}
    assert statuses == {pid: 55}
    assert listed[pid]["instructions"] == 2 + 10 * 2 + 2


def kept_value(url: str, kept: Path) -> float:
    """Load kept.hxe (its value restored from the flash) and read the value."""
    with Client.connect(url) as client:
        client.request("load", image=image(kept))
        return client.request("val.get", name="kept")["value"]["value"]


def test_a_persistent_value_survives_a_power_cycle_and_a_reset(programs, tmp_path):
    flash = tmp_path / "flash.bin"
    with mps2_board(flash) as served:
        assert kept_value(served.url, programs["kept"]) == 1            # the image's init
        before = flash.read_bytes()
        with Client.connect(served.url) as client:
            client.request("val.set", name="kept", value=42)
        wait_for(lambda: flash.read_bytes() != before, 30, "the value written to flash")
    with mps2_board(flash) as served:                                  # QEMU started again
        assert kept_value(served.url, programs["kept"]) == 42
        before = flash.read_bytes()
        with Client.connect(served.url) as client:
            client.request("val.set", name="kept", value=7)
        wait_for(lambda: flash.read_bytes() != before, 30, "the new value written")
        served.reset()
        assert kept_value(served.url, programs["kept"]) == 7


def test_a_reset_in_the_middle_of_a_load_is_reported_and_the_load_starts_again(board,
                                                                                programs):
    steps, reset = [], []

    def progress(what: str, done: int, total: int) -> None:
        steps.append((what, done))
        if not reset and done >= total // 3:
            reset.append(done)
            board.reset()                       # the board's reset button, mid-transfer

    with Client.connect(board.url, progress=progress) as client:
        boot = client.hello["boot"]
        pid = client.request("load", image=image(programs["hello"]), paused=True)["pid"]
        assert client.hello["boot"] != boot
        again = [i for i, (what, done) in enumerate(steps) if "the board was reset" in what]
        assert len(again) == 1 and steps[again[0]][1] == 0
        assert steps[-1][1] == programs["hello"].stat().st_size
        client.subscribe(["stdout"])
        client.request("resume", pid=pid)
        out, statuses = run_to_end(client, [pid])
        assert statuses == {pid: 0} and "Hello from C on HSX" in out
        assert [t["pid"] for t in tasks(client)] == [pid]


def board_run(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hsx", "board", "run", "--board",
                             "mps2-an385", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("listen", ["socket://127.0.0.1:0", "pty"])
def test_hsx_board_run_serves_the_board_until_ctrl_c(listen):
    served = board_run("--listen", listen)
    try:
        url = served.stdout.readline().strip()
        assert url.startswith("socket://127.0.0.1:" if listen != "pty" else "serial:///dev/")
        with Client.connect(url) as client:
            assert client.hello["board"] == "mps2-an385"
            assert client.request("ping")["reply"] == "pong"
        served.send_signal(signal.SIGINT)
        assert served.wait(30) == 0
        assert "Traceback" not in served.stderr.read()
    finally:
        if served.poll() is None:
            served.kill()
            served.wait()
    if listen != "pty":                         # QEMU, which had the port, is gone
        port = int(url.rsplit(":", 1)[1])
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_a_busy_port_is_reported_before_qemu_starts():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        served = board_run("--listen", f"socket://127.0.0.1:{port}")
        _, err = served.communicate(timeout=120)
    assert served.returncode == 2
    assert f"hsx: 127.0.0.1:{port}: the port is already in use" in err


def test_sigterm_stops_the_board_as_ctrl_c_does(tmp_path):
    served = subprocess.Popen([sys.executable, "-m", "hsx", "board", "run", "--board",
                               "mps2-an385"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        url = served.stdout.readline().strip()
        assert list(tmp_path.glob("hsx-mps2-*")), "the board's work directory"
        served.terminate()
        assert served.wait(30) == 0
    finally:
        if served.poll() is None:
            served.kill()
            served.wait()
    assert list(tmp_path.glob("hsx-mps2-*")) == []     # its log, flash and control socket
    port = int(url.rsplit(":", 1)[1])
    with pytest.raises(ConnectionRefusedError):          # and QEMU, which had the port
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
