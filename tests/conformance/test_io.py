"""Output, input, mailboxes between programs, values and commands: the same on every
executive and variant."""
from __future__ import annotations

import pytest
from executives import image, wait_for
from mvasmkit import HELLO, MOTOR
from programs import CONSUMER, ECHO, PRODUCER

from hsx.client import ProtocolError


def recent(client, pid: int) -> str:
    reply = client.request("stdio", op="recent", pid=pid)
    return "".join(chunk["text"] for task in reply["recent"] if task["pid"] == pid
                   for chunk in task["output"] if chunk["stream"] == "stdout")


def state(client, pid: int) -> dict:
    return client.request("ps", pid=pid)["tasks"]["tasks"][0]


def test_a_tasks_output_is_kept(executive):
    client = executive.connect()
    pid = client.request("load", image=image(HELLO, "hello"))["pid"]
    wait_for(lambda: state(client, pid)["state"] == "returned")
    assert recent(client, pid) == "hello\n"


def test_stdin_reaches_the_task_and_eof_ends_its_input(executive):
    client = executive.connect()
    pid = client.request("load", image=image(ECHO, "echo"))["pid"]
    assert client.request("stdio", pid=pid, data="hi there")["written"] == 8
    wait_for(lambda: recent(client, pid) == "hi there")
    client.request("stdio", pid=pid, eof=True)
    wait_for(lambda: state(client, pid)["state"] == "returned")
    assert state(client, pid)["exit_status"] == 9


def test_programs_exchange_mailbox_messages(executive):
    client = executive.connect()
    consumer = client.request("load", image=image(CONSUMER, "consumer"))["pid"]
    producer = client.request("load", image=image(PRODUCER, "producer"))["pid"]
    for pid in (consumer, producer):
        wait_for(lambda pid=pid: state(client, pid)["state"] == "returned")
    assert recent(client, consumer) == "reading #1reading #2reading #3"


def test_values_are_listed_read_and_set(executive):
    client = executive.connect()
    client.request("load", image=image(MOTOR, "motor"))
    listed = client.request("val.list")["values"]
    assert [(v["oid"], v["name"], v["last_value"]) for v in listed] == [(0x0102, "rpm", 1.0)]
    changed = client.request("val.set", name="rpm", value=42.5)["value"]
    assert changed["changed"] is True and changed["value"] == 42.5
    assert client.request("val.get", oid=0x0102)["value"]["value"] == 42.5
    with pytest.raises(ProtocolError) as out_of_range:
        client.request("val.set", oid=0x0102, value=1000)
    assert out_of_range.value.code == "val_einval"
    with pytest.raises(ProtocolError) as missing:
        client.request("val.get", oid=0x0999)
    assert missing.value.code == "val_enoent"


def test_a_command_runs_its_handler(executive):
    client = executive.connect()
    client.request("load", image=image(MOTOR, "motor"))
    assert client.request("cmd.call", name="boost")["command"]["result"] == 42
