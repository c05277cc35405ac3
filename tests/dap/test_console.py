"""The debug console as a first user meets it (issue 27): assignments to C lvalues,
and completion of struct members, variables and functions."""
from __future__ import annotations

from dapkit import line_of


def stop_in_take(dap, built, execd) -> tuple[int, dict]:
    """Stopped in take(&stock[1], 1) before it changes anything."""
    source = built / "stock.c"
    pid = dap.launch(built / "stock.hxe", execd, lines={"stock.c": [line_of(source, "take")]})
    dap.stopped("breakpoint")
    return pid, dap.top_frame(pid)


def test_the_console_assigns_to_c_lvalues(dap, built, execd):
    pid, top = stop_in_take(dap, built, execd)

    def console(text: str) -> str:
        return dap.ok("evaluate", expression=text, frameId=top["id"], context="repl")["result"]

    def value(text: str) -> str:
        return dap.ok("evaluate", expression=text, frameId=top["id"], context="watch")["result"]

    assert console("stock[1].qty = 7") == "7"
    assert value("stock[1].qty") == "7" and value("it->qty") == "7"
    assert console("it->price = it->price * 2") == "40"
    assert console("count += 4") == "5" and value("count") == "5"
    assert console("stock[2].price <<= 1") == "60"
    assert console("it->qty == 7") == "1"                # comparisons are not assignments
    assert console("stock[0].qty >= 5") == "1"
    assert console("stock[0].qty != 5") == "0"
    assert "cannot be assigned" in dap.fails("evaluate", expression="count + 1 = 3",
                                             frameId=top["id"], context="repl")
    assert "nosuch" in dap.fails("evaluate", expression="nosuch = 1", frameId=top["id"],
                                 context="repl")
    dap.ok("setBreakpoints", source={"path": str(built / "stock.c")}, breakpoints=[])
    dap.ok("continue", threadId=pid)
    # take(&stock[1], 5) leaves 7 - 5 = 2, take(&stock[0], 2) 5 - 2 = 3
    assert dap.wait_event("exited")["exitCode"] == 5


def test_completion_offers_members_after_a_dot_or_arrow(dap, built, execd):
    pid, top = stop_in_take(dap, built, execd)

    def complete(text: str) -> list[tuple[str, int, int]]:
        targets = dap.ok("completions", text=text, column=len(text) + 1,
                         frameId=top["id"])["targets"]
        return sorted((t["label"], t["start"], t["length"]) for t in targets)

    assert complete("it->q") == [("qty", 5, 1)]            # replaces the "q"
    assert complete("it->") == [("price", 5, 0), ("qty", 5, 0)]
    assert complete("stock[1].p") == [("price", 10, 1)]
    assert complete("(*it).q") == [("qty", 7, 1)]
    assert complete("count * it -> pr") == [("price", 15, 2)]
    assert complete("nosuch->q") == [] and complete("count.q") == []
    assert complete("stock[it->q") == [("qty", 11, 1)]
    assert complete("count >") == []                       # a comparison, not a `->`


def test_completion_offers_variables_and_functions(dap, built, execd):
    pid, top = stop_in_take(dap, built, execd)

    def labels(text: str) -> dict[str, str]:
        targets = dap.ok("completions", text=text, frameId=top["id"])["targets"]
        return {t["label"]: t.get("type") for t in targets}

    assert labels("sto") == {"stock": "variable"}
    assert labels("it->qty + or") == {"orders": "variable"}
    assert labels("ta")["take"] == "function"
    assert "main" in labels("ma") and "count" in labels("co")
