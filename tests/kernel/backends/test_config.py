"""`--config FILE` chooses the backends of `hsx run` and `hsx execd` (docs/backends.md),
`--list-backends` names them, and a mistake in the file is one clear line."""
import subprocess
import sys

import pytest
from click.testing import CliRunner
from execdkit import readline
from fskit import make_image

from hsx.cli.main import cli

COUNTER = __import__("pathlib").Path(__file__).parent / "programs" / "boot_counter.c"


def hsx(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def counter(tmp_path_factory):
    target = tmp_path_factory.mktemp("counter") / "boot_counter.hxe"
    code, out, err = hsx("cc", "-O2", COUNTER, "-o", target)
    assert code == 0, out + err
    return target


def config_file(tmp_path, persist: str) -> str:
    """A configuration naming an SD card image and the `persist` store, with relative
    paths (relative to the file)."""
    make_image(tmp_path / "card.img", 16)
    stores = {"sqlite": 'backend = "sqlite"\npath = "values.sqlite3"',
              "fram": 'backend = "fram"\npath = "values.fram"\nsize = 2048',
              "flash": 'backend = "flash"\npath = "values.flash"\nsize = 8192\npage_size = 1024'}
    path = tmp_path / "hsx.toml"
    path.write_text(f'[fs]\nbackend = "fat"\nimage = "card.img"\n\n[persist]\n{stores[persist]}\n'
                    f'\n[can]\ninterface = "virtual"\nchannel = "hsx-config-test"\n')
    return str(path)


@pytest.mark.parametrize("persist", ["sqlite", "fram", "flash"])
def test_hsx_run_takes_its_backends_from_the_file(counter, tmp_path, persist, monkeypatch):
    config = config_file(tmp_path, persist)
    monkeypatch.chdir("/")                          # paths are relative to the file
    for boot in range(3):
        code, out, err = hsx("run", counter, "--config", config)
        assert (code, out, err) == (0, f"boot {boot}, log 7\n", "")
    code, out, _ = hsx("fs", "cp", f"{tmp_path / 'card.img'}:/Boots.log", tmp_path / "log")
    assert code == 0 and (tmp_path / "log").read_text() == "boot 0\nboot 1\nboot 2\n"


def test_hsx_execd_takes_its_backends_from_the_file(counter, tmp_path):
    from hsx.client.sync import Client
    config = config_file(tmp_path, "flash")
    for boot in range(2):
        proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0", "--echo",
                                 "--config", config, "--load", str(counter)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            first = readline(proc.stdout)
            assert first.startswith("hsx execd listening on "), first
            assert readline(proc.stdout).endswith(f"boot {boot}, log 7\n")
            host, port = first.split()[-1].rsplit(":", 1)
            with Client(host, int(port)) as client:
                client.request("shutdown")
            assert proc.wait(timeout=60) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert (tmp_path / "values.flash").stat().st_size == 8192


def test_the_fs_shorthand_replaces_the_files_fs(counter, tmp_path):
    config = config_file(tmp_path, "fram")
    code, out, _ = hsx("run", counter, "--config", config, "--fs", f"host:{tmp_path / 'dir'}")
    assert (code, out) == (0, "boot 0, log 7\n")
    assert (tmp_path / "dir" / "Boots.log").read_text() == "boot 0\n"


def test_list_backends_names_each_with_a_line():
    code, out, _ = hsx("execd", "--list-backends")
    assert code == 0
    names = [line.split()[:2] for line in out.splitlines()]
    assert names == [["fs", "host"], ["fs", "fat"], ["fs", "can"], ["persist", "none"],
                     ["persist", "sqlite"], ["persist", "fram"], ["persist", "flash"],
                     ["can", "python-can"], ["link", "socket"], ["link", "serial"],
                     ["link", "pty"]]
    assert all(len(line.split()) > 3 for line in out.splitlines())     # each says what it is


@pytest.mark.parametrize("text, error", [
    ('[disk]\nbackend = "fat"\n', "hsx.toml: [disk]: no such table"),
    ('[fs]\nbackend = "floppy"\n', "backend 'floppy' is not one of host, fat, can"),
    ('[fs]\nbackend = "fat"\n', "[fs]: the fat backend needs image"),
    ('[fs]\nbackend = "fat"\nimage = "x.img"\ncolour = 1\n', "colour: not a key of the fat"),
    ('[persist]\nbackend = "fram"\npath = "v"\nsize = "big"\n', "size: must be a whole number"),
    ('[fs]\nbackend = "host"\nroot = \n', "not valid TOML"),
    ('[fs]\nbackend = "fat"\nimage = "missing.img"\n', "missing.img: cannot use it as the"),
    ('[persist]\nbackend = "flash"\npath = "v"\npage_size = 1000\n', "page size 1000"),
])
def test_a_mistake_in_the_file_is_one_clear_line(tmp_path, text, error):
    path = tmp_path / "hsx.toml"
    path.write_text(text)
    program = tmp_path / "exit.mvasm"
    program.write_text(".text\n.entry start\nstart:\n    SVC MOD=1, FN=0\n")
    code, out, err = hsx("run", program, "--config", path)
    assert code == 2 and error in err.splitlines()[0] and "Traceback" not in err, err


@pytest.mark.parametrize("spec", ["fat", "floppy:x", "fat:", "host"])
def test_a_bad_fs_shorthand_says_what_it_takes(spec):
    code, _, err = hsx("execd", "--fs", spec)
    assert code == 2 and "not host:DIR, fat:IMAGE or can:CHANNEL" in err


def test_the_documented_example_works(counter, tmp_path):
    """docs/backends.md's complete example, as it stands there, after its own mkfs line."""
    import re
    docs = (COUNTER.parents[4] / "docs" / "backends.md").read_text()
    example = re.search(r"```toml\n(# hsx.toml\n.*?)```", docs, re.S).group(1)
    (tmp_path / "hsx.toml").write_text(example)
    assert hsx("fs", "mkfs", tmp_path / "card.img", "--size", "64M")[0] == 0
    for boot in range(2):
        assert hsx("run", counter, "--config", tmp_path / "hsx.toml") == (
            0, f"boot {boot}, log 7\n", "")
    assert (tmp_path / "values.flash").stat().st_size == 16384
