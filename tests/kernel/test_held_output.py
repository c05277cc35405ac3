"""A task's writes as events (issue 26, the event path): while every listener of
`stdout`/`stderr` takes batches, the bus holds them and hands a run's writes over in one
call (`EventBus.hold`).  Held or not, the stream is the same: the same events, numbers,
time stamps and order, also across another event in the middle of a run, two tasks
interleaving their writes, and the mailbox traffic of each write."""
from __future__ import annotations

import pytest

from mvasmkit import CHATTY

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.runner import run_to_completion
from hsx.toolchain.build import build_source

WRITER = """
.data
out: .ascii "{name}\\n"
err: .ascii "{name}!"
.text
.entry start
start:
    LDI R4, {count}
loop:
    LDI R1, 1
    LDI32 R2, out
    LDI R3, 2
    SVC MOD=4, FN=2
    LDI R1, 2
    LDI32 R2, err
    LDI R3, 2
    SVC MOD=4, FN=2
    ADDI R4, R4, -1
    CMPI R4, 0
    BNE loop
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def kernel_for(tmp_path) -> Kernel:
    return Kernel(clock=VirtualClock(1_000_000), fs_root=tmp_path)


def load(kernel: Kernel, source: str, name: str):
    return kernel.load(build_source(source, filename=f"{name}.mvasm", app_name=name))


def two_writers(kernel: Kernel) -> None:
    """Task a writes 12 times, b 6 times and ends while a goes on (a `task_state` in
    the middle of a run); a quantum of 7 interleaves their writes within each run."""
    for name, count in (("a", 6), ("b", 3)):
        task = load(kernel, WRITER.format(name=name, count=count), name)
        kernel.set_quantum(task.pid, 7)


def stream(events) -> list[tuple]:
    return [(e.seq, e.ts, e.type, e.pid, e.data) for e in events]


@pytest.mark.parametrize("categories", [{"stdout", "stderr", "task_state"}, None],
                         ids=["output-and-states", "everything"])
def test_held_writes_make_the_stream_emitting_each_at_once_makes(tmp_path, categories):
    """One kernel's listener takes each event as it comes; another's takes batches, so
    its kernel holds the writes.  Both see the same events, numbers, time stamps and
    order (with everything subscribed, each write's mailbox_send/recv come first)."""
    at_once, held = kernel_for(tmp_path / "1"), kernel_for(tmp_path / "2")
    seen_at_once: list = []
    at_once.events.subscribe(seen_at_once.append, categories)
    seen_held: list = []
    calls: list[int] = []

    def batch(events: list) -> None:
        calls.append(len(events))
        seen_held.extend(events)

    held.events.subscribe(seen_held.append, categories, batch=batch)
    for kernel in (at_once, held):
        two_writers(kernel)
        assert run_to_completion(kernel).reason == "done"

    assert stream(seen_held) == stream(seen_at_once)
    texts = [e.data["text"] for e in seen_held if e.type in ("stdout", "stderr")]
    assert texts.count("a\n") == texts.count("a!") == 6
    assert texts.count("b\n") == texts.count("b!") == 3
    assert any(e.type == "task_state" and e.data["new_state"] == "returned"
               for e in seen_held)
    assert stream(held.events.history) == stream(at_once.events.history)
    if categories is not None:           # nothing between the writes: they come together
        assert max(calls) > 1


def test_a_run_of_writes_reaches_a_batch_listener_in_one_call(tmp_path):
    kernel = kernel_for(tmp_path)
    calls: list[list] = []
    kernel.events.subscribe(lambda event: calls.append([event]), {"stdout"},
                            batch=lambda events: calls.append(list(events)))
    task = load(kernel, CHATTY, "chatty")
    kernel.run(200)                      # 5 instructions a write
    assert [len(batch) for batch in calls] == [40]
    assert [e.data["text"] for e in calls[0]] == ["tick\n"] * 40
    assert [e.seq for e in calls[0]] == list(range(calls[0][0].seq, calls[0][0].seq + 40))
    assert {e.pid for e in calls[0]} == {task.pid}
    assert kernel.events.last_seq == calls[0][-1].seq    # nothing left held after the run


def test_a_listener_without_a_batch_form_gets_each_write_while_the_task_runs(tmp_path):
    """Holding is for listeners that take batches: one that does not (the timeline
    recorder places each output at its instruction) is called during the write, and so
    then is the batch listener beside it."""
    kernel = kernel_for(tmp_path)
    batched: list = []
    kernel.events.subscribe(batched.append, {"stdout"}, batch=batched.extend)
    during: list = []
    kernel.events.subscribe(lambda event: during.append((kernel.current, event.seq)),
                            {"stdout"})
    task = load(kernel, CHATTY, "chatty")
    kernel.run(40)
    assert len(during) == 8 and all(current is task for current, _ in during)
    assert [e.seq for e in batched] == [seq for _, seq in during]


def test_output_held_when_a_listener_comes_goes_to_those_listening_when_it_was_written(
        tmp_path):
    """A subscription in the middle of a run (a write's handler could make one) first
    emits what is held to those who listened when it was written: the newcomer gets
    what comes after it, as without holding."""
    kernel = kernel_for(tmp_path)
    first: list = []
    kernel.events.subscribe(first.append, {"stdout"}, batch=first.extend)
    task = load(kernel, CHATTY, "chatty")
    kernel.run(20)
    kernel.events.hold("stdout", task.pid, {"text": "held\n"})
    later: list = []
    kernel.events.subscribe(later.append, {"stdout"})
    kernel.run(10)
    assert [e.data["text"] for e in first] == ["tick\n"] * 4 + ["held\n"] + ["tick\n"] * 2
    assert [e.data["text"] for e in later] == ["tick\n"] * 2
    kernel.events.unsubscribe(later.append)
