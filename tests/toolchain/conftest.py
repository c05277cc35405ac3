"""Shared helpers: assemble or build a snippet, compare words with the ISA encoder."""
from __future__ import annotations

import textwrap
from types import SimpleNamespace

import pytest

from hsx.isa import encode, make
from hsx.toolchain.build import assemble_source, build_source
from hsx.toolchain.diagnostics import ToolchainError


def w(mnemonic: str, **fields) -> list[int]:
    """Expected words of one instruction, from the ISA itself."""
    return encode(make(mnemonic, **fields))


def words_of(*instructions: list[int]) -> list[int]:
    return [word for ins in instructions for word in ins]


def code(source: str) -> list[int]:
    """Code words of a single-module program, linked alone."""
    return build_source(textwrap.dedent(source), "t.mvasm").code_words


def obj(source: str, filename: str = "t.mvasm"):
    return assemble_source(textwrap.dedent(source), filename)


def errors(source: str, filename: str = "t.mvasm", link: bool = True) -> list[str]:
    """The diagnostics of a program that must fail, as printed."""
    with pytest.raises(ToolchainError) as info:
        if link:
            build_source(textwrap.dedent(source), filename)
        else:
            assemble_source(textwrap.dedent(source), filename)
    return [str(d) for d in info.value.diagnostics]


@pytest.fixture
def tc():
    """The helpers above, for tests (conftest modules cannot be imported directly)."""
    return SimpleNamespace(w=w, words_of=words_of, code=code, obj=obj, errors=errors)
