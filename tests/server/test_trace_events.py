"""`trace_step` events over a real socket: one per traced instruction, its changed
registers equal to the register diff of the same instruction run locally, memory writes
with old and new values, and the same records readable afterwards."""
from __future__ import annotations

import base64
import time

from hsx.client import Client
from hsx.image.hxe import write_hxe
from hsx.server import BackgroundServer, ServerConfig
from hsx.toolchain.build import build_source
from hsx.kernel.executive import Kernel

PROGRAM = """
.entry start
start:
    LDI32 R5, buf
    LDI R1, 0
loop:
    ADDI R1, R1, 3
    MUL R2, R1, R1
    ST [R5], R2
    ADDI R5, R5, 4
    CMPI R1, 30
    BNE loop
    LDI R0, 0
    SVC MOD=1, FN=0
.data
buf: .zero 64
"""


def expected_steps(image, count: int, root) -> list[tuple]:
    """(pc, {reg: new}, [(addr, old, new)]) of the first `count` instructions, from the
    register and memory diffs of a task a local executive started (R1..R3 hold argc,
    argv and envp as for every task) and its machine steps."""
    kernel = Kernel(fs_root=root, engine="python")
    machine, ctx = kernel.machine, kernel.load(image).ctx
    out = []
    for _ in range(count):
        pc, regs, mem = ctx.pc, ctx.regs.tolist(), bytes(ctx.mem)
        machine.step(ctx)
        after = ctx.regs.tolist()
        changed = {f"R{i}": new for i, (old, new) in enumerate(zip(regs, after)) if old != new}
        writes = [(a, mem[a], ctx.mem[a]) for a in range(0x100, len(mem) - 64)
                  if mem[a] != ctx.mem[a]]
        out.append((pc, changed, writes))
        if ctx.state.value != "ready":
            break
    return out


def test_trace_step_events_match_a_register_diff(tmp_path):
    image = build_source(PROGRAM, filename="sq.mvasm", app_name="sq")
    want = expected_steps(image, 40, tmp_path / "local")
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as server:
        c = Client(server.host, server.port, timeout=10)
        pid = c.request("load", image=base64.b64encode(write_hxe(image)).decode(),
                        paused=True)["pid"]
        c.open_session("trace", pid_lock=pid)
        c.subscribe(["trace_step"], pids=[pid])
        c.request("trace.on", pid=pid)
        c.request("resume", pid=pid)
        got, deadline = [], time.monotonic() + 10
        while len(got) < len(want) and time.monotonic() < deadline:
            event = c.next_event(timeout=1)
            if event is not None and event["type"] == "trace_step":
                got.append(event["data"])
        assert len(got) == len(want)
        for data, (pc, changed, writes) in zip(got, want):
            assert data["pc"] == pc and data["changed_regs"] == changed
            if writes:
                (write,) = data["mem_writes"]
                addr = write["addr"]
                assert write["old"] == sum(o << (8 * (a - addr)) for a, o, _ in writes)
                assert write["new"] == sum(n << (8 * (a - addr)) for a, _, n in writes)
            else:
                assert "mem_writes" not in data
        assert got[2]["mnemonic"] == "ADDI" and got[2]["text"].startswith("ADDI R1, R1, 3")
        records = c.request("trace.records", pid=pid, limit=3)["trace"]["records"]
        assert [r["seq"] for r in records] == sorted(r["seq"] for r in records)
        c.close()
