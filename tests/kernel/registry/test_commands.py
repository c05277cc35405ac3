"""Command registry: registration, help, and the call protocol the kernel drives."""
import pytest

from hsx.image.model import CommandSpec
from hsx.kernel.errors import KernelError
from hsx.kernel.profiles import get_profile
from hsx.kernel.registry import (
    COMPLETION,
    Auth,
    CallTicket,
    CmdFlag,
    CmdStatus,
    CommandDescriptor,
    CommandRegistry,
    RegistryError,
)

OK = CmdStatus.OK


def reg(commands, pid=100, group=1, ident=1, flags=0, auth=Auth.PUBLIC, handler=0x40, **desc):
    return commands.register(pid, group, ident, flags, auth, CommandDescriptor(**desc), handler)


# -- registration --------------------------------------------------------------------------

def test_register_lookup_and_duplicates(commands, events):
    assert commands.lookup(1, 1).status is CmdStatus.ENOENT
    assert reg(commands).oid == 0x0101
    assert commands.lookup(1, 1).oid == 0x0101
    assert reg(commands, pid=2).status is CmdStatus.EEXIST
    [(pid, data)] = events.of("cmd_registered")
    assert pid == 100 and data["handler_addr"] == 0x40
    assert events.of("cmd_error")[0][1]["status"] == CmdStatus.EEXIST


@pytest.mark.parametrize("kwargs", [
    {"group": 0xFF}, {"ident": 300}, {"flags": 0x04}, {"auth": 9}, {"handler": -1},
    {"help": "h" * 256}, {"name": "n" * 64},
])
def test_register_refuses_bad_declarations(commands, kwargs):
    assert reg(commands, **kwargs).status is CmdStatus.EINVAL
    assert len(commands) == 0


def test_quota(events):
    commands = CommandRegistry(max_commands=1, emit=events)
    assert reg(commands).status is OK
    assert reg(commands, ident=2).status is CmdStatus.ENOSPC
    assert CommandRegistry.from_profile(get_profile("minimal")).max_commands == 16


def test_metadata_is_all_or_nothing(commands):
    reg(commands, pid=1, group=5, ident=5)
    with pytest.raises(RegistryError) as caught:
        commands.register_from_metadata(7, [CommandSpec(1, 1), CommandSpec(5, 5)])
    assert caught.value.code == "command_exists"
    assert [c.oid for c in commands.list()] == [0x0505]
    with pytest.raises(RegistryError, match="declared twice"):
        commands.register_from_metadata(7, [CommandSpec(1, 1), CommandSpec(1, 1)])
    oids = commands.register_from_metadata(7, [
        CommandSpec(1, 7, flags=CmdFlag.PIN, auth=Auth.USER, handler_offset=8, name="reset",
                    help="Reset motor", group_name="motor")])
    assert oids == [0x0107]
    info = commands.info(0x0107)
    assert info.handler_addr == 8 and info.owner_pid == 7
    assert info.as_dict()["name"] == "reset"


def test_help(commands):
    reg(commands, name="Reset", help="Reset motor")
    reg(commands, ident=2)
    assert commands.help(0x0101).data == b"Reset motor\0"
    short = commands.help(0x0101, 16)
    assert (short.status, short.length) == (OK, 11)
    cut = commands.help(0x0101, 6)
    assert (cut.data, cut.length) == (b"Reset\0", 5)
    assert commands.help(0x0101, 0).length == 0 and commands.help(0x0101, 0).data == b""
    assert commands.help(0x0102).data == b"\0"
    assert commands.help(0x0909).status is CmdStatus.ENOENT


def test_list(commands):
    reg(commands, pid=1, group=1, ident=1, name="a", group_name="motor")
    reg(commands, pid=2, group=2, ident=1, name="b")
    assert [c.oid for c in commands.list()] == [0x0101, 0x0201]
    assert [c.oid for c in commands.list(owner=2)] == [0x0201]
    assert [c.oid for c in commands.list(group=1)] == [0x0101]
    assert [c.oid for c in commands.list(name="motor.a")] == [0x0101]


# -- calls ---------------------------------------------------------------------------------

def test_sync_call_round_trip(commands, events):
    reg(commands, handler=0x80)
    ticket = commands.begin_call(200, 0x0101, None, Auth.PUBLIC)
    assert isinstance(ticket, CallTicket)
    assert (ticket.owner_pid, ticket.caller_pid, ticket.handler_addr) == (100, 200, 0x80)
    assert not ticket.is_async and commands.in_flight() == [ticket]
    done = commands.complete_call(ticket, OK, -1)
    assert (done.status, done.result, done.payload) == (OK, 0xFFFFFFFF, None)
    assert commands.in_flight() == []
    [(pid, invoked)] = events.of("cmd_invoked")
    [(_, completed)] = events.of("cmd_completed")
    assert pid == 100 and invoked["caller_pid"] == 200 and invoked["async_call"] is False
    assert completed["status"] == 0 and completed["result"] == 0xFFFFFFFF
    with pytest.raises(KernelError):
        commands.complete_call(ticket, OK)


def test_async_call_produces_the_completion_payload(commands):
    reg(commands, flags=CmdFlag.ASYNC)
    ticket = commands.begin_call(200, 0x0101, None, Auth.PUBLIC, async_reply=3)
    assert ticket.is_async and ticket.reply_handle == 3
    done = commands.complete_call(ticket, OK, 7)
    assert done.payload == COMPLETION.pack(0x0101, 0, 7) == bytes.fromhex("0101000007000000")
    failed = commands.complete_call(
        commands.begin_call(200, 0x0101, None, Auth.PUBLIC, async_reply=3), CmdStatus.EFAIL)
    assert failed.payload == COMPLETION.pack(0x0101, 7, 0)


def test_call_checks_in_order(commands, events):
    assert commands.begin_call(1, 0x0101, None, Auth.PUBLIC) is CmdStatus.ENOENT
    reg(commands, auth=Auth.ADMIN)                            # not ASYNC, needs ADMIN
    assert commands.begin_call(1, 0x0101, None, Auth.PUBLIC, 1) is CmdStatus.ENOASYNC
    assert commands.begin_call(1, 0x0101, None, Auth.USER) is CmdStatus.EPERM
    assert isinstance(commands.begin_call(1, 0x0101, None, Auth.ADMIN), CallTicket)
    assert isinstance(commands.begin_call(100, 0x0101, None, Auth.PUBLIC), CallTicket)  # owner
    assert [d["status"] for _, d in events.of("cmd_error")] == [1, 6, 2]


def test_pin_commands_need_the_pin_even_from_the_owner(commands, events):
    reg(commands, flags=CmdFlag.PIN)
    assert commands.begin_call(100, 0x0101, None, Auth.FACTORY) is CmdStatus.EPERM
    assert commands.begin_call(100, 0x0101, b"bad", Auth.FACTORY) is CmdStatus.EPERM
    assert commands.begin_call(100, 0x0101, b"12345", Auth.FACTORY) is CmdStatus.EPERM
    assert isinstance(commands.begin_call(100, 0x0101, b"1234", Auth.PUBLIC), CallTicket)
    commands.set_pin("4321")
    assert commands.begin_call(100, 0x0101, b"1234", Auth.PUBLIC) is CmdStatus.EPERM
    assert isinstance(commands.begin_call(100, 0x0101, b"4321", Auth.PUBLIC), CallTicket)


def test_without_a_configured_pin_pin_commands_are_refused(events):
    commands = CommandRegistry(emit=events)
    reg(commands, flags=CmdFlag.PIN | CmdFlag.ASYNC)
    assert commands.begin_call(100, 0x0101, b"", Auth.PUBLIC, 2) is CmdStatus.EPERM
    assert "no PIN configured" in events.of("cmd_error")[0][1]["error"]


def test_a_command_without_handler_fails(commands):
    reg(commands, handler=None)
    assert commands.begin_call(100, 0x0101, None, Auth.PUBLIC) is CmdStatus.EFAIL


def test_host_invocation_is_the_same_protocol(commands):
    reg(commands, auth=Auth.USER)
    assert commands.begin_call(0, 0x0101, None, Auth.PUBLIC) is CmdStatus.EPERM
    ticket = commands.begin_call(0, 0x0101, None, Auth.ADMIN)
    assert commands.complete_call(ticket, OK, 123).result == 123


# -- tasks ---------------------------------------------------------------------------------

def test_owner_ending_fails_its_calls_in_flight(commands, events):
    reg(commands, pid=100, flags=CmdFlag.ASYNC)
    sync = commands.begin_call(200, 0x0101, None, Auth.PUBLIC)
    asynchronous = commands.begin_call(300, 0x0101, None, Auth.PUBLIC, async_reply=4)
    done = commands.release_task(100)
    assert [(c.ticket, c.status, c.orphaned) for c in done] == [
        (sync, CmdStatus.EFAIL, False), (asynchronous, CmdStatus.EFAIL, False)]
    assert done[1].payload == COMPLETION.pack(0x0101, CmdStatus.EFAIL, 0)
    assert commands.lookup(1, 1).status is CmdStatus.ENOENT
    assert [d["reason"] for _, d in events.of("cmd_completed")] == ["owner_ended"] * 2
    assert reg(commands, pid=101).status is OK


def test_caller_ending_drops_the_reply(commands, events):
    reg(commands, pid=100, flags=CmdFlag.ASYNC)
    ticket = commands.begin_call(200, 0x0101, None, Auth.PUBLIC, async_reply=4)
    assert commands.release_task(200) == []
    done = commands.complete_call(ticket, OK, 1)
    assert done.orphaned and done.payload is None
    assert events.of("cmd_completed")[0][1]["delivered"] is False


def test_caller_then_owner_ending(commands):
    reg(commands, pid=100)
    ticket = commands.begin_call(200, 0x0101, None, Auth.PUBLIC)
    commands.release_task(200)
    [done] = commands.release_task(100)
    assert done.ticket == ticket and done.orphaned and done.payload is None
