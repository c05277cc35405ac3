"""Faults, task ends, stack guards, registers in memory, context switching, breakpoints,
trace, layout and the host-side API."""
from __future__ import annotations

import pytest

from hsx.vm import ContextState, LoadError, MachineError, StopReason
from hsx.vm.layout import Layout
from vmkit import MODE_IDS, MODES, asm, image, load, machine

TOP = 0x10000 - 64 - 16
BASE = TOP - 0x2000


@pytest.fixture(params=MODES, ids=MODE_IDS)
def tr(request):
    return request.param


def state(m, ctx):
    return bytes(ctx.mem), ctx.pc, ctx.psw


# --- faults: kind, pc, addr, and no effect ------------------------------------------------

FAULTS = [
    # (program, setup instructions before the faulting one, kind, addr)
    (["LDI R1, 16", "LD R2, [R1+0]"], "memory", 16),
    (["LDI R1, 0", "STB [R1+255], R1"], "memory", 255),
    (["LDI32 R1, 0xFFFFFFFF", "LDH R2, [R1+0]"], "memory", 0xFFFFFFFF),
    (["LDI32 R1, 0x10000", "ST [R1-2], R1"], "memory", 0xFFFE),
    (["LDI R1, 3", "LDI R2, 0", "REMU R3, R1, R2"], "divide_by_zero", None),
    (["LDI R1, 3", "LDI R2, 0", "DIVU R3, R1, R2"], "divide_by_zero", None),
    (["LDI R1, 3", 0x05000000], "illegal_opcode", None),
    (["LDI R1, 3", "JMP 0x800"], "pc_out_of_range", 0x800),
    (["LDI R1, 3", "JMP 6"], "pc_out_of_range", 6),
    (["LDI R1, 3", "BR 1000"], "pc_out_of_range", 4004),
    (["LDI R1, 2", "JMPR R1"], "pc_out_of_range", 2),
    (["LDI R1, 64", "CALLR R1"], "pc_out_of_range", 64),
    (["LDI R1, 1", "CALL R1, 1"], "pc_out_of_range", 5),
    (["LDI R1, 3", 0x60200000], "pc_out_of_range", 8),       # LDI32 without its literal
    (["LDI R1, 3", "MOV R15, R1"], "stack_overflow", 3),
    (["LDI32 R1, 0xFFFF", "MOV R15, R1"], "stack_underflow", 0xFFFF),
    (["LDI R1, 3", "ADDI R15, R15, 4"], "stack_underflow", TOP + 4),
    (["LDI R1, 3", "POP R1"], "stack_underflow", TOP),
    (["PUSH R1", "POP R15"], "stack_overflow", 0),
    (["PUSH R1", "LD R15, [R15+0]"], "stack_overflow", 0),
    (["LDI R1, 3", "LDI R15, 0"], "stack_overflow", 0),
]


@pytest.mark.parametrize("lines,kind,addr", FAULTS)
def test_fault_kind_and_no_effect(tr, lines, kind, addr):
    m, ctx = load(*lines, translate=tr)
    m.run(ctx, len(lines) - 1)
    before = state(m, ctx)
    fault_pc = ctx.pc
    stop = m.run(ctx, 10)
    assert stop.reason is StopReason.FAULT and stop.executed == 0
    assert (stop.fault.kind, stop.fault.pc, stop.fault.addr) == (kind, fault_pc, addr)
    assert state(m, ctx) == before and ctx.state is ContextState.FAULTED
    assert ctx.fault == stop.fault and ctx.steps == len(lines) - 1


@pytest.mark.parametrize("lines,kind,addr", FAULTS)
def test_fault_inside_a_block_leaves_the_state_before_it(lines, kind, addr):
    """The translator writes back exactly the pre-fault state, flags included."""
    prefix = ["LDI32 R7, 0x7FFFFFFF", "ADD R8, R7, R7"]       # leaves lazy flags pending
    m1, exact = load(*prefix, *lines, translate=False)
    m2, fast = load(*prefix, *lines, translate=True)
    s1, s2 = m1.run(exact, 100), m2.run(fast, 100)
    assert s1 == s2 and state(m1, exact) == state(m2, fast) and exact.steps == fast.steps


def test_running_off_the_end_of_code(tr):
    m, ctx = load("LDI R1, 1", translate=tr)
    stop = m.run(ctx, 5)
    assert stop.fault.kind == "pc_out_of_range" and stop.pc == 4 and stop.executed == 1


def test_null_page_message(tr):
    m, ctx = load("LD R1, [R0+8]", translate=tr)
    fault = m.run(ctx, 1).fault
    assert "null page" in fault.message and fault.addr == 8
    assert fault.describe().startswith("memory at pc 0x0000 (addr 0x00000008)")


def test_faulted_context_cannot_run(tr):
    m, ctx = load(0, translate=tr)
    assert m.run(ctx, 1).fault.kind == "illegal_opcode"
    with pytest.raises(MachineError):
        m.run(ctx, 1)
    with pytest.raises(MachineError):
        m.step(ctx)


# --- stack -----------------------------------------------------------------------------

def test_stack_guards_at_both_ends(tr):
    m, ctx = load("PUSH R1", "JMP 0", translate=tr, stack_size=64)
    stop = m.run(ctx, 1000)
    assert stop.fault.kind == "stack_overflow" and stop.executed == 2 * 16
    assert m.registers(ctx)[15] == TOP - 64
    m, ctx = load("POP R1", translate=tr)
    assert m.run(ctx, 5).fault.kind == "stack_underflow"
    m, ctx = load("RET", translate=tr)
    m.write_register(ctx, 15, TOP - 2)          # RET needs a whole word below the top
    assert m.run(ctx, 5).fault.kind == "stack_underflow"


def test_sp_poked_through_the_register_window_is_still_guarded(tr):
    # ST into R15's slot bypasses the SP check (it is a store), but the next PUSH catches it.
    m, ctx = load("LDI32 R1, 0xFFFC", "LDI32 R2, 0x200", "ST [R1+0], R2", "PUSH R2",
                  translate=tr)
    stop = m.run(ctx, 10)
    assert stop.fault.kind == "stack_overflow" and stop.fault.addr == 0x1FC
    assert m.registers(ctx)[15] == 0x200


def test_initial_state():
    m, ctx = load("RET", entry=0)
    assert m.registers(ctx) == [0] * 15 + [TOP]
    assert (ctx.pc, ctx.psw, ctx.steps, ctx.state) == (0, 0, 0, ContextState.READY)


# --- registers live in task memory -----------------------------------------------------

def test_registers_are_visible_in_memory(tr):
    m, ctx = load("LDI R3, -2", "LDI32 R9, 0x12345678", "BRK 0", translate=tr)
    m.run(ctx, 5)
    window = m.read_memory(ctx, ctx.layout.reg_base, 64)
    assert window[12:16] == (0xFFFFFFFE).to_bytes(4, "little")
    assert window[36:40] == (0x12345678).to_bytes(4, "little")
    assert window[60:64] == TOP.to_bytes(4, "little")


def test_store_into_the_register_window_changes_the_register(tr):
    reg_base = 0x10000 - 64
    m, ctx = load(f"LDI32 R1, {reg_base}", "LDI R2, 99", "ST [R1+8], R2",   # R2 := 99
                  "LDI R5, 7", "STB [R1+20], R5", "ADD R6, R2, R5",          # R5 := 7
                  "LD R7, [R1+24]", "BRK 0", translate=tr)
    m.run(ctx, 20)
    r = m.registers(ctx)
    assert (r[2], r[5], r[6], r[7]) == (99, 7, 106, 106)


def test_poking_memory_changes_registers_and_back():
    m, ctx = load("RET")
    m.write_memory(ctx, ctx.layout.reg_base + 4, (5).to_bytes(4, "little"))
    assert m.read_register(ctx, 1) == 5
    m.write_register(ctx, 2, 0xCAFEBABE)
    assert m.read_memory(ctx, ctx.layout.reg_base + 8, 4) == (0xCAFEBABE).to_bytes(4, "little")


# --- context switching -------------------------------------------------------------------

def test_interleaved_contexts_share_nothing_and_copy_nothing(tr):
    m = machine(tr)
    prog = image(asm("LDI32 R2, 0x2000", "LDI R1, 1", "ADD R0, R0, R1", "ST [R2+0], R0",
                     "JMP 8"))
    a, b = m.create_context(prog), m.create_context(prog)
    mem_a, mem_b, regs_a = a.mem, b.mem, a.regs
    for _ in range(50):                      # quantum 1, strict alternation
        m.run(a, 1)
        m.run(b, 1)
    m.run(a, 30)
    assert a.mem is mem_a and b.mem is mem_b and a.regs is regs_a and a.mem is not b.mem
    assert a.steps == 80 and b.steps == 50
    ra, rb = m.registers(a)[0], m.registers(b)[0]
    assert ra > rb
    assert int.from_bytes(m.read_memory(a, 0x2000, 4), "little") in (ra, ra - 1)
    assert int.from_bytes(m.read_memory(b, 0x2000, 4), "little") in (rb, rb - 1)
    m.write_memory(a, 0x3000, b"A")
    assert m.read_memory(b, 0x3000, 1) == b"\0"


# --- breakpoints -------------------------------------------------------------------------

LOOP = ["LDI R1, 0", "LDI R2, 5", "ADDI R1, R1, 1", "CMP R1, R2", "JNZ 8", "MOV R0, R1", "RET"]


def test_breakpoint_stops_before_and_resumes_without_rehit(tr):
    m, ctx = load(*LOOP, translate=tr)
    m.add_breakpoint(ctx, 12)                # CMP inside the loop
    hits = []
    while True:
        stop = m.run(ctx, 1000)
        if stop.reason is not StopReason.BREAKPOINT:
            break
        assert ctx.pc == 12 and stop.pc == 12
        hits.append(m.registers(ctx)[1])
    assert hits == [1, 2, 3, 4, 5]
    assert stop.reason is StopReason.RETURNED and stop.status == 5 and ctx.steps == 2 + 5 * 3 + 2


def test_breakpoint_set_after_blocks_were_translated_splits_them():
    m, ctx = load(*LOOP, translate=True)
    m.run(ctx, 6)                            # the loop block now exists
    m.add_breakpoint(ctx, 12)
    stop = m.run(ctx, 1000)
    assert stop.reason is StopReason.BREAKPOINT and ctx.pc == 12
    m.remove_breakpoint(ctx, 12)
    stop = m.run(ctx, 1000)
    assert stop.reason is StopReason.RETURNED and stop.status == 5


def test_breakpoint_at_the_current_pc_and_quantum_one(tr):
    m, ctx = load(*LOOP, translate=tr)
    m.add_breakpoint(ctx, 0)
    assert m.run(ctx, 1).reason is StopReason.BREAKPOINT and ctx.steps == 0
    assert m.run(ctx, 1).reason is StopReason.BUDGET and ctx.pc == 4
    m.add_breakpoint(ctx, 8)
    assert m.run(ctx, 1).reason is StopReason.BUDGET and ctx.pc == 8
    assert m.run(ctx, 1).reason is StopReason.BREAKPOINT      # arrived by budget: still hits
    assert m.step(ctx).reason is StopReason.BUDGET and ctx.pc == 12


def test_breakpoint_api_errors():
    m, ctx = load("RET")
    for bad in (2, 4, -4):
        with pytest.raises(MachineError):
            m.add_breakpoint(ctx, bad)
    with pytest.raises(MachineError):
        m.remove_breakpoint(ctx, 0)


# --- borrowing a task: a function call made by the host ------------------------------------

# The loop above, then a function at 28 that scribbles on registers and flags and returns.
CALLEE = [*LOOP, "LDI R1, 99", "LDI R2, 7", "CMP R1, R2", "PUSH R1", "POP R3", "MOV R0, R2", "RET"]
RETURN_TO = 0xFFFFFFFC          # not code: returning there stops the machine


def test_a_function_call_through_the_api_leaves_the_task_as_it_was(tr):
    m, ctx = load(*CALLEE, translate=tr)
    m.add_breakpoint(ctx, 12)
    assert m.run(ctx, 1000).reason is StopReason.BREAKPOINT     # mid-loop, resuming past 12
    before, sp = m.save_context(ctx), m.read_register(ctx, 15)
    m.enter_function(ctx, 28, RETURN_TO)
    assert (m.get_pc(ctx), m.read_register(ctx, 15)) == (28, sp - 4)
    assert m.read_memory(ctx, sp - 4, 4) == RETURN_TO.to_bytes(4, "little")
    stop = m.run(ctx, 1000)
    assert stop.reason is StopReason.FAULT and stop.fault.kind.value == "pc_out_of_range"
    assert m.read_register(ctx, 0) == 7
    m.restore_context(ctx, before)
    assert m.save_context(ctx) == before and ctx.state is ContextState.READY
    m.remove_breakpoint(ctx, 12)
    stop = m.run(ctx, 1000)
    assert stop.reason is StopReason.RETURNED and stop.status == 5   # the loop went on as before


def test_enter_function_refuses_what_it_cannot_do(tr):
    m, ctx = load(*CALLEE, translate=tr, stack_size=0x100)
    for bad in (2, 4 * len(CALLEE), -4):
        with pytest.raises(MachineError, match="not an instruction address"):
            m.enter_function(ctx, bad, RETURN_TO)
    m.write_register(ctx, 15, ctx.layout.stack_base)
    with pytest.raises(MachineError, match="no room for a return address"):
        m.enter_function(ctx, 28, RETURN_TO)
    assert m.read_register(ctx, 15) == ctx.layout.stack_base and m.get_pc(ctx) == 0


# --- trace -------------------------------------------------------------------------------

def test_trace_records_registers_psw_and_memory(tr):
    m, ctx = load("LDI32 R1, 0x2000", "LDI R2, -1", "STH [R1+2], R2", "LDB R3, [R1+3]",
                  "PUSH R3", "CMP R3, R2", "POP R4", "BRK 0", translate=tr)
    m.set_trace(ctx, True, depth=8)
    stop = m.run(ctx, 100)
    assert stop.reason is StopReason.BRK and stop.executed == 8
    recs = list(ctx.trace)
    assert [r.pc for r in recs] == [0, 8, 12, 16, 20, 24, 28, 32]
    sth, ldb, push, cmp_, pop = recs[2:7]
    assert (sth.memory.op, sth.memory.addr, sth.memory.width, sth.memory.value) == (
        "write", 0x2002, 2, 0xFFFF)
    assert ldb.memory.op == "read" and ldb.memory.value == 0xFF and ldb.changed == {3: (0, 0xFF)}
    assert push.memory.addr == TOP - 4 and push.changed == {15: (TOP, TOP - 4)}
    assert (cmp_.psw_before, cmp_.psw_after) == (0, ctx.psw) and cmp_.memory is None
    assert pop.memory.op == "read" and pop.changed == {4: (0, 0xFF), 15: (TOP - 4, TOP)}
    m.set_trace(ctx, False)
    assert ctx.trace is None


def test_trace_does_not_record_a_faulting_instruction(tr):
    m, ctx = load("LDI R1, 1", "LD R2, [R0+0]", translate=tr)
    m.set_trace(ctx, True)
    m.run(ctx, 5)
    assert m.last_trace(ctx).pc == 0


# --- host API and layout ------------------------------------------------------------------

def test_api_bounds_errors():
    m, ctx = load("RET")
    with pytest.raises(MachineError):
        m.read_memory(ctx, 0xFFFF, 2)
    with pytest.raises(MachineError):
        m.write_memory(ctx, -1, b"x")
    with pytest.raises(MachineError):
        m.read_register(ctx, 16)
    with pytest.raises(MachineError):
        m.write_register(ctx, 0, 1 << 32)
    with pytest.raises(MachineError):
        m.set_pc(ctx, 4)
    with pytest.raises(MachineError):
        m.set_psw(ctx, 16)
    assert m.read_memory(ctx, 0, 4) == b"\0" * 4          # the debugger may read the null page
    assert m.run(ctx, 0).executed == 0


def test_layout_regions_cover_memory():
    lay = Layout.compute(0x10000, ro_len=10, bss_size=0x21, stack_size=0x2000)
    regions = lay.regions()
    assert regions[0].start == 0 and regions[-1].end == 0x10000
    assert all(a.end == b.start for a, b in zip(regions, regions[1:]))
    named = {r.name: r for r in regions}
    assert (named["rodata"].start, named["bss"].start, named["heap"].start) == (
        0x4000, 0x400C, 0x4030)
    assert named["registers"].start == 0xFFC0 and named["stack"].end == TOP
    assert named["stack"].start == BASE and named["stack_guard_low"].size == 16


def test_memory_regions_report():
    m, ctx = load("PUSH R1", "BRK 0")
    m.run(ctx, 5)
    report = m.memory_regions(ctx)
    assert report["sp"] == TOP - 4 and report["stack_top"] == TOP
    assert report["regions"][-1] == {"name": "registers", "start": 0xFFC0, "end": 0x10000}


def test_rodata_and_bss_are_mapped():
    m = machine()
    ctx = m.create_context(image(asm("RET"), rodata=b"hello", bss=8))
    assert m.read_memory(ctx, 0x4000, 5) == b"hello"
    assert ctx.layout.bss_start == 0x4008 and ctx.layout.bss_end == 0x4010


@pytest.mark.parametrize("kwargs", [dict(mem_size=0x4000), dict(mem_size=0x10001),
                                    dict(stack_size=0x10000), dict(stack_size=6)])
def test_layout_that_does_not_fit_is_a_load_error(kwargs):
    with pytest.raises(LoadError):
        machine().create_context(image(asm("RET")), **kwargs)


def test_bad_images_are_load_errors():
    with pytest.raises(LoadError):
        machine().create_context(image([]))
    with pytest.raises(LoadError):
        machine().create_context(image(asm("RET"), entry=4))


def test_portable_word_view_behaves_like_the_native_one(monkeypatch, tr):
    """The big-endian fallback (forced here) runs programs identically."""
    import hsx.vm.words as words
    lines = ["LDI32 R1, 0x2001", "LDI32 R2, 0x11223344", "ST [R1+0], R2", "LD R3, [R1+0]",
             "PUSH R3", "POP R4", f"LDI32 R5, {0x10000 - 64}", "LD R6, [R5+12]", "BRK 0"]
    m, native = load(*lines, translate=tr)
    m.run(native, 100)
    monkeypatch.setattr(words, "NATIVE", False)
    m, portable = load(*lines, translate=tr)
    assert isinstance(portable.regs, words.LittleEndianWords)
    m.run(portable, 100)
    assert bytes(portable.mem) == bytes(native.mem) and m.registers(portable)[6] == 0x11223344


def test_blocks_are_compiled_only_once_they_are_hot():
    from hsx.vm import Machine
    from hsx.vm.translate import HOT_AFTER
    from vmkit import asm, image
    words = asm("LDI32 R4, 1000", "ADDI R1, R1, 1", "CMP R1, R4", "BNE -2",   # loop at 8
                "LDI R0, 0", "SVC 0x100")
    machine = Machine(hot_after=HOT_AFTER, engine="python")
    ctx = machine.create_context(image(words))
    machine.run(ctx, 3 * (HOT_AFTER - 2))            # the loop has run, but not often enough
    assert ctx.blocks == {}
    stop = machine.run(ctx, 10_000)
    assert ctx.blocks and stop.status == 0 and ctx.regs[1] == 1000


# --- code beyond 64 KiB, decoded as it first runs ------------------------------------------

def _far_program(tr, gap_words: int = 0x20000):
    """`main` at 0 calls `far` 512 KiB away (LCALL), which loops 3 times; the words
    between are never run (zero words: illegal instructions)."""
    far = 4 * (3 + gap_words)
    words = asm("LDI R1, 0", f"LCALL {(far - 4) // 4}", "RET") + [0] * gap_words + asm(
        "ADDI R1, R1, 1", "CMPI R1, 3", "BNE -2", "MOV R0, R1", "RET")   # offsets in words
    m = machine(tr)
    return m, m.create_context(image(words)), far


def _decoded_words(ctx) -> int:
    """How many code words the engine has decoded (built an entry for)."""
    if hasattr(ctx, "insns"):                            # the native core's records
        return sum(1 for insn in ctx.insns if insn.handler != 0)
    from hsx.vm.interp import undecoded
    return sum(1 for op in ctx.ops[:-1] if op is not undecoded)


def test_calls_and_branches_far_beyond_64_kib(tr):
    m, ctx, far = _far_program(tr)
    m.add_breakpoint(ctx, far + 8)           # never run yet: decoded for the breakpoint
    stop = m.run(ctx, 1000)
    assert stop.reason is StopReason.BREAKPOINT and stop.pc == far + 8
    assert m.registers(ctx)[1] == 1
    m.remove_breakpoint(ctx, far + 8)
    stop = m.run(ctx, 1000)
    assert stop.reason is StopReason.RETURNED and stop.status == 3


@pytest.mark.parametrize("mode", [False, "native"], ids=["python", "native"])
def test_code_is_decoded_when_it_first_runs(mode):
    """A task costs nothing for code it never runs: of 128 Ki words, the 8 that run."""
    m, ctx, far = _far_program(mode)
    assert _decoded_words(ctx) == 0
    assert m.run(ctx, 1000).status == 3
    assert _decoded_words(ctx) == 8


def test_every_instruction_of_the_interpreter_compiles():
    """The exact interpreter compiles an instruction's closure factory when a program
    first uses it (not all at import: start-up); every one of them compiles."""
    from hsx.vm import interp
    for mnemonic in interp.BODIES:
        for variant in interp._variants(interp.BY_MNEMONIC[mnemonic].form):
            assert callable(interp.factory(mnemonic, variant))
