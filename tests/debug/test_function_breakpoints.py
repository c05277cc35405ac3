"""Breakpoints on a C function -- by its name or on its opening line -- stop where its
body begins, past the prologue and the arguments' spills, as gdb and lldb place them:
there the arguments can be read.  An address or `name+offset` is still exact."""
from __future__ import annotations

import pytest

from debugkit import make_rig
from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym

SOURCE = """\
typedef struct { int qty; int price; } Item;
int sink;

__attribute__((noinline)) int take(Item *it, int count) {
    int before = it->qty;
    it->qty = before - count;
    return it->qty;
}

int main(void) {
    Item stock = {5, 10};
    sink = take(&stock, 2);
    return sink;
}
"""
OPENING = SOURCE.splitlines().index(
    "__attribute__((noinline)) int take(Item *it, int count) {") + 1


def build(tmp_path, opt: int, text: str = SOURCE):
    from hsx.toolchain.cc import driver
    source = tmp_path / "stock.c"
    source.write_text(text)
    result, _ = driver.build_c([str(source)], driver.Options(opt=opt, debug=True), "stock")
    path = tmp_path / "stock.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    return path


def arguments(rig, task) -> dict[str, str]:
    listing = rig.debugger.frame_variables(task.pid, 0, "arguments")["arguments"]
    return {a["name"]: a["value"] for a in listing}


@pytest.mark.parametrize("opt", [0, 2, "s"])   # (-Os: packed into compact pairs)
@pytest.mark.parametrize("where", ["take", f"stock.c:{OPENING}", ("stock.c", OPENING)])
def test_a_function_or_its_opening_line_stops_with_the_arguments_in_place(rig, tmp_path,
                                                                          opt, where):
    task = rig.kernel.load(build(tmp_path, opt))
    dbg = rig.debugger
    take = dbg.symbols_lookup(task.pid, "take")
    bp_id = dbg.breakpoints.set(task.pid, where)
    (listing,) = [b for b in dbg.breakpoints.list(task.pid) if b["id"] == bp_id]
    assert listing["address"] == take["body"] and listing["symbol"] == "take"
    if opt == 0:                  # past PUSH R14, MOV R14, R15, the frame and two spills
        assert listing["address"] > take["address"]
        assert listing["line"] == OPENING + 1                  # `int before = it->qty;`
    rig.run_until_paused(task)
    assert task.ctx.pc == listing["address"]
    shown = arguments(rig, task)
    assert shown["count"] == "2" and shown["it"].startswith("0x")
    assert dbg.evaluate(task.pid, 0, "it->qty")["value"] == "5"


def test_an_address_or_an_offset_is_taken_exactly(rig, tmp_path):
    task = rig.kernel.load(build(tmp_path, 0))
    dbg = rig.debugger
    start = dbg.symbols_lookup(task.pid, "take")["address"]
    for where in (start, f"0x{start:X}", "take+0"):
        bp_id = dbg.breakpoints.set(task.pid, where)
        (listing,) = [b for b in dbg.breakpoints.list(task.pid) if b["id"] == bp_id]
        assert listing["address"] == start
    rig.run_until_paused(task)
    assert "not set up" in arguments(rig, task)["count"]           # before the prologue


def test_a_remembered_function_breakpoint_comes_back_at_the_body_of_a_rebuild(tmp_path):
    """Stored by the body's line, so a prologue that grew (a third argument spilled)
    still puts it past the prologue."""
    state = tmp_path / "state"
    rig = make_rig(tmp_path, state_dir=state)
    task = rig.kernel.load(build(tmp_path, 0))
    rig.debugger.breakpoints.set(task.pid, "take")
    rig.kernel.shutdown()
    rig.debugger.close()
    grown = SOURCE.replace("int take(Item *it, int count)", "int take(Item *it, int count, int unused)") \
        .replace("take(&stock, 2)", "take(&stock, 2, 0)")
    again = make_rig(tmp_path, state_dir=state)
    task = again.kernel.load(build(tmp_path, 0, grown))
    (listing,) = [b for b in again.debugger.breakpoints.list(task.pid) if b["kind"] == "breakpoint"]
    body = again.debugger.symbols.get(task.pid).table.symbol("take").body
    assert listing["address"] == body and listing["line"] == OPENING + 1
    again.run_until_paused(task)
    assert arguments(again, task)["count"] == "2"
