"""The shell's command language (hsx.client.commands): parsing, and running plans
against a real executive."""
from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hsx.client import AsyncClient, ProtocolError
from hsx.client.commands import (COMMANDS, RAW, TABLE, UsageError, help_text, parse, run,
                                 run_async, split_assignment, split_words)


# ------------------------------------------------------------------ the table

@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_every_example_parses_to_its_command(command):
    assert command.examples, f"{command.name} has no example"
    for example in command.examples:
        assert parse(example).command is command, example


def test_help_shows_the_groups_on_a_screen_and_a_group_or_every_command_on_request():
    overview = help_text().splitlines()
    assert len(overview) < 24 and max(map(len, overview)) <= 80
    assert any(line.split()[:2] == ["run", "Run"] and "finish" in line for line in overview)
    run = help_text("run")
    assert "finish" in run and "peek" not in run
    every = help_text("all")
    assert all(c.name in every for c in COMMANDS)
    with pytest.raises(UsageError, match="no command or group 'frobnicate'"):
        help_text("frobnicate")


def test_help_describes_one_command():
    peek = help_text("peek")
    assert peek.startswith("usage: peek PID ADDR [LENGTH]")
    assert "peek 1 counter 32" in peek and "register" in peek
    assert help_text("bt").startswith("usage: stack")          # by an alias


def test_use_alone_forgets_and_ps_lists_every_task_whatever_the_current_task():
    assert parse("use", default_pid=3).values == {}
    assert parse("ps", default_pid=3).values == {}
    assert parse("info", default_pid=3).values == {}
    assert parse("bp", default_pid=3).values == {"pid": 3}     # the current task's


# ------------------------------------------------------------------ arguments

@pytest.mark.parametrize("line", ["regs 7", "stack 7", "disasm 7", "kill 7", "locals 7",
                                  "step 7", "memory 7", "next 7", "finish 7"])
def test_a_bare_pid_is_the_pid_for_every_command_that_takes_one(line):
    invocation = parse(line)
    assert invocation.values["pid"] == 7
    assert invocation.fields()["pid"] == 7


def test_step_takes_the_pid_first_then_the_count():
    assert parse("step 8").fields() == {"pid": 8}
    assert parse("step 2 8").fields() == {"pid": 2, "count": 8}


def test_the_current_task_fills_a_left_out_pid():
    assert parse("regs", default_pid=3).fields() == {"pid": 3}
    assert parse("regs 5", default_pid=3).fields() == {"pid": 5}
    assert parse("step 8", default_pid=3).fields() == {"pid": 3, "count": 8}
    assert parse("step 2 8", default_pid=3).fields() == {"pid": 2, "count": 8}
    assert parse("peek counter 8", default_pid=3).values == {"pid": 3, "addr": "counter",
                                                            "length": 8}
    # a value that does not fit the other slots makes the first value the PID
    assert parse("peek 4 counter", default_pid=3).values == {"pid": 4, "addr": "counter"}
    assert parse("print x + 1", default_pid=3).values == {"pid": 3, "expr": "x + 1"}
    assert parse("print x pid=4", default_pid=3).values["pid"] == 3   # rest of the line
    assert parse("print pid=4 x", default_pid=3).values == {"pid": 4, "expr": "x"}


# a value of each kind of argument, for lines that give every argument
SAMPLES = {"int": "3", "number": "3", "code": "main", "data": "counter", "hex": "01 02",
           "register": "R3", "pid": "6", "text": "hello", "expression": "x + 1",
           "remote path": "/tmp/x.sym"}


def _full_line(command) -> str:
    """The command with its PID (5) and a value for every other positional argument."""
    words = [command.name, "5"]
    for arg in [a for a in command.args if a.slot][1:]:
        words.append(arg.choices[0] if arg.choices else
                     "x = 1" if arg.key == "assignment" else SAMPLES[arg.kind.name])
    return " ".join(words)


@pytest.mark.parametrize("command", [c for c in COMMANDS if c.args and c.args[0].slot
                                     and c.args[0].kind.name == "pid"], ids=lambda c: c.name)
def test_a_line_that_names_its_pid_means_it_whatever_the_current_task(command):
    line = _full_line(command)
    alone = parse(line).values
    assert alone["pid"] == 5, line
    assert parse(line, default_pid=4).values == alone, line


@pytest.mark.parametrize("line, values", [
    ("stdin 5 hello world", {"pid": 5, "data": "hello world"}),
    ("stdin 2 hello", {"pid": 2, "data": "hello"}),
    ("stdin 5 --eof", {"pid": 5, "eof": True}),
    ("stdin 5", {"pid": 4, "data": "5"}),                 # a number to the current task
    ('stdin "5 apples"', {"pid": 4, "data": "5 apples"}),
    ("stdin hello world", {"pid": 4, "data": "hello world"}),
    ("stdin --eof", {"pid": 4, "eof": True}),
    ("p 2 *it", {"pid": 2, "expr": "*it"}),
    ("p 2", {"pid": 4, "expr": "2"}),
    ("p (2 * x)", {"pid": 4, "expr": "(2 * x)"}),
    ("set 5 x = 1", {"pid": 5, "assignment": "x = 1"}),
    ("reg 5 R3 42", {"pid": 5, "register": "R3", "value": "42"}),
    ("reg R3 42", {"pid": 4, "register": "R3", "value": "42"}),
    ("poke 5 counter 01", {"pid": 5, "addr": "counter", "data": "01"}),
    ("poke 0x4000 de ad", {"pid": 4, "addr": 0x4000, "data": "dead"}),
])
def test_with_a_current_task_a_leading_number_before_the_rest_of_the_line_is_the_pid(
        line, values):
    assert parse(line, default_pid=4).values == values


def test_double_quotes_take_c_escapes_single_quotes_take_text_as_it_is():
    assert [w.text for w in split_words(r'"a\tb\n" "\x41\101\0" "\\ \" \q"')] == [
        "a\tb\n", "AA\0", '\\ " \\q']
    assert [w.text for w in split_words(r"'C:\new\x41'")] == [r"C:\new\x41"]
    assert parse(r'stdin 2 "line\n"').values["data"] == "line\n"


def test_a_quoted_word_or_a_negative_number_is_a_value_not_an_option():
    assert parse('stdin "--eof"', default_pid=4).values == {"pid": 4, "data": "--eof"}
    assert parse('stdin "-n"', default_pid=4).values == {"pid": 4, "data": "-n"}
    assert parse("stdin -5 degrees", default_pid=4).values == {"pid": 4, "data": "-5 degrees"}
    assert parse("reg 1 R3 -5").values["value"] == "-5"
    with pytest.raises(UsageError, match="unknown option -x"):
        parse("stdin -x", default_pid=4)


def test_stdin_needs_text_or_eof():
    with pytest.raises(UsageError, match="stdin needs TEXT or --eof"):
        parse("stdin", default_pid=4)


def test_locations_are_numbers_or_text_the_executive_resolves():
    assert parse("bp set 1 0x40").fields() == {"pid": 1, "addr": 0x40}
    assert parse("break 1 prog.c:12").fields() == {"pid": 1, "addr": "prog.c:12"}
    assert parse("until 1 fact+0x10").fields() == {"pid": 1, "addr": "fact+0x10"}


@pytest.mark.parametrize("line, complaint", [
    ("peek", "peek needs PID"),
    ("peek x", "peek needs ADDR"),
    ("peek -3 counter", "PID: '-3' is not a PID or an app name"),
    ("peek 1 counter lots", "LENGTH: 'lots' is not a number"),
    ("regs 1 2", "regs: unexpected '2'"),
    ("poke 1 0x4000 zz", "DATA: 'zz' is not hex bytes"),
    ("symbols 1 everything", "type must be one of all, functions, variables"),
    ("kill 1 --hard", "unknown option --hard"),
    ("x/16q 1 counter", "bad format /16q"),
])
def test_a_wrong_argument_is_answered_with_the_usage(line, complaint):
    with pytest.raises(UsageError) as caught:
        parse(line)
    command = TABLE.find(line.split())[0]
    assert complaint in str(caught.value)
    assert caught.value.usage == command.usage
    assert str(caught.value).endswith(f"usage: {command.usage}")


def test_rest_of_line_keeps_quotes_and_stops_at_flags_and_keywords():
    inv = parse("print 1 c == 'x' && s[0] == \"a b\" --json")
    assert inv.values["expr"] == "c == 'x' && s[0] == \"a b\"" and inv.json
    inv = parse("bp set 1 loop if R1 == 5 --temporary -y")
    assert inv.fields() == {"pid": 1, "addr": "loop", "condition": "R1 == 5",
                            "temporary": True}
    assert inv.force
    assert parse("send app:chan hello  world").fields() == {"target": "app:chan",
                                                            "data": "hello  world"}
    assert parse("send 2 hi").fields() == {"pid": 2, "data": "hi"}        # stdin of task 2
    assert parse("poke 1 0x10 de ad").values["data"] == "dead"


def test_values_are_named_or_numbered():
    assert parse("val get motor.rpm").fields() == {"name": "motor.rpm"}
    assert parse("val get 0x0102").fields() == {"oid": 0x102}
    assert parse("val set rpm 12.5").fields() == {"name": "rpm", "value": 12.5}


def test_assignment_splits_at_the_assigning_equals():
    assert split_assignment("a[i == 2 ? 0 : 1] = b <= c") == ("a[i == 2 ? 0 : 1]", "b <= c")
    assert split_assignment("x = y == 3") == ("x", "y == 3")
    assert split_assignment("p->v=-1") == ("p->v", "-1")
    assert split_assignment("x >= 1") == ("x >= 1", "")
    assert split_assignment("x != 1") == ("x != 1", "")
    assert split_assignment("c == '='") == ("c == '='", "")         # a character literal
    assert split_assignment("c = '\\''") == ("c", "'\\''")
    assert split_assignment("a[i = 1]") == ("a[i = 1]", "")         # not at the top level


def test_a_compound_assignment_becomes_a_plain_one():
    assert split_assignment("it->qty -= 2") == ("it->qty", "it->qty - (2)")
    assert split_assignment("x <<= n + 1") == ("x", "x << (n + 1)")
    assert split_assignment("x>>=1") == ("x", "x >> (1)")
    assert split_assignment("m[2] |= 0x10") == ("m[2]", "m[2] | (0x10)")


def test_other_lines_are_protocol_requests():
    inv = parse("start_auto")
    assert inv.command is RAW and inv.extra == {"cmd": "start_auto"}
    inv = parse("trace.exports --json")
    assert inv.extra == {"cmd": "trace.exports"} and inv.json
    inv = parse('{"cmd": "peek", "pid": 1, "addr": 16, "id": 9}')
    assert inv.extra == {"cmd": "peek", "pid": 1, "addr": 16}
    inv = parse("mailbox.open target=app:x mode=r")
    assert inv.extra == {"cmd": "mailbox.open", "target": "app:x", "mode": "r"}
    with pytest.raises(UsageError, match="unknown command 'frob'"):
        parse("frob 1 2")
    with pytest.raises(UsageError, match="no closing"):
        parse("send app:x 'open")


words = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"),
                              blacklist_characters="\"'\\"), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(words, st.text(" ab'", min_size=0, max_size=6)), max_size=5))
def test_split_words_reads_back_quoted_words(items):
    line = " ".join('"' + w.replace('"', '\\"') + '"' if (" " in w or "'" in w or not w)
                    else w for w in items)
    assert [w.text for w in split_words(line)] == items


# ------------------------------------------------------------------ against an executive

def test_memory_by_address_symbol_offset_and_register(client, counter):
    pid = run(client, parse(f"load {counter} --paused"))["pid"]
    by_symbol = run(client, parse(f"peek {pid} counter 8"))
    assert by_symbol["data"][:8] == "44332211"
    assert by_symbol["symbols"][0]["name"] == "counter"
    by_address = run(client, parse(f"peek {pid} {by_symbol['addr']} 8"))
    assert by_address["data"] == by_symbol["data"]
    msg = run(client, parse(f"peek {pid} counter+4 5"))
    assert bytes.fromhex(msg["data"]) == b"tick\n"
    sp = client.request("regs", pid=pid)["registers"]["sp"]
    assert run(client, parse(f"peek {pid} SP 4"))["addr"] == sp
    words = run(client, parse(f"x/2xw {pid} counter"))
    assert (words["length"], words["unit"], words["format"]) == (8, 4, "x")
    code = run(client, parse(f"x/3i {pid} main"))
    assert [i["mnemonic"] for i in code["disasm"]["instructions"]] == ["LDI32", "LD", "ADDI"]
    with pytest.raises(ProtocolError) as missing:
        run(client, parse(f"peek {pid} nosuch"))
    assert missing.value.code == "unknown_symbol"


def test_writes_breakpoints_and_the_stack(client, counter):
    pid = run(client, parse(f"load {counter} --paused"))["pid"]
    assert run(client, parse(f"poke {pid} counter 05000000"))["length"] == 4
    assert run(client, parse(f"peek {pid} counter 4"))["data"] == "05000000"
    assert run(client, parse(f"reg {pid} R3 42"))["result"]["value"] == "42"
    bp = run(client, parse(f"bp set {pid} loop"))["breakpoint"]
    assert bp["symbol"] == "main" and bp["location"].startswith("main+")
    client.subscribe(["debug_break"], pids=[pid])
    run(client, parse(f"resume {pid}"))
    event = next(client.events(timeout=5))
    assert event["data"]["reason"] == "breakpoint" and event["data"]["pc"] == bp["address"]
    stack = run(client, parse(f"bt {pid}"))
    assert stack["program"] == str(counter)
    assert [f["function"] for f in stack["stack"]["frames"]] == ["main", "start"]
    listed = run(client, parse(f"bp list {pid}"))["breakpoints"]
    assert [b["id"] for b in listed] == [bp["id"]]


def test_a_task_may_be_named_by_its_app(client, counter):
    pid = run(client, parse(f"load {counter} --paused"))["pid"]
    assert parse("regs counter").values == {"pid": "counter"}
    assert run(client, parse("regs counter"))["registers"]["pid"] == pid
    assert run(client, parse("peek counter counter 4"))["data"] == "44332211"
    with pytest.raises(UsageError, match="no task named 'nosuch'"):
        run(client, parse("regs nosuch"))
    run(client, parse(f"load {counter} --paused"))
    with pytest.raises(UsageError, match=r"several tasks are named 'counter' \(pids 1, 2\)"):
        run(client, parse("regs counter"))


def test_plans_run_the_same_on_the_asyncio_client(server, counter):
    async def main():
        client = await AsyncClient.connect(server.host, server.port)
        try:
            pid = (await run_async(client, parse(f"load {counter}")))["pid"]
            return await run_async(client, parse(f"x/4xb {pid} counter"))
        finally:
            await client.close()
    result = asyncio.run(main())
    assert result["length"] == 4 and result["location"] == "counter"
