"""Value registry: registration, access rules, the set algorithm, notifications, tasks."""
import json

import pytest

from hsx.image.model import ValueSpec
from hsx.isa.f16 import f16_to_float
from hsx.isa.f16 import float_to_f16 as f16
from hsx.kernel.profiles import get_profile
from hsx.kernel.registry import (
    NOTIFY,
    Auth,
    RegistryError,
    ValFlag,
    ValStatus,
    ValueDescriptor,
    ValueRegistry,
)

OK = ValStatus.OK


def reg(values, pid=100, group=1, ident=1, flags=0, auth=Auth.PUBLIC, init=0.0, **desc):
    return values.register(pid, group, ident, flags, auth, ValueDescriptor(**desc), f16(init))


# -- registration --------------------------------------------------------------------------

def test_register_gives_oid_and_refuses_a_duplicate(values, events):
    assert reg(values).oid == 0x0101
    assert reg(values, ident=2).oid == 0x0102
    dup = reg(values, pid=200)
    assert dup.status is ValStatus.EEXIST
    [(pid, data)] = events.of("value_error")
    assert pid == 200 and data["status"] == ValStatus.EEXIST
    assert "already registered by task 100" in data["error"]
    assert values.get(100, 0x0101).status is OK          # the original is untouched


def test_register_emits_value_registered(values, events):
    reg(values, group=2, ident=3, init=1.5, name="rpm", group_name="motor", unit="rpm")
    [(pid, data)] = events.of("value_registered")
    assert pid == 100
    assert data["oid"] == 0x0203 and (data["group_id"], data["value_id"]) == (2, 3)
    assert data["name"] == "rpm" and data["group_name"] == "motor" and data["value"] == 1.5
    assert data["restored"] is False


def test_lookup(values):
    assert values.lookup(1, 2).status is ValStatus.ENOENT
    reg(values, ident=2)
    assert values.lookup(1, 2).status is OK and values.lookup(1, 2).oid == 0x0102
    assert values.lookup(256, 0).status is ValStatus.EINVAL


@pytest.mark.parametrize("kwargs, desc", [
    ({"group": 0xFF}, {}),                               # GROUP_ALL is never a group
    ({"group": -1}, {}),
    ({"ident": 256}, {}),
    ({"flags": 0x20}, {}),                               # unknown flag bit
    ({"auth": 4}, {}),
    ({"flags": ValFlag.PERSIST}, {}),                    # PERSIST without a persist key
    ({}, {"persist_key": 0xFFFF}),                       # reserved key
    ({}, {"name": "x" * 64}),
    ({}, {"min_f16": f16(5), "max_f16": f16(1)}),        # empty range
    ({}, {"epsilon_f16": f16(-1)}),
    ({}, {"rate_ms": 70000}),
    ({"init": 20.0}, {"min_f16": f16(0), "max_f16": f16(10)}),   # init outside the range
])
def test_register_refuses_bad_declarations(values, kwargs, desc):
    assert reg(values, **kwargs, **desc).status is ValStatus.EINVAL
    assert len(values) == 0


def test_quota_from_profile(make_values):
    values = make_values(max_values=2)
    assert reg(values, ident=1).status is OK
    assert reg(values, ident=2).status is OK
    assert reg(values, ident=3).status is ValStatus.ENOSPC
    assert ValueRegistry.from_profile(get_profile("minimal")).max_values == 32


def test_bool_values_hold_zero_or_one(values):
    reg(values, flags=ValFlag.BOOL, init=5.0)
    assert values.get(100, 0x0101).raw == f16(1.0)
    assert values.set(100, 0x0101, f16(-0.0), Auth.PUBLIC, 0).raw == 0
    assert values.set(100, 0x0101, f16(0.25), Auth.PUBLIC, 0).raw == f16(1.0)


# -- metadata ------------------------------------------------------------------------------

def test_metadata_registers_everything(values):
    oids = values.register_from_metadata(7, [
        ValueSpec(1, 2, init_f16=f16(12.5), name="speed", group_name="motor", unit="rpm"),
        ValueSpec(1, 3, flags=ValFlag.RO)], app="motor")
    assert oids == [0x0102, 0x0103]
    info = values.info(0x0102)
    assert info.owner_pid == 7 and info.value == 12.5 and info.app == "motor"
    assert values.list(name="motor.speed")[0].oid == 0x0102


@pytest.mark.parametrize("specs, code", [
    ([ValueSpec(1, 1), ValueSpec(1, 1)], "value_exists"),                  # twice in one image
    ([ValueSpec(1, 1), ValueSpec(9, 9)], "value_exists"),                  # taken by another task
    ([ValueSpec(1, 1), ValueSpec(1, 2, flags=0x40)], "value_invalid"),
    ([ValueSpec(1, 1), ValueSpec(1, 2), ValueSpec(1, 3)], "value_limit"),
])
def test_metadata_is_all_or_nothing(make_values, events, specs, code):
    values = make_values(max_values=3)
    reg(values, pid=1, group=9, ident=9)
    with pytest.raises(RegistryError) as caught:
        values.register_from_metadata(7, specs)
    assert caught.value.code == code
    assert [v.oid for v in values.list()] == [0x0909]
    assert len(events.of("value_registered")) == 1


def test_metadata_persist_key_implies_persist(values):
    values.register_from_metadata(7, [ValueSpec(1, 1, persist_key=17)])
    assert values.info(0x0101).flags & ValFlag.PERSIST


def test_second_instance_of_an_app_is_refused_with_a_clear_error(values):
    specs = [ValueSpec(1, 2, name="speed", group_name="motor")]
    values.register_from_metadata(3, specs, app="motor")
    with pytest.raises(RegistryError) as caught:
        values.register_from_metadata(4, specs, app="motor")
    assert caught.value.code == "value_exists"
    assert "0x0102 (motor.speed) is already registered by task 3" in str(caught.value)


# -- access --------------------------------------------------------------------------------

def test_auth_level_guards_non_owners(values):
    reg(values, auth=Auth.USER)
    assert values.get(100, 0x0101).status is OK                       # owner, any auth
    assert values.get(200, 0x0101, Auth.PUBLIC).status is ValStatus.EPERM
    assert values.get(200, 0x0101, Auth.USER).status is OK
    assert values.set(200, 0x0101, f16(1), Auth.PUBLIC, 0).status is ValStatus.EPERM
    assert values.set(200, 0x0101, f16(1), Auth.ADMIN, 0).status is OK


def test_public_values_are_open_to_every_task(values):
    reg(values)
    assert values.set(200, 0x0101, f16(3), Auth.PUBLIC, 0).status is OK
    assert values.get(300, 0x0101).raw == f16(3)


def test_read_only_is_for_everyone_but_the_owner(values, events):
    reg(values, flags=ValFlag.RO)
    assert values.set(200, 0x0101, f16(1), Auth.FACTORY, 0).status is ValStatus.EPERM
    assert values.set(0, 0x0101, f16(1), Auth.FACTORY, 0).status is ValStatus.EPERM
    assert values.set(100, 0x0101, f16(1), Auth.PUBLIC, 0).status is OK
    assert "read-only" in events.of("value_error")[0][1]["error"]


def test_pin_value_needs_the_pin_from_non_owners(values):
    reg(values, flags=ValFlag.PIN)
    assert values.set(200, 0x0101, f16(1), Auth.PUBLIC, 0).status is ValStatus.EPERM
    assert values.set(200, 0x0101, f16(1), Auth.PUBLIC, 0, b"9999").status is ValStatus.EPERM
    assert values.set(200, 0x0101, f16(1), Auth.PUBLIC, 0, b"1234").status is OK
    assert values.set(100, 0x0101, f16(2), Auth.PUBLIC, 0).status is OK


def test_unknown_oid_and_bad_bits(values):
    assert values.get(1, 0x0505).status is ValStatus.ENOENT
    assert values.set(1, 0x0505, 0, Auth.PUBLIC, 0).status is ValStatus.ENOENT
    reg(values)
    assert values.set(100, 0x0101, 0x10000, Auth.PUBLIC, 0).status is ValStatus.EINVAL


# -- the set algorithm ---------------------------------------------------------------------

def test_get_set_roundtrip(values, events):
    reg(values)
    assert values.get(100, 0x0101).raw == 0
    result = values.set(200, 0x0101, f16(42.5), Auth.PUBLIC, 1.0)
    assert (result.status, result.changed, result.raw) == (OK, True, f16(42.5))
    assert f16_to_float(values.get(100, 0x0101).raw) == 42.5
    [(pid, data)] = events.of("value_changed")
    assert pid == 100 and data["caller_pid"] == 200
    assert (data["old_f16"], data["new_f16"], data["new_value"]) == (0, f16(42.5), 42.5)
    assert data["reason"] == "set"


def test_epsilon_filters_small_changes(values, events):
    reg(values, epsilon_f16=f16(0.5))
    assert values.set(1, 0x0101, f16(10.0), Auth.PUBLIC, 0).changed
    small = values.set(1, 0x0101, f16(10.25), Auth.PUBLIC, 0)
    assert (small.status, small.changed) == (OK, False)
    assert values.get(1, 0x0101).raw == f16(10.0)
    assert values.set(1, 0x0101, f16(10.5), Auth.PUBLIC, 0).changed     # |delta| == epsilon
    assert len(events.of("value_changed")) == 2


def test_identical_bits_are_no_change(values, events, mail):
    reg(values, init=1.0)
    values.subscribe(5, 0x0101, 1)
    assert not values.set(1, 0x0101, f16(1.0), Auth.PUBLIC, 0).changed
    assert not events.of("value_changed") and not mail.sent


def test_rate_limit(values, events):
    reg(values, rate_ms=120)
    assert values.set(1, 0x0101, f16(5), Auth.PUBLIC, 1.0).status is OK     # first: never throttled
    busy = values.set(1, 0x0101, f16(6), Auth.PUBLIC, 1.05)
    assert (busy.status, busy.raw) == (ValStatus.EBUSY, f16(5))
    assert values.set(1, 0x0101, f16(6), Auth.PUBLIC, 1.13).status is OK
    assert len(events.of("value_changed")) == 2
    assert not events.of("value_error")                                     # EBUSY is flow control


def test_rate_limit_counts_from_the_last_real_change(values):
    reg(values, rate_ms=100, epsilon_f16=f16(1))
    values.set(1, 0x0101, f16(5), Auth.PUBLIC, 0.0)
    assert values.set(1, 0x0101, f16(9), Auth.PUBLIC, 0.05).status is ValStatus.EBUSY
    assert values.set(1, 0x0101, f16(5.5), Auth.PUBLIC, 0.2).status is OK   # within epsilon
    assert values.set(1, 0x0101, f16(9), Auth.PUBLIC, 0.21).status is OK    # no change at 0.2


def test_range_is_enforced_by_rejecting(values, events):
    reg(values, init=5, min_f16=f16(-10), max_f16=f16(10))
    assert values.set(1, 0x0101, f16(10), Auth.PUBLIC, 0).status is OK
    assert values.set(1, 0x0101, f16(-10), Auth.PUBLIC, 0).status is OK
    refused = values.set(1, 0x0101, f16(10.01), Auth.PUBLIC, 0)
    assert (refused.status, refused.raw) == (ValStatus.EINVAL, f16(-10))
    assert values.set(1, 0x0101, 0x7E00, Auth.PUBLIC, 0).status is ValStatus.EINVAL    # NaN
    assert "outside" in events.of("value_error")[-1][1]["error"]


def test_zero_zero_range_is_unbounded(values):
    reg(values)
    assert values.set(1, 0x0101, f16(60000), Auth.PUBLIC, 0).status is OK
    assert values.set(1, 0x0101, f16(-60000), Auth.PUBLIC, 0).status is OK


def test_one_zero_bound_still_bounds(values):
    reg(values, init=-1, min_f16=f16(-5), max_f16=f16(0))
    assert values.set(1, 0x0101, f16(1), Auth.PUBLIC, 0).status is ValStatus.EINVAL


# -- subscriptions -------------------------------------------------------------------------

def test_one_notification_per_change_in_the_documented_format(values, mail):
    reg(values)
    assert values.subscribe(42, 0x0101, 1) is OK
    assert values.subscribe(42, 0x0101, 1) is OK             # same handle: one subscription
    assert values.subscribe(43, 0x0101, 7) is OK
    values.set(100, 0x0101, f16(1.0), Auth.PUBLIC, 0)
    assert mail.to(42, 1) == [NOTIFY.pack(0x0101, 0, 0x3C00)]
    assert mail.to(43, 7) == [bytes.fromhex("010100000" "03c")]
    assert len(mail.sent) == 2


def test_a_vanished_handle_ends_only_its_subscription(values, mail):
    reg(values)
    values.subscribe(42, 0x0101, 1)
    values.subscribe(42, 0x0101, 2)
    mail.dead.add((42, 2))
    values.set(1, 0x0101, f16(5), Auth.PUBLIC, 0)
    values.set(1, 0x0101, f16(6), Auth.PUBLIC, 0)
    assert len(mail.to(42, 1)) == 2
    assert values.info(0x0101).subscribers == 1


def test_subscribe_checks_existence_and_access(values, events):
    assert values.subscribe(1, 0x0101, 1) is ValStatus.ENOENT
    reg(values, auth=Auth.ADMIN)
    assert values.subscribe(1, 0x0101, 1) is ValStatus.EPERM
    assert values.subscribe(1, 0x0101, 1, Auth.ADMIN) is OK
    assert values.subscribe(100, 0x0101, 1) is OK
    assert len(events.of("value_error")) == 2


def test_unsubscribe(values, mail):
    reg(values)
    reg(values, ident=2)
    for oid in (0x0101, 0x0102):
        values.subscribe(5, oid, 1)
        values.subscribe(5, oid, 2)
    assert values.unsubscribe(5, oid=0x0101, handle=2) == 1
    assert values.unsubscribe(5, handle=1) == 2          # a closed handle, all values
    assert values.unsubscribe(5, handle=1) == 0
    assert values.info(0x0101).subscribers == 0 and values.info(0x0102).subscribers == 1


def test_without_a_notify_hook_changes_still_work(events):
    values = ValueRegistry(emit=events)
    values.register(1, 1, 1)
    values.subscribe(2, 0x0101, 1)
    assert values.set(2, 0x0101, f16(1), Auth.PUBLIC, 0).changed


# -- listing -------------------------------------------------------------------------------

def test_list_filters(values):
    reg(values, pid=100, group=1, ident=1, name="a")
    reg(values, pid=100, group=1, ident=2, name="b", group_name="g")
    reg(values, pid=200, group=2, ident=1, auth=Auth.ADMIN)
    assert [v.oid for v in values.list()] == [0x0101, 0x0102, 0x0201]
    assert [v.oid for v in values.list(group=1)] == [0x0101, 0x0102]
    assert [v.oid for v in values.list(group=0xFF)] == [0x0101, 0x0102, 0x0201]
    assert [v.oid for v in values.list(owner=100)] == [0x0101, 0x0102]
    assert [v.oid for v in values.list(name="b")] == [0x0102]
    assert [v.oid for v in values.list(name="g.b")] == [0x0102]
    assert [v.oid for v in values.list(visible_to=(300, Auth.PUBLIC))] == [0x0101, 0x0102]
    assert [v.oid for v in values.list(visible_to=(200, Auth.PUBLIC))] == [0x0101, 0x0102, 0x0201]


def test_info_as_dict_is_json_ready(values):
    reg(values, init=2, name="t", unit="degC", epsilon_f16=f16(0.5), min_f16=f16(-1),
        max_f16=f16(100), rate_ms=10)
    row = values.info(0x0101).as_dict()
    assert row["last_value"] == 2.0 and row["unit"] == "degC" and row["min"] == -1.0
    assert row["epsilon"] == 0.5 and row["rate_ms"] == 10
    reg(values, ident=2)
    values.set(100, 0x0102, 0x7C00, Auth.PUBLIC, 0)
    assert json.loads(json.dumps(values.info(0x0102).as_dict()))["last_value"] == "inf"


# -- tasks ---------------------------------------------------------------------------------

def test_release_task_drops_values_and_subscriptions(values, mail):
    reg(values, pid=100, ident=1)
    reg(values, pid=200, ident=2)
    values.subscribe(100, 0x0102, 1)
    values.subscribe(300, 0x0102, 1)
    assert values.release_task(100) == [0x0101]
    assert values.get(1, 0x0101).status is ValStatus.ENOENT
    values.set(200, 0x0102, f16(3), Auth.PUBLIC, 0)
    assert [pid for pid, _, _ in mail.sent] == [300]
    assert reg(values, pid=101, ident=1).status is OK    # the app can load again
