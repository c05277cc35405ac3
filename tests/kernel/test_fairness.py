"""Priorities have their documented effect under load (issue 17, group 6): a task alone
at the highest ready priority runs in long turns, not one instruction per kernel pass
just because lower-priority tasks are ready too; equal priorities share evenly."""
from __future__ import annotations

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.toolchain.build import build_source

LOOP = ".text\n.entry start\nstart:\n    ADDI R1, R1, 1\n    JMP start\n"


def kernel_with(hogs: int, tmp_path) -> tuple[Kernel, list]:
    kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=tmp_path / "fs")
    tasks = [kernel.load(build_source(LOOP, "loop.mvasm", app_name=f"hog{n}"))
             for n in range(hogs)]
    return kernel, tasks


def test_a_higher_priority_task_keeps_the_cpu_in_long_turns(tmp_path):
    kernel, hogs = kernel_with(4, tmp_path)
    worker = kernel.load(build_source(LOOP, "worker.mvasm", app_name="worker"))
    kernel.set_priority(worker.pid, 20)
    machine_runs = []
    run = kernel.machine.run
    kernel.machine.run = lambda ctx, budget: machine_runs.append(budget) or run(ctx, budget)
    assert kernel.run(200_000) == 200_000
    assert worker.instructions == 200_000 and all(h.instructions == 0 for h in hogs)
    assert len(machine_runs) <= 2          # not one machine call per instruction


def test_equal_priorities_share_evenly(tmp_path):
    kernel, hogs = kernel_with(5, tmp_path)
    kernel.run(100_000)
    assert [h.instructions for h in hogs] == [20_000] * 5


def test_quantum_weights_the_share_within_a_level(tmp_path):
    kernel, hogs = kernel_with(4, tmp_path)
    for hog in hogs:
        kernel.set_quantum(hog.pid, 100)
    kernel.set_quantum(hogs[0].pid, 400)
    kernel.run(70_000)
    assert [h.instructions for h in hogs] == [40_000, 10_000, 10_000, 10_000]


def test_a_quantum_longer_than_a_batch_is_kept_across_batches(tmp_path):
    """The auto clock runs the kernel in short batches: a turn the batch cut short goes on
    in the next one, so quanta weigh the same whatever the batch size."""
    kernel, hogs = kernel_with(4, tmp_path)
    for hog in hogs:
        kernel.set_quantum(hog.pid, 1_000)
    kernel.set_quantum(hogs[0].pid, 4_000)
    for _ in range(70):
        kernel.run(300)
    assert [h.instructions for h in hogs] == [12_000, 3_000, 3_000, 3_000]
