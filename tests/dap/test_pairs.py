"""Compact pairs in VS Code: the disassembly view shows a pair as one instruction with
both operations, an instruction step runs both, and a breakpoint on its line stops
before both."""
from __future__ import annotations

from mvasmkit import PAIR_BRANCH, PAIR_COUNT, PAIRS


def test_disassembly_and_instruction_steps_over_pairs(dap, execd, tmp_path):
    program = tmp_path / "pairs.mvasm"
    program.write_text(PAIRS)
    pid = dap.launch(program, execd, lines={"pairs.mvasm": [7]})
    dap.stopped("breakpoint")
    top = dap.top_frame(pid)
    assert top["instructionPointerReference"] == "0x00000004" and top["line"] == 7
    registers = dap.scope_variables(top["id"], "Registers")
    assert int(registers["r1"]["value"], 0) == 0           # stopped before both
    listing = dap.ok("disassemble", memoryReference="0x0", instructionOffset=0,
                     instructionCount=4)["instructions"]
    assert [(i["address"], i["instruction"], i["instructionBytes"]) for i in listing[1:3]] == [
        ("0x00000004", "ADDI R1, R1, 1 | CMPI R1, 3", f"{PAIR_COUNT:08x}"),
        ("0x00000008", "MOV R0, R1 | BNE loop", f"{PAIR_BRANCH:08x}")]
    assert listing[3]["address"] == "0x0000000c"            # one word per pair
    dap.ok("next", threadId=pid, granularity="instruction")
    dap.stopped("step")
    top = dap.top_frame(pid)
    assert top["instructionPointerReference"] == "0x00000008"
    registers = dap.scope_variables(top["id"], "Registers")
    assert int(registers["r1"]["value"], 0) == 1
    dap.ok("next", threadId=pid, granularity="instruction")  # MOV | BNE loop: taken
    dap.stopped("step")
    assert dap.top_frame(pid)["instructionPointerReference"] == "0x00000004"
    dap.ok("setBreakpoints", source={"path": str(program)}, breakpoints=[])
    dap.ok("continue", threadId=pid)
    assert dap.wait_event("exited")["exitCode"] == 3
    dap.wait_event("terminated")
