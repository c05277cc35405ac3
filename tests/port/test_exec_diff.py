"""Differential tests: the same images under `hsx run` (the Python executive) and the C
executive's host build, in every variant, print the same stdout and exit with the same
status. Examples with several tasks, mailboxes, values and sleeps; C programs of the
compiler's corpus (files included); and programs written for the executive's services
(tests/port/programs): mailbox modes and waits, values and commands, sleep, a fault that
stops only its task, kill and spawn again, the developer math SVCs over every f16 input,
stdin and a tap on stdout.

Each case also states lines its output must contain, so a behaviour both executives got
wrong the same way still fails."""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hostkit import (ALL_VARIANTS, CONFORMANCE, EXAMPLES, HERE, PROGRAMS, build_image,
                     run_host, run_python)

OWN = HERE / "programs"


@dataclass(frozen=True)
class Case:
    label: str
    sources: list[Path]                 # one task each; the first decides the exit status
    expect: tuple[str, ...] = ()        # lines the output must contain
    stdin: bytes = b""
    root_files: tuple[tuple[Path, str], ...] = ()  # (source, file name) in the guests' files
    stderr: tuple[str, ...] = ()        # what the C executive must also say on stderr
    # output that may differ by design (limits): (pattern, replacement) applied to both
    normalise: tuple[tuple[str, str], ...] = field(default=())


def _program(name: str) -> Path:
    return PROGRAMS / f"{name}.c"


CASES = [
    Case("hello", [EXAMPLES / "mvasm" / "hello.mvasm"], ("Hello from HSX",)),
    Case("producer_consumer", [EXAMPLES / "mvasm" / "consumer.mvasm",
                               EXAMPLES / "mvasm" / "producer.mvasm"],
         ("consumer got: reading #1", "consumer got: reading #5")),
    Case("sensor_value", [EXAMPLES / "mvasm" / "sensor.mvasm"], ("sensor: temp updated",)),
    Case("c_hello", [EXAMPLES / "c" / "hello.c"]),
    Case("c_mailboxes", [EXAMPLES / "c" / "mailbox_consumer.c", EXAMPLES / "c" / "mailbox_producer.c"]),
    Case("c_values", [EXAMPLES / "c" / "values_app.c"]),
    *(Case(name, [_program(name)]) for name in (
        "arith_i64", "bst", "crc32", "double_arith", "exit_codes", "float_math",
        "func_pointers", "hash_table", "malloc_stress", "printf_formats", "recursion",
        "setjmp_scopes", "sort_algos", "string_build", "struct_by_value")),
    *(Case(name, [CONFORMANCE / f"{name}.c"]) for name in (
        "stdio_files", "stdio_returns", "errno_texts", "app_calculator")),
    Case("mailbox_modes", [OWN / "mbx_modes.c"], (
        "send fourth04: 1", "q status 4 length 8", "b got 'from-a' channel 0 overrun 0",
        "a status 3 length 0", "r got 'd2xxxxxx' channel 0 overrun 1", "send b3xxxxxx: 1",
        "tap got 't2xxxxxxxxxx' channel 0 overrun 1", "open hal:uart flags 0: status 8",
        "send nope: 9", "flags 0x10000: 8")),
    Case("mailbox_waits", [OWN / "mbx_wait_main.c", OWN / "mbx_wait_b.c", OWN / "mbx_wait_c.c"], (
        "recv with nothing sent, 30 ms: status 7", "report: b got m1 from 1", "report status 7",
        "report: c got m2", "send_wait 30 ms on a full mailbox: 7", "send_wait until room: 0",
        "report: b took 12345678", "then app:full holds 'abcdefgh' channel 7 (status 0)")),
    Case("values", [OWN / "values_checks.c"], (
        "register 1:1 flags 0x0: 5 (oid 0x0)", "set 0x102 = 0x5a40: 4 -> now 0x5240 (get status 0)",
        "set 0x102 = 0x5250: 0 -> now 0x5240 (get status 0)",
        "set 0x103 = 0x3800: 0 -> now 0x3c00 (get status 0)",
        "set 0x104 = 0x3800: 6 -> now 0x3c00 (get status 0)",
        "note: oid 0x0102 old 0x5280 new 0x5380 (6 bytes)", "note status 3",
        "list 0xff: 0, 4 values: 0x0101 0x0102 0x0103 0x0104", "list 0x2: 0, 0 values:\n",
        "list 0x101: 0, 4 values: 0x0101 0x0102 0x0103 0x0104",
        "register 3:1 flags 0x0: 4 (oid 0x0)")),
    Case("commands", [OWN / "cmd_caller.c", OWN / "cmd_owner.c"], (
        "owner calls itself: 7", "call: 0 result 1001", "call: 0 result 1002",
        "completion 0: oid 0x0401 status 0 result 1003 (8 bytes)", "help in 6: 0 'Count'",
        "owner: handler ran 3 times, woken by 'done'")),
    Case("sleep_order", [OWN / "sleeper.c"] * 3, (
        "pid 2 woke after 20 ms: ok\npid 3 woke after 40 ms: ok\npid 1 woke after 60 ms: ok",)),
    Case("fault_stops_one_task", [OWN / "survivor.c", OWN / "crasher.c"], (
        "crasher: crashing", "survivor: receive ended: 2\nsurvivor: still here"),
         stderr=("hsx: fault: crasher (pid 2): memory at pc 0x",
                 "(addr 0x00000004): 4-byte access at 0x00000004 hits the null page (0x0000-0x00FF)")),
    Case("kill_and_spawn_again", [OWN / "spawner.c"], (
        "spawn a second instance: -8", "kill: 0, again: -3, itself: -22",
        "wait for it: 0 status 0; value now: 1", "spawned again: yes", "child's value again: 0",
        "no such file: -8, bad path: -22", "after killing them: spawned"),
         root_files=((OWN / "child.c", "child.hxe"), (OWN / "idle.c", "idle.hxe"),
                     (OWN / "crasher.c", "renamed.hxe")),
         normalise=((r"spawned \d+ idle tasks", "spawned N idle tasks"), (r"crasher \d+", "crasher N")),
         stderr=("hsx: fault: crasher (pid ",)),
    Case("developer_math", [OWN / "devmath.c"], ("sin 0b279252", "unknown: ffffff01")),
    Case("stdin_and_tap", [OWN / "echo_upper.c"], (
        "HELLO THERE\nSECOND LINE\nread 24 bytes, then 0", "tap got 0: 'tap: 0' flags 1",
        "another task's stdout: 9"), stdin=b"hello there\nsecond line\n"),
]

_reference: dict[str, object] = {}


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    out = tmp_path_factory.mktemp("images")
    return lambda sources: [build_image(source, out) for source in sources]


def _root(path: Path, files: list[tuple[Path, str]]) -> Path:
    path.mkdir()
    for image, name in files:
        shutil.copy(image, path / name)
    return path


def _text(data: bytes, case: Case) -> str:
    text = data.decode(errors="replace")
    for pattern, replacement in case.normalise:
        text = re.sub(pattern, replacement, text)
    return text


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("case", CASES, ids=[c.label for c in CASES])
def test_same_output_and_status(case, variant, images, tmp_path):
    files = images(case.sources)
    extra = list(zip(images([source for source, _ in case.root_files]),
                     [name for _, name in case.root_files]))
    if case.label not in _reference:
        _reference[case.label] = run_python(files, _root(tmp_path / "py-root", extra), case.stdin)
    expected = _reference[case.label]
    got = run_host(variant, files, _root(tmp_path / "c-root", extra), case.stdin)
    stderr = got.stderr.decode(errors="replace")
    assert _text(got.stdout, case) == _text(expected.stdout, case), stderr
    assert got.status == expected.status, stderr
    for line in case.expect:
        assert line in got.stdout.decode(errors="replace"), stderr
    for line in case.stderr:
        assert line in stderr


def test_a_load_past_the_task_limit_is_refused(images, tmp_path):
    """Five tasks for an executive of four: the fifth load fails, as under `hsx run
    --profile minimal` (the same limit), and the runner says why."""
    idle = images([OWN / "idle.c"]) * 5
    expected = run_python(idle, _root(tmp_path / "py-root", []), b"", "--profile", "minimal")
    got = run_host("minimal", idle, _root(tmp_path / "c-root", []))
    assert got.status == expected.status == 2
    assert b"too_many_tasks" in got.stderr and got.stdout == b""
