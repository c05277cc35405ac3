"""Breakpoints: verified only when set, on the line they landed on; conditions, hit
conditions, logpoints; function, instruction and data breakpoints."""
from __future__ import annotations

from dapkit import line_of


def test_lines_land_where_the_code_is_and_bad_ones_say_why(dap, built, execd):
    source = built / "prog.c"
    dap.launch(built / "prog.hxe", execd, stopOnEntry=True)
    dap.stopped("entry")
    blank = line_of(source, "call accumulate") - 1          # the empty line before it
    past_end = len(source.read_text().splitlines()) + 5
    result = dap.ok("setBreakpoints", source={"path": str(source)},
                    breakpoints=[{"line": blank}, {"line": past_end},
                                 {"line": line_of(source, "count"), "condition": "nosuch +"},
                                 {"line": line_of(source, "count"), "hitCondition": "often"}]
                    )["breakpoints"]
    moved, beyond, bad_condition, bad_hits = result
    assert moved["verified"] and moved["line"] == blank + 1
    assert not beyond["verified"] and "no code" in beyond["message"]
    assert not bad_condition["verified"] and bad_condition["message"]
    assert not bad_hits["verified"] and "hit condition" in bad_hits["message"]
    other = built / "elsewhere.c"
    result = dap.ok("setBreakpoints", source={"path": str(other)},
                    breakpoints=[{"line": 3}])["breakpoints"]
    assert not result[0]["verified"]
    assert "elsewhere.c is not a source of prog" in result[0]["message"]
    assert "prog.c" in result[0]["message"]


def test_condition_hit_condition_and_logpoint(dap, built, execd):
    source = built / "prog.c"
    count = line_of(source, "count")
    pid = dap.launch(built / "prog.hxe", execd, lines={"prog.c": [
        {"line": line_of(source, "twice body"), "logMessage": "twice({x}) of {counter}"},
        {"line": count, "condition": "i == 2"}]})
    stop = dap.stopped("breakpoint")
    frame = dap.top_frame(pid)
    assert frame["line"] == count
    assert dap.ok("evaluate", expression="i", frameId=frame["id"])["result"] == "2"
    assert "twice(10) of 0\ntwice(20) of 1\ntwice(30) of 2\n" in dap.output("console")
    # every second hit of the call line from now on
    dap.ok("setBreakpoints", source={"path": str(source)},
           breakpoints=[{"line": line_of(source, "call twice"), "hitCondition": "% 2"}])
    dap.ok("continue", threadId=stop["threadId"])
    assert dap.wait_event("exited")["exitCode"] == 3    # i == 3 is the only hit left: 1st
    assert "twice(40)" not in dap.output("console")      # the logpoint is gone


def test_hit_condition_counts_hits(dap, built, execd):
    source = built / "prog.c"
    pid = dap.launch(built / "prog.hxe", execd, lines={"prog.c": [
        {"line": line_of(source, "count"), "hitCondition": ">= 3"}]})
    dap.stopped("breakpoint")
    assert dap.ok("evaluate", expression="i", frameId=dap.top_frame(pid)["id"])["result"] == "2"
    dap.ok("continue", threadId=pid)
    dap.stopped("breakpoint")
    assert dap.ok("evaluate", expression="i", frameId=dap.top_frame(pid)["id"])["result"] == "3"


def test_function_and_instruction_breakpoints(dap, built, execd):
    source = built / "prog.c"
    pid = dap.launch(built / "prog.hxe", execd, stopOnEntry=True)
    dap.stopped("entry")
    result = dap.ok("setFunctionBreakpoints",
                    breakpoints=[{"name": "twice"}, {"name": "nosuch"}])["breakpoints"]
    assert result[0]["verified"] and result[0]["line"] == line_of(source, "twice body")
    assert not result[1]["verified"] and "nosuch" in result[1]["message"]
    dap.ok("continue", threadId=pid)
    stop = dap.stopped("function breakpoint")
    assert stop["hitBreakpointIds"] == [result[0]["id"]]
    dap.ok("setFunctionBreakpoints", breakpoints=[])

    frames = dap.ok("stackTrace", threadId=pid)["stackFrames"]
    return_address = frames[1]["instructionPointerReference"]       # in accumulate
    result = dap.ok("setInstructionBreakpoints",
                    breakpoints=[{"instructionReference": return_address}])["breakpoints"]
    assert result[0]["verified"] and result[0]["line"] == line_of(source, "call twice")
    dap.ok("continue", threadId=pid)
    stop = dap.stopped("instruction breakpoint")
    assert dap.top_frame(pid)["instructionPointerReference"] == return_address
    bad = dap.ok("setInstructionBreakpoints",
                 breakpoints=[{"instructionReference": "here"}])["breakpoints"]
    assert not bad[0]["verified"] and "address" in bad[0]["message"]


def test_data_breakpoint_stops_after_the_write(dap, built, execd):
    pid = dap.launch(built / "prog.hxe", execd, stopOnEntry=True)
    dap.stopped("entry")
    frame = dap.top_frame(pid)
    scopes = dap.ok("scopes", frameId=frame["id"])["scopes"]
    globals_ref = next(s["variablesReference"] for s in scopes if s["name"] == "Globals")
    info = dap.ok("dataBreakpointInfo", variablesReference=globals_ref, name="counter")
    assert info["dataId"] and info["accessTypes"] == ["write"]
    registers_ref = next(s["variablesReference"] for s in scopes if s["name"] == "Registers")
    assert dap.ok("dataBreakpointInfo", variablesReference=registers_ref,
                  name="r1")["dataId"] is None
    result = dap.ok("setDataBreakpoints", breakpoints=[{"dataId": info["dataId"]}])
    assert result["breakpoints"][0]["verified"]
    dap.ok("continue", threadId=pid)
    stop = dap.stopped("data breakpoint")
    assert stop["hitBreakpointIds"] == [result["breakpoints"][0]["id"]]
    top = dap.top_frame(pid)
    assert top["name"] == "accumulate"          # just after `counter = counter + 1`
    assert dap.ok("evaluate", expression="counter", frameId=top["id"])["result"] == "1"
    dap.ok("setDataBreakpoints", breakpoints=[])
    dap.ok("continue", threadId=pid)
    assert dap.wait_event("exited")["exitCode"] == 3


def test_data_breakpoint_on_a_local_of_an_outer_frame(dap, built, execd):
    source = built / "prog.c"
    pid = dap.launch(built / "prog.hxe", execd, lines={"prog.c": [line_of(source, "count")]})
    dap.stopped("breakpoint")
    frames = dap.ok("stackTrace", threadId=pid)["stackFrames"]
    assert frames[1]["name"] == "main"
    scopes = dap.ok("scopes", frameId=frames[1]["id"])["scopes"]
    locals_ref = next(s["variablesReference"] for s in scopes if s["name"] == "Locals")
    info = dap.ok("dataBreakpointInfo", variablesReference=locals_ref, name="sum")
    assert "sum changes (4 bytes at" in info["description"]
    assert dap.ok("setDataBreakpoints",
                  breakpoints=[{"dataId": info["dataId"]}])["breakpoints"][0]["verified"]
    dap.ok("setBreakpoints", source={"path": str(source)}, breakpoints=[])
    dap.ok("continue", threadId=pid)
    dap.stopped("data breakpoint")
    top = dap.top_frame(pid)
    assert top["name"] == "main"
    assert dap.ok("evaluate", expression="sum", frameId=top["id"])["result"] == "200"


def stop_in_take(dap, built, execd) -> tuple[int, list[dict]]:
    """stock.c stopped in take(&stock[1], 1) before it changes anything; its frames."""
    source = built / "stock.c"
    pid = dap.launch(built / "stock.hxe", execd, lines={"stock.c": [line_of(source, "take")]})
    dap.stopped("breakpoint")
    dap.ok("setBreakpoints", source={"path": str(source)}, breakpoints=[])
    return pid, dap.ok("stackTrace", threadId=pid)["stackFrames"]


def test_a_data_breakpoint_stop_says_what_changed_from_what_to_what(dap, built, execd):
    pid, frames = stop_in_take(dap, built, execd)
    scopes = {s["name"]: s["variablesReference"]
              for s in dap.ok("scopes", frameId=frames[1]["id"])["scopes"]}
    stock = dap.ok("dataBreakpointInfo", variablesReference=scopes["Globals"], name="stock")
    assert "stock changes (24 bytes at" in stock["description"]
    placed = dap.ok("setDataBreakpoints", breakpoints=[{"dataId": stock["dataId"]}])
    assert placed["breakpoints"][0]["verified"]

    dap.ok("continue", threadId=pid)
    stop = dap.stopped("data breakpoint")
    assert stop["description"] == "stock[1].qty changed: 3 -> 2"
    assert stop["hitBreakpointIds"] == [placed["breakpoints"][0]["id"]]
    dap.wait_output("data breakpoint: stock[1].qty changed from 3 to 2\n", "console")
    dap.ok("continue", threadId=pid)
    assert dap.stopped("data breakpoint")["description"] == "stock[0].qty changed: 5 -> 3"


def test_a_data_breakpoint_sent_again_later_still_watches_its_object(dap, built, execd):
    pid, frames = stop_in_take(dap, built, execd)
    item = dap.ok("dataBreakpointInfo", name="*it", frameId=frames[0]["id"])["dataId"]
    left = dap.ok("dataBreakpointInfo", name="left", frameId=frames[0]["id"])["dataId"]
    first = dap.ok("setDataBreakpoints", breakpoints=[{"dataId": item}, {"dataId": left}])
    assert [bp["verified"] for bp in first["breakpoints"]] == [True, True]
    dap.ok("setDataBreakpoints", breakpoints=[{"dataId": item}])
    dap.ok("continue", threadId=pid)
    assert dap.stopped("data breakpoint")["description"] == "(*it).qty changed: 3 -> 2"
    dap.ok("setDataBreakpoints", breakpoints=[])
    source = built / "stock.c"
    dap.ok("setBreakpoints", source={"path": str(source)},
           breakpoints=[{"line": line_of(source, "return")}])
    dap.ok("continue", threadId=pid)
    dap.stopped("breakpoint")
    assert dap.top_frame(pid)["name"] == "main"   # where `it` is nothing, `left` main's
    # VS Code sends every data breakpoint again whenever one is added or removed: each
    # still watches the object it was set on
    again = dap.ok("setDataBreakpoints", breakpoints=[{"dataId": item}, {"dataId": left}])
    assert [(bp["verified"], bp["message"]) for bp in again["breakpoints"]] == \
        [(True, bp["message"]) for bp in first["breakpoints"]]
