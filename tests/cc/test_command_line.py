"""A C program's command line, environment, stack and memory, through the real `hsx`
commands: `hsx run prog.c -- ARGS` and `--env` reach main and getenv; a 1,000-deep
recursion overflows the default stack (the message says how to ask for more) and runs
with a bigger one from `hsx run --stack-size`, `hsx cc --stack-size` (the image's
header), or a configuration file's [task] table; `--memory` gives room to a program
whose data does not fit the default."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ARGS = r"""
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    printf("argc=%d\n", argc);
    for (int i = 1; i <= argc; i++)
        printf("argv[%d]=%s\n", i, argv[i] ? argv[i] : "(null)");
    const char *greeting = getenv("GREETING"), *other = getenv("OTHER");
    printf("GREETING=%s OTHER=%s GREET=%s\n", greeting ? greeting : "(unset)",
           other ? other : "(unset)", getenv("GREET") ? "set" : "(unset)");
    return argc;
}
"""

DEEP = r"""
#include <stdio.h>
static int depth(int n, volatile int *sink)
{
    volatile int pad[12];               /* a frame of about 64 bytes */
    pad[n % 12] = n;
    *sink += pad[n % 12];
    return n == 0 ? 0 : 1 + depth(n - 1, sink);
}
int main(void)
{
    volatile int sink = 0;
    printf("depth %d\n", depth(1000, &sink));
    return 0;
}
"""

BIG_DATA = r"""
#include <stdio.h>
static unsigned char table[200000];
int main(void)
{
    unsigned sum = 0;
    for (int i = 0; i < (int)sizeof table; i++)
        table[i] = (unsigned char)i;
    for (int i = 0; i < (int)sizeof table; i++)
        sum += table[i];
    printf("%u\n", sum);
    return 0;
}
"""


def hsx(*args, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hsx", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cmdline")
    for name, text in (("args.c", ARGS), ("deep.c", DEEP), ("big.c", BIG_DATA)):
        (out / name).write_text(text)
    return out


def test_arguments_after_dash_dash_and_env_reach_main_and_getenv(programs):
    done = hsx("run", "--env", "GREETING=hi there", "--env", "OTHER=", programs / "args.c",
               "--", "a", "b c", "--stack-size", "-x")
    assert done.returncode == 5, done.stderr
    assert done.stdout == ("argc=5\nargv[1]=a\nargv[2]=b c\nargv[3]=--stack-size\n"
                           "argv[4]=-x\nargv[5]=(null)\nGREETING=hi there OTHER= GREET=(unset)\n")


def test_without_arguments_main_gets_its_name_only(programs):
    done = hsx("run", programs / "args.c")
    assert done.returncode == 1 and done.stdout.startswith("argc=1\nargv[1]=(null)\n")


def test_bad_environment_entries_are_refused(programs):
    done = hsx("run", "--env", "NOEQUALS", programs / "args.c")
    assert done.returncode == 2
    assert "--env: environment entry 'NOEQUALS' is not NAME=VALUE" in done.stderr


def test_deep_recursion_overflows_the_default_stack_and_says_how_to_ask_for_more(programs):
    done = hsx("run", programs / "deep.c")
    assert done.returncode == 70 and done.stdout == ""
    first = done.stderr.splitlines()[0]
    assert "stack_overflow" in first and "the stack is 8192 bytes" in first
    assert "--stack-size" in first


def test_deep_recursion_runs_with_a_bigger_stack_from_hsx_run(programs):
    done = hsx("run", "--stack-size", "128K", programs / "deep.c")
    assert (done.returncode, done.stdout) == (0, "depth 1000\n"), done.stderr


def test_the_image_asks_for_its_stack_and_a_load_may_override_it(programs, tmp_path):
    image = tmp_path / "deep.hxe"
    built = hsx("cc", "-O2", "--stack-size", "0x20000", programs / "deep.c", "-o", image)
    assert built.returncode == 0, built.stderr
    assert hsx("run", image).stdout == "depth 1000\n"
    small = hsx("run", "--stack-size", "4K", image)
    assert small.returncode == 70 and "the stack is 4096 bytes" in small.stderr


def test_a_configuration_file_sets_the_default_stack(programs, tmp_path):
    config = tmp_path / "hsx.toml"
    config.write_text('[task]\nstack_size = "128K"\n')
    done = hsx("run", "--config", config, programs / "deep.c")
    assert (done.returncode, done.stdout) == (0, "depth 1000\n"), done.stderr
    config.write_text("[task]\nstack = 1\n")
    wrong = hsx("run", "--config", config, programs / "deep.c")
    assert wrong.returncode == 2
    assert f"hsx: {config}: [task] has no key 'stack'" in wrong.stderr


def test_one_configuration_file_names_the_backends_and_the_task_defaults(programs, tmp_path):
    """[fs] (docs/backends.md) and [task] (docs/machine.md) in the same hsx.toml."""
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "notes.txt").write_text("one two\nthree\n")
    config = tmp_path / "hsx.toml"
    config.write_text('[fs]\nbackend = "host"\nroot = "files"\n\n[task]\nstack_size = "128K"\n')
    deep = hsx("run", "--config", config, programs / "deep.c")
    assert (deep.returncode, deep.stdout) == (0, "depth 1000\n"), deep.stderr
    example = Path(__file__).resolve().parents[2] / "examples" / "c" / "wc.c"
    counted = hsx("run", "--config", config, example, "--", "notes.txt")
    assert counted.stdout == ("      2       3      14 notes.txt\n"
                              "      2       3      14 total\n"), counted.stderr


def test_data_beyond_the_default_memory_runs_with_more(programs):
    short = hsx("run", programs / "big.c")
    assert short.returncode == 2
    assert "does not fit in 0x10000 bytes of memory" in short.stderr
    assert "it needs at least 0x" in short.stderr and "--memory" in short.stderr
    done = hsx("run", "--memory", "512K", programs / "big.c")
    assert (done.returncode, done.stdout) == (0, f"{sum(i & 255 for i in range(200000))}\n")


@pytest.mark.parametrize("option, value, why", [
    ("--stack-size", "3", "must be a positive multiple of 4"),
    ("--memory", "1X", "is not a size"),
    ("--memory", "8G", "below 4 GiB")])
def test_bad_sizes_are_refused(programs, option, value, why):
    done = hsx("run", option, value, programs / "args.c")
    assert done.returncode == 2 and why in done.stderr and "Traceback" not in done.stderr


def test_wc_example_counts_the_files_named_on_its_command_line(tmp_path):
    (tmp_path / "notes.txt").write_text("one two\nthree\n")
    (tmp_path / "todo.txt").write_text("a b c\n")
    example = Path(__file__).resolve().parents[2] / "examples" / "c" / "wc.c"
    done = hsx("run", "--root", tmp_path, example, "--", "notes.txt", "todo.txt")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("      2       3      14 notes.txt\n      1       3       6 todo.txt\n"
                           "      3       6      20 total\n")
    quiet = hsx("run", "--root", tmp_path, "--env", "WC_TOTAL_ONLY=1", example, "--",
                "notes.txt", "missing.txt")
    assert quiet.returncode == 1
    assert quiet.stdout == "      2       3      14 total\n"
    assert "missing.txt: No such file or directory" in quiet.stderr


def test_a_bare_machine_gives_main_no_arguments(tmp_path):
    """Without an executive (R2 = 0 at the start) crt0 gives argc 0, argv = { NULL }."""
    from cckit import compile_and_run
    out, status = compile_and_run(tmp_path, ARGS.replace("for (int i = 1;", "for (int i = 0;"))
    assert (out, status) == ("argc=0\nargv[0]=(null)\nGREETING=(unset) OTHER=(unset) "
                             "GREET=(unset)\n", 0)
