"""The debugger over a real socket: a real MVASM program with ABI frames and a symbol
table, debugged while a second task keeps running; locks, ownership, remembered
breakpoints, the prior executive's command forms, traces and memory."""
from __future__ import annotations

import base64
import os
import json
import time
from pathlib import Path

import pytest

from hsx.client import Client, ProtocolError
from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym
from hsx.server import BackgroundServer, ServerConfig
from hsx.toolchain.build import assemble_source, link_objects
from mvasmkit import BREAKER, FAULTER
from serverkit import load, profile_of, state, wait_for

# main calls fact(4), stores it in `counter`, then fact(5) and stores that; exit 120.
PROG = """
        .entry _start
_start: LDI R14, 0
        CALL main
        SVC MOD=1, FN=0
main:   PUSH R14
        MOV R14, R15
        LDI R1, 4
        CALL fact
first:  LDI32 R2, counter
        ST [R2], R0
        LDI R1, 5
        CALL fact
second: LDI32 R2, counter
        ST [R2], R0
        MOV R15, R14
        POP R14
        RET
fact:   PUSH R14
        MOV R14, R15
        CMPI R1, 1
        BLE base
        PUSH R1
        ADDI R1, R1, -1
        CALL fact
back:   POP R1
        MUL R0, R0, R1
        JMP done
base:   LDI R0, 1
done:   MOV R15, R14
        POP R14
        RET
        .data
counter: .word 0
"""

SPIN = """
        .entry start
start:  LDI R1, 0
loop:   ADDI R1, R1, 1
        BR loop
"""

FIRST_CALL_LINE = PROG.splitlines().index("        CALL fact") + 1


@pytest.fixture
def server(request, tmp_path):
    """The executive with a state directory (remembered breakpoints, trace files)."""
    config = ServerConfig(port=0, root=tmp_path / "fs", state_dir=tmp_path / "state",
                          profile=profile_of(request))
    with BackgroundServer(config) as srv:
        yield srv


def build(tmp: Path, name: str, source: str) -> str:
    """`<tmp>/<name>.hxe` with its `.sym` beside it, as `hsx link` writes them."""
    image, symbols = link_objects([assemble_source(source, f"{name}.mvasm")], app_name=name)
    path = tmp / f"{name}.hxe"
    path.write_bytes(write_hxe(image))
    path.with_suffix(".sym").write_bytes(write_sym(symbols))
    return str(path)


class Stream:
    """One client's events in arrival order; `wait` returns the oldest one not returned
    yet that matches, and keeps the others for later waits and checks."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.events: list[dict] = []
        self._returned: set[int] = set()

    def wait(self, type_: str, timeout: float = 5.0, **data) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if (index not in self._returned and event["type"] == type_
                        and all(event["data"].get(k) == v for k, v in data.items())):
                    self._returned.add(index)
                    return event
            left = deadline - time.monotonic()
            assert left > 0, f"no {type_} event with {data}"
            event = self.client.next_event(timeout=left)
            if event is not None:
                self.events.append(event)

    def of(self, type_: str) -> list[dict]:
        self.events.extend(self.client.drain_events())
        return [e for e in self.events if e["type"] == type_]


def addr(client: Client, pid: int, name: str) -> int:
    return client.request("symbols.lookup", pid=pid, name=name)["symbol"]["address"]


def functions(client: Client, pid: int) -> list[str]:
    return [f["function"] for f in client.request("stack.info", pid=pid)["stack"]["frames"]]


def instructions(client: Client, pid: int) -> int:
    return client.request("regs", pid=pid)["registers"]["steps"]


def debugged(connect, tmp_path, **session) -> tuple[Client, Stream, int, int]:
    """A spinning task, and PROG loaded paused, locked by a debugging session."""
    client = connect()
    spin = client.request("load", path=build(tmp_path, "spin", SPIN))["pid"]
    pid = client.request("load", path=build(tmp_path, "prog", PROG), paused=True)["pid"]
    opened = client.open_session("hsxdbg", pid_lock=pid, **session)
    assert {"debug", "stack", "disasm", "symbols", "watch", "trace"} <= set(opened["features"])
    client.subscribe(["debug_break", "task_state", "watch_update"], pids=[pid])
    return client, Stream(client), pid, spin


def test_debugging_a_task_while_another_runs(connect, tmp_path):
    c, stream, pid, spin = debugged(connect, tmp_path)

    # run to a source line: a temporary breakpoint, the task runs at full speed
    started = c.request("run.to", pid=pid, file="prog.mvasm", line=FIRST_CALL_LINE)
    assert started["result"]["breakpoint_id"] and started["clock"]["running"]
    hit = stream.wait("debug_break")["data"]
    call_pc = addr(c, pid, "first") - 4
    assert hit == {"pid": pid, "pc": call_pc, "reason": "breakpoint", "symbol": "main",
                   "offset": 12, "file": "prog.mvasm", "line": FIRST_CALL_LINE,
                   "breakpoint_id": started["result"]["breakpoint_id"], "temporary": True}
    assert state(c, pid) == "paused"
    assert c.request("bp.list", pid=pid)["breakpoints"] == []       # the temporary is gone
    assert functions(c, pid) == ["main", "_start"]

    # disassembly around the PC comes from the code space, with names
    listing = c.request("disasm.read", pid=pid, count=5)["disasm"]["instructions"]
    current = next(i for i in listing if i["current"])
    assert current["pc"] == call_pc and current["text"] == "CALL fact"
    assert current["target_symbol"] == "fact" and listing[0]["pc"] < call_pc
    code = c.request("mem.read", pid=pid, addr=call_pc, length=4, space="code")["data"]
    assert int(code, 16) == current["words"][0]

    # step over the CALL: fact(4) runs at full speed
    watch = c.request("watch.add", pid=pid, symbol="counter")["watch"]
    assert watch["owner"] == c.session["handle"] and watch["value"] == "00000000"
    assert c.request("step.over", pid=pid)["result"]["pending"] == "step_over"
    assert stream.wait("debug_break")["data"]["reason"] == "step"
    regs = c.request("regs", pid=pid)["registers"]
    assert regs["pc"] == addr(c, pid, "first") and regs["regs"][0] == 24

    # two instruction steps store the result: the watch names the storing instruction
    stepped = c.request("step", pid=pid, count=2)["result"]
    assert stepped["executed"] == 2 and stepped["state"] == "paused"
    changed = stream.wait("watch_update")["data"]
    assert (changed["id"], changed["old"], changed["new"]) == (watch["id"], "00000000", "18000000")
    assert changed["pc"] == addr(c, pid, "first") + 8                   # ST [R2], R0
    assert stream.wait("debug_break")["data"]["executed"] == 2

    # a conditional breakpoint by symbol; the other task runs while this one waits
    bp = c.request("bp.set", pid=pid, symbol="fact", condition="R1 == 3")
    assert bp["breakpoint"]["owner"] == c.session["handle"]
    c.request("resume", pid=pid)
    hit = stream.wait("debug_break", reason="breakpoint")["data"]
    assert (hit["breakpoint_id"], hit["symbol"], hit["offset"]) == (bp["breakpoint_id"], "fact", 0)
    before = instructions(c, spin)
    wait_for(lambda: instructions(c, spin) > before + 1000)
    assert c.request("regs", pid=pid)["registers"]["pc"] == hit["pc"]
    assert functions(c, pid) == ["fact"] * 3 + ["main", "_start"]      # fact(5), (4), (3)

    # step out of fact(3), back into fact(4)
    c.request("bp.disable", breakpoint_id=bp["breakpoint_id"])
    assert c.request("step.out", pid=pid)["result"]["pending"] == "step_out"
    out = stream.wait("debug_break", reason="step")["data"]
    assert out["pc"] == addr(c, pid, "back") and out["symbol"] == "fact"
    assert functions(c, pid) == ["fact"] * 2 + ["main", "_start"]

    # continue past a breakpoint: it is hit once, then the task finishes
    last = c.request("bp.set", pid=pid, symbol="second")["breakpoint_id"]
    c.request("continue", pid=pid)
    assert stream.wait("debug_break", reason="breakpoint")["data"]["breakpoint_id"] == last
    c.request("resume", pid=pid)
    ended = stream.wait("task_state", new_state="returned")["data"]
    assert ended["exit_status"] == 120
    assert stream.wait("watch_update")["data"]["new"] == "78000000"
    assert [e["data"].get("breakpoint_id") for e in stream.of("debug_break")].count(last) == 1
    assert c.request("bp.list", pid=pid)["breakpoints"] == []      # they went with the task


@pytest.mark.profile("full")          # observer sessions
def test_locks_and_session_ownership(connect, tmp_path):
    owner, _, pid, _ = debugged(connect, tmp_path)
    bp = owner.request("bp.set", pid=pid, symbol="second")["breakpoint_id"]
    owner.request("watch.add", pid=pid, symbol="counter", stop=True)
    other = connect()
    for cmd, fields in [("bp.set", {"symbol": "fact"}), ("bp.clear", {"breakpoint_id": bp}),
                        ("bp.disable", {"breakpoint_id": bp}), ("run.to", {"symbol": "fact"}),
                        ("step.over", {}), ("step", {}), ("watch.add", {"addr": 0x4000}),
                        ("trace.on", {}), ("symbols.load", {"path": "x.sym"}),
                        ("mem.write", {"addr": 0x4000, "data": "01"})]:
        fields.setdefault("pid", pid)
        with pytest.raises(ProtocolError) as refused:
            other.request(cmd, **fields)
        assert refused.value.code == f"pid_locked:{pid}", cmd
    # reading is open to all
    assert [b["id"] for b in other.request("bp.list", pid=pid)["breakpoints"]] == [bp]
    assert other.request("stack.info", pid=pid)["stack"]["frames"][0]["function"] == "_start"
    assert len(other.request("watch.list")["watches"]) == 1
    viewer = connect()
    viewer.open_session("viewer", observer=True)
    with pytest.raises(ProtocolError) as read_only:
        viewer.request("bp.set", pid=4242, addr=0)
    assert read_only.value.code == "read_only"

    # closing the session removes what it set, and the lock
    owner.close_session()
    assert other.request("bp.list", pid=pid)["breakpoints"] == []
    assert other.request("watch.list", pid=pid)["watches"] == []
    assert other.request("bp.set", pid=pid, symbol="fact")["breakpoint"]["owner"] is None

    # so does a session whose connection goes away
    crashy = connect()
    crashy.open_session("crashy")
    mine = crashy.request("bp.set", pid=pid, symbol="first")["breakpoint_id"]
    crashy.close()
    wait_for(lambda: mine not in [b["id"] for b in
                                  other.request("bp.list", pid=pid)["breakpoints"]])


def test_remembered_breakpoint_after_kill_and_load(connect, tmp_path):
    c, stream, pid, _ = debugged(connect, tmp_path)
    c.request("bp.set", pid=pid, symbol="second")
    c.request("kill", pid=pid)
    again = c.request("load", path=str(tmp_path / "prog.hxe"), paused=True)["pid"]
    [restored] = c.request("bp.list", pid=again)["breakpoints"]
    assert (restored["location"], restored["remembered"], restored["owner"]) == (
        "main+0x24", True, None)                      # `second` is a label inside main
    assert restored["address"] == addr(c, again, "second")
    c.request("session.lock", pid=again)
    c.subscribe(["debug_break"], pids=[again])
    c.request("resume", pid=again)
    assert stream.wait("debug_break")["data"]["breakpoint_id"] == restored["id"]
    c.request("bp.clear", breakpoint_id=restored["id"])                       # forgotten for good
    c.request("kill", pid=again)
    third = c.request("load", path=str(tmp_path / "prog.hxe"), paused=True)["pid"]
    assert c.request("bp.list", pid=third)["breakpoints"] == []


def test_older_command_forms(connect, tmp_path, raw):
    c = connect()
    pid = c.request("load", path=build(tmp_path, "prog", PROG), paused=True)["pid"]
    second = addr(c, pid, "second")
    conn = raw()

    def old(**message) -> dict:
        reply = conn.request(message)
        assert reply["status"] == "ok", reply
        return reply

    bp = old(cmd="bp", op="set", pid=pid, addr=hex(second))["breakpoint"]
    assert (bp["address"], bp["location"]) == (second, "main+0x24")
    assert old(cmd="bp.add", pid=pid, address="fact")["breakpoint"]["symbol"] == "fact"
    assert len(old(cmd="bp", op="ls", pid=pid)["breakpoints"]) == 2
    assert old(cmd="bp", op="clear", pid=pid, addr=second)["cleared"][0]["id"] == bp["id"]
    assert len(old(cmd="bp", op="clearall", pid=pid)["cleared"]) == 1
    assert old(cmd="bp", pid=pid)["breakpoints"] == []
    assert old(cmd="stack", op="info", pid=pid, max=1)["stack"]["truncated"] is False
    listing = old(cmd="disasm", pid=pid, address=second, count=2, mode="on-demand")["disasm"]
    assert [i["pc"] for i in listing["instructions"]] == [second, second + 8]
    variables = old(cmd="symbols", pid=pid, type="variables")["symbols"]["symbols"]
    assert [v["name"] for v in variables] == ["counter"]
    assert old(cmd="sym", op="lookup_addr", pid=pid, address=second)["symbol"]["label"] == "second"
    assert old(cmd="sym", op="name", pid=pid, name="counter")["symbol"]["space"] == "data"
    assert old(cmd="sym", pid=pid)["symbols"]["loaded"] is True
    regions = old(cmd="memory", op="regions", pid=pid)["memory"]["regions"]
    assert regions[0]["name"] == "code" and any(r["name"] == "stack" for r in regions)
    watch = old(cmd="watch", op="add", pid=pid, expr="counter")["watch"]
    assert old(cmd="watch", pid=pid)["watches"][0]["symbol"] == "counter"
    assert old(cmd="watch", op="remove", pid=pid, id=watch["id"])["watch"]["id"] == watch["id"]
    assert old(cmd="trace", pid=pid, mode="on")["trace"]["enabled"] is True
    old(cmd="step", pid=pid, steps=3)
    assert len(old(cmd="trace", op="records", pid=pid, limit=2)["trace"]["records"]) == 2
    assert old(cmd="trace", pid=pid)["trace"]["enabled"] is False           # a toggle
    assert old(cmd="run", op="to", pid=pid, symbol="second")["result"]["breakpoint_id"]
    wait_for(lambda: state(c, pid) == "paused")
    assert c.request("regs", pid=pid)["registers"]["pc"] == second
    bad = conn.request({"cmd": "bp", "op": "frobnicate", "pid": pid})
    assert bad["error"] == "bad_argument"


def test_memory_trace_files_and_errors(server, connect, tmp_path):
    c, stream, pid, _ = debugged(connect, tmp_path)
    with pytest.raises(ProtocolError) as outermost:
        c.request("step.out", pid=pid)                # still at the entry point
    assert outermost.value.code == "outermost_frame"
    counter = addr(c, pid, "counter")
    watch = c.request("watch.add", pid=pid, addr=counter)["watch"]
    c.request("mem.write", pid=pid, addr=counter, data_b64=base64.b64encode(b"\x07\0\0\0").decode())
    changed = stream.wait("watch_update")["data"]
    assert (changed["id"], changed["new"], changed["pc"]) == (watch["id"], "07000000", None)
    assert c.request("mem.read", pid=pid, addr=counter, length=4)["data"] == "07000000"

    c.request("trace.on", pid=pid, size=8)
    c.request("step", pid=pid, count=12)
    records = c.request("trace.records", pid=pid, limit=3)["trace"]
    assert records["count"] == 8 and [r["seq"] for r in records["records"]] == [10, 11, 12]
    exported = c.request("trace.export", pid=pid)["trace"]
    assert exported["count"] == 8
    path = Path(exported["path"])
    assert path.parent == (tmp_path / "state" / "traces").resolve()
    assert json.loads(path.read_text().splitlines()[0])["format"] == "hsx.trace/1"
    loaded = c.request("trace.load", path=path.name, limit=3)["trace"]
    assert loaded["count"] == 8 and loaded["records"] == records["records"]
    elsewhere = tmp_path / "out" / "t.jsonl"
    exported = c.request("trace.export", pid=pid, path=str(elsewhere))["trace"]
    assert exported["path"] == str(elsewhere) and elsewhere.is_file()
    kept = c.request("trace.exports")["exports"]
    assert [e["path"] for e in kept] == [str(path), str(elsewhere)]
    elsewhere.unlink()                           # the store still has it
    from_store = c.request("trace.load", export_id=kept[1]["id"])["trace"]
    assert from_store["count"] == 8 and from_store["records"][-3:] == records["records"]

    server.server.config.host = "192.0.2.1"      # as if listening on a network address
    with pytest.raises(ProtocolError) as refused:
        c.request("trace.load", path=str(elsewhere))
    assert refused.value.code == "path_refused"
    assert c.request("trace.load", path=path.name)["trace"]["count"] == 8

    for cmd, fields, code in [
            ("bp.set", {"pid": pid, "symbol": "nowhere"}, "unknown_symbol"),
            ("bp.set", {"pid": pid, "addr": 2}, "bad_address"),
            ("bp.set", {"pid": pid, "symbol": "fact", "condition": "R1 =="}, "bad_condition"),
            ("bp.set", {"pid": pid}, "bad_argument"),
            ("bp.clear", {"breakpoint_id": 999}, "unknown_breakpoint"),
            ("watch.remove", {"watch_id": 999}, "unknown_watch"),
            ("stack.info", {"pid": 999}, "unknown_pid"),
            ("mem.read", {"pid": pid, "addr": 0x10000, "length": 4}, "bad_argument"),
            ("trace.load", {"path": "missing.jsonl"}, "trace_file")]:
        with pytest.raises(ProtocolError) as error:
            c.request(cmd, **fields)
        assert error.value.code == code, (cmd, fields)


def test_pause_all_step_line_and_static_brk(connect, tmp_path):
    c, stream, pid, spin = debugged(connect, tmp_path)
    c.request("run.to", pid=pid, symbol="main")
    stream.wait("debug_break")
    c.request("step.line", pid=pid)
    line = stream.wait("debug_break", reason="step")["data"]
    assert (line["symbol"], line["offset"]) == ("main", 4)
    c.request("session.unlock", pid=pid)
    assert {row["state"] for row in c.request("pause")["tasks"]} == {"paused"}
    assert state(c, spin) == "paused"

    brk = load(c, BREAKER, "breaker", paused=True)
    [static] = c.request("bp.list", pid=brk)["breakpoints"]
    assert (static["kind"], static["code"]) == ("brk", 9)
    with pytest.raises(ProtocolError) as fixed:
        c.request("bp.clear", breakpoint_id=static["id"])
    assert fixed.value.code == "static_breakpoint"
    c.request("bp.disable", breakpoint_id=static["id"])
    c.request("resume", pid=brk)
    wait_for(lambda: state(c, brk) == "returned")

    c.subscribe(["debug_break", "fault"])
    faulter = load(c, FAULTER, "faulter")
    fault = stream.wait("debug_break", reason="fault")
    assert (fault["pid"], fault["data"]["kind"]) == (faulter, "divide_by_zero")


def test_a_long_step_runs_like_continue_and_pause_interrupts_it(connect, tmp_path):
    c, stream, pid, spin = debugged(connect, tmp_path)
    spinner = c.request("load", path=build(tmp_path, "spin2", SPIN), paused=True)["pid"]
    c.request("session.lock", pid=spinner)
    c.subscribe(["debug_break", "task_state"], pids=[pid, spinner])
    c.request("step", pid=spinner, count=1)
    before = instructions(c, spinner)
    # exactly N instructions, counted in the kernel: the reply comes at once
    started = c.request("step", pid=spinner, count=200_000)["result"]
    assert started["pending"] == "step" and started["requested"] == 200_000
    done = stream.wait("debug_break", reason="step", pid=spinner, executed=200_000)["data"]
    assert instructions(c, spinner) - before == 200_000
    assert c.request("regs", pid=spinner)["registers"]["pc"] == done["pc"]
    # no cap: a step of 10^15 instructions, interrupted by a pause on the same connection
    before = instructions(c, spinner)
    c.request("step", pid=spinner, count=10 ** 15)
    wait_for(lambda: instructions(c, spinner) > before + 10_000)
    assert c.request("pause", pid=spinner)["task"]["state"] == "paused"
    stopped = instructions(c, spinner)
    time.sleep(0.05)
    assert instructions(c, spinner) == stopped              # the step is over
    with pytest.raises(ProtocolError) as error:
        c.request("step", pid=spinner, count=2 ** 53)
    assert error.value.code == "bad_argument"


def test_symbols_lookup_by_file_and_line_finds_where_a_breakpoint_would_land(connect, tmp_path):
    client, _, pid, _ = debugged(connect, tmp_path)
    call = client.request("symbols.lookup", pid=pid, file="prog.mvasm",
                          line=FIRST_CALL_LINE)["symbol"]
    assert call["address"] == addr(client, pid, "main") + 12
    assert (call["symbol"], call["line"], call["file"]) == ("main", FIRST_CALL_LINE, "prog.mvasm")
    placed = client.request("bp.set", pid=pid, file="prog.mvasm", line=1)["breakpoint"]
    landed = client.request("symbols.lookup", pid=pid, file="prog.mvasm", line=1)["symbol"]
    assert landed["address"] == placed["address"] == addr(client, pid, "_start")
    with pytest.raises(ProtocolError) as refused:
        client.request("symbols.lookup", pid=pid, file="prog.mvasm", line=10_000)
    assert refused.value.code == "no_code_for_line"


def test_jump_moves_the_pc_within_the_function_and_the_line_runs_again(connect, tmp_path):
    client, stream, pid, _ = debugged(connect, tmp_path)
    second = addr(client, pid, "second")
    client.request("run.to", pid=pid, addr=second)
    stream.wait("debug_break", pc=second)
    assert client.request("peek", pid=pid, addr=addr(client, pid, "counter"),
                          length=4)["data"] == (24).to_bytes(4, "little").hex()
    jumped = client.request("jump", pid=pid, file="prog.mvasm",
                            line=FIRST_CALL_LINE - 1)["result"]   # LDI R1, 4 in main
    assert jumped["pc"] == addr(client, pid, "main") + 8 and jumped["symbol"] == "main"
    assert client.request("regs", pid=pid)["registers"]["pc"] == jumped["pc"]
    first = addr(client, pid, "first")                         # behind us before the jump
    client.request("run.to", pid=pid, addr=first)
    stream.wait("debug_break", pc=first)
    assert client.request("regs", pid=pid)["registers"]["regs"][0] == 24      # fact(4) again
    with pytest.raises(ProtocolError) as outside:
        client.request("jump", pid=pid, addr=addr(client, pid, "fact"))
    assert outside.value.code == "outside_function" and "within main" in outside.value.message
    client.request("resume", pid=pid)
    with pytest.raises(ProtocolError) as running:
        client.request("jump", pid=pid, addr=second)
    assert running.value.code in ("not_stopped", "task_ended")


def test_source_read_gives_only_the_files_the_symbols_name(connect, tmp_path):
    client, _, pid, _ = debugged(connect, tmp_path)
    source = tmp_path / "prog.mvasm"                   # not written by build()
    with pytest.raises(ProtocolError) as missing:
        client.request("source.read", pid=pid, file="prog.mvasm")
    assert missing.value.code == "no_source" and "not on the executive" in missing.value.message
    source.write_text(PROG)
    read = client.request("source.read", pid=pid, file=str(source))["source"]
    assert (read["file"], read["text"], read["path"]) == ("prog.mvasm", PROG, str(source))
    for other in ("/etc/passwd", "spin.mvasm", "../prog.mvasm.sym"):
        with pytest.raises(ProtocolError) as refused:
            client.request("source.read", pid=pid, file=other)
        assert refused.value.code == "no_source" and "not a source file" in refused.value.message
    source.unlink()
    os.mkfifo(source)                                  # must not hang the executive
    with pytest.raises(ProtocolError) as fifo:
        client.request("source.read", pid=pid, file="prog.mvasm")
    assert fifo.value.code == "no_source"
    assert client.request("ping")


def test_source_read_reads_no_other_file_a_crafted_sym_names(connect, tmp_path):
    client, _, pid, _ = debugged(connect, tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("not for clients\n")
    sym = tmp_path / "prog.sym"
    doc = json.loads(sym.read_text())
    doc["sources"] = {"secret.txt": str(secret), "prog.mvasm": str(secret)}
    crafted = tmp_path / "crafted.sym"
    crafted.write_text(json.dumps(doc))
    client.request("symbols.load", pid=pid, path=str(crafted))
    with pytest.raises(ProtocolError) as refused:
        client.request("source.read", pid=pid, file="secret.txt")
    assert refused.value.code == "no_source" and "only source files" in refused.value.message
    with pytest.raises(ProtocolError) as mapped:         # a source's name, another file
        client.request("source.read", pid=pid, file="prog.mvasm")
    assert mapped.value.code == "no_source" and "not for clients" not in mapped.value.message
    (tmp_path / "prog.mvasm").symlink_to(secret)            # a source's name, a link
    doc["sources"] = {}
    crafted.write_text(json.dumps(doc))
    client.request("symbols.load", pid=pid, path=str(crafted))
    with pytest.raises(ProtocolError) as linked:
        client.request("source.read", pid=pid, file="prog.mvasm")
    assert linked.value.code == "no_source"
