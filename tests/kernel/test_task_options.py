"""What a load asks of its task: the arguments block at the documented place and in the
documented layout (docs/abi.md), R1..R3 pointing into it, the heap ending below it; the
stack and memory from the load, else the image, else the profile; a bigger stack
growing the default memory; the profile's cap on memory."""
from __future__ import annotations

import dataclasses
import struct

import pytest

from hsx.kernel.errors import KernelError
from hsx.kernel.taskargs import TaskOptions
from hsx.toolchain.build import build_source

SPIN = ".entry start\nstart: BR start\n"


def _image(**sizes):
    return dataclasses.replace(build_source(SPIN, filename="spin.mvasm", app_name="spin"),
                               **sizes)


def _strings(mem: bytes, table: int) -> list[str]:
    out = []
    while (pointer := struct.unpack_from("<I", mem, table)[0]) != 0:
        out.append(mem[pointer:mem.index(b"\0", pointer)].decode())
        table += 4
    return out


def test_the_arguments_block_sits_below_the_stack_guard_in_the_documented_layout(harness):
    task = harness.kernel.load(_image(), options=TaskOptions(args=("a", "bé c"),
                                                            env=("K=v", "E="), program="p"))
    ctx, lay = task.ctx, task.ctx.layout
    argc, argv, envp = ctx.regs[1], ctx.regs[2], ctx.regs[3]
    assert (argc, argv) == (3, lay.heap_end)
    assert envp == argv + 4 * (argc + 1)
    mem = bytes(ctx.mem)
    assert _strings(mem, argv) == ["p", "a", "bé c"] and _strings(mem, envp) == ["K=v", "E="]
    assert lay.args_end == lay.stack_base - 16 and lay.heap_end < lay.args_end
    names = [r.name for r in lay.regions()]
    assert names[names.index("heap") + 1:names.index("stack")] == ["args", "stack_guard_low"]


def test_sizes_come_from_the_load_then_the_image_then_the_profile(harness):
    profile = harness.kernel.profile
    plain = harness.kernel.load(_image()).ctx.layout
    assert plain.mem_size == profile.task_memory
    assert plain.stack_top - plain.stack_base == profile.stack_size
    asked = harness.kernel.load(_image(stack_size=0x1000, mem_size=0x20000)).ctx.layout
    assert (asked.stack_top - asked.stack_base, asked.mem_size) == (0x1000, 0x20000)
    loaded = harness.kernel.load(_image(stack_size=0x1000, mem_size=0x20000),
                                 options=TaskOptions(stack_size=0x3000, memory=0x30000))
    assert (loaded.ctx.layout.stack_top - loaded.ctx.layout.stack_base,
            loaded.ctx.layout.mem_size) == (0x3000, 0x30000)


def test_a_bigger_stack_grows_the_default_memory_and_keeps_the_heap(harness):
    profile = harness.kernel.profile
    plain = harness.kernel.load(_image()).ctx.layout
    deep = harness.kernel.load(_image(stack_size=profile.stack_size + 0x10000)).ctx.layout
    assert deep.mem_size == profile.task_memory + 0x10000
    assert deep.heap_end - deep.heap_start == plain.heap_end - plain.heap_start


def test_memory_beyond_the_profiles_cap_is_refused(harness):
    cap = harness.kernel.profile.max_task_memory
    with pytest.raises(KernelError) as error:
        harness.kernel.load(_image(), options=TaskOptions(memory=cap + 16))
    assert error.value.code == "task_memory_limit" and str(cap) in error.value.message
