"""Fixtures for kernel tests: a kernel on virtual time that builds MVASM programs."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.runner import Outcome, run_to_completion
from hsx.toolchain.build import build_source


@dataclass
class Harness:
    kernel: Kernel
    output: dict[int, bytearray] = field(default_factory=dict)
    events: list = field(default_factory=list)

    def load(self, source: str, name: str):
        return self.kernel.load(build_source(source, filename=f"{name}.mvasm", app_name=name))

    def run(self, **kwargs) -> Outcome:
        return run_to_completion(self.kernel, **kwargs)

    def text(self, pid: int) -> str:
        return self.output.get(pid, bytearray()).decode()

    def of(self, type_: str) -> list:
        return [e for e in self.events if e.type == type_]


@pytest.fixture
def harness(tmp_path) -> Harness:
    return make_harness(tmp_path)


@pytest.fixture
def harness_with(tmp_path):
    """harness_with(name, **kernel_args): another harness (its own files under `name`)."""
    return lambda name, **kernel_args: make_harness(tmp_path / name, **kernel_args)


def make_harness(tmp_path, **kernel_args) -> Harness:
    harness_output: dict[int, bytearray] = {}

    def sink(task, fd, data):
        harness_output.setdefault(task.pid, bytearray()).extend(data)

    kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=tmp_path / "fs", output=sink,
                    **kernel_args)
    h = Harness(kernel, harness_output)
    kernel.events.subscribe(h.events.append)
    return h
