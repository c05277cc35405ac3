"""Source-level stepping with lines that span several instructions (a line table
written for the test, as a compiler would), through calls and recursion."""
from __future__ import annotations

from hsx.image.hxe import write_hxe
from hsx.image.sym import LineInfo, SymbolTable, write_sym
from hsx.toolchain.build import assemble_source, link_objects

# (source line, instruction); "line" 0 means no line information (crt0).
PROGRAM = [
    (0, "_start: LDI R14, 0"), (0, "CALL main"), (0, "SVC MOD=1, FN=0"),
    (10, "main: PUSH R14"), (10, "MOV R14, R15"),
    (11, "LDI R1, 3"), (11, "LDI R2, 0"),
    (12, "loop: CALL sum"), (12, "ADD R2, R2, R0"),                 # total += sum(i)
    (13, "ADDI R1, R1, -1"), (13, "CMPI R1, 0"), (13, "BGT loop"),
    (14, "MOV R0, R2"),
    (15, "MOV R15, R14"), (15, "POP R14"), (15, "RET"),
    (20, "sum: PUSH R14"), (20, "MOV R14, R15"),                    # sum(n) = n + sum(n - 1)
    (21, "CMPI R1, 0"), (21, "BLE zero"),
    (22, "PUSH R1"), (22, "ADDI R1, R1, -1"), (22, "CALL sum"), (22, "back: POP R1"),
    (23, "ADD R0, R0, R1"), (23, "JMP out"),
    (24, "zero: LDI R0, 0"),
    (25, "out: MOV R15, R14"), (25, "POP R14"), (25, "RET"),
]


def load(rig):
    source = ".entry _start\n" + "\n".join(text for _, text in PROGRAM) + "\n"
    image, symbols = link_objects([assemble_source(source, "prog.mvasm")], app_name="prog")
    lines = [LineInfo(4 * i, "prog.c", line) for i, (line, _) in enumerate(PROGRAM) if line]
    table = SymbolTable(symbols.functions, symbols.variables, lines, hxe_crc=symbols.hxe_crc)
    path = rig.tmp / "prog.hxe"
    path.write_bytes(write_hxe(image))
    path.with_suffix(".sym").write_bytes(write_sym(table))
    return rig.kernel.load(path)


def step_line(rig, task):
    rig.debugger.step_line(task.pid)
    rig.run_until_paused(task)
    event = rig.breaks(task.pid)[-1]
    assert event["reason"] == "step"
    return event["symbol"], event["line"]


def test_lines_of_main_with_the_call_run_over(rig):
    task = load(rig)
    rig.debugger.run_to(task.pid, "main")
    rig.run_until_paused(task)
    visited = [step_line(rig, task) for _ in range(6)]
    assert visited == [("main", 11), ("main", 12), ("main", 13), ("main", 12),
                       ("main", 13), ("main", 12)]
    assert task.ctx.regs[2] == 6 + 3                    # sum(3) + sum(2) added so far
    assert len(rig.breaks(task.pid)) == 7               # one stop per step, none inside sum


def test_recursion_stays_in_its_frame_and_returns_to_the_caller(rig):
    task = load(rig)
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, "sum", condition="R1 == 2")   # sum(2), called by sum(3)
    rig.run_until_paused(task)
    dbg.breakpoints.clear(bp)
    depth = len(dbg.stack_info(task.pid)["frames"])
    assert [step_line(rig, task) for _ in range(3)] == [("sum", 21), ("sum", 22), ("sum", 23)]
    assert (task.ctx.regs[0], task.ctx.regs[1]) == (1, 2)           # sum(1) came back
    assert len(dbg.stack_info(task.pid)["frames"]) == depth
    assert step_line(rig, task) == ("sum", 25)
    assert step_line(rig, task) == ("sum", 22)                       # back in sum(3)
    assert task.ctx.pc == dbg.symbols_lookup(task.pid, "back")["address"]
    assert task.ctx.regs[0] == 3 and len(dbg.stack_info(task.pid)["frames"]) == depth - 1
    assert len(rig.breaks(task.pid)) == 6
