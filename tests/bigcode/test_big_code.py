"""A program with 150 KiB of code builds, runs and debugs on both engines: the image,
`hsx run`, `hsx disasm`, breakpoints, the stack and disassembly through the protocol
and through the DAP adapter, at addresses far beyond the old 64 KiB ceiling."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

import bigprog
from dapkit import DapClient
from execdkit import execd_child
from hsx.client import Client
from hsx.image.hxe import read_hxe_file, write_hxe
from hsx.image.sym import load_sym
from hsx.server import BackgroundServer, ServerConfig

ENGINES = ["native", "python"]
LAST = f"f{bigprog.FUNCTIONS - 1}"
DEADLINE = 120.0


def line_of(source, marker: str) -> int:
    lines = source.read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if f"/* line: {marker} */" in text)


def test_the_image_holds_over_128_kib_of_code_and_reads_back(big):
    image = read_hxe_file(big)
    assert len(image.code) > 2 * 0x10000
    assert read_hxe_file(big) == image
    big.with_name("copy.hxe").write_bytes(write_hxe(image))
    assert read_hxe_file(big.with_name("copy.hxe")).code == image.code
    assert load_sym(big.with_suffix(".sym")).address_of(LAST) > 2 * 0x10000


@pytest.mark.parametrize("engine", ENGINES)
def test_it_runs_on_both_engines(big, engine):
    done = subprocess.run([sys.executable, "-m", "hsx", "run", "--engine", engine, str(big)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout == bigprog.expected_output()


def test_disasm_lists_the_code_beyond_64_kib(big):
    listing = subprocess.run([sys.executable, "-m", "hsx", "disasm", str(big)],
                             capture_output=True, text=True, timeout=600)
    assert listing.returncode == 0, listing.stderr
    address = load_sym(big.with_suffix(".sym")).address_of(LAST)
    lines = listing.stdout.splitlines()
    at = lines.index(f"{LAST}:")
    assert lines[at + 1].split(":")[0].strip() == f"{address:04X}"


def _wait_state(client: Client, pid: int, wanted: str) -> dict:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        row = client.request("ps", pid=pid)["tasks"]["tasks"][0]
        if row["state"] == wanted:
            return row
        time.sleep(0.01)
    raise AssertionError(f"task {pid} is not {wanted} within {DEADLINE} s")


@pytest.mark.parametrize("engine", ENGINES)
def test_protocol_breakpoints_stack_and_disassembly_beyond_64_kib(big, tmp_path, engine):
    source = big.with_suffix(".c")
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs", engine=engine)) as srv, \
            Client(srv.host, srv.port, timeout=DEADLINE) as client:
        pid = client.request("load", path=str(big), paused=True)["pid"]
        bp = client.request("bp.set", pid=pid, file="big.c",
                            line=line_of(source, f"{LAST} return"))["breakpoint"]
        assert bp["address"] > 2 * 0x10000
        client.request("resume", pid=pid)
        _wait_state(client, pid, "paused")
        frames = client.request("stack.info", pid=pid)["stack"]["frames"]
        assert [f["function"] for f in frames] == [LAST, "main", "_start"]
        assert frames[0]["pc"] == bp["address"] and frames[1]["line"] == line_of(source, "call")
        listing = client.request("disasm.read", pid=pid, count=8)["disasm"]["instructions"]
        here = next(ins for ins in listing if ins["current"])
        assert here["pc"] == bp["address"] and here["symbol"] == LAST
        assert here["breakpoints"] == [bp["id"]]
        step = client.request("step", pid=pid)["result"]
        assert step["pc"] > bp["address"]
        client.request("bp.clear", pid=pid, breakpoint_id=bp["id"])
        client.request("resume", pid=pid)
        assert _wait_state(client, pid, "returned")["exit_status"] == 0


@pytest.fixture(params=ENGINES)
def execd(request, tmp_path):
    yield from execd_child(tmp_path / "fs", "--engine", request.param)


def test_dap_breakpoints_stack_and_disassembly_beyond_64_kib(big, execd):
    source = big.with_suffix(".c")
    line = line_of(source, f"{LAST} return")
    dap = DapClient.start()
    try:
        pid = dap.launch(big, execd, {"big.c": [line]})
        stop = dap.stopped("breakpoint", timeout=DEADLINE)
        assert stop["threadId"] == pid
        frames = dap.ok("stackTrace", threadId=pid)["stackFrames"]
        assert [f["name"] for f in frames] == [LAST, "main", "_start"]
        assert frames[0]["line"] == line and frames[1]["line"] == line_of(source, "call")
        pc = frames[0]["instructionPointerReference"]
        assert int(pc, 16) > 2 * 0x10000
        listing = dap.ok("disassemble", memoryReference=pc, instructionOffset=-2,
                         instructionCount=5)["instructions"]
        assert listing[2]["address"] == pc and listing[2]["line"] == line
        assert all(ins.get("presentationHint") != "invalid" for ins in listing)
        dap.ok("setBreakpoints", source={"path": str(source)}, breakpoints=[])
        dap.ok("continue", threadId=pid)
        assert dap.wait_event("exited", timeout=DEADLINE)["exitCode"] == 0
    finally:
        dap.close()
