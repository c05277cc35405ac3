import re

import pytest

from hsx.kernel.constants import MbxNamespace as NS
from hsx.kernel.mailbox import Target, TargetError, parse_target


@pytest.mark.parametrize("text, caller, expected", [
    ("pid:7", 3, Target(NS.PID, "pid:7", 7)),
    ("pid:", 3, Target(NS.PID, "pid:3", 3)),
    ("svc:log", 3, Target(NS.SVC, "log", 3)),
    ("svc:stdio.out@5", 0, Target(NS.SVC, "stdio.out", 5)),
    ("app:demo", 3, Target(NS.APP, "demo", None)),
    ("app:demo@2", 3, Target(NS.APP, "demo", 2)),
    ("shared:bus", 3, Target(NS.SHARED, "bus", None)),
    ("log", 4, Target(NS.SVC, "log", 4)),
    ("log@9", 4, Target(NS.SVC, "log", 9)),
    ("svc:uart:0:rx", 1, Target(NS.SVC, "uart:0:rx", 1)),
    (b"app:bytes", 1, Target(NS.APP, "bytes", None)),
    ("app:" + "x" * 32, 1, Target(NS.APP, "x" * 32, None)),
])
def test_parse(text, caller, expected):
    assert parse_target(text, caller) == expected


@pytest.mark.parametrize("text", ["pid:7", "svc:log@3", "app:demo", "app:demo@2", "shared:bus"])
def test_canonical_spelling_round_trips(text):
    target = parse_target(text, 3)
    assert str(target) == text
    assert parse_target(str(target), 99) == target


def test_bare_name_is_the_callers_svc_mailbox():
    assert str(parse_target("log", 4)) == "svc:log@4"
    assert parse_target("log", 4).key != parse_target("log", 5).key


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("hal:uart", "unknown mailbox namespace 'hal:'"),
    ("pid:x", "bad pid 'x'"),
    ("pid:-1", "bad pid"),
    ("pid:7@3", "bad pid"),
    ("svc:log@", "bad pid ''"),
    ("svc:log@abc", "bad pid 'abc'"),
    ("app:demo@1.5", "bad pid"),
    ("svc:log@99999999999", "bad pid"),
    ("svc:", "empty name"),
    ("@3", "empty name"),
    ("shared:bus@3", "cannot name an owner"),
    ("app:" + "x" * 33, "33 bytes (limit 32)"),
    ("app:has space", "printable ASCII"),
    ("app:caf\u00e9", "printable ASCII"),
    (b"app:\xff", "not ASCII"),
    ("svc:a@1@2", "bad pid"),
])
def test_errors_say_what_is_wrong(text, message):
    with pytest.raises(TargetError, match=re.escape(message)):
        parse_target(text, 1)


def test_long_target_keeps_its_owner_suffix():
    # The prior implementation cut targets at 32 characters, losing the @pid suffix.
    assert parse_target("svc:" + "n" * 30 + "@5", 1) == Target(NS.SVC, "n" * 30, 5)
