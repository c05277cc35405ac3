"""The C examples (examples/c/) build and run under the executive."""
from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "c"
MAX_INSTRUCTIONS = 5_000_000


class Run:
    def __init__(self, tmp_path: Path) -> None:
        from hsx.kernel.clock import VirtualClock
        from hsx.kernel.executive import Kernel
        self.output: dict[int, bytearray] = {}
        self.kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=tmp_path / "fs",
                             output=self._sink)

    def _sink(self, task, fd, data) -> None:
        self.output.setdefault(task.pid, bytearray()).extend(data)

    def load(self, name: str, app: str):
        from hsx.toolchain.cc import build_c_file
        return self.kernel.load(build_c_file(EXAMPLES / name), name=app)

    def run(self):
        from hsx.kernel.runner import run_to_completion
        outcome = run_to_completion(self.kernel, max_instructions=MAX_INSTRUCTIONS)
        assert outcome.reason == "done"
        return outcome

    def text(self, task) -> str:
        return self.output.get(task.pid, bytearray()).decode()


def test_hello(tmp_path):
    run = Run(tmp_path)
    task = run.load("hello.c", "hello")
    run.run()
    assert task.exit_status == 0
    assert run.text(task) == ("Hello from C on HSX\nfib(0) = 0\nfib(30) = 832040\n"
                              "fib(60) = 1548008755920\nfib(90) = 2880067194370816120\n"
                              "pi is about 3.141593\n")


@pytest.mark.parametrize("consumer_first", [True, False])
def test_mailbox_producer_and_consumer(tmp_path, consumer_first):
    run = Run(tmp_path)
    if consumer_first:
        consumer = run.load("mailbox_consumer.c", "consumer")
        producer = run.load("mailbox_producer.c", "producer")
    else:
        producer = run.load("mailbox_producer.c", "producer")
        consumer = run.load("mailbox_consumer.c", "consumer")
    run.run()
    assert (producer.exit_status, consumer.exit_status) == (0, 0)
    assert run.text(producer) == "producer: sent 10 squares\n"
    lines = run.text(consumer).splitlines()
    assert lines[:-1] == [f"consumer: got {i * i} from task {producer.pid}"
                          for i in range(1, 11)]
    assert lines[-1] == "consumer: 10 messages, total 385"


def _stats(taken: int) -> int:
    return sum((15 + i) ** 2 for i in range(taken)) + 1000 * taken


def test_values_and_a_command_in_c(tmp_path):
    from hsx.kernel.registry import CmdStatus
    run = Run(tmp_path)
    task = run.load("values_app.c", "thermostat")
    kernel = run.kernel
    assert kernel.values.get(0, 0x0101).raw == 0x4D20            # setpoint 20.5
    assert kernel.values.get(0, 0x0102).raw == 0x4C80            # temperature 18
    assert [c.oid for c in kernel.commands.list()] == [0x0103]
    assert kernel.call_command(0, 0x0103, None) == (CmdStatus.OK, 0)   # before main ran
    kernel.run(2000)                                             # first reading, asleep
    status, result = kernel.call_command(0, 0x0103, None)
    assert status is CmdStatus.OK
    assert result in [_stats(n) for n in range(1, 8)]
    run.run()
    assert task.exit_status == 0
    assert run.text(task) == f"thermostat: 8 readings, stats {_stats(8)}\n"


def test_sensor_loop_sleeps(tmp_path):
    run = Run(tmp_path)
    task = run.load("sensor.c", "sensor")
    outcome = run.run()
    assert task.exit_status == 0
    lines = run.text(task).splitlines()
    assert len(lines) == 6
    times = [int(line.split("t=")[1].split()[0]) for line in lines[:5]]
    assert times[0] == 0
    assert all(100 <= b - a < 110 for a, b in zip(times, times[1:]))   # 100 ms sleeps
    assert lines[5].startswith("sensor: average ")
    # five 100 ms sleeps on virtual time, far more than the instructions alone take
    assert run.kernel.clock.now() >= 0.5
    assert outcome.instructions < 100_000
