"""Shared helpers for the debugger tests: real MVASM programs that follow the ABI,
linked with their symbols, loaded from disk into a kernel on virtual time with a
Debugger attached."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hsx.debug import Debugger
from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym
from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.states import TaskState
from hsx.toolchain.build import assemble_source, link_objects

# main calls fact(5) recursively (ABI frames) and stores the result in `counter`.
FACT = """
        .entry _start
_start: LDI R14, 0
        CALL main
        SVC MOD=1, FN=0
main:   PUSH R14
        MOV R14, R15
        LDI R1, 5
        CALL fact
after:  LDI32 R2, counter
        ST [R2], R0
        MOV R15, R14
        POP R14
        RET
fact:   PUSH R14
        MOV R14, R15
        CMPI R1, 1
        BLE base
        PUSH R1
        ADDI R1, R1, -1
        CALL fact
back:   POP R1
        MUL R0, R0, R1
        JMP done
base:   LDI R0, 1
done:   MOV R15, R14
        POP R14
        RET
        .data
counter: .word 0
"""

# main counts R1 = 1..5 into `counter`, calling a frameless leaf each time.
LOOP = """
        .entry _start
_start: LDI R14, 0
        CALL main
        SVC MOD=1, FN=0
main:   PUSH R14
        MOV R14, R15
        LDI R1, 0
        LDI32 R3, counter
again:  ADDI R1, R1, 1
store:  ST [R3], R1
        CALL leaf
        CMPI R1, 5
        BLT again
        MOV R0, R1
        MOV R15, R14
        POP R14
        RET
leaf:   PUSH R6
        LDI R6, 7
inleaf: ADD R0, R6, R1
        POP R6
        RET
        .data
counter: .word 0
"""

# A task that keeps running next to the one being debugged.
SPINNER = """
        .entry start
start:  LDI R1, 0
loop:   ADDI R1, R1, 1
        LDI32 R2, ticks
        ST [R2], R1
        BR loop
        .data
ticks:  .word 0
"""


def build(tmp: Path, name: str, source: str) -> Path:
    """Assemble and link `source` as `<tmp>/<name>.hxe` with `<name>.sym` beside it."""
    image, symbols = link_objects([assemble_source(source, f"{name}.mvasm")], app_name=name)
    path = tmp / f"{name}.hxe"
    path.write_bytes(write_hxe(image))
    path.with_suffix(".sym").write_bytes(write_sym(symbols))
    return path


@dataclass
class Rig:
    tmp: Path
    kernel: Kernel
    debugger: Debugger
    events: list = field(default_factory=list)
    output: dict = field(default_factory=dict)

    def load(self, name: str, source: str):
        return self.kernel.load(build(self.tmp, name, source))

    def run_until(self, done, budget: int = 2_000_000, slice_: int = 1000) -> int:
        """Run the kernel in slices until `done()` holds; fails if it never does."""
        executed = 0
        while not done():
            ran = self.kernel.run(slice_)
            executed += ran
            assert executed < budget and (ran or done()), "condition never reached"
        return executed

    def run_until_paused(self, task, **kwargs) -> int:
        return self.run_until(lambda: task.state is TaskState.PAUSED, **kwargs)

    def breaks(self, pid: int | None = None) -> list[dict]:
        return [e.data for e in self.events
                if e.type == "debug_break" and (pid is None or e.pid == pid)]

    def of(self, type_: str) -> list:
        return [e for e in self.events if e.type == type_]


def make_rig(tmp: Path, state_dir: Path | None = None, **kernel_args) -> Rig:
    output: dict = {}

    def sink(task, fd, data):
        output.setdefault(task.pid, bytearray()).extend(data)

    kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=tmp / "fs", output=sink,
                    state_dir=state_dir, **kernel_args)
    rig = Rig(tmp, kernel, Debugger(kernel), output=output)
    kernel.events.subscribe(rig.events.append)
    return rig
