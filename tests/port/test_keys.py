"""The protocol's numbered words: port/c/hsx_keys.h is generated from hsx.link.keys,
so the board and the host number the same words the same way."""
from __future__ import annotations

from pathlib import Path

from hsx.link import keys

HEADER = Path(__file__).resolve().parents[2] / "port" / "c" / "hsx_keys.h"


def test_the_header_is_generated_from_the_table():
    assert HEADER.read_text() == keys.c_header(), (
        "port/c/hsx_keys.h drifted: python -m hsx.link.keys > port/c/hsx_keys.h")


def test_every_word_has_one_number():
    assert len(set(keys.TEXTS)) == len(keys.TEXTS)
    assert all(keys.KEYS[n].form for n in range(keys.FIRST_COMMAND))
    assert keys.command_number("ping") == keys.FIRST_COMMAND
    assert keys.command_number("status") is None             # a word, not a command
