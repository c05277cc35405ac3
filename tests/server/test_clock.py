"""The auto clock: short batches while busy, real sleep while idle, and it survives."""
from __future__ import annotations

import statistics
import time

from serverkit import ECHO, LOOP, SLEEPER, load, state, wait_for


def test_requests_are_answered_quickly_while_eight_tasks_run(client):
    for n in range(8):
        load(client, LOOP, f"busy{n}")
    time.sleep(0.2)
    samples = []
    for _ in range(100):
        started = time.perf_counter()
        client.request("ps")
        samples.append(time.perf_counter() - started)
    assert statistics.median(samples) < 0.010
    rows = client.request("ps")["tasks"]["tasks"]
    assert all(r["instructions"] > 1000 for r in rows)        # and they all ran
    assert client.request("clock")["clock"]["mode"] == "running"


def test_nothing_runnable_means_no_batches(server, client):
    pid = load(client, ECHO, "echo")                          # blocks reading stdin
    wait_for(lambda: state(client, pid) == "waiting_mbx")
    clock = server.server.clock
    before = clock.auto_batches
    time.sleep(0.3)
    assert clock.auto_batches == before and clock.mode == "blocked"
    client.request("stdio", pid=pid, data="x")                 # a request wakes it
    wait_for(lambda: state(client, pid) == "returned")


def test_requests_that_change_nothing_leave_the_sleeping_clock_asleep(server, client):
    """A step of a paused task or a `ps` does not cost the clock a pass; a request that
    changes what it decides on (a resume, a task loaded or killed) still wakes it."""
    clock = server.server.clock
    assert client.request("clock")["clock"]["mode"] == "idle"
    pid = load(client, LOOP, "loop", paused=True)
    wait_for(lambda: client.request("clock")["clock"]["mode"] == "blocked")
    wakes = []
    real_set = clock._wake.set
    server.call(setattr, clock._wake, "set", lambda: (wakes.append(1), real_set()))
    for _ in range(20):
        client.request("step", pid=pid, count=1)
        client.request("ps")
    assert wakes == [] and clock.mode == "blocked" and clock.auto_batches == 0
    client.request("resume", pid=pid)
    wait_for(lambda: clock.auto_batches > 0)
    assert wakes
    client.request("kill", pid=pid)
    wait_for(lambda: client.request("clock")["clock"]["mode"] == "idle")


def test_sleeping_task_wakes_on_its_deadline_without_polling(server, client):
    clock = server.server.clock
    started = time.monotonic()
    pid = load(client, SLEEPER, "sleeper")
    wait_for(lambda: state(client, pid) == "sleeping", interval=0.001)
    batches = clock.auto_batches
    wait_for(lambda: state(client, pid) == "returned", interval=0.002)
    assert 0.025 <= time.monotonic() - started < 1.0
    assert clock.auto_batches - batches <= 3                  # woke up once, not a spin
    assert client.request("ps", pid=pid)["tasks"]["tasks"][0]["exit_status"] == 5


def test_a_kernel_failure_stops_the_clock_and_is_logged(server, client):
    def broken(budget, until=None):
        raise RuntimeError("boom")

    load(client, LOOP, "loop", paused=True)
    server.call(setattr, server.server.kernel, "run", broken)
    client.request("resume")
    wait_for(lambda: client.request("clock")["clock"]["running"] is False)
    logs = client.request("dmesg", level="error")["logs"]
    assert any("auto clock" in e["message"] and "boom" in e["message"] for e in logs)
    assert client.request("ping")["reply"] == "pong"


def test_a_batch_sized_for_cheap_instructions_stays_short_when_they_turn_dear(client, connect):
    """A lone task runs long cheap turns, so the clock sizes its batches in tens of
    thousands of instructions; a second task plus a `scheduler` subscriber make every
    instruction a switch with an event to build.  Requests must still be answered
    within a few slices, not after a batch of the old size (about a second)."""
    load(client, LOOP, "alone")
    wait_for(lambda: client.request("clock")["clock"]["step_size"] > 5_000)
    watcher = connect()
    watcher.subscribe(["scheduler"])
    load(client, LOOP, "second")
    samples = []
    for _ in range(20):
        started = time.perf_counter()
        client.request("ping")
        samples.append(time.perf_counter() - started)
    assert max(samples) < 0.25
    seen = {watcher.next_event(timeout=5)["type"] for _ in range(2)}   # (a loss warning first)
    assert "scheduler" in seen
