"""Properties of the set algorithm over arbitrary sequences of writes."""
from hypothesis import given, settings
from hypothesis import strategies as st

from hsx.isa.f16 import f16_to_float
from hsx.isa.f16 import float_to_f16 as f16
from hsx.kernel.registry import (
    NOTIFY,
    Auth,
    PersistKey,
    PersistStore,
    ValFlag,
    ValStatus,
    ValueDescriptor,
    ValueRegistry,
)

OID = 0x0101
SUBSCRIBERS = [(7, 1), (8, 3)]

descriptors = st.builds(
    dict,
    epsilon=st.sampled_from([0.0, 0.5, 2.0]),
    rate_ms=st.sampled_from([0, 50, 100]),
    bounded=st.booleans(),
    boolean=st.booleans(),
    debounce_ms=st.sampled_from([0, 20, 100]),
)
writes = st.lists(st.tuples(st.integers(0, 0xFFFF), st.integers(0, 200)), max_size=40)


@settings(max_examples=150, deadline=None)
@given(params=descriptors, sequence=writes)
def test_value_and_notifications_follow_the_effective_sets(params, sequence):
    sent: list[tuple[int, int, bytes]] = []
    changes: list[dict] = []
    store = PersistStore(":memory:")
    values = ValueRegistry(
        store=store,
        notify=lambda pid, handle, payload: sent.append((pid, handle, payload)) or True,
        emit=lambda type_, pid, data: changes.append(data) if type_ == "value_changed" else None)
    descriptor = ValueDescriptor(
        epsilon_f16=f16(params["epsilon"]), rate_ms=params["rate_ms"], persist_key=1,
        debounce_ms=params["debounce_ms"],
        min_f16=f16(-100) if params["bounded"] else 0,
        max_f16=f16(100) if params["bounded"] else 0)
    flags = ValFlag.PERSIST | (ValFlag.BOOL if params["boolean"] else 0)
    assert values.register(1, 1, 1, flags, Auth.PUBLIC, descriptor, 0).status is ValStatus.OK
    for pid, handle in SUBSCRIBERS:
        values.subscribe(pid, OID, handle)

    current, last_change, effective, now = 0, None, 0, 0.0
    for raw, dt_ms in sequence:
        now += dt_ms / 1000.0
        result = values.set(2, OID, raw, Auth.PUBLIC, now)
        if result.status is ValStatus.EBUSY:
            assert last_change is not None and now - last_change < params["rate_ms"] / 1000
        elif result.status is ValStatus.EINVAL:
            x = f16_to_float(raw)
            assert params["bounded"] and not params["boolean"] and not -100 <= x <= 100
        else:
            assert result.status is ValStatus.OK
            if result.changed:
                old, new = f16_to_float(current), f16_to_float(result.raw)
                assert result.raw != current
                assert not (params["epsilon"] and abs(new - old) < params["epsilon"])
                if params["boolean"]:
                    assert result.raw in (0, 0x3C00)
                elif params["bounded"]:
                    assert -100 <= new <= 100
                current, last_change = result.raw, now
                effective += 1
            store.flush_due(now)
        assert values.get(1, OID).raw == current
        assert store.load(PersistKey("", 1)) == (current if effective else None)

    # One event and one notification per subscriber per effective change, chained old->new.
    assert len(changes) == effective
    assert len(sent) == effective * len(SUBSCRIBERS)
    previous = 0
    for change in changes:
        assert change["old_f16"] == previous
        previous = change["new_f16"]
        for pid, handle in SUBSCRIBERS:
            assert (pid, handle, NOTIFY.pack(OID, change["old_f16"], change["new_f16"])) in sent
    store.flush()
    if effective:
        assert store.load(PersistKey("", 1)) == current
    store.close()
