"""Disassembly from code space, symbol listing and lookup, the memory map, reads and
writes with bounds errors."""
from __future__ import annotations

import pytest

from debugkit import FACT, build
from hsx.debug import DebugError
from hsx.image.sym import SymbolTable
from hsx.isa import decode
from hsx.toolchain.build import assemble_source, link_objects


def address(rig, pid, name):
    return rig.debugger.symbols_lookup(pid, name)["address"]


def test_disassembly_around_the_pc_comes_from_code_space(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, "base")
    rig.run_until_paused(task)
    pc = task.ctx.pc
    dbg.mem_write(task.pid, pc, b"\xff" * 64)             # data memory at the same addresses
    listing = dbg.disasm(task.pid, count=7)
    assert listing["pc"] == pc and listing["mode"] == "around"
    lines = {line["pc"]: line for line in listing["instructions"]}
    assert sorted(lines) == list(range(pc - 12, pc + 16, 4))
    for addr, line in lines.items():
        assert line["words"] == [int.from_bytes(task.image.code[addr:addr + 4], "big")]
    here = lines[pc]
    assert here == {"pc": pc, "size": 4, "words": here["words"], "labels": ["base"],
                    "symbol": "fact", "offset": 40, "file": "fact.mvasm", "line": 25,
                    "mnemonic": "LDI", "operands": "R0, 1", "text": "LDI R0, 1",
                    "current": True, "breakpoints": [bp]}
    jump = lines[pc - 4]
    assert (jump["text"], jump["target"], jump["target_symbol"]) == ("JMP done", pc + 4, "done")
    assert not any(line["current"] for a, line in lines.items() if a != pc)


def test_disassembly_from_a_symbol(rig):
    task = rig.load("fact", FACT)
    listing = rig.debugger.disasm(task.pid, "main", count=6, mode="from")["instructions"]
    main = address(rig, task.pid, "main")
    assert [line["pc"] for line in listing] == [main, main + 4, main + 8, main + 12,
                                                main + 16, main + 24]
    call, ldi32 = listing[3], listing[4]
    assert (call["text"], call["target_symbol"]) == ("CALL fact", "fact")
    assert ldi32["size"] == 8 and len(ldi32["words"]) == 2
    assert ldi32["data_symbol"] == "counter" and ldi32["labels"] == ["after"]
    start = rig.debugger.disasm(task.pid, 0, count=4)["instructions"]
    assert [line["pc"] for line in start] == [0, 4, 8, 12]  # nothing before address 0


def test_disassembly_fills_in_dynamic_targets_at_the_pc(rig):
    task = rig.load("fact", FACT)
    rig.debugger.run_to(task.pid, "done+8")                # fact's RET
    rig.run_until_paused(task)
    (ret,) = rig.debugger.disasm(task.pid, count=1, mode="from")["instructions"]
    assert ret["target"] == address(rig, task.pid, "back") and ret["target_symbol"] == "back"


def test_disassembly_errors(rig):
    task = rig.load("fact", FACT)
    for kwargs, code in [({"where": 0x4000}, "bad_address"), ({"count": 0}, "bad_argument"),
                         ({"mode": "cached"}, "bad_argument"), ({"where": "nope"}, "unknown_symbol")]:
        with pytest.raises(DebugError) as error:
            rig.debugger.disasm(task.pid, **kwargs)
        assert error.value.code == code


def test_disassembly_without_symbols(rig, tmp_path):
    task = rig.kernel.load(build(tmp_path, "bare", FACT).read_bytes())
    listing = rig.debugger.disasm(task.pid, 20, count=2, mode="from")
    assert listing["instructions"][1]["text"] == "CALL 0x0034"
    assert "target_symbol" not in listing["instructions"][1]
    assert listing["warnings"]


def test_symbols_list_and_lookup(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    functions = dbg.symbols_list(task.pid, "functions")
    assert [s["name"] for s in functions["symbols"]] == ["_start", "main", "after", "fact",
                                                         "back", "base", "done"]
    (counter,) = dbg.symbols_list(task.pid, "variables")["symbols"]
    assert counter == {"name": "counter", "address": 0x4000, "size": 4, "section": "data",
                       "space": "data", "scope": "local", "file": "fact.mvasm", "line": 30,
                       "type": "variable"}
    assert dbg.symbols_list(task.pid)["count"] == 8
    assert dbg.symbols_lookup(task.pid, "counter")["address"] == 0x4000
    done = address(rig, task.pid, "done")
    found = dbg.symbols_lookup(task.pid, done + 4)
    assert (found["symbol"], found["offset"], found["label"], found["label_offset"]) == (
        "fact", done + 4 - address(rig, task.pid, "fact"), "done", 4)
    assert dbg.symbols_lookup(task.pid, "0x4002", space="data")["label"] == "counter"
    with pytest.raises(DebugError) as error:
        dbg.symbols_lookup(task.pid, "nope")
    assert error.value.code == "unknown_symbol"
    with pytest.raises(DebugError):
        dbg.symbols_list(task.pid, "labels")


def test_symbols_loaded_later_and_bad_files(rig, tmp_path):
    path = build(tmp_path, "late", FACT)
    task = rig.kernel.load(path.read_bytes())
    dbg = rig.debugger
    assert dbg.symbols_list(task.pid)["symbols"] == []
    assert "no symbols" in dbg.symbols_list(task.pid)["warnings"][0]
    bad = tmp_path / "bad.sym"
    bad.write_text("{")
    with pytest.raises(DebugError) as error:
        dbg.load_symbols(task.pid, bad)
    assert error.value.code == "symbol_file"
    pc = task.ctx.pc
    before = dbg.symbols.describe(task.pid, pc)            # remembered per address ...
    assert before == {} and dbg.symbols.describe(task.pid, pc) == {}
    before["symbol"] = "scribbled"                         # ... and handed out as a copy
    assert dbg.symbols.describe(task.pid, pc) == {}
    info = dbg.load_symbols(task.pid, path.with_suffix(".sym"))
    assert info["loaded"] and info["count"] == 8 and info["warnings"] == []
    assert dbg.stack_info(task.pid)["frames"][0]["function"] == "_start"
    assert dbg.symbols.describe(task.pid, pc)["symbol"] == "_start"   # forgotten on load

    _, other = link_objects([assemble_source(FACT + "\n.text\nextra: RET\n", "x.mvasm")])
    assert isinstance(other, SymbolTable)
    assert "does not match" in dbg.load_symbols(task.pid, other)["warnings"][0]


def test_memory_regions(rig):
    task = rig.load("fact", FACT)
    rig.debugger.step(task.pid, 3)                         # into main, R14 pushed
    regions = {r["name"]: r for r in rig.debugger.memory_regions(task.pid)["regions"]}
    layout = task.ctx.layout
    assert regions["code"] == {"name": "code", "space": "code", "start": 0,
                               "end": len(task.image.code), "size": len(task.image.code),
                               "permissions": "rx", "details": {"entry": 0}}
    assert (regions["rodata"]["start"], regions["rodata"]["end"]) == (0x4000, 0x4004)
    stack = regions["stack"]
    assert (stack["start"], stack["end"]) == (layout.stack_base, layout.stack_top)
    assert stack["details"] == {"sp": layout.stack_top - 8, "used": 8}
    assert regions["registers"]["start"] == layout.reg_base and regions["registers"]["size"] == 64
    assert regions["stack_guard_low"]["permissions"] == ""
    assert {"null", "low", "heap", "stack_guard_high"} <= set(regions)


def test_memory_read_write_and_bounds(rig):
    task = rig.load("fact", FACT)
    dbg = rig.debugger
    dbg.mem_write(task.pid, 0x4000, b"\x01\x02\x03\x04")
    assert dbg.mem_read(task.pid, 0x4000, 4) == b"\x01\x02\x03\x04"
    assert decode(int.from_bytes(dbg.mem_read(task.pid, 0, 4, space="code"), "big")).op.mnemonic == "LDI"
    reg_base = task.ctx.layout.reg_base
    dbg.mem_write(task.pid, reg_base + 4, (77).to_bytes(4, "little"))   # R1 lives in memory
    assert task.ctx.regs[1] == 77
    size = task.ctx.layout.mem_size
    for call in [lambda: dbg.mem_read(task.pid, size - 2, 4),
                 lambda: dbg.mem_read(task.pid, -1, 1),
                 lambda: dbg.mem_read(task.pid, len(task.image.code), 4, space="code"),
                 lambda: dbg.mem_write(task.pid, size, b"x")]:
        with pytest.raises(DebugError) as error:
            call()
        assert error.value.code == "out_of_range"
    with pytest.raises(DebugError) as error:
        dbg.mem_read(task.pid, 0, 4, space="flash")
    assert error.value.code == "bad_argument"
