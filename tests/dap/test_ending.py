"""How a session ends: after `disconnect` the adapter exits with status 0 and nothing on
stderr (an editor takes anything else for a crash), and an executive it started for the
session ends with it, whether it is told to (SIGTERM) or killed outright (SIGKILL)."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from dapkit import TIMEOUT, free_port, listens, wait_until
from hsx.client.sync import Client


@pytest.mark.parametrize("client_closes_stdin", [False, True],
                         ids=["stdin-left-open", "stdin-closed-at-once"])
def test_the_adapter_exits_0_and_quietly_after_disconnect(dap, built, execd,
                                                          client_closes_stdin):
    dap.launch(built / "prog.hxe", execd, stopOnEntry=True)
    dap.stopped("entry")
    dap.ok("disconnect")
    if client_closes_stdin:
        dap.proc.stdin.close()
    status = dap.proc.wait(timeout=TIMEOUT)
    assert (status, dap.proc.stderr.read().decode()) == (0, "")


@pytest.mark.parametrize("how", ["terminate", "kill"])
def test_an_executive_started_for_the_session_ends_with_the_adapter(dap, built, how):
    port = free_port()
    dap.launch(built / "prog.hxe", ("127.0.0.1", port), stopOnEntry=True)
    dap.stopped("entry")
    assert "starting an executive" in dap.output()
    with Client("127.0.0.1", port) as client:
        executive = client.request("info")["info"]["process_id"]
    getattr(dap.proc, how)()
    dap.proc.wait(timeout=TIMEOUT)
    try:
        wait_until(lambda: not running(executive) and not listens(port),
                   f"the executive (process {executive}) did not end after the adapter's "
                   f"{how}")
    finally:
        if running(executive):                   # the test failed: leave nothing behind
            os.kill(executive, signal.SIGKILL)


def running(process_id: int) -> bool:
    """Is the process there?  On Linux a zombie counts as gone (an orphan's zombie stays
    while an init process that does not reap orphans runs)."""
    if Path("/proc/self").is_dir():
        try:
            state = Path(f"/proc/{process_id}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        return state != "Z"
    try:
        os.kill(process_id, 0)
    except ProcessLookupError:
        return False
    return True
