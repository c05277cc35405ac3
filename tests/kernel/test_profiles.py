"""Profiles: sane defaults, overrides that are checked, clear errors."""
import pytest

from hsx.kernel.profiles import PROFILES, get_profile


def test_profiles_grow_from_minimal_to_full():
    small, dev, full = PROFILES["minimal"], PROFILES["development"], PROFILES["full"]
    for limit in ("max_tasks", "task_memory", "stack_size", "max_descriptors", "trace_records"):
        assert getattr(small, limit) < getattr(dev, limit) < getattr(full, limit)
    for profile in PROFILES.values():
        profile.validate()


def test_default_is_development_with_64k_tasks():
    assert get_profile().name == "development"
    assert get_profile().task_memory == 0x10000


def test_override_changes_only_what_was_asked():
    p = get_profile("minimal", max_tasks=10)
    assert p.max_tasks == 10 and p.stack_size == PROFILES["minimal"].stack_size


@pytest.mark.parametrize("name, overrides, message", [
    ("huge", {}, "unknown profile 'huge'"),
    ("development", {"max_taks": 3}, "unknown limit 'max_taks'"),
    ("development", {"max_tasks": 0}, "positive integer"),
    ("development", {"max_tasks": True}, "positive integer"),
    ("minimal", {"stack_size": 0x8000}, "does not fit"),
])
def test_bad_profiles_are_refused_with_the_reason(name, overrides, message):
    with pytest.raises(ValueError, match=message):
        get_profile(name, **overrides)


def test_each_variant_offers_what_the_one_before_it_does_and_more():
    small, dev, full = (PROFILES[name].features for name in ("minimal", "development", "full"))
    assert small < dev < full
    assert {"memory", "stdio", "values", "commands"} <= small
    assert not small & {"debug", "events", "trace", "stack", "watch", "reverse", "timeline"}
    assert full - dev == {"observers"}
    assert get_profile("minimal", max_tasks=2).features == small      # overrides keep them
