"""Tasks, memory and registers, the same on every executive and variant: ps, load
(whole and streamed), kill and reload, pause and resume, step, regs, peek and poke,
sched, and a fault that ends one task while the others run on."""
from __future__ import annotations

import base64

import pytest
from executives import image, wait_for
from mvasmkit import FAULTER, HELLO
from programs import LOOP

from hsx.client import ProtocolError
from hsx.image.hxe import read_hxe


def row(client, pid: int) -> dict:
    return client.request("ps", pid=pid)["tasks"]["tasks"][0]


def test_ps_lists_a_loaded_task_with_its_state(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    listed = row(client, pid)
    assert (listed["pid"], listed["app_name"], listed["state"]) == (pid, "loop", "paused")
    assert any(r["pid"] == pid for r in client.request("ps")["tasks"]["tasks"])


def test_a_streamed_load_runs_as_a_whole_one_does(executive):
    client = executive.connect()
    whole = client.request("load", image=image(HELLO, "hello"))["pid"]
    data = base64.b64decode(image(HELLO, "hello"))
    stream = client.request("load.begin", name="hello2")["stream"]
    for offset in range(0, len(data), 40):
        part = base64.b64encode(data[offset:offset + 40]).decode()
        client.request("load.write", stream=stream, data=part)
    streamed = client.request("load.end", stream=stream)["pid"]
    for pid in (whole, streamed):
        wait_for(lambda pid=pid: row(client, pid)["state"] == "returned")
        assert row(client, pid)["exit_status"] == 3


def test_kill_ends_a_task_and_the_app_loads_again(executive):
    client = executive.connect()
    first = client.request("load", image=image(LOOP, "loop"))["pid"]
    client.request("kill", pid=first)
    assert row(client, first)["state"] == "killed"
    second = client.request("load", image=image(LOOP, "loop"))["pid"]
    assert second != first
    wait_for(lambda: row(client, second)["instructions"] > 0)


def test_pause_holds_a_task_and_resume_lets_it_run(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"))["pid"]
    wait_for(lambda: row(client, pid)["instructions"] > 0)
    client.request("pause", pid=pid)
    held = row(client, pid)
    assert held["state"] == "paused"
    assert row(client, pid)["instructions"] == held["instructions"]
    client.request("resume", pid=pid)
    wait_for(lambda: row(client, pid)["instructions"] > held["instructions"])


def test_step_runs_exactly_the_instructions_asked_for(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    before = client.request("regs", pid=pid)["registers"]
    assert before["pc"] == 0 and len(before["regs"]) == 16 and before["state"] == "paused"
    result = client.request("step", pid=pid, count=3)["result"]
    assert result["executed"] == 3 and result["state"] == "paused"
    after = client.request("regs", pid=pid)["registers"]
    assert after["steps"] == before["steps"] + 3
    assert after["pc"] == result["pc"] != before["pc"]


def test_peek_reads_code_and_data_and_poke_writes_data(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    code = client.request("peek", pid=pid, addr=0, length=8, space="code")["data"]
    assert code == read_hxe(base64.b64decode(image(LOOP, "loop"))).code[:8].hex()
    registers = client.request("regs", pid=pid)["registers"]
    addr = registers["stack_base"]
    client.request("poke", pid=pid, addr=addr, data="deadbeef")
    assert client.request("peek", pid=pid, addr=addr, length=4)["data"] == "deadbeef"
    with pytest.raises(ProtocolError) as outside:
        client.request("peek", pid=pid, addr=0xFFFFFFF0, length=64)
    assert outside.value.code == "bad_argument"


def test_sched_sets_priority_and_quantum(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    client.request("sched", pid=pid, priority=3, quantum=7)
    listed = row(client, pid)
    assert (listed["priority"], listed["quantum"]) == (3, 7)


def test_a_fault_ends_one_task_and_the_others_run_on(executive):
    client = executive.connect()
    runner = client.request("load", image=image(LOOP, "loop"))["pid"]
    faulter = client.request("load", image=image(FAULTER, "faulter"))["pid"]
    wait_for(lambda: row(client, faulter)["state"] == "faulted")
    seen = row(client, runner)["instructions"]
    wait_for(lambda: row(client, runner)["instructions"] > seen)
    assert row(client, runner)["state"] in ("ready", "running")
