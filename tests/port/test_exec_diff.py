"""Differential tests: the same images under `hsx run` (the Python executive) and the C
executive's host build, in every variant, print the same stdout and exit with the same
status. Examples with several tasks, mailboxes, values and sleeps, and C programs of the
compiler's corpus (files included)."""
from __future__ import annotations

import pytest
from hostkit import (ALL_VARIANTS, CONFORMANCE, EXAMPLES, PROGRAMS, build_image, run_host,
                     run_python)

# (label, sources): every source becomes a task, the first decides the exit status
CASES = [
    ("hello", [EXAMPLES / "mvasm" / "hello.mvasm"]),
    ("producer_consumer", [EXAMPLES / "mvasm" / "consumer.mvasm",
                           EXAMPLES / "mvasm" / "producer.mvasm"]),
    ("sensor_value", [EXAMPLES / "mvasm" / "sensor.mvasm"]),
    ("c_hello", [EXAMPLES / "c" / "hello.c"]),
    ("c_mailboxes", [EXAMPLES / "c" / "mailbox_consumer.c", EXAMPLES / "c" / "mailbox_producer.c"]),
    ("c_values", [EXAMPLES / "c" / "values_app.c"]),
    *((p.stem, [p]) for p in (PROGRAMS / f"{name}.c" for name in (
        "arith_i64", "bst", "crc32", "double_arith", "exit_codes", "float_math",
        "func_pointers", "hash_table", "malloc_stress", "printf_formats", "recursion",
        "setjmp_scopes", "sort_algos", "string_build", "struct_by_value"))),
    *((p.stem, [p]) for p in (CONFORMANCE / f"{name}.c" for name in (
        "stdio_files", "stdio_returns", "errno_texts", "app_calculator"))),
]

_reference: dict[str, object] = {}


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    out = tmp_path_factory.mktemp("images")
    return lambda sources: [build_image(source, out) for source in sources]


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("label,sources", CASES, ids=[c[0] for c in CASES])
def test_same_output_and_status(label, sources, variant, images, tmp_path):
    files = images(sources)
    if label not in _reference:
        _reference[label] = run_python(files, tmp_path / "py-root")
    expected = _reference[label]
    got = run_host(variant, files, tmp_path / "c-root")
    assert got.stdout.decode(errors="replace") == expected.stdout.decode(errors="replace"), \
        got.stderr.decode(errors="replace")
    assert got.status == expected.status, got.stderr.decode(errors="replace")
