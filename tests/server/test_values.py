"""val.* and cmd.*: the kernel's value and command registries over the protocol."""
from __future__ import annotations

import pytest
from serverkit import MOTOR, load

from hsx.client import Client, ProtocolError
from hsx.server import BackgroundServer, ServerConfig


def test_list_get_set_values(client):
    pid = load(client, MOTOR, "motor")
    rows = client.request("val.list")["values"]
    rpm = next(r for r in rows if r["name"] == "rpm")
    assert rpm["oid"] == 0x0102 and rpm["owner_pid"] == pid and rpm["last_value"] == 1.0
    assert client.request("val.get", oid="0x0102")["value"]["value"] == 1.0
    changed = client.request("val.set", oid=0x0102, value=42.5)["value"]
    assert changed["changed"] is True and changed["value"] == 42.5
    assert client.request("val.get", name="rpm")["value"]["f16"] == changed["f16"]
    with pytest.raises(ProtocolError) as out_of_range:
        client.request("val.set", oid=0x0102, value=1000)
    assert out_of_range.value.code == "val_einval" and out_of_range.value.reply["val_status"] == 4
    with pytest.raises(ProtocolError) as missing:
        client.request("val.get", oid=0x0999)
    assert missing.value.code == "val_enoent"
    assert client.request("val.stats")["stats"]["values"]["count"] == 2


def test_auth_level_comes_from_the_session(connect):
    setup, admin = connect(), connect()
    load(setup, MOTOR, "motor")
    assert [r["name"] for r in setup.request("val.list")["values"]] == ["rpm"]   # USER
    with pytest.raises(ProtocolError) as denied:
        setup.request("val.get", oid=0x0104)
    assert denied.value.code == "val_eperm"
    session = admin.open_session("admin")
    assert session["auth"] == "USER"
    admin.close_session()
    assert admin.open_session("admin", auth="admin")["auth"] == "ADMIN"
    assert admin.request("val.get", oid=0x0104)["value"]["value"] == 3.0


def test_commands_run_their_handler(client):
    load(client, MOTOR, "motor")
    rows = client.request("cmd.list")["commands"]
    assert rows[0]["name"] == "boost" and rows[0]["help"] == "Add one to the base"
    assert client.request("cmd.call", oid=0x0103)["command"]["result"] == 42
    assert client.request("cmd_call", name="boost")["command"]["status"] == 0
    with pytest.raises(ProtocolError) as unknown:
        client.request("cmd.call", oid=0x0777)
    assert unknown.value.code == "cmd_enoent" and unknown.value.reply["cmd_status"] == 1
    assert client.request("cmd.stats")["stats"]["commands"]["count"] == 1


def test_locked_owner_protects_its_values_and_commands(connect):
    owner, other = connect(), connect()
    pid = load(owner, MOTOR, "motor")
    owner.open_session("debugger", pid_lock=pid)
    for cmd, fields in [("val.set", {"oid": 0x0102, "value": 2}), ("cmd.call", {"oid": 0x0103})]:
        with pytest.raises(ProtocolError) as locked:
            other.request(cmd, **fields)
        assert locked.value.code == f"pid_locked:{pid}"
    assert other.request("val.get", oid=0x0102)["value"]["value"] == 1.0      # reading is fine


def test_persistent_values_survive_a_restart_of_the_daemon(tmp_path):
    config = ServerConfig(port=0, root=tmp_path / "fs", state_dir=tmp_path / "state")
    with BackgroundServer(config) as srv, Client(srv.host, srv.port) as client:
        load(client, MOTOR, "motor")
        client.request("val.set", oid=0x0102, value=7)
    with BackgroundServer(config) as srv, Client(srv.host, srv.port) as client:
        load(client, MOTOR, "motor")
        assert client.request("val.get", oid=0x0102)["value"]["value"] == 7.0


def test_a_breakpoint_in_a_handler_makes_a_host_call_pending(client):
    """The debugger stops the handler like any other code: the owner is paused in it, the
    reply says the call is pending, and cmd_completed brings the result."""
    pid = load(client, MOTOR, "motor")
    client.open_session("dbg", pid_lock=pid)
    client.subscribe(["debug_break", "cmd_completed"], pids=[pid])
    listing = client.request("disasm.read", pid=pid, addr=0, count=6, mode="from")["disasm"]
    boost = next(i["pc"] for i in listing["instructions"] if i["text"] == "LDI R0, 41")
    client.set_breakpoint(pid, boost)
    reply = client.request("cmd.call", oid=0x0103)["command"]
    assert reply["pending"] is True and reply["oid"] == 0x0103
    stop = next(e for e in client.events(timeout=5) if e["type"] == "debug_break")["data"]
    assert stop["pc"] == boost and stop["handler"]["ticket"] == reply["ticket"]
    task = client.request("ps", pid=pid)["tasks"]["tasks"][0]
    assert task["state"] == "paused" and task["handler"]["caller_pid"] == 0
    with pytest.raises(ProtocolError) as busy:                # one stopped call at a time
        client.request("cmd.call", oid=0x0103)
    assert busy.value.code == "cmd_efail"
    client.step(pid, 2)
    assert client.request("regs", pid=pid)["registers"]["regs"][0] == 42
    client.resume(pid)
    done = next(e for e in client.events(timeout=5) if e["type"] == "cmd_completed"
                and e["data"]["ticket"] == reply["ticket"])["data"]
    assert (done["status"], done["result"]) == (0, 42)
    assert client.request("ps", pid=pid)["tasks"]["tasks"][0]["state"] == "sleeping"
