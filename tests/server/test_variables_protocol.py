"""Source-level inspection over a real socket, on a real C program built by `hsx cc -g`:
the variables of every frame of a 4-deep call stack, a struct holding an array of
structs expanded two levels, expressions with pointers and fields, a variable set and
the program's output changing, an expression watch, and the errors people meet."""
from __future__ import annotations

import time

import pytest

from hsx.client import ProtocolError
from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym
from hsx.server import BackgroundServer, ServerConfig
from hsx.toolchain.cc.driver import Options, build_c

SOURCE = """\
#include <stdio.h>
struct point { int x, y; };
struct shape { char name[8]; struct point pts[3]; int sides; };
struct node { int value; struct node *next; };
struct shape global_shape = { "tri", {{1, 2}, {3, 4}, {5, 6}}, 3 };
int counter = 7;
#define KEEP __attribute__((noinline))
KEEP int depth3(int a, struct node *n) {
    int local = a + n->value;
    counter += local;
    return local * 2;
}
KEEP int depth2(int b) {
    struct node n = { b * 10, 0 };
    char c = 'x';
    return depth3(b + 1, &n) + c;
}
KEEP int depth1(long long big, double d) {
    short s = -3;
    return depth2((int)(big / 1000)) + s + (int)d;
}
int main(void) {
    int k = 5;
    int r = depth1(4000LL, 2.5);
    global_shape.pts[2].y = r;
    printf("%d %d %d\\n", r, counter, global_shape.pts[2].y + k);
    return 0;
}
"""
RETURN_LINE = SOURCE.splitlines().index("    return local * 2;") + 1


@pytest.fixture
def server(tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as srv:
        yield srv


def build(tmp_path, opt: int) -> str:
    source = tmp_path / "prog.c"
    source.write_text(SOURCE)
    result, _ = build_c([str(source)], Options(opt=opt, debug=True), "prog")
    path = tmp_path / f"prog{opt}.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    return str(path)


def stopped_in_depth3(connect, tmp_path, opt: int = 0):
    """The program loaded paused, locked, run to `return local * 2` in depth3."""
    client = connect()
    pid = client.request("load", path=build(tmp_path, opt), paused=True)["pid"]
    client.open_session("test", pid_lock=pid)
    client.subscribe(["debug_break", "stdout", "task_state"], pids=[pid])
    client.run_to(pid, f"prog.c:{RETURN_LINE}")
    wait(client, "debug_break")
    return client, pid


def wait(client, type_: str, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        event = client.next_event(timeout=left)
        if event is not None and event["type"] == type_:
            return event
    raise AssertionError(f"no {type_} event")


def named(items: list[dict]) -> dict[str, str]:
    return {item["name"]: item["value"] for item in items}


@pytest.fixture
def connect(server):
    from hsx.client import Client
    clients = []

    def make():
        clients.append(Client(server.host, server.port, timeout=30))
        return clients[-1]
    yield make
    for c in clients:
        c.close()


def test_every_frame_of_a_four_deep_stack(connect, tmp_path):
    client, pid = stopped_in_depth3(connect, tmp_path)
    frames = [f["function"] for f in client.stack(pid)["frames"]]
    assert frames[:4] == ["depth3", "depth2", "depth1", "main"]

    f0 = client.frame_variables(pid, 0)
    assert f0["function"] == "depth3" and f0["line"] == RETURN_LINE
    assert named(f0["arguments"])["a"] == "5"
    assert named(f0["arguments"])["n"].endswith("") and f0["arguments"][1]["type"] == "struct node *"
    assert named(f0["locals"]) == {"local": "45"}
    f1 = client.frame_variables(pid, 1)
    assert named(f1["arguments"]) == {"b": "4"}
    assert named(f1["locals"])["c"] == "120 'x'"
    assert named(f1["locals"])["n"] == "{value = 40, next = 0x00000000 (NULL)}"
    f2 = client.frame_variables(pid, 2, "arguments")
    assert named(f2["arguments"]) == {"big": "4000", "d": "2.5"}
    assert "locals" not in f2 and "globals" not in f2
    assert named(client.frame_variables(pid, 2, "locals")["locals"]) == {"s": "-3"}
    assert named(client.frame_variables(pid, 3, "locals")["locals"])["k"] == "5"
    # the pointer argument points at depth2's struct: expanding it shows the node
    pointer = f0["arguments"][1]
    (pointee,) = client.expand(pointer["ref"])["variables"]
    assert pointee["name"] == "*n" and pointee["value"] == "{value = 40, next = 0x00000000 (NULL)}"
    registers = named(f0["registers"])
    assert registers["pc"] == f"0x{f0['pc']:08X}" and "psw" in registers


def test_a_struct_of_an_array_of_structs_expands_two_levels(connect, tmp_path):
    client, pid = stopped_in_depth3(connect, tmp_path)
    shape = next(g for g in client.frame_variables(pid, 0, "globals")["globals"]
                 if g["name"] == "global_shape")
    assert shape["type"] == "struct shape" and shape["children"] == 3
    fields = {v["name"]: v for v in client.expand(shape["ref"])["variables"]}
    assert fields["name"]["value"] == '"tri"' and fields["sides"]["value"] == "3"
    points = client.expand(fields["pts"]["ref"])
    assert points["total"] == 3
    assert [p["value"] for p in points["variables"]] == [
        "{x = 1, y = 2}", "{x = 3, y = 4}", "{x = 5, y = 6}"]
    second = client.expand(points["variables"][1]["ref"])["variables"]
    assert named(second) == {"x": "3", "y": "4"}
    # paging through an array
    page = client.expand(fields["pts"]["ref"], start=2, count=5)
    assert [p["name"] for p in page["variables"]] == ["[2]"]


def test_expressions_with_pointers_fields_casts_and_registers(connect, tmp_path):
    client, pid = stopped_in_depth3(connect, tmp_path)
    value = lambda expr, frame=0: client.evaluate(pid, expr, frame)["value"]   # noqa: E731
    assert value("n->value + a") == "45"
    assert value("(*n).value * 2") == "80"
    assert value("global_shape.pts[1].x + global_shape.pts[2].y") == "9"
    assert value("global_shape.name[1]") == "114 'r'"
    assert value("sizeof(struct shape)") == "36"
    assert value("(unsigned char)300") == "44 ','"
    assert value("counter") == "52"
    assert value("c", frame=1) == "120 'x'"
    assert value("big / 3", frame=2) == "1333"
    assert value("d * 2", frame=2) == "5.0"
    assert value("&global_shape.pts[1] - &global_shape.pts[0]") == "1"
    result = client.evaluate(pid, "&global_shape.sides")
    assert result["type"] == "int *" and "<global_shape+32>" in result["value"]
    assert int(value("$sp")) == client.request("regs", pid=pid)["registers"]["regs"][15]
    assert client.evaluate(pid, "global_shape")["ref"] > 0
    for bad, why in [("nosuch + 1", "no variable"), ("n->nosuch", "no member"),
                     ("1 +", "incomplete"), ("a / 0", "division by zero"),
                     ("*a", "cannot dereference"), ("k", "no variable")]:
        with pytest.raises(ProtocolError) as error:
            client.evaluate(pid, bad)
        assert error.value.code == "bad_expression" and why in error.value.message, bad


def test_setting_a_variable_changes_what_the_program_prints(connect, tmp_path):
    client, pid = stopped_in_depth3(connect, tmp_path)
    assert client.set_variable(pid, "local", "100")["value"] == "100"
    assert client.set_variable(pid, "n->value", "n->value + 1")["value"] == "41"
    assert client.set_variable(pid, "c", "'y'", frame=1)["value"] == "121 'y'"
    client.request("resume", pid=pid)
    out = ""
    while "\n" not in out:
        event = wait(client, "stdout")
        out += event["data"].get("text", "")
    # depth3 returns 200; depth2 adds 'y' (121) -> 321; depth1: 321 - 3 + 2 = 320
    assert out.split() == ["320", "52", "325"]


def test_set_needs_the_pid_lock_and_a_place(connect, tmp_path):
    client, pid = stopped_in_depth3(connect, tmp_path)
    other = connect()
    with pytest.raises(ProtocolError) as error:
        other.set_variable(pid, "local", "1")
    assert error.value.code.startswith("pid_locked")
    with pytest.raises(ProtocolError) as error:
        client.set_variable(pid, "local + 1", "3")
    assert "cannot be assigned" in error.value.message


def test_an_expression_watch_resolves_its_address_when_set(connect, tmp_path):
    client, pid = stopped_in_depth3(connect, tmp_path)
    client.subscribe(["watch_update", "debug_break", "stdout"], pids=[pid])
    watch = client.add_watch(pid, "global_shape.pts[2].y")
    assert watch["length"] == 4 and watch["symbol"] == "global_shape.pts[2].y"
    client.request("resume", pid=pid)
    update = wait(client, "watch_update")
    assert int.from_bytes(bytes.fromhex(update["data"]["new"]), "little") == 209


def test_a_watch_on_a_c_object_says_which_part_changed_from_what_to_what(connect, tmp_path):
    client, pid = stopped_in_depth3(connect, tmp_path)
    client.subscribe(["watch_update", "debug_break"], pids=[pid])
    shape = client.add_watch(pid, "global_shape", stop=True)
    result = client.add_watch(pid, "r", frame=3)             # main's, three frames out
    assert shape["length"] == 36 and result["symbol"] == "r"        # 8 + 3 * 8 + 4
    client.request("resume", pid=pid)
    updates = {}
    while True:
        event = client.next_event(timeout=10)
        assert event is not None, "the watch did not stop the task"
        if event["type"] == "debug_break":
            break
        if event["type"] == "watch_update":
            updates[event["data"]["id"]] = event["data"]["change"]
    expected = {"what": "global_shape.pts[2].y", "old": "6", "new": "209"}
    assert event["data"]["reason"] == "watch" and event["data"]["change"] == expected
    assert updates[shape["id"]] == expected
    assert updates[result["id"]]["what"] == "r" and updates[result["id"]]["new"] == "209"


def test_optimised_build_reports_what_it_knows(connect, tmp_path):
    client, pid = stopped_in_depth3(connect, tmp_path, opt=2)
    f0 = client.frame_variables(pid, 0)
    assert f0["function"] == "depth3"
    for item in f0["arguments"] + f0["locals"]:        # known, or honestly not
        assert item["available"] or "not available" in item["value"]
    assert client.evaluate(pid, "global_shape.pts[1].x")["value"] == "3"


def test_breakpoint_conditions_read_c_variables(connect, tmp_path):
    client = connect()
    pid = client.request("load", path=build(tmp_path, 0), paused=True)["pid"]
    client.open_session("test", pid_lock=pid)
    client.subscribe(["debug_break", "task_state"], pids=[pid])
    never = client.set_breakpoint(pid, f"prog.c:{RETURN_LINE}", "local > 1000")
    hit = client.set_breakpoint(pid, f"prog.c:{RETURN_LINE}", "n->value == 40 && local == 45")
    with pytest.raises(ProtocolError) as error:
        client.set_breakpoint(pid, "depth2", "nosuch > 1")
    assert error.value.code == "bad_condition" and "nosuch" in error.value.message
    client.request("resume", pid=pid)
    event = wait(client, "debug_break")
    assert event["data"]["breakpoint_id"] == hit["breakpoint_id"] != never["breakpoint_id"]


def test_the_asyncio_helpers_step_into_and_inspect(server, tmp_path):
    """The same helpers as coroutines: a line step into depth3 from depth2's call, its
    arguments, then a long counted step that `pause` interrupts."""
    import asyncio

    from hsx.client import AsyncClient

    async def events_until(client, type_):
        while True:
            event = await client.next_event(timeout=10)
            assert event is not None, f"no {type_} event"
            if event["type"] == type_:
                return event

    async def scenario():
        async with await AsyncClient.connect(server.host, server.port) as client:
            pid = (await client.request("load", path=build(tmp_path, 0), paused=True))["pid"]
            await client.open_session("aio", pid_lock=pid)
            await client.subscribe(["debug_break"], pids=[pid])
            call_line = SOURCE.splitlines().index("    return depth3(b + 1, &n) + c;") + 1
            await client.run_to(pid, f"prog.c:{call_line}")
            await events_until(client, "debug_break")
            assert (await client.step_line(pid, "into"))["pending"] == "step_line"
            stop = (await events_until(client, "debug_break"))["data"]
            body = SOURCE.splitlines().index("    int local = a + n->value;") + 1
            assert (stop["symbol"], stop["line"]) == ("depth3", body)    # past the prologue
            args = (await client.frame_variables(pid, 0, "arguments"))["arguments"]
            assert named(args)["a"] == "5"
            assert (await client.evaluate(pid, "n->value"))["value"] == "40"
            # a program that never ends: the step is still running when `pause` comes
            spin = (await client.request("load", path=build_spin(tmp_path), paused=True))["pid"]
            assert (await client.step(spin, 10 ** 9))["pending"] == "step"
            await client.pause(spin)
            regs = (await client.request("regs", pid=spin))["registers"]
            assert regs["steps"] < 10 ** 9
    asyncio.run(scenario())


def build_spin(tmp_path) -> str:
    source = tmp_path / "spin.c"
    source.write_text("volatile int ticks;\nint main(void) {\n    for (;;)\n        ticks++;\n}\n")
    result, _ = build_c([str(source)], Options(opt=0), "spin")
    path = tmp_path / "spin.hxe"
    path.write_bytes(write_hxe(result.image))
    return str(path)


# Every argument and local used after the calls below stays live, so an optimised build
# keeps them in callee-saved registers while the callees run.
LIVE_SOURCE = """\
#include <stdio.h>
#define KEEP __attribute__((noinline))
struct node { int value; struct node *next; };
struct node second = { 2, 0 };
struct node first = { 40, &second };
volatile int sink;
KEEP int depth3(int a, struct node *n) {
    int local = a + n->value;
    sink = local + n->next->value;
    return local * 2 + a;
}
KEEP int depth2(int b, struct node *list) {
    int r = depth3(b + 1, list);
    return r + b * 4;
}
KEEP long long depth1(long long big, double d) {
    int t = (int)(big / 1000);
    int r = depth2(t, &first);
    return r + (long long)d + big;
}
int main(void) {
    int k = 5;
    for (int i = 0; i < 3; i++)
        k += (int)depth1(4000LL + 1000 * i, 2.5);
    printf("%d\\n", k);
    return 0;
}
"""
SINK_LINE = LIVE_SOURCE.splitlines().index("    sink = local + n->next->value;") + 1


@pytest.mark.parametrize("opt", [0, 2, "s"])   # (-Os: packed into compact pairs)
def test_every_frame_at_O0_and_O2_and_a_set_in_an_outer_frame(connect, tmp_path, opt):
    source = tmp_path / "live.c"
    source.write_text(LIVE_SOURCE)
    result, _ = build_c([str(source)], Options(opt=opt, debug=True), "live")
    path = tmp_path / "live.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    client = connect()
    pid = client.request("load", path=str(path), paused=True)["pid"]
    client.open_session("test", pid_lock=pid)
    client.subscribe(["debug_break", "stdout"], pids=[pid])
    client.run_to(pid, f"live.c:{SINK_LINE}")
    wait(client, "debug_break")
    frames = [f["function"] for f in client.stack(pid)["frames"]]
    assert frames[:4] == ["depth3", "depth2", "depth1", "main"]
    f0 = client.frame_variables(pid, 0)
    assert named(f0["arguments"])["a"] == "5"
    assert named(f0["arguments"])["n"].endswith("<first>")
    assert named(f0["locals"]) == {"local": "45"}
    assert named(client.frame_variables(pid, 1, "arguments")["arguments"])["b"] == "4"
    f2 = client.frame_variables(pid, 2, "arguments")
    assert named(f2["arguments"]) == {"big": "4000", "d": "2.5"}
    assert client.evaluate(pid, "big / 1000 + (int)d", 2)["value"] == "6"
    for item in client.frame_variables(pid, 1)["locals"]:      # known, or honestly not
        assert item["available"] or "optimised out" in item["value"]
    # big is used after depth2 returns: setting it in depth1's frame changes the output
    assert client.set_variable(pid, "big", "5000", frame=2)["value"] == "5000"
    client.request("resume", pid=pid)
    out = ""
    while "\n" not in out:
        out += wait(client, "stdout")["data"].get("text", "")
    # 5 + (95 + 16 + 2 + 4000) + (98 + 20 + 2 + 5000) + (101 + 24 + 2 + 6000), +1000
    assert out.split() == ["16365"]

CALLS_SOURCE = """\
int sink;
__attribute__((noinline)) void leaf(int v) {
    sink = v;
}
__attribute__((noinline)) void middle(int v) {
    leaf(v + 1);
    sink += 2;
}
int main(void) {
    middle(4);
    return sink;
}
"""


def line_of(text: str, code: str) -> int:
    return text.splitlines().index(code) + 1


def crt0_call_line() -> int:
    from hsx.toolchain.cc.driver import lib_dir
    crt0 = (lib_dir() / "crt0.mvasm").read_text().splitlines()
    return next(n for n, row in enumerate(crt0, 1) if row.split()[:2] == ["LCALL", "main"])


@pytest.mark.parametrize("opt", [0, 2, "s"])   # (-Os: packed into compact pairs)
def test_callers_are_on_the_line_of_their_call(connect, tmp_path, opt):
    """Each call here ends its line, so it returns into the next line's code: a caller's
    frame still shows the call's line (as gdb does), in stack.info and frame.variables."""
    source = tmp_path / "calls.c"
    source.write_text(CALLS_SOURCE)
    result, _ = build_c([str(source)], Options(opt=opt, debug=True), "calls")
    path = tmp_path / "calls.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    client = connect()
    pid = client.request("load", path=str(path), paused=True)["pid"]
    client.subscribe(["debug_break"], pids=[pid])
    client.run_to(pid, f"calls.c:{line_of(CALLS_SOURCE, '    sink = v;')}")
    wait(client, "debug_break")
    frames = client.stack(pid)["frames"]
    assert [(f["function"], f["line"]) for f in frames] == [
        ("leaf", line_of(CALLS_SOURCE, "    sink = v;")),
        ("middle", line_of(CALLS_SOURCE, "    leaf(v + 1);")),
        ("main", line_of(CALLS_SOURCE, "    middle(4);")),
        ("_start", crt0_call_line())]
    for f in frames[1:]:                 # pc is still the return address, offset of it
        assert f["pc"] == frames[f["index"] - 1]["return_pc"]
    assert client.frame_variables(pid, 1, "arguments")["line"] == frames[1]["line"]


@pytest.mark.parametrize("opt", [0, 2])
def test_a_breakpoint_on_a_function_stops_past_its_prologue(connect, tmp_path, opt):
    """On depth3's opening line, or by its name: the breakpoint lands where its body
    begins (`symbols.lookup` says where), and its arguments are readable there."""
    client = connect()
    pid = client.request("load", path=build(tmp_path, opt), paused=True)["pid"]
    client.subscribe(["debug_break"], pids=[pid])
    opening = SOURCE.splitlines().index("KEEP int depth3(int a, struct node *n) {") + 1
    body = client.request("symbols.lookup", pid=pid, name="depth3")["symbol"]["body"]
    by_line = client.request("bp.set", pid=pid, file="prog.c", line=opening)["breakpoint"]
    by_name = client.request("bp.set", pid=pid, symbol="depth3")["breakpoint"]
    assert by_line["id"] == by_name["id"] and by_line["address"] == body
    if opt == 0:
        assert by_line["line"] == opening + 1               # `int local = a + n->value;`
    client.request("resume", pid=pid)
    stop = wait(client, "debug_break")["data"]
    assert (stop["pc"], stop["breakpoint_id"]) == (body, by_line["id"])
    assert named(client.frame_variables(pid, 0, "arguments")["arguments"])["a"] == "5"
    assert client.evaluate(pid, "n->value")["value"] == "40"
    cleared = client.request("bp.clear", pid=pid, symbol="depth3")["cleared"]
    assert [bp["id"] for bp in cleared] == [by_line["id"]]
