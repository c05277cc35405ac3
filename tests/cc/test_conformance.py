"""The conformance corpus (conformance/*.c): each program prints what it printed when
built by the host's gcc (`NAME.expected`, written by conformance/regenerate.py) and
exits with the same status, at every -O level (-O0, -O1, -O2, -Os).  Set
HSX_CONFORMANCE_OPT (e.g. `0,2`) to check only some.  Programs run as tasks of an executive with an empty sandbox of their own,
so they can use files."""
from __future__ import annotations

import os

import pytest
from cckit import CONFORMANCE, expected_text, native_run, requires_gcc, run_in_kernel

SOURCES = sorted(CONFORMANCE.glob("*.c"))
LEVELS = [int(o) if o.isdigit() else o
          for o in os.environ.get("HSX_CONFORMANCE_OPT", "0,1,2,s").split(",")]


@pytest.mark.parametrize("opt", LEVELS, ids=[f"O{o}" for o in LEVELS])
@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_program_prints_what_gcc_printed(source, opt, tmp_path):
    from hsx.toolchain.cc.driver import Options, build_c
    result, _ = build_c([str(source)], Options(opt=opt))
    out, status = run_in_kernel(result.image, tmp_path / "sandbox")
    expected = source.with_suffix(".expected").read_bytes()
    assert expected_text(out, status).decode("utf-8", "replace") == \
        expected.decode("utf-8", "replace")


@requires_gcc
def test_expected_outputs_are_gcc_outputs(tmp_path):
    """Every `.expected` file is what the host's gcc build prints (none edited by hand)."""
    stale = []
    for source in SOURCES:
        cwd = tmp_path / source.stem
        cwd.mkdir()
        out, status = native_run(source, tmp_path, cwd)
        if expected_text(out, status) != source.with_suffix(".expected").read_bytes():
            stale.append(source.stem)
    assert not stale, f"regenerate with conformance/regenerate.py: {stale}"


def test_every_program_has_its_expected_output():
    assert SOURCES
    assert [s.stem for s in SOURCES if not s.with_suffix(".expected").exists()] == []
