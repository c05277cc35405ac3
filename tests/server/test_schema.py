"""Every command declares its arguments, and values outside their domain are refused at
the boundary with `bad_argument` naming the field and its range (issue 17, group 1)."""
from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from serverkit import LOOP, MOTOR, load

from hsx.client import ProtocolError

from hsx.server.dispatch import Dispatcher
from hsx.server.errors import RequestError
from hsx.server.handlers import GROUPS
from hsx.server.schema import (FilePath, Int, ListOf, Num, OneOf, Schema, Str, markdown)

DOCS = Path(__file__).parents[2] / "docs" / "protocol.md"
BEGIN, END = "<!-- arguments:begin -->\n", "<!-- arguments:end -->\n"


def commands():
    return [c for group in Dispatcher(GROUPS).groups for c in group.commands]


def test_every_registered_command_declares_its_arguments():
    missing = [c.name for c in commands() if c.schema is None]
    assert not missing, ("commands without a schema (declare args= in group.command, see "
                         f"hsx/server/schema.py): {missing}")


def test_protocol_docs_list_every_argument_and_its_range():
    """docs/protocol.md "Argument ranges" is the schemas, rendered; HSX_UPDATE_DOCS=1
    rewrites it."""
    text = DOCS.read_text()
    head, _, rest = text.partition(BEGIN)
    old, _, tail = rest.partition(END)
    table = markdown(commands())
    if os.environ.get("HSX_UPDATE_DOCS") and old != table:
        DOCS.write_text(head + BEGIN + table + END + tail)
        old = table
    assert old == table, "docs/protocol.md argument table is stale: HSX_UPDATE_DOCS=1 pytest " \
                         "tests/server/test_schema.py"


HOSTILE = [math.nan, math.inf, -math.inf, 1e308, -1.0, 2 ** 64, -(2 ** 64), True, [], {},
           "x" * 5000, "\ud800", None]


@pytest.mark.parametrize("field", [Int(0, 10), Num(0.01, 100.0), Str(8, choices=("a", "b")),
                                   FilePath(), ListOf(Int(0, 5))])
def test_fields_refuse_hostile_values_with_the_field_name_and_range(field):
    for value in HOSTILE[:-1]:
        try:
            field.check("rate", value)
        except RequestError as error:
            assert error.code == "bad_argument"
            assert "'rate' must be" in error.message and field.describe() in error.message
        else:
            assert isinstance(field, ListOf) and value == []


@given(st.one_of(st.integers(), st.floats(), st.text(max_size=20), st.booleans(), st.none(),
                 st.lists(st.integers(), max_size=3)))
@settings(max_examples=200, deadline=None)
def test_a_checked_integer_is_always_in_range(value):
    field = OneOf((Int(-5, 5), Num(10.0, 20.0)))
    try:
        got = field.check("n", value)
    except RequestError as error:
        assert error.code == "bad_argument" and "'n' must be" in error.message
    else:
        assert (isinstance(got, int) and -5 <= got <= 5) or 10.0 <= got <= 20.0


def test_schema_normalises_and_drops_undeclared_fields():
    schema = Schema({"addr|address": Int(0, 0xFFFF), "names": ListOf(Str(8))})
    assert schema.apply({"cmd": "peek", "id": 3, "address": "0x10", "names": "a",
                         "stray": object()}) == {"cmd": "peek", "id": 3, "address": 16,
                                                 "names": ["a"]}


def test_a_path_component_longer_than_the_host_allows_is_refused():
    with pytest.raises(RequestError, match="each component at most 255 bytes"):
        FilePath().check("path", "/tmp/" + "a" * 300 + ".hxe")
    assert FilePath().check("path", "dir/" + "a" * 255) == "dir/" + "a" * 255


# -- over a socket: the cases issue 17 lists, each refused and nothing else changed ------

def refused(client, cmd, **fields):
    with pytest.raises(ProtocolError) as error:
        client.request(cmd, **fields)
    return error.value.reply


@pytest.mark.parametrize("rate", [math.nan, math.inf, -math.inf, 1e308, -1, 1e-300, "fast"])
def test_a_clock_rate_outside_its_domain_leaves_the_clock_alone(client, rate):
    before = client.request("clock.status")["clock"]
    reply = refused(client, "clock.rate", rate=rate)
    assert reply["error"] == "bad_argument" and "'rate' must be" in reply["message"]
    assert client.request("clock.status")["clock"]["rate_hz"] == before["rate_hz"]


@pytest.mark.parametrize("heartbeat", [math.nan, math.inf, -5, 0, "soon"])
def test_a_heartbeat_outside_its_domain_is_refused(client, heartbeat):
    reply = refused(client, "session.open", heartbeat_s=heartbeat)
    assert reply["error"] == "bad_argument" and "'heartbeat_s'" in reply["message"]
    assert client.request("session.list")["sessions"] == []


def test_a_huge_trace_ring_is_bad_argument_not_internal_error(client):
    pid = load(client, LOOP, "loop")
    for size in (2 ** 64, 10 ** 30, -1, 0, 1.5):
        reply = refused(client, "trace.on", pid=pid, size=size)
        assert reply["error"] == "bad_argument" and "'size' must be an integer" in reply["message"]
    assert client.request("trace.status", pid=pid)["trace"]["enabled"] is False


def test_a_load_path_with_an_overlong_component_is_bad_argument(client):
    reply = refused(client, "load", path="/" + "p" * 300 + ".hxe")
    assert reply["error"] == "bad_argument" and "'path'" in reply["message"]


def test_a_deeply_nested_breakpoint_condition_is_refused(client):
    pid = load(client, LOOP, "loop")
    for depth in (1500, 5000):
        reply = refused(client, "bp.set", pid=pid, addr=0,
                                   condition="(" * depth + "1" + ")" * depth)
        assert reply["error"] in ("bad_argument", "bad_condition"), reply
        assert not re.search("Recursion", reply["message"])
    assert client.request("bp.list", pid=pid)["breakpoints"] == []


def test_an_f16_value_out_of_range_is_refused_not_infinity(client):
    load(client, MOTOR, "motor")
    before = client.request("val.get", oid=0x0102)["value"]["value"]
    for value in (1e9, "1e9", math.inf, math.nan, -70000):
        reply = refused(client, "val.set", oid=0x0102, value=value)
        assert reply["error"] == "bad_argument" and "'value'" in reply["message"]
    assert client.request("val.get", oid=0x0102)["value"]["value"] == before
