"""`hsx.image.sym`: the lookups a debugger needs, and reading the prior `.sym` shape."""
from __future__ import annotations

import json

import pytest

from hsx.image.sym import (LineInfo, Symbol, SymbolFileError, SymbolTable, load_sym, read_sym,
                           write_sym)


@pytest.fixture
def table():
    return SymbolTable(
        functions=[Symbol("main", 0, 12, scope="global", file="m.mvasm", line=3),
                   Symbol("alias", 12, 8), Symbol("helper", 12, 8, scope="global"),
                   Symbol("end", 20, 0)],
        variables=[Symbol("buf", 0x4000, 16, section="data"),
                   Symbol("n", 0x4010, 4, section="bss")],
        lines=[LineInfo(0, "m.mvasm", 3), LineInfo(4, "m.mvasm", 4), LineInfo(12, "lib/x.inc", 9),
               LineInfo(16, "lib/x.inc", 9)],
        hxe_crc=0x1234)


def test_lookups(table):
    assert table.lookup_address(0) == ("main", 0)
    assert table.lookup_address(8) == ("main", 8)
    assert table.lookup_address(16) == ("helper", 4)          # exported name wins
    assert table.lookup_address(20) == ("end", 0)
    assert table.lookup_address(24) is None
    assert table.lookup_address(0x4004, "data") == ("buf", 4)
    assert table.lookup_address(0x4004) is None                # not a code address
    assert table.address_of("helper") == 12 and table.address_of("nope") is None
    assert table.symbol("n").section == "bss"
    assert table.labels_at(12) == ["alias", "helper"]
    assert table.line_for(4) == LineInfo(4, "m.mvasm", 4)
    assert table.line_for(8) is None
    assert table.pcs_for_line("x.inc", 9) == [12, 16]
    assert table.pcs_for_line("lib/x.inc", 9) == [12, 16]


def test_write_and_load(table, tmp_path):
    path = tmp_path / "a.sym"
    path.write_bytes(write_sym(table))
    loaded = load_sym(path)
    assert loaded.to_json() == table.to_json()
    assert json.loads(path.read_text())["symbols"]["labels"]["0x0000000C"] == ["alias", "helper"]


def test_reads_the_prior_shape():
    prior = {
        "version": 1, "hxe_path": "build/app.hxe", "hxe_crc": 99,
        "symbols": {
            "functions": [{"name": "main", "linkage_name": "main", "address": 8, "size": 16,
                           "file": "main.c", "line": 3}],
            "variables": [{"name": "g", "address": 16384, "size": 0, "scope": "global",
                           "type": None}],
            "locals": [],
            "labels": {"0x00000008": ["main"]}},
        "instructions": [{"pc": 8, "word": 0, "mvasm_line": 4, "ordinal": 0, "file": "main.c",
                          "line": 3, "source_kind": "source"},
                         {"pc": 12, "word": 0, "mvasm_line": 5, "ordinal": 1,
                          "source_kind": "compiler"}],
        "memory_regions": [{"name": "code", "type": "text", "start": 0, "end": 23}],
    }
    table = read_sym(json.dumps(prior))
    assert table.lookup_address(10) == ("main", 2)
    assert table.address_of("g") == 16384
    assert table.line_for(8).line == 3 and table.line_for(12) is None
    assert table.hxe_crc == 99


@pytest.mark.parametrize("text", ["{", "[]", '{"symbols": {"functions": [{"address": 1}]}}'])
def test_bad_files(text):
    with pytest.raises(SymbolFileError):
        read_sym(text)


def test_missing_file(tmp_path):
    with pytest.raises(SymbolFileError, match="cannot read"):
        load_sym(tmp_path / "none.sym")
