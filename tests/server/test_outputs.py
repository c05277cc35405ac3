"""Nothing lost (issue 17, group 7): output kept per task for `stdio`, `--echo`, and
breakpoints that survive `restart`."""
from __future__ import annotations

import subprocess
import sys

from execdkit import readline
from mvasmkit import HELLO
from serverkit import CHATTY, LOOP, load, state, wait_event, wait_for

from hsx.kernel.events import Event
from hsx.server import outputs
from hsx.server.outputs import PER_TASK, OutputBuffers, TaskOutput


def test_output_written_while_nobody_listened_is_kept(client):
    pid = load(client, HELLO, "hello")
    wait_for(lambda: state(client, pid) == "returned")
    recent = client.request("stdio", op="recent", pid=pid)["recent"]
    assert recent == [{"pid": pid, "output": [{"stream": "stdout", "text": "hello\n"}],
                       "dropped_chars": 0}]


def test_subscribing_with_recent_gives_the_past_then_the_new(client):
    pid = load(client, CHATTY, "chatty")
    wait_for(lambda: client.request("stdio", op="recent", pid=pid)["recent"][0]["output"])
    reply = client.request("stdio", pid=pid, recent=True)
    past = "".join(chunk["text"] for chunk in reply["recent"][0]["output"])
    assert past and set(past.split()) == {"tick"}
    assert wait_event(client, "stdout", text="tick\n")["pid"] == pid
    client.request("kill", pid=pid)


def test_the_kept_output_is_bounded(client):
    pid = load(client, CHATTY, "chatty")
    wait_for(lambda: client.request("stdio", op="recent", pid=pid)["recent"][0]
             ["dropped_chars"] > 0, timeout=20)
    client.request("kill", pid=pid)
    kept = client.request("stdio", op="recent", pid=pid)["recent"][0]
    assert sum(len(c["text"]) for c in kept["output"]) == PER_TASK
    assert kept["output"][-1]["text"] == "tick\n"


def test_the_kept_output_is_the_newest_characters_however_it_was_written():
    """Many small writes, then one larger than what is kept: each time what is shown is
    exactly the newest PER_TASK characters, in order, and the rest is counted."""
    output, written = TaskOutput(), []
    for n in range(3 * PER_TASK // 7):
        stream, text = ("stdout", f"{n % 1000:06d}\n") if n % 3 else ("stderr", "e")
        output.add(stream, text)
        written.append((stream, text))
        if n % 9973 == 0 or n == 3 * PER_TASK // 7 - 1:
            view = output.view(("stdout", "stderr"))
            everything = "".join(text for _, text in written)
            kept = "".join(chunk["text"] for chunk in view["output"])
            assert kept == everything[-PER_TASK:]
            assert view["dropped_chars"] == len(everything) - len(kept)
    out_only = output.view(("stdout",))["output"]
    assert {chunk["stream"] for chunk in out_only} == {"stdout"}
    output.add("stdout", "x" * (PER_TASK + 5))
    view = output.view(("stdout", "stderr"))
    assert view["output"] == [{"stream": "stdout", "text": "x" * PER_TASK}]


def test_writes_kept_in_batches_are_kept_as_one_at_a_time(monkeypatch):
    """The executive takes a run's writes together (the bus holds them): the buffers
    keep what taking them one by one keeps -- each task's newest characters, what was
    dropped, and which tasks' buffers remain (the most recently writing ones)."""
    monkeypatch.setattr(outputs, "MAX_TASKS", 4)
    events = [Event(seq, 0.0, "stderr" if seq % 5 == 0 else "stdout", pid,
                    {"text": f"{pid}:{seq:05d}\n" * (1 + seq % 7)})
              for seq, pid in enumerate([1, 1, 2, 3, 1, 4, 4, 2, 5, 1] * 1200, 1)]
    one_by_one, batched = OutputBuffers(), OutputBuffers()
    for event in events:
        one_by_one.on_event(event)
    for start in range(0, len(events), 37):
        batched.on_events(events[start:start + 37])
    assert batched.pids() == one_by_one.pids() == [4, 2, 5, 1]      # 3 is gone
    for pid in (1, 2, 4, 5):
        assert batched.recent(pid) == one_by_one.recent(pid)
    kept = "".join(chunk["text"] for chunk in batched.recent(1)["output"])
    everything = "".join(e.data["text"] for e in events if e.pid == 1)
    assert kept == everything[-PER_TASK:] and len(everything) > 2 * PER_TASK
    assert batched.recent(1)["dropped_chars"] == len(everything) - PER_TASK


def test_execd_echo_prints_task_output_on_its_console(tmp_path):
    (tmp_path / "hello.mvasm").write_text(HELLO)
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0", "--echo",
                             "--load", "hello.mvasm", "--root", "fs"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert readline(proc.stdout).startswith("hsx execd listening on")
        assert readline(proc.stdout) == "[hello 1] hello\n"
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_breakpoints_survive_a_restart_of_the_task(client, tmp_path):
    source = tmp_path / "loop.mvasm"
    source.write_text(LOOP)
    pid = client.request("load", path=str(source), paused=True)["pid"]
    client.open_session("debugger", pid_lock=pid)
    client.request("bp.set", pid=pid, addr=4, condition="R1 > 3")
    reply = client.request("restart", pid=pid, paused=True)
    new = reply["reload"]["new_pid"]
    kept = client.request("bp.list", pid=new)["breakpoints"]
    assert [(b["address"], b["condition"]) for b in kept] == [(4, "R1 > 3")]
    client.request("kill", pid=new)                 # ended: restart still brings them back
    again = client.request("restart", pid=new, paused=True)["reload"]["new_pid"]
    assert [b["address"] for b in client.request("bp.list", pid=again)["breakpoints"]] == [4]


def test_watches_survive_a_restart_of_the_task_too(client, tmp_path):
    source = tmp_path / "counter.mvasm"
    source.write_text(".data\ncount: .word 0\n.text\n.entry start\nstart:\n"
                      "    LDI32 R2, count\nagain:\n    LD R1, [R2]\n    ADDI R1, R1, 1\n"
                      "    ST [R2], R1\n    JMP again\n")
    pid = client.request("load", path=str(source), paused=True)["pid"]
    client.request("watch.add", pid=pid, expr="count", stop=True)
    client.request("watch.add", pid=pid, expr=0x200, length=8)
    new = client.request("restart", pid=pid, paused=True)["reload"]["new_pid"]
    kept = client.request("watch.list", pid=new)["watches"]
    assert [(w["symbol"], w["length"], w["stop"]) for w in kept] == [("count", 4, True),
                                                                     (None, 8, False)]
    assert kept[1]["addr"] == 0x200
    client.request("kill", pid=new)                 # ended: restart still brings them back
    again = client.request("restart", pid=new, paused=True)["reload"]["new_pid"]
    assert len(client.request("watch.list", pid=again)["watches"]) == 2
