"""Linking: layout, every relocation type across modules, resolution rules, entry,
metadata merging, determinism, prior-format objects and the .sym file."""
from __future__ import annotations

import json
import textwrap

import pytest

from hsx.image.hxe import write_hxe
from hsx.image.hxo import read_hxo, write_hxo
from hsx.image.model import RODATA_BASE
from hsx.image.sym import read_sym, write_sym
from hsx.isa import decode
from hsx.toolchain.build import assemble_source, link_modules, link_objects
from hsx.toolchain.diagnostics import ToolchainError


def module(source: str, name: str):
    return assemble_source(textwrap.dedent(source), name)


def link_errors(*modules, **options) -> list[str]:
    with pytest.raises(ToolchainError) as info:
        link_objects(list(modules), **options)
    return [str(d) for d in info.value.diagnostics]


LIB = """\
    .export f, table, counter, far_word
    f:      RET
    .data
    pad:    .byte 1, 2, 3
    .align 2
    table:  .half 1, 2
    far_word: .word 0x11223344
    .bss
    counter: .zero 4
"""

MAIN = """\
    .entry main
    main:   LDI R1, f
            LD R2, [R0+f]
            JMP f
            CALL f
            BR f
            LDI32 R3, table
            LDI32 R4, counter+4
            LDI R5, off16(table)
            LDI32 R6, hi16(far_word)
            LDI32 R7, lo16(far_word)
            RET
    .data
    refs:   .word table
            .half lo16(counter)
            .byte off16(far_word)
    .bss
    mine:   .zero 2
"""


def test_every_relocation_type_across_modules():
    lib, main = module(LIB, "lib.mvasm"), module(MAIN, "main.mvasm")
    image, symbols = link_objects([lib, main])
    base = 4                                    # main's code follows lib's single RET
    table = RODATA_BASE + 4                     # lib rodata: pad(3) align(2) -> table at 4
    far_word = RODATA_BASE + 8
    main_data = 12                              # lib rodata is 12 bytes, already aligned
    bss = RODATA_BASE + 20                      # rodata = 12 + 7 bytes, aligned up to 20
    words = image.code_words
    assert words[1] & 0xFFF == 0                # LDI R1, f
    assert words[2] & 0xFFF == 0                # LD R2, [R0+f]
    assert words[3] & 0xFFF == 0                # JMP f (absolute)
    assert words[4] & 0xFFF == (-4) & 0xFFF       # CALL f from 0x10
    assert words[5] & 0xFFFFFF == (-5) & 0xFFFFFF   # BR f from 0x14
    assert words[7] == table
    assert words[9] == bss + 4                  # counter+4
    assert words[10] & 0xFFF == 4               # off16(table) counts from RODATA_BASE
    assert words[12] == 0
    assert words[14] == far_word
    refs = image.rodata[main_data:main_data + 7]
    assert refs == (table.to_bytes(4, "little") + (bss & 0xFFFF).to_bytes(2, "little")
                    + bytes([8]))
    assert image.bss_size == 4 + 2
    assert image.entry == base
    assert symbols.address_of("mine") == bss + 4
    assert symbols.address_of("refs") == RODATA_BASE + main_data


def test_rodata_of_each_module_is_aligned():
    a = module(".export x\nRET\n.data\nx: .byte 1, 2, 3", "a.mvasm")
    b = module(".export y\nRET\n.data\ny: .word 0x01020304", "b.mvasm")
    c = module(".export z\nRET\n.data\n.align 16\nz: .byte 9", "c.mvasm")
    image, symbols = link_objects([a, b, c])
    assert symbols.address_of("y") == RODATA_BASE + 4
    assert symbols.address_of("z") == RODATA_BASE + 16
    assert image.rodata == bytes([1, 2, 3, 0, 4, 3, 2, 1]) + bytes(8) + bytes([9])


def test_off16_counts_from_the_start_of_the_linked_data_section():
    a = module("RET\n.data\n.byte 1, 2, 3, 4, 5", "a.mvasm")
    b = module("LDI R1, off16(mine)\n.data\n.byte 0\nmine: .byte 9\n.word off16(mine)",
               "b.mvasm")
    image, _ = link_objects([a, b])
    assert image.code_words[1] & 0xFFF == 8 + 1          # b's data starts at offset 8
    assert image.rodata[10:14] == (9).to_bytes(4, "little")


def test_own_labels_win_over_other_modules_exports():
    a = module(".export loop\nloop: RET", "a.mvasm")
    b = module("NOP\nloop: JMP loop", "b.mvasm")
    image, _ = link_objects([a, b])
    assert image.code_words[2] & 0xFFF == 8      # b's own loop, not a's export at 0


def test_duplicate_export_names_both_modules():
    a = module(".export f\nf: RET", "a.mvasm")
    b = module(".export f\nf: RET", "b.mvasm")
    assert link_errors(a, b) == [
        "b.mvasm: symbol 'f' is exported by both a.mvasm and b.mvasm"]


def test_unresolved_symbols_are_all_reported_with_their_location():
    a = module("CALL g\nLDI32 R1, h", "a.mvasm")
    assert link_errors(a) == [
        "a.mvasm:1:6: undefined symbol 'g' (referenced by a.mvasm)",
        "a.mvasm:2:11: undefined symbol 'h' (referenced by a.mvasm)"]


def test_unresolved_import_is_an_error_even_when_unused():
    a = module(".import g\nRET", "a.mvasm")
    assert link_errors(a) == ["a.mvasm: imports 'g', which no module exports"]


def test_import_of_a_later_module_export_resolves():
    a = module(".import g\nCALL g", "a.mvasm")
    b = module(".export g\ng: RET", "b.mvasm")
    image, _ = link_objects([a, b])
    assert image.code_words[0] & 0xFFF == 1


def test_local_labels_of_other_modules_are_not_visible():
    a = module("g: RET", "a.mvasm")
    b = module("CALL g", "b.mvasm")
    assert link_errors(a, b) == ["b.mvasm:1:6: undefined symbol 'g' (referenced by b.mvasm)"]


def test_range_errors_name_symbol_module_and_value():
    source = "LDI R1, far\n.org 2048\nfar: RET"
    assert link_errors(module(source, "m.mvasm")) == [
        "m.mvasm:1:9: LDI: immediate 2048 (0x800) does not fit signed 12 bits (-2048..2047); "
        "use LDI20 (symbol 'far' in m.mvasm)"]


def test_short_branches_beyond_their_reach_become_the_relative_forms():
    """JMP/JZ/JNZ reach bytes 0..4095 and CALL ±2048 words: a target further away gets
    BR/BEQ/BNE/LCALL (same meaning, same size); a near one keeps the short form."""
    source = """\
        JMP near
        JMP far
        JZ far
        JNZ far
        CALL far
        CALL near
        near: RET
        .org 0x20000
        far: RET
    """
    image, _ = link_objects([module(source, "m.mvasm")])
    words = image.code_words
    names = [decode(w).op.mnemonic for w in words[:6]]
    assert names == ["JMP", "BR", "BEQ", "BNE", "LCALL", "CALL"]
    for at in range(1, 5):
        assert decode(words[at]).branch_target(4 * at) == 0x20000


def test_call_out_of_range_across_modules_becomes_lcall():
    a = module(".export far\nfar: RET", "a.mvasm")
    b = module(".org 8196\nCALL far", "b.mvasm")
    image, _ = link_objects([a, b])
    assert decode(image.code_words[-1]).op.mnemonic == "LCALL"
    assert image.code_words[-1] & 0xFFFFFF == (-2050) & 0xFFFFFF
    c = module(".org 8196\nLCALL far", "c.mvasm")
    image, _ = link_objects([a, c])
    assert image.code_words[-1] & 0xFFFFFF == (-2050) & 0xFFFFFF


# -- entry --------------------------------------------------------------------------------

def test_entry_option_beats_start_which_beats_entry_directives():
    a = module(".entry a_main\nNOP\na_main: RET", "a.mvasm")
    b = module(".export _start\n_start: RET\n.export other\nother: RET", "b.mvasm")
    assert link_objects([a, b])[0].entry == 8
    assert link_objects([a, b], entry="other")[0].entry == 12
    assert link_objects([a])[0].entry == 4


def test_first_declared_entry_wins_with_a_warning():
    lib = module(".entry init\ninit: RET", "lib.mvasm")
    app = module(".entry main\nmain: RET", "app.mvasm")
    result = link_modules([app, lib])
    assert result.image.entry == 0
    assert result.warnings == ["several modules declare an entry point (app.mvasm, lib.mvasm); "
                               "using the first, app.mvasm (choose with --entry)"]
    assert link_modules([lib, app], entry="main").image.entry == 4


def test_entry_defaults_to_zero_and_bad_entry_option_is_an_error():
    a = module("NOP\nRET", "a.mvasm")
    assert link_objects([a])[0].entry == 0
    assert link_errors(a, entry="nope") == ["entry symbol 'nope' is not defined"]


# -- metadata ----------------------------------------------------------------------------

def test_metadata_merge_sorts_and_resolves_handlers_across_modules():
    a = module('.value {"group": 2, "id": 1}\n.export h\nNOP\nh: RET', "a.mvasm")
    b = module('.value {"group": 1, "id": 9}\n.cmd {"group": 1, "id": 1, "handler": "h"}\nRET',
               "b.mvasm")
    image, _ = link_objects([a, b])
    assert [(v.group, v.value) for v in image.metadata.values] == [(1, 9), (2, 1)]
    assert image.metadata.commands[0].handler_offset == 4


def test_duplicate_metadata_and_missing_handler_are_errors():
    a = module('.value {"group": 1, "id": 1}\n.mailbox {"target": "m"}\nRET', "a.mvasm")
    b = module('.value {"group": 1, "id": 1}\n.mailbox {"target": "m"}\n'
               '.cmd {"group": 1, "id": 1, "handler": "nope"}\nRET', "b.mvasm")
    assert link_errors(a, b) == [
        "b.mvasm: duplicate value (1,1), also declared by a.mvasm",
        "b.mvasm: command (1,1) handler 'nope' is not defined",
        "b.mvasm: duplicate mailbox 'm', also declared by a.mvasm"]


def test_rate_ms_is_reported_as_not_stored():
    a = module('.value {"group": 1, "id": 1, "rate_ms": 50}\nRET', "a.mvasm")
    assert "rate_ms of value (1,1) is not stored" in link_modules([a]).warnings[0]


# -- object files ------------------------------------------------------------------------

def test_hxo_round_trip_and_determinism(tmp_path):
    source = textwrap.dedent(MAIN)
    first = write_hxo(assemble_source(source, "main.mvasm"))
    again = write_hxo(assemble_source(source, "main.mvasm"))
    assert first == again
    doc = json.loads(first)
    assert doc["version"] == 1 and doc["bss"] == 2
    assert {"type": "rel24", "section": "code", "index": 4, "symbol": "f", "kind": "symbol",
            "at": "main.mvasm:6:12"} in doc["relocs"]
    assert write_hxo(read_hxo(first)) == first


def test_links_are_byte_identical():
    def build():
        result = link_modules([module(LIB, "lib.mvasm"), module(MAIN, "main.mvasm")],
                              app_name="app")
        return write_hxe(result.image), write_sym(result.symbols)
    assert build() == build()


def test_reads_objects_written_by_the_prior_assembler():
    prior_main = {
        "version": 1, "entry": 0, "entry_symbol": "main",
        "code": [0x24000000, 0x60100000, 0, 0x25000000], "rodata": "",
        "externs": [], "imports": ["helper"],
        "relocs": [{"type": "jump", "index": 0, "symbol": "helper", "kind": "symbol",
                    "section": "code", "pc_relative": True},
                   {"type": "imm32", "index": 2, "symbol": "msg", "kind": "symbol",
                    "section": "code"}],
        "symbols": {"main": {"section": "text", "offset": 0}},
        "local_symbols": {"main": {"section": "text", "offset": 0, "abs_addr": 0}},
    }
    prior_lib = {
        "version": 1, "entry": 0, "entry_symbol": None, "code": [0x25000000],
        "rodata": "6869", "externs": [], "imports": [], "relocs": [],
        "symbols": {"helper": {"section": "text", "offset": 0},
                    "msg": {"section": "data", "offset": 0}},
        "metadata": {"values": [{"group": 1, "value": 2, "init": 1.0}], "commands": [],
                     "mailboxes": [{"target": "x", "queue_depth": 3}]},
    }
    main = read_hxo(json.dumps(prior_main, indent=2), "main.hxo")
    lib = read_hxo(json.dumps(prior_lib), "lib.hxo")
    assert main.entry_declared and not lib.entry_declared
    image, _ = link_objects([main, lib])
    assert image.code_words == [0x24000004, 0x60100000, RODATA_BASE, 0x25000000, 0x25000000]
    assert image.entry == 0
    assert image.metadata.values[0].init_f16 == 0x3C00
    assert image.metadata.mailboxes[0].capacity == 3


# -- symbol file ---------------------------------------------------------------------------

def test_sym_lists_every_label_with_byte_addresses_and_sizes(tmp_path):
    path = tmp_path / "prog.mvasm"
    path.write_text(textwrap.dedent("""\
        .export main
        main:   LDI32 R1, buf
                CALL helper
                RET
        helper: LDI32 R2, 0x12345678
        .local_end:
                RET
        .data
        msg:    .asciz "hi"
        n:      .word 5
        .bss
        buf:    .zero 8
    """))
    from hsx.toolchain.build import assemble_file
    image, symbols = link_objects([assemble_file(path)])
    doc = json.loads(write_sym(symbols))
    functions = {f["name"]: f for f in doc["symbols"]["functions"]}
    assert {n: (f["address"], f["size"], f["scope"]) for n, f in functions.items()} == {
        "main": (0, 16, "global"), "helper": (16, 8, "local"), ".local_end": (24, 4, "local")}
    assert functions["helper"]["file"] == "prog.mvasm" and functions["helper"]["line"] == 5
    variables = {v["name"]: (v["address"], v["size"], v["section"])
                 for v in doc["symbols"]["variables"]}
    assert variables == {"msg": (RODATA_BASE, 3, "data"), "n": (RODATA_BASE + 3, 4, "data"),
                         "buf": (RODATA_BASE + 8, 8, "bss")}
    assert doc["symbols"]["labels"]["0x00000010"] == ["helper"]
    # Byte PCs, no drift after LDI32 (each takes 8 bytes).
    assert [(i["pc"], i["line"]) for i in doc["instructions"]] == [
        (0, 2), (8, 3), (12, 4), (16, 5), (24, 7)]
    assert doc["memory_regions"] == [
        {"name": "code", "type": "text", "start": 0, "end": 27},
        {"name": "rodata", "type": "data", "start": RODATA_BASE, "end": RODATA_BASE + 6},
        {"name": "bss", "type": "bss", "start": RODATA_BASE + 8, "end": RODATA_BASE + 15}]
    assert str(tmp_path) not in write_sym(symbols).decode()
    assert str(tmp_path) not in write_hxo(assemble_file(path)).decode()
    assert doc["hxe_crc"] == int.from_bytes(write_hxe(image)[0x1C:0x20], "big")
    assert read_sym(write_sym(symbols)).to_json() == doc


@pytest.mark.parametrize("doc, message", [
    ("[]", "not a JSON object"),
    ('{"version": 2}', "unsupported object version 2"),
    ('{"code": [-1]}', "'code' must be a list of 32-bit unsigned integers"),
    ('{"rodata": "xyz"}', "'rodata' is not a hex string"),
    ('{"entry": "main"}', "'entry' must be an integer"),
    ('{"symbols": {"a": {"section": "heap", "offset": 0}}}', "bad symbol entry"),
    ('{"relocs": [{"type": "imm12", "index": 0}]}', "bad relocation"),
    ('{"metadata": {"values": [3]}}', "'metadata' must map values/commands/mailboxes"),
    ('{"files": [], "lines": [[0, 0, 1]]}', "'lines' refers to a file index"),
    ('{"lines": [[0]]}', "malformed object file"),
])
def test_malformed_objects_are_rejected_with_the_file_name(doc, message):
    from hsx.image.hxo import ObjectFileError
    with pytest.raises(ObjectFileError) as info:
        read_hxo(doc, "x.hxo")
    assert str(info.value).startswith("x.hxo: ") and message in str(info.value)
