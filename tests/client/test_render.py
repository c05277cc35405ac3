"""Readable text for results and events (hsx.client.render) and completion."""
from __future__ import annotations

from hsx.client.commands import complete, complete_path
from hsx.client.render import VIEWS, Context, EventFilter, event_lines, plain, render
from hsx.client.sources import SourceFinder


def text(view: str, data: dict, ctx: Context | None = None) -> str:
    return plain(VIEWS[view](data, ctx or Context()))      # no fallback: a bug fails here


def memory(data: bytes, addr: int = 0x4000, **extra) -> dict:
    return {"pid": 1, "addr": addr, "length": len(data), "data": data.hex(),
            "location": "buf", "symbols": [], **extra}


def test_hex_dump_has_offsets_hex_ascii_and_symbol_names():
    dump = text("memory", memory(b"Hello, HSX!\n\x00\x01\x02\x7fxyz",
                                 symbols=[{"name": "buf", "address": 0x4000, "size": 4},
                                          {"name": "tail", "address": 0x4010, "size": 2}]))
    lines = dump.splitlines()
    assert lines[0] == "pid 1  19 bytes at 0x4000 (buf)"
    assert lines[1] == ("0x4000  48 65 6c 6c 6f 2c 20 48  53 58 21 0a 00 01 02 7f  "
                        "|Hello, HSX!.....|  <buf>")
    assert lines[2].startswith("0x4010  78 79 7a") and lines[2].endswith("|xyz             |  <tail>")


def test_x_formats_units_and_signs():
    data = (-2).to_bytes(4, "little", signed=True) + (7).to_bytes(4, "little")
    assert text("memory", memory(data, unit=4, format="d")).splitlines()[1] == \
        "0x4000  " + "-2".rjust(11) + "  " + "7".rjust(11)
    assert text("memory", memory(data, unit=4, format="x")).splitlines()[1] == \
        "0x4000  0xfffffffe  0x00000007"
    assert text("memory", memory(b"\x05", unit=1, format="t")).splitlines()[1] == \
        "0x4000  00000101"
    assert "'hi'" in text("memory", memory(b"hi\x00zz", format="s"))


def test_registers_decode_the_flags():
    regs = {"pid": 1, "pc": 0x24, "psw": 0b0101, "flags": "Z N", "sp": 0xFF00,
            "regs": list(range(16)), "steps": 9, "state": "paused", "stack_base": 0xDF00,
            "stack_top": 0xFF00}
    out = text("registers", {"registers": regs, "pc_symbol": {"symbol": "main", "offset": 8,
                                                              "file": "p.c", "line": 3}})
    assert "R15 0000000F" in out and "PC 0x0024 main+0x8 p.c:3" in out
    assert "PSW 0x05 [ Z c N v ]" in out


def test_stack_shows_source_lines_found_beside_the_program(tmp_path):
    (tmp_path / "p.c").write_text("int main(void) {\n    return f(2);\n}\n")
    ctx = Context(sources=SourceFinder())
    out = text("stack", {"stack": {"pid": 1, "frames": [
        {"index": 0, "pc": 8, "function": "main", "offset": 8, "file": "p.c", "line": 2}],
        "warnings": []}, "program": str(tmp_path / "p.hxe")}, ctx)
    assert out.splitlines() == ["#0  0x0008 in main+0x8 p.c:2", "         2  return f(2);"]


def test_recent_output_is_shown_by_line_whatever_the_writes():
    recent = {"recent": [{"pid": 2, "dropped_chars": 5, "output": [
        {"stream": "stdout", "text": "hello\nwor"}, {"stream": "stderr", "text": "ld\n"}]}]}
    assert text("stdio", recent).splitlines() == [
        "2| ... (5 earlier characters not kept)", "2| hello", "2| world"]
    following = {**recent, "events": {"filters": [{"pids": [2]}]}}
    assert text("stdio", following).endswith("showing stdout and stderr of pid 2 as it comes")


def test_an_unexpected_reply_falls_back_to_key_value_lines():
    assert plain(render("tasks", {"status": "ok", "surprise": [1]})) == "surprise: [1]"


def test_a_loaded_task_is_announced_by_its_name_without_a_previous_state():
    ctx = Context()
    loaded = {"type": "task_state", "pid": 2, "data": {
        "prev_state": None, "new_state": "ready", "reason": "loaded", "app_name": "inv"}}
    assert plain(event_lines(loaded, ctx)) == "[2 inv] loaded, ready"
    paused = {"type": "task_state", "pid": 2, "data": {
        "prev_state": "ready", "new_state": "paused", "reason": "user_pause"}}
    assert plain(event_lines(paused, ctx)) == "[2 inv] ready -> paused (user_pause)"


def test_resume_says_which_tasks_go_on_not_their_rows_of_the_moment():
    row = {"pid": 1, "app_name": "inv", "state": "ready", "pc": 0, "instructions": 0,
           "priority": 10}
    assert text("resumed", {"task": row}) == "continuing 1 inv"
    assert text("resumed", {"tasks": [row, {**row, "pid": 2, "app_name": "two"}]}) == \
        "continuing 1 inv, 2 two"


def test_finish_names_the_function_and_its_stop_what_it_returned():
    ctx = Context(names={1: "inv"})
    started = {"result": {"pid": 1, "pc": 8, "state": "ready", "pending": "step_out",
                          "function": "take"}}
    assert text("started", started, ctx) == "pid 1 inv: run till exit from take"
    stop = {"type": "debug_break", "pid": 1, "data": {
        "pc": 196, "reason": "step", "symbol": "main", "offset": 28,
        "returned": {"function": "take", "type": "int", "value": "2", "ref": 0}}}
    assert plain(event_lines(stop, ctx)).splitlines() == [
        "[1 inv] stopped: step at 0x00C4 main+0x1C", "  Value returned by take: 2 (int)"]
    void = {**stop, "data": {**stop["data"], "returned": {"function": "note", "type": "void"}}}
    assert plain(event_lines(void, ctx)).splitlines()[-1] == "  note returned (void)"


def test_events_read_well_and_filter_per_category_and_pid():
    ctx = Context(names={2: "blink"})
    stop = {"type": "debug_break", "pid": 2, "data": {
        "pc": 16, "reason": "breakpoint", "breakpoint_id": 3, "symbol": "loop", "offset": 4}}
    assert plain(event_lines(stop, ctx)) == "[2 blink] stopped: breakpoint 3 at 0x0010 loop+0x4"
    out = {"type": "stdout", "pid": 2, "data": {"text": "a\nb\n"}}
    assert plain(event_lines(out, ctx)) == "2| a\n2| b"
    events = EventFilter()
    assert events.wants(out) and events.wants(stop)
    assert not events.wants({"type": "mailbox_send", "pid": 2, "data": {}})
    events.set(False, "stdout")
    assert not events.wants(out) and "stdout" not in events.subscription()
    events.set(True, "stdout", 2)
    assert events.wants(out) and not events.wants({**out, "pid": 3})
    assert "stdout" in events.subscription()
    events.set(False, "all")
    assert not events.wants(stop) and not events.wants(out) and events.subscription() == []


class Sources:
    def items(self, what, pid):
        return {"pids": [("1", "prog"), ("2", "blink")], "apps": [("blink", "pid 2")],
                "code": [("main", "function"), ("prog.c:", "source file")] if pid == 1 else [],
                "data": [("counter", "variable")] if pid == 1 else [],
                "expr": [("stock", "Item[4]"), ("sum", "int")] if pid == 1 else [],
                "values": [("motor.rpm", "0x0102")]}.get(what, [])


def words(text, **kw):
    return [c.text for c in complete(text, Sources(), **kw)]


def test_completion_of_commands_sub_commands_and_arguments():
    assert words("disas") == ["disasm"]
    assert words("bt") == ["bt"]                          # an alias when no name fits
    assert "set" in words("bp ") and "1" in words("bp ")  # sub-commands and bp's PID
    assert words("bp set ") == ["1", "2"]
    assert words("regs b") == ["blink"]                   # a task by its app name
    assert words("bp set 1 ") == ["main", "prog.c:"]
    assert words("bp set 2 ") == []                       # task 2 has no symbols
    assert words("bp set 1 main ") == ["if"]
    assert words("peek 1 c") == ["counter"]
    assert words("peek 1 S") == ["SP"]
    assert words("peek c", default_pid=1) == ["counter"]
    assert words("val get mo") == ["motor.rpm"]
    assert words("events off std") == ["stdout", "stderr"]
    assert words("kill 1 --f") == ["--force"]
    assert words("dmesg le") == ["level="]
    assert words("disasm 1 0 4 mo") == ["mode="]
    assert words("help pe") == ["peek"]
    candidate = complete("bp set 1 ma", Sources())[0]
    assert (candidate.start, candidate.meta) == (9, "function")


def test_completion_follows_the_parsers_pid_rule_with_a_current_task():
    assert words("bp set 1 ma", default_pid=2) == ["main"]      # task 1's, named first
    assert words("bp set ma", default_pid=1) == ["main"]         # the current task's
    assert words("bp set ma", default_pid=2) == []
    assert words("p 1 sto", default_pid=2) == ["stock"]
    assert words("regs ", default_pid=2) == ["1", "2"]


def test_expressions_complete_the_variable_being_typed():
    assert words("p sto", default_pid=1) == ["stock"]
    assert words("print 1 s") == ["stock", "sum"]
    assert words("p &st", default_pid=1) == ["stock"]
    candidate = complete("p x + su", Sources(), default_pid=1)[0]
    assert (candidate.text, candidate.start) == ("sum", 6)
    assert words("p it->s", default_pid=1) == []               # a field, not a variable
    assert words("p stock[1].s", default_pid=1) == []
    assert words("bp set 1 main if s") == ["stock", "sum"]
    assert words("set 1 sto") == ["stock"]


def test_paths_complete_from_the_local_disk(tmp_path):
    (tmp_path / "prog.c").write_text("")
    (tmp_path / "lib").mkdir()
    found = dict(complete_path(f"{tmp_path}/"))
    assert found == {f"{tmp_path}/lib/": "dir", f"{tmp_path}/prog.c": "file"}
    assert [c.text for c in complete(f"load {tmp_path}/p", Sources())] == [f"{tmp_path}/prog.c"]
