"""Values and commands (val.*, cmd.*) for host clients: the kernel's registries, as PID 0.

The caller's auth level comes from its session (`session.open {auth}`; USER without a
session): the registries compare it with each entry's level (docs/values.md).  A status
other than OK is an error reply `val_<status>` / `cmd_<status>` carrying the number.
Setting a value or calling a command changes its owner task, so the owner's PID lock
applies.
"""
from __future__ import annotations

from typing import Any

from hsx.isa.f16 import f16_to_float, float_to_f16
from hsx.kernel.registry import GROUP_ALL, CmdStatus, ValStatus
from hsx.kernel.registry.model import json_float

from ..dispatch import Call, Group
from ..errors import RequestError, bad_argument
from ..schema import NAME, PID, Bool, Int, Num, OneOf, Str

group = Group("registry", feature="values")
HOST = 0
F16_MAX = 65504.0                # the largest finite half-precision value
ENTRY = {"oid": Int(0, 0xFFFF), "name": NAME}
FILTERS = {**ENTRY, "pid": PID, "group": Int(0, 0xFF)}
PIN = {"pin|token": Str(256)}


def _oid(call: Call, registry: Any, kind: str) -> int:
    """An entry named by `oid` (number or "0x0102") or by `name` ("group.name")."""
    if call.has("oid"):
        return call.int("oid", min=0, max=0xFFFF)
    name = call.str("name", None)
    if name is None:
        raise bad_argument(f"{call.args['cmd']} requires 'oid' or 'name'")
    rows = registry.list(name=name)
    if len(rows) != 1:
        raise RequestError("unknown_name" if not rows else "ambiguous_name",
                           f"{len(rows)} {kind}s are named {name!r}")
    return rows[0].oid


def _filters(call: Call) -> dict[str, Any]:
    group_id = call.int("group", None, min=0, max=0xFF)
    return {"owner": call.int("pid", None, min=0), "name": call.str("name", None),
            "group": GROUP_ALL if group_id is None else group_id}


def _refused(prefix: str, status: ValStatus | CmdStatus, oid: int) -> RequestError:
    return RequestError(f"{prefix}_{status.name.lower()}",
                        f"0x{oid:04x}: {status.name}", **{f"{prefix}_status": int(status)})


def _owner_control(call: Call, owner_pid: int) -> None:
    if owner_pid != HOST:
        call.control(owner_pid)


def _pin(call: Call) -> bytes | None:
    """The PIN for PIN-flagged entries (`token` is the older name of the field)."""
    pin = call.str("pin", None, aliases=("token",))
    return pin.encode() if pin is not None else None


@group.command("val.list", "val_list", args=FILTERS)
def val_list(call: Call) -> dict[str, Any]:
    values = call.kernel.values
    rows = values.list(**_filters(call), visible_to=(HOST, call.auth))
    if call.has("oid"):
        oid = call.int("oid", min=0, max=0xFFFF)
        rows = [r for r in rows if r.oid == oid]
    return {"values": [r.as_dict() for r in rows]}


@group.command("val.get", "val_get", args=ENTRY)
def val_get(call: Call) -> dict[str, Any]:
    values = call.kernel.values
    oid = _oid(call, values, "value")
    got = values.get(HOST, oid, call.auth)
    if got.status is not ValStatus.OK:
        raise _refused("val", got.status, oid)
    return {"value": {"oid": oid, "status": 0, "f16": got.raw,
                      "value": json_float(f16_to_float(got.raw))}}


@group.command("val.set", "val_set", writes=True, args={
    **ENTRY, **PIN, "f16": Int(0, 0xFFFF), "value": OneOf((Num(-F16_MAX, F16_MAX, text=True), Bool()))})
def val_set(call: Call) -> dict[str, Any]:
    kernel, values = call.kernel, call.kernel.values
    oid = _oid(call, values, "value")
    info = values.info(oid)
    if info is not None:
        _owner_control(call, info.owner_pid)
    raw = _raw(call)
    done = values.set(HOST, oid, raw, call.auth, kernel.clock.now(), _pin(call))
    kernel.schedule_persistence()
    if done.status is not ValStatus.OK:
        raise _refused("val", done.status, oid)
    return {"value": {"oid": oid, "status": 0, "f16": done.raw, "changed": done.changed,
                      "value": json_float(f16_to_float(done.raw))}}


def _raw(call: Call) -> int:
    """The f16 bits to write: `f16` as is, or `value` (a number or a boolean) rounded."""
    if call.has("f16"):
        return call.int("f16")
    value = call.field("value")
    if value is None:
        raise bad_argument(f"{call.args['cmd']} requires a numeric 'value' (or 'f16' bits)")
    return float_to_f16(float(value))


@group.command("val.stats", "val_stats", args={})
def val_stats(call: Call) -> dict[str, Any]:
    values = call.kernel.values
    return {"stats": {"values": _usage(len(values), values.max_values)}}


@group.command("cmd.list", "cmd_list", feature="commands", args=FILTERS)
def cmd_list(call: Call) -> dict[str, Any]:
    rows = call.kernel.commands.list(**_filters(call))
    if call.has("oid"):
        oid = call.int("oid", min=0, max=0xFFFF)
        rows = [r for r in rows if r.oid == oid]
    return {"commands": [r.as_dict() for r in rows]}


@group.command("cmd.call", "cmd_call", writes=True, feature="commands",
               args={**ENTRY, **PIN, "async": Bool()})
def cmd_call(call: Call) -> dict[str, Any]:
    """Run the command's handler in its owner task now; the reply has its result (or,
    when a debugger stops the handler, says the call is pending)."""
    kernel = call.kernel
    if call.bool("async"):
        raise RequestError("unsupported", "host calls are synchronous: the reply carries "
                           "the result")
    oid = _oid(call, kernel.commands, "command")
    info = kernel.commands.info(oid)
    if info is not None:
        _owner_control(call, info.owner_pid)
    status, result = kernel.call_command(HOST, oid, _pin(call), call.auth)
    if status is None:           # a debugger stopped the handler: cmd_completed comes later
        return {"command": {"oid": oid, "pending": True, "ticket": result}}
    if status is not CmdStatus.OK:
        raise _refused("cmd", status, oid)
    return {"command": {"oid": oid, "status": 0, "result": result}}


@group.command("cmd.stats", "cmd_stats", feature="commands", args={})
def cmd_stats(call: Call) -> dict[str, Any]:
    commands = call.kernel.commands
    return {"stats": {"commands": _usage(len(commands), commands.max_commands)}}


def _usage(count: int, capacity: int) -> dict[str, Any]:
    return {"count": count, "capacity": capacity,
            "usage_pct": round(100 * count / capacity, 1) if capacity else 0.0}
