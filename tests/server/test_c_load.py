"""`load` of a C file over a real socket: the compiler's options travel with the request
(and with `restart`), a failed build replies with every diagnostic whole, and a file
that is neither an image nor a source is refused by its name."""
from __future__ import annotations

import pytest
from serverkit import state, wait_for

from hsx.client import ProtocolError


def exit_status(client, pid):
    wait_for(lambda: state(client, pid) == "returned")
    return client.request("ps", pid=pid)["tasks"]["tasks"][0]["exit_status"]


def test_compiler_options_reach_the_build_and_restart_keeps_them(client, tmp_path):
    client.timeout = 120                    # two C builds in a child process: slow under load
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "base.h").write_text("#define BASE 40\n")
    source = tmp_path / "p.c"
    source.write_text('#include "base.h"\nint main(void) { return BASE + EXTRA; }\n')
    cc = {"opt": "s", "debug": True, "include": [str(tmp_path / "inc")],
          "define": ["EXTRA=2"]}
    reply = client.request("load", path=str(source), cc=cc)
    assert exit_status(client, reply["pid"]) == 42
    assert reply["image"]["symbols"] is not None
    again = client.request("restart", pid=reply["pid"])
    assert exit_status(client, again["pid"]) == 42


def test_a_failed_build_replies_with_every_diagnostic(client, tmp_path):
    source = tmp_path / "bad.c"
    source.write_text("int main(void) {\n    int x = 1\n    return x;\n}\n"
                      "int f(void) { return y; }\n")
    with pytest.raises(ProtocolError) as error:
        client.request("load", path=str(source))
    message = error.value.message
    assert error.value.code == "build_failed"
    assert "bad.c:2:14: error: expected ';' at end of declaration" in message
    assert "    2 |     int x = 1\n      |              ^" in message
    assert "bad.c:5:22: error: use of undeclared identifier 'y'" in message
    assert client.request("ping")["status"] == "ok"


@pytest.mark.parametrize("cc, why", [
    ({"opt": "4"}, "'cc.opt' must be one of"), ({"define": ["1X"]}, "NAME or NAME=VALUE"),
    ({"debug": "maybe"}, "'cc.debug' must be a boolean")])
def test_bad_compiler_options_are_refused(client, tmp_path, cc, why):
    source = tmp_path / "p.c"
    source.write_text("int main(void) { return 0; }\n")
    with pytest.raises(ProtocolError) as error:
        client.request("load", path=str(source), cc=cc)
    assert error.value.code == "bad_argument" and why in error.value.message


def test_files_are_refused_by_name(client, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("int main(void) { return 0; }\n")
    with pytest.raises(ProtocolError) as error:
        client.request("load", path=str(notes))
    assert error.value.code == "unsupported_file" and ".hxe, .mvasm, .c" in error.value.message
    mvasm = tmp_path / "a.mvasm"
    mvasm.write_text("start: RET\n")
    with pytest.raises(ProtocolError) as error:
        client.request("load", path=str(mvasm), cc={"opt": "0"})
    assert error.value.code == "bad_argument"


def test_a_task_is_restarted_once(server, connect, tmp_path, monkeypatch):
    """A second `restart` of a task, while the first is building or after it replaced
    the task, is refused: it used to load a second copy of the program, without the
    breakpoints the first restart carried over."""
    import threading

    from hsx.server.handlers import tasks
    source = tmp_path / "prog.c"
    source.write_text("int main(void) { return 7; }\n")
    first, second = connect(), connect()
    pid = first.request("load", path=str(source), paused=True)["pid"]
    building, release = threading.Event(), threading.Event()
    read_program = tasks.read_program

    def held(*args, **kwargs):
        building.set()
        release.wait(60)
        return read_program(*args, **kwargs)
    monkeypatch.setattr(tasks, "read_program", held)
    done: list = []
    restarting = threading.Thread(target=lambda: done.append(first.request("restart", pid=pid)))
    restarting.start()
    assert building.wait(60)
    with pytest.raises(ProtocolError) as busy:
        second.request("restart", pid=pid)
    assert busy.value.code == "restart_in_progress"
    release.set()
    restarting.join(60)
    new_pid = done[0]["reload"]["new_pid"]
    with pytest.raises(ProtocolError) as again:
        second.request("restart", pid=pid)
    assert again.value.code == "already_restarted"
    assert again.value.reply["new_pid"] == new_pid and f"pid {new_pid}" in again.value.message
    live = [t for t in second.request("ps")["tasks"]["tasks"] if t["state"] != "killed"]
    assert [t["pid"] for t in live] == [new_pid]
