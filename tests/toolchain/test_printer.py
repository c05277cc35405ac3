"""The MVASM printer is the parser's inverse: statements built in memory (as the C
compiler builds them) print as text that parses back to the same statements, and
assembling them directly gives the same object as assembling that text."""
from __future__ import annotations

import dataclasses

from hypothesis import given, settings, strategies as st

from hsx.toolchain.build import assemble_source, assemble_statements
from hsx.toolchain.diagnostics import DiagnosticSink, SourceLocation
from hsx.toolchain.expressions import FUNCTIONS, Binary, Call, Name, Negate, Number
from hsx.toolchain.parser import (Directive, Instruction, KeyValue, Label, Memory, Parser,
                                  Register, SourceLine, String, register_number)
from hsx.toolchain.printer import format_statements

LOC = SourceLocation("t.mvasm", 1, 1)

names = st.from_regex(r"[A-Za-z_.][A-Za-z0-9_.$]{0,8}", fullmatch=True).filter(
    lambda s: register_number(s) is None and s.lower() not in FUNCTIONS and s != ".")
numbers = st.integers(-(1 << 31), (1 << 32) - 1).map(lambda v: Number(v, LOC))


def _expressions():
    leaves = st.one_of(numbers, names.map(lambda n: Name(n, LOC)))
    return st.recursive(leaves, lambda inner: st.one_of(
        inner.map(lambda e: Negate(e, LOC)),
        st.tuples(st.sampled_from("+-*"), inner, inner).map(
            lambda t: Binary(t[0], t[1], t[2], LOC)),
        st.tuples(st.sampled_from(FUNCTIONS), inner).map(lambda t: Call(t[0], t[1], LOC)),
    ), max_leaves=6)


expressions = _expressions()
registers = st.integers(0, 15).map(lambda n: Register(n, LOC))
operands = st.one_of(
    registers, expressions,
    st.tuples(registers, st.none() | expressions).map(lambda t: Memory(t[0], t[1], LOC)),
    st.tuples(names.filter(lambda n: not n.startswith(".")), expressions).map(
        lambda t: KeyValue(t[0].upper(), t[1], LOC)),
    st.text(st.characters(min_codepoint=0, max_codepoint=126), min_size=2, max_size=8).map(
        lambda s: String(s, LOC)),
)
statements = st.one_of(
    names.map(lambda n: Label(n, LOC)),
    st.tuples(names.filter(lambda n: not n.startswith(".")),
              st.lists(operands, max_size=3)).map(
        lambda t: Instruction(t[0].upper(), tuple(t[1]), LOC)),
    st.tuples(st.sampled_from([".word", ".byte", ".export", ".zero", ".align"]),
              st.lists(expressions, max_size=3)).map(
        lambda t: Directive(t[0], tuple(t[1]), LOC)),
)


def normal(node):
    """A node without source locations, `-n` and `Negate(n)` written alike."""
    if isinstance(node, Number):
        return ("Negate", ("num", -node.value)) if node.value < 0 else ("num", node.value)
    if isinstance(node, (list, tuple)):
        return tuple(normal(n) for n in node)
    if dataclasses.is_dataclass(node):
        return (type(node).__name__,) + tuple(
            normal(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name != "loc")
    return node


@settings(max_examples=300, deadline=None)
@given(st.lists(statements, min_size=1, max_size=6))
def test_printed_statements_parse_back(stmts):
    text = format_statements(stmts)
    sink = DiagnosticSink()
    parsed = Parser(sink).parse_text(text, "t.mvasm")
    assert not sink.items, (text, sink.items)
    assert normal(parsed) == normal(stmts), text


def test_statements_assemble_like_their_text():
    text = ("; a comment\n.data\n.align 4\ntable: .word main+8, table-4\n.text\n.export main\n"
            "main: LDI32 R1, table+4\n    LD R2, [R1-4]\n    ST [R14+8], R2\n    RET\n")
    sink = DiagnosticSink()
    parsed = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(";"):
            parsed.append(SourceLine(line, SourceLocation("t.mvasm", number, 1)))
        else:
            parsed.extend(Parser(sink).parse_line(line, "t.mvasm", number))
    assert format_statements(parsed) == text.replace("table: .word", "table:\n    .word") \
        .replace("main: LDI32", "main:\n    LDI32")
    direct = assemble_statements(parsed, "t.mvasm")
    assert dataclasses.asdict(direct) == dataclasses.asdict(assemble_source(text, "t.mvasm"))
