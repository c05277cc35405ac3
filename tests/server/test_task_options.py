"""`load`'s task options over a real socket: `args` and `env` reach the program's main
and getenv, `stack_size` and `memory` set its stack and memory over what its image asks
for, `restart` keeps all four, and bad values are refused with the field named."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from serverkit import state, wait_for

from hsx.client import Client, ProtocolError
from hsx.image.hxe import write_hxe
from hsx.toolchain.build import build_source

sys.path.insert(0, str(Path(__file__).parents[1]))
from execdkit import execd_child  # noqa: E402

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        printf("[%s]", argv[i]);
    printf(" %s\n", getenv("MODE") ? getenv("MODE") : "-");
    return argc;
}
"""


def _finished_output(client, pid) -> str:
    wait_for(lambda: state(client, pid) == "returned", timeout=60)
    recent = client.request("stdio", pid=pid, recent=True)["recent"]
    return "".join(chunk["text"] for entry in recent for chunk in entry["output"])


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "show.c"
    path.write_text(PROGRAM)
    return path


def test_args_env_and_sizes_reach_the_task_and_survive_restart(client, program):
    client.timeout = 120
    reply = client.request("load", path=str(program), args=["one", "two words", ""],
                           env=["MODE=fast", "EMPTY="], stack_size=0x4000, memory=0x20000)
    pid = reply["pid"]
    assert _finished_output(client, pid) == "[one][two words][] fast\n"
    row = client.request("ps", pid=pid)["tasks"]["tasks"][0]
    assert row["exit_status"] == 4
    assert row["stack_top"] - row["stack_base"] == 0x4000
    regions = client.request("memory.regions", pid=pid)["memory"]
    assert max(r["end"] for r in regions["regions"]) == 0x20000
    assert any(r["name"] == "args" for r in regions["regions"])
    again = client.request("restart", pid=pid)["pid"]
    assert _finished_output(client, again) == "[one][two words][] fast\n"


@pytest.mark.parametrize("fields, why", [
    ({"stack_size": 6}, "'stack_size' must be a multiple of 4"),
    ({"memory": 0x10008}, "'memory' must be a multiple of 16"),
    ({"env": ["NOVALUE"]}, "'env': environment entry 'NOVALUE' is not NAME=VALUE"),
    ({"args": "one"}, "'args'"),
    ({"memory": 0x40000000}, "max_task_memory")])
def test_bad_task_options_are_refused(client, program, fields, why):
    with pytest.raises(ProtocolError) as error:
        client.request("load", path=str(program), **fields)
    assert why in error.value.message
    assert client.request("ping")["status"] == "ok"


def test_execd_config_file_sets_the_tasks_default_stack_and_memory(tmp_path):
    """`hsx execd --config hsx.toml` with a [task] table: a task whose load and image
    say nothing gets that stack and memory."""
    config = tmp_path / "hsx.toml"
    config.write_text('[task]\nstack_size = "32K"\nmemory = 0x40000\n')
    image = tmp_path / "spin.hxe"
    image.write_bytes(write_hxe(build_source(".entry s\ns: BR s\n", filename="spin.mvasm")))
    daemon = execd_child(tmp_path / "fs", "--config", str(config))
    host, port = next(daemon)
    try:
        with Client(host, port, timeout=30) as client:
            row = client.request("load", path=str(image), paused=True)["task"]
            assert row["stack_top"] - row["stack_base"] == 32 << 10
            assert row["reg_base"] + 64 == 0x40000
    finally:
        daemon.close()
