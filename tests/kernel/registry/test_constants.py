"""The ABI numbers guest code depends on, and the PIN check."""
import pytest

from hsx.kernel.registry import (
    COMPLETION,
    GROUP_ALL,
    NOTIFY,
    Auth,
    CmdFlag,
    CmdFn,
    CmdStatus,
    DescType,
    PersistMode,
    Pin,
    ValFlag,
    ValFn,
    ValStatus,
    make_oid,
    may_access,
    split_oid,
)
from hsx.kernel.registry.constants import CMD_MODULE_ID, VAL_MODULE_ID


def test_numbers_match_the_headers():
    assert (VAL_MODULE_ID, CMD_MODULE_ID, GROUP_ALL) == (0x07, 0x08, 0xFF)
    assert [int(s) for s in ValStatus] == [0, 1, 2, 3, 4, 5, 6]
    assert ValStatus.EBUSY == 6 and CmdStatus.ENOASYNC == 6 and CmdStatus.EFAIL == 7
    assert (ValFlag.RO, ValFlag.PERSIST, ValFlag.STICKY, ValFlag.PIN, ValFlag.BOOL) == (
        1, 2, 4, 8, 0x10)
    assert (CmdFlag.PIN, CmdFlag.ASYNC) == (1, 2)
    assert [int(a) for a in Auth] == [0, 1, 2, 3]
    assert [int(m) for m in PersistMode] == [0, 1, 2]
    assert [f.name for f in ValFn] == ["REGISTER", "LOOKUP", "GET", "SET", "LIST", "SUB",
                                       "PERSIST"]
    assert [int(f) for f in ValFn] == list(range(7))
    assert [f.name for f in CmdFn] == ["REGISTER", "LOOKUP", "CALL", "CALL_ASYNC", "HELP"]
    assert [int(f) for f in CmdFn] == list(range(5))
    assert [int(d) for d in DescType] == [1, 2, 3, 4, 5, 0x10]
    assert NOTIFY.size == 6 and COMPLETION.size == 8


def test_oids():
    assert make_oid(0x12, 0x34) == 0x1234
    assert split_oid(0x1234) == (0x12, 0x34)


def test_access_rule():
    assert may_access(5, Auth.FACTORY, 5, Auth.PUBLIC)
    assert not may_access(5, Auth.USER, 6, Auth.PUBLIC)
    assert may_access(5, Auth.USER, 6, Auth.ADMIN)


def test_pin():
    assert not Pin().check(b"") and not Pin().configured
    pin = Pin("0042")
    assert pin.check(b"0042") and not pin.check(b"042") and not pin.check(None)
    pin.set(None)
    assert not pin.check(b"0042")
    with pytest.raises(ValueError):
        Pin(b"")
