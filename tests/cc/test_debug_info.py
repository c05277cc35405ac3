"""`hsx cc -g`: C types, globals and locals in the `.sym` file (checked against the ILP32
layout of docs/abi.md, the linked labels, and memory read at a BRK on the VM)."""
from __future__ import annotations

import struct

import pytest

from hsx.image.sym import read_sym, write_sym
from hsx.vm import Machine, StandaloneSvc, StopReason

SOURCE = r"""
struct point { char tag; int x; short y; };
typedef struct point point_t;
union word { int i; float f; unsigned char b[4]; };
enum color { RED, GREEN = 5 };
struct node { int value; struct node *next; };

int counter = 7;
point_t origin = { 'o', 3, -4 };
int table[4][3] = { { 1, 2, 3 } };
const char *greeting = "hi";
static struct node chain = { 11, &chain };

int scale(int factor, int bias) {
    int result = factor * counter + bias;
    return result;
}

int main(void) {
    int a = 41;
    point_t p = { 'p', 10, 20 };
    int arr[3] = { 4, 5, 6 };
    int *ptr = &a;
    enum color c = GREEN;
    union word w;
    w.i = 0x01020304;
    a += scale(1, 0) - 7;
    a++;
    __builtin_debugtrap();
    return a + p.x + arr[1] + *ptr + c + w.b[0] + chain.value;
}
"""


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path_factory.mktemp("dbg") / "vars.c"
    path.write_text(SOURCE)
    result, _ = build_c([str(path)], Options(opt=0, debug=True), "vars")
    return result


def resolve(table, ref):
    """Follow typedefs and qualifiers to the underlying type."""
    t = table.types[ref]
    while t["kind"] in ("typedef", "const", "volatile", "restrict", "atomic"):
        t = table.types[t["type"]]
    return t


def test_sym_round_trips(build):
    table = build.symbols
    again = read_sym(write_sym(table))
    assert again.to_json() == table.to_json()
    assert again.types and again.globals and again.locals


def test_global_types_and_layout(build):
    table = build.symbols
    g = {v.name: v for v in table.globals}
    assert set(g) == {"counter", "origin", "table", "greeting", "chain"}

    assert table.types[g["counter"].type] == {"kind": "base", "name": "int", "size": 4,
                                              "encoding": "signed"}
    typedef = table.types[g["origin"].type]
    assert typedef["kind"] == "typedef" and typedef["name"] == "point_t"
    point = resolve(table, g["origin"].type)
    assert point["kind"] == "struct" and point["name"] == "point" and point["size"] == 12
    assert [(f["name"], f["offset"], table.types[f["type"]]["size"]) for f in point["fields"]] \
        == [("tag", 0, 1), ("x", 4, 4), ("y", 8, 2)]

    rows = table.types[g["table"].type]
    assert (rows["kind"], rows["count"], rows["size"]) == ("array", 4, 48)
    row = table.types[rows["element"]]
    assert (row["kind"], row["count"], row["size"]) == ("array", 3, 12)
    assert table.types[row["element"]]["name"] == "int"

    ptr = table.types[g["greeting"].type]
    assert ptr["kind"] == "pointer" and ptr["size"] == 4
    const = table.types[ptr["pointee"]]
    assert const["kind"] == "const" and table.types[const["type"]]["name"] == "char"

    node = resolve(table, g["chain"].type)          # a recursive type
    assert g["chain"].static and node["size"] == 8
    nxt = node["fields"][1]
    assert nxt["name"] == "next" and nxt["offset"] == 4
    assert table.types[table.types[nxt["type"]]["pointee"]] is node


def test_global_addresses_are_the_linked_labels(build):
    table = build.symbols
    for g in table.globals:
        assert table.address_of(g.symbol or g.name) == g.address, g
        assert g.file.endswith("vars.c") and g.line
    image = build.image
    machine = Machine(StandaloneSvc())
    ctx = machine.create_context(image)
    origin = table.global_variable("origin")
    assert machine.read_memory(ctx, origin.address, 12) == \
        struct.pack("<b3xih2x", ord("o"), 3, -4)
    counter = table.global_variable("counter")
    assert machine.read_memory(ctx, counter.address, 4) == struct.pack("<i", 7)


def test_every_local_is_described_at_O0(build):
    table = build.symbols
    by_fn = {}
    for v in table.locals:
        by_fn.setdefault(v.function, {})[v.name] = v
    assert set(by_fn["main"]) == {"a", "p", "arr", "ptr", "c", "w"}
    assert set(by_fn["scale"]) == {"factor", "bias", "result"}
    assert by_fn["scale"]["factor"].arg == 1 and by_fn["scale"]["bias"].arg == 2
    main = table.symbol("main")
    for v in by_fn["main"].values():
        assert v.location["kind"] == "frame" and v.location["offset"] < 0
        assert (v.low_pc, v.high_pc) == (main.address, main.address + main.size)
        assert v.file.endswith("vars.c") and v.line
    word = resolve(table, by_fn["main"]["w"].type)
    assert word["kind"] == "union" and word["size"] == 4
    assert all(f["offset"] == 0 for f in word["fields"])
    color = resolve(table, by_fn["main"]["c"].type)
    assert color["kind"] == "enum" and {"name": "GREEN", "value": 5} in color["enumerators"]
    arr = resolve(table, by_fn["main"]["arr"].type)
    assert (arr["count"], arr["size"]) == (3, 12)


def test_locals_read_at_a_brk(build):
    table = build.symbols
    machine = Machine(StandaloneSvc())
    ctx = machine.create_context(build.image)
    stop = machine.run(ctx, 1_000_000)
    assert stop.reason is StopReason.BRK
    assert table.symbol_at(stop.pc).name == "main"
    fp = machine.read_register(ctx, 14)
    here = {v.name: v for v in table.locals_at(stop.pc)}
    assert set(here) == {"a", "p", "arr", "ptr", "c", "w"}

    def read(name: str, size: int) -> bytes:
        return machine.read_memory(ctx, (fp + here[name].location["offset"]) & 0xFFFFFFFF,
                                   size)

    assert struct.unpack("<i", read("a", 4))[0] == 42
    p = read("p", 12)
    point = resolve(table, here["p"].type)
    x = next(f for f in point["fields"] if f["name"] == "x")
    y = next(f for f in point["fields"] if f["name"] == "y")
    assert p[0] == ord("p")
    assert struct.unpack_from("<i", p, x["offset"])[0] == 10
    assert struct.unpack_from("<h", p, y["offset"])[0] == 20
    assert struct.unpack("<3i", read("arr", 12)) == (4, 5, 6)
    assert struct.unpack("<I", read("ptr", 4))[0] == (fp + here["a"].location["offset"]) \
        & 0xFFFFFFFF
    assert struct.unpack("<i", read("c", 4))[0] == 5
    assert struct.unpack("<I", read("w", 4))[0] == 0x01020304


def test_optimised_locals_have_honest_locations(tmp_path):
    """At -O2 a variable is in a frame slot, a register over the code where it holds it,
    a constant, or `none` (optimised out); at the BRK, what is described is right, and
    the variables of the inlined `scale` are not listed as main's."""
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path / "o2.c"
    path.write_text(SOURCE)
    result, _ = build_c([str(path)], Options(opt=2, debug=True), "o2")
    table = result.symbols
    assert {g.name for g in table.globals} >= {"counter", "origin", "table"}
    kinds = {v.location["kind"] for v in table.locals}
    assert kinds <= {"frame", "register", "value", "none"} and "register" in kinds
    scale, main = table.symbol("scale"), table.symbol("main")
    for v in table.locals:
        fn = scale if v.function == "scale" else main
        assert fn.address <= v.low_pc < v.high_pc <= fn.address + fn.size, v
    factor = [v for v in table.locals if (v.function, v.name) == ("scale", "factor")]
    assert {v.location["kind"] for v in factor} == {"register", "none"}
    assert next(v for v in factor if v.location["kind"] == "register").low_pc == scale.address
    machine = Machine(StandaloneSvc())
    ctx = machine.create_context(result.image)
    stop = machine.run(ctx, 1_000_000)
    assert stop.reason is StopReason.BRK
    here = {v.name: v for v in table.locals_at(stop.pc) if v.location["kind"] != "none"}
    assert set(here) >= {"c"} and not set(here) & {"factor", "bias", "result"}
    assert here["c"].location == {"kind": "value", "value": 5}       # enum color c = GREEN


def test_no_debug_variables_without_g(tmp_path):
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path / "plain.c"
    path.write_text(SOURCE)
    result, _ = build_c([str(path)], Options(opt=0), "plain")
    doc = result.symbols.to_json()
    assert "types" not in doc and "globals" not in doc and "locals" not in doc


def test_bit_fields_and_lexical_blocks(tmp_path):
    """Bit-field members (`extraData: i64 0` in the metadata) and block-scoped locals."""
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path / "bits.c"
    path.write_text("struct flags { unsigned a : 3; unsigned b : 5; int c; };\n"
                    "struct flags F = { 1, 2, 3 };\n"
                    "int main(void) { int k = F.b; { int inner = k + 1; k = inner; }\n"
                    "  return k; }\n")
    result, _ = build_c([str(path)], Options(opt=0, debug=True), "bits")
    table = result.symbols
    flags = resolve(table, table.global_variable("F").type)
    assert flags["size"] == 8
    assert [(f["name"], f["offset"], f.get("bit_offset"), f.get("bit_size"))
            for f in flags["fields"]] == [("a", 0, 0, 3), ("b", 0, 3, 5), ("c", 4, None, None)]
    assert {v.name for v in table.locals} == {"k", "inner"}


@pytest.mark.parametrize("name", ["matrix", "varargs", "goto_labels", "string_build"])
def test_optimised_debug_builds_run_like_plain_ones(name):
    """-g at -O2 (`#dbg_value` records with `!DIArgList`, `#dbg_label`) compiles, and the
    program behaves exactly as without -g."""
    from cckit import PROGRAMS, run_image
    from hsx.toolchain.cc.driver import Options, build_c
    source = str(PROGRAMS / f"{name}.c")
    plain, _ = build_c([source], Options(opt=2))
    debug, _ = build_c([source], Options(opt=2, debug=True))
    assert run_image(debug.image) == run_image(plain.image)
    assert any(e.file.endswith(f"{name}.c") for e in debug.symbols.lines)


def test_an_optimised_function_pointer_is_the_linked_address(tmp_path):
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path / "fp.c"
    path.write_text("typedef int (*op_t)(int);\n"
                    "__attribute__((noinline)) int twice(int v) { return 2 * v; }\n"
                    "volatile int sink;\n"
                    "int main(void) { op_t f = twice; sink = f(3); return 0; }\n")
    result, _ = build_c([str(path)], Options(opt=2, debug=True), "fp")
    table = result.symbols
    (f,) = [v for v in table.locals if v.name == "f" and v.location["kind"] != "none"]
    assert f.location == {"kind": "value", "value": table.address_of("twice")}
