"""Breakpoints remembered per app in SQLite: restored when the app is loaded again, in
the same executive or after a restart, re-resolved through the new symbols."""
from __future__ import annotations

from debugkit import FACT, LOOP, build, make_rig
from hsx.debug import Debugger


def places(debugger, pid):
    return [(b["location"], b["file"], b["line"], b["condition"], b["enabled"])
            for b in debugger.breakpoints.list(pid) if b["kind"] == "breakpoint" and not b["temporary"]]


def test_breakpoints_survive_an_executive_restart_and_a_rebuild(tmp_path):
    state = tmp_path / "state"
    rig = make_rig(tmp_path, state_dir=state)
    task = rig.load("loop", LOOP)
    dbg = rig.debugger
    dbg.breakpoints.set(task.pid, "leaf")
    dbg.breakpoints.set(task.pid, ("loop.mvasm", 12), condition="R1 == 4")
    off = dbg.breakpoints.set(task.pid, dbg.symbols_lookup(task.pid, "inleaf")["address"])
    dbg.breakpoints.disable(off)
    dbg.breakpoints.set(task.pid, "again", temporary=True)           # never remembered
    before = places(dbg, task.pid)
    assert [b["remembered"] for b in dbg.breakpoints.list(task.pid)] == [True, True, True, False]
    rig.kernel.shutdown()
    dbg.close()

    # A new executive; the program gained two lines at the top, so every address moved.
    # Symbol breakpoints follow their code; a line breakpoint stays on its line number.
    moved = LOOP.replace("_start: LDI R14, 0", "_start: LDI R14, 0\n        MOV R0, R0\n        MOV R0, R0")
    again = make_rig(tmp_path, state_dir=state)
    task = again.kernel.load(build(tmp_path, "loop", moved))
    dbg = again.debugger
    assert before == [("leaf+0x0", "loop.mvasm", 19, None, True),
                      ("main+0x1C", "loop.mvasm", 12, "R1 == 4", True),
                      ("leaf+0x8", "loop.mvasm", 21, None, False)]
    assert places(dbg, task.pid) == [("leaf+0x0", "loop.mvasm", 21, None, True),
                                     ("main+0x14", "loop.mvasm", 12, "R1 == 4", True),
                                     ("leaf+0x8", "loop.mvasm", 23, None, False)]
    assert dbg.breakpoints.list(task.pid)[0]["address"] == dbg.symbols_lookup(task.pid, "leaf")["address"]
    dbg.breakpoints.clear(dbg.breakpoints.list(task.pid)[0]["id"])
    again.run_until_paused(task)
    assert task.ctx.regs[1] == 4                                    # the condition came back
    assert task.ctx.pc == dbg.symbols_lookup(task.pid, "again")["address"]


def test_same_app_loaded_again_and_clear_forgets(tmp_path):
    rig = make_rig(tmp_path, state_dir=tmp_path / "state")
    dbg = rig.debugger
    first = rig.load("fact", FACT)
    bp = dbg.breakpoints.set(first.pid, "base")
    second = rig.load("fact", FACT)                                  # a second instance
    assert places(dbg, second.pid) == places(dbg, first.pid)
    dbg.release_owner("nobody")
    dbg.breakpoints.clear(bp)                                        # forgotten for the app
    third = rig.load("fact", FACT)
    assert places(dbg, third.pid) == []
    assert len(places(dbg, second.pid)) == 1                         # live ones stay


def test_session_close_keeps_the_remembered_table(tmp_path):
    rig = make_rig(tmp_path, state_dir=tmp_path / "state")
    dbg = rig.debugger
    task = rig.load("fact", FACT)
    dbg.breakpoints.set(task.pid, "base", owner="s1")
    dbg.release_owner("s1")
    assert places(dbg, task.pid) == []
    again = rig.load("fact", FACT)
    assert [p[0] for p in places(dbg, again.pid)] == ["fact+0x28"]
    assert dbg.breakpoints.list(again.pid)[0]["owner"] is None


def test_the_same_build_gets_its_remembered_symbols_without_a_sym_file(tmp_path):
    state = tmp_path / "state"
    rig = make_rig(tmp_path, state_dir=state)
    task = rig.load("fact", FACT)
    rig.debugger.breakpoints.set(task.pid, "base")
    rig.debugger.close()

    path = build(tmp_path, "fact", FACT)
    bare = rig.kernel.load(path.read_bytes(), name="fact")         # no .sym file found
    dbg = Debugger(rig.kernel, state_dir=state)                    # a new debugger: from the store
    assert dbg.symbols_lookup(bare.pid, "base")["address"] == 92
    assert [p[0] for p in places(dbg, bare.pid)] == ["fact+0x28"]


def test_symbol_breakpoints_wait_for_symbols(tmp_path):
    state = tmp_path / "state"
    rig = make_rig(tmp_path, state_dir=state)
    task = rig.load("fact", FACT)
    rig.debugger.breakpoints.set(task.pid, "base")
    rig.debugger.close()

    rebuilt = FACT.replace("_start: LDI R14, 0", "_start: LDI R14, 0\n        LDI R13, 0")
    path = build(tmp_path, "fact", rebuilt)                        # another build: not remembered
    bare = rig.kernel.load(path.read_bytes(), name="fact")
    dbg = Debugger(rig.kernel, state_dir=state)
    assert places(dbg, bare.pid) == []
    assert any("not restored" in w for w in dbg.symbols.info(bare.pid)["warnings"])
    dbg.load_symbols(bare.pid, path.with_suffix(".sym"))
    assert [p[0] for p in places(dbg, bare.pid)] == ["fact+0x28"]


def test_exported_traces_are_kept_in_the_store(tmp_path):
    state = tmp_path / "state"
    rig = make_rig(tmp_path, state_dir=state)
    task = rig.load("fact", FACT)
    rig.debugger.trace_on(task.pid)
    rig.kernel.run(20)
    out = tmp_path / "t.jsonl"
    count = rig.debugger.trace_export(task.pid, out)
    out.unlink()                                                   # the file is gone ...
    rig.debugger.close()
    again = Debugger(rig.kernel, state_dir=state)                  # ... after a restart
    history = again.trace_history()
    assert [(h["app"], h["pid"]) for h in history] == [("fact", task.pid)]
    stored = again.stored_trace(history[0]["id"])
    assert stored.header["count"] == count == len(stored.records) > 0


def test_no_state_dir_means_nothing_is_remembered(rig):
    task = rig.load("fact", FACT)
    rig.debugger.breakpoints.set(task.pid, "base")
    assert rig.debugger.store is None
    assert rig.debugger.breakpoints.list(task.pid)[0]["remembered"] is False
