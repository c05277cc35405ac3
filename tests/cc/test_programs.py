"""The C corpus: every program in programs/ must print the same text and exit with the
same status when built with gcc (natively) and with hsx cc at -O0, -O1, -O2 and -Os (on
the VM)."""
from __future__ import annotations

import pytest
from cckit import PROGRAMS, native_run, requires_gcc, run_image

SOURCES = sorted(PROGRAMS.glob("*.c"))


@pytest.fixture(scope="session")
def native_results(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("native")
    cache: dict[str, tuple[bytes, int]] = {}

    def get(source):
        if source.name not in cache:
            cache[source.name] = native_run(source, workdir)
        return cache[source.name]
    return get


@requires_gcc
@pytest.mark.parametrize("opt", [0, 1, 2, "s"])
@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_program_matches_native(source, opt, native_results):
    from hsx.toolchain.cc.driver import Options, build_c
    expected_out, expected_status = native_results(source)
    result, _ = build_c([str(source)], Options(opt=opt))
    out, status = run_image(result.image)
    assert out.decode("utf-8", "replace") == expected_out.decode("utf-8", "replace")
    assert status == expected_status


def test_corpus_is_large_enough():
    assert len(SOURCES) >= 60
