"""The three variants answer differently (docs/variants.md): a command the executive's
variant lacks is `unsupported` and names the variant that has it (`variant_required`,
as the C executive answers); sizes are caps; and a session may use only the features
it negotiated (`capability_required`)."""
from __future__ import annotations

import pytest
from serverkit import LOOP, load

from hsx.client import Client, ProtocolError
from hsx.server import BackgroundServer, ServerConfig

VARIANTS = ("minimal", "development", "full")


@pytest.fixture(params=VARIANTS)
def executive(request, tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs",
                                       profile=request.param)) as srv:
        with Client(srv.host, srv.port, timeout=10) as client:
            yield request.param, client


# A request of each kind, and the first variant that answers it.
OFFERS = [
    ("ps", {}, "minimal"), ("peek", {"addr": 0x4000}, "minimal"), ("regs", {}, "minimal"),
    ("poke", {"addr": 0x4000, "data": "00"}, "minimal"), ("step", {}, "minimal"),
    ("pause", {}, "minimal"), ("val.list", {}, "minimal"), ("cmd.list", {}, "minimal"),
    ("mailbox.snapshot", {}, "minimal"), ("stdio", {"op": "recent"}, "minimal"),
    ("memory.regions", {}, "minimal"), ("load.begin", {}, "minimal"),
    ("bp.set", {"addr": 0}, "development"), ("bp.list", {}, "development"),
    ("run.to", {"addr": 4}, "development"), ("stack.info", {}, "development"),
    ("watch.add", {"addr": 0x4000}, "development"), ("trace.on", {}, "development"),
    ("disasm.read", {}, "development"), ("symbols.info", {}, "development"),
    ("history.on", {}, "development"), ("events.subscribe", {}, "development"),
    ("stdio", {"op": "subscribe"}, "development"), ("timeline.start", {}, "development"),
    ("timeline.status", {}, "development"),
]


def test_each_variant_answers_what_it_offers_and_names_the_one_that_has_the_rest(executive):
    variant, client = executive
    pid = load(client, LOOP, "loop", paused=True)
    for cmd, fields, first in OFFERS:
        fields = {**fields, "pid": pid} if cmd not in ("ps", "val.list", "cmd.list",
                                                       "mailbox.snapshot", "load.begin",
                                                       "events.subscribe", "timeline.start",
                                                       "timeline.status") else fields
        if VARIANTS.index(variant) >= VARIANTS.index(first):
            client.request(cmd, **fields)                      # answered
            continue
        with pytest.raises(ProtocolError) as refused:
            client.request(cmd, **fields)
        reply = refused.value.reply
        assert (refused.value.code, reply["variant_required"]) == ("unsupported", first), cmd
        assert f"needs the development or full variant; this executive runs {variant}" \
            in refused.value.message, cmd


def test_observer_sessions_are_the_full_variants(executive):
    variant, client = executive
    if variant == "full":
        assert client.open_session("viewer", observer=True)["observer"] is True
        return
    with pytest.raises(ProtocolError) as refused:
        client.open_session("viewer", observer=True)
    assert refused.value.reply["variant_required"] == "full"
    assert refused.value.message == ("observer sessions need the full variant; this "
                                     f"executive runs {variant}")


def test_info_and_session_open_report_what_the_variant_offers(executive):
    variant, client = executive
    info = client.request("info")["info"]
    session = client.open_session("tool")
    assert info["variant"] == session["variant"] == variant
    assert session["features"] == info["features"]
    assert ("debug" in info["features"]) is (variant != "minimal")
    assert ("events" in info["features"]) is (variant != "minimal")
    assert ("observers" in info["features"]) is (variant == "full")
    required = info["variant_required"]
    assert set(required) | set(info["features"]) == set(info["features"]) | {
        "observers", "debug", "events", "stack", "watch", "trace", "disasm", "symbols",
        "variables", "expressions", "reverse", "timeline"}
    assert required.get("observers") == (None if variant == "full" else "full")
    assert required.get("debug") == ("development" if variant == "minimal" else None)
    asked = client.open_session("tool", features=["memory", "trace"])
    assert asked["features"] == (["memory"] if variant == "minimal" else ["memory", "trace"])
    assert asked.get("warnings", []) == (["unsupported_feature:trace"]
                                         if variant == "minimal" else [])


def test_a_trace_ring_larger_than_the_variants_is_clamped_to_it(executive):
    variant, client = executive
    if variant == "minimal":
        return                                   # no trace at all (the test above)
    pid = load(client, LOOP, "loop", paused=True)
    cap = client.request("info")["info"]["limits"]["trace_records"]
    assert cap == {"development": 100, "full": 16384}[variant]
    trace = client.request("trace.on", pid=pid, size=100_000)["trace"]
    assert trace["capacity"] == cap and trace["warnings"] == [f"size_clamped:{cap}"]
    assert client.request("trace.on", pid=pid, size=cap)["trace"]["capacity"] == cap


def test_a_session_uses_only_the_features_it_negotiated(connect):
    client = connect()
    pid = load(client, LOOP, "loop", paused=True)
    client.open_session("events only", features=["events"])
    for cmd, fields, feature in (("bp.set", {"addr": 0}, "debug"),
                                 ("poke", {"addr": 0x4000, "data": "01"}, "memory"),
                                 ("peek", {"addr": 0x4000}, "memory"),
                                 ("stack.info", {}, "stack")):
        with pytest.raises(ProtocolError) as refused:
            client.request(cmd, pid=pid, **fields)
        assert refused.value.code == "capability_required", cmd
        assert refused.value.reply["feature"] == feature
        assert f"needs the session feature '{feature}'" in refused.value.message
    client.subscribe(["task_state"])                          # what it negotiated works
    assert client.request("ps")["tasks"]["tasks"][0]["pid"] == pid     # and what needs none
    # `debug` is the whole debugger; the prior executive's names also let a client
    # set breakpoints, as its clients did
    for features in (["debug"], ["events", "stack", "watch"]):
        client.open_session("debugger", features=features)
        assert client.request("bp.set", pid=pid, addr=0)["breakpoint"]["address"] == 0
        client.request("stack.info", pid=pid)
    # without a session nothing was negotiated, so nothing is refused
    assert connect().request("poke", pid=pid, addr=0x4000, data="02")["length"] == 1
