"""The debug adapter attaching to a task on the mps2-an385 board under QEMU: launch.json's
"connect" with a socket:// URL, as VS Code sends it. The task was loaded over the board's
UART by another client of this host (its symbols kept in the image store); the adapter
stops it at a breakpoint, names its frames and lines, reads its variables and lets it run
on."""
from __future__ import annotations

import sys
from pathlib import Path

from dapkit import DapClient, line_of

from hsx.client import Client

sys.path.insert(0, str(Path(__file__).parents[1]))
from mps2kit import mps2_board, requires_qemu  # noqa: E402

pytestmark = requires_qemu


def test_attach_by_connect_to_a_running_task_on_the_mps2_board(built, tmp_path, monkeypatch):
    monkeypatch.setenv("HSX_IMAGE_STORE", str(tmp_path / "images"))
    source = built / "ticker.c"
    with mps2_board(tmp_path / "flash.bin") as board:
        with Client.connect(board.url) as loader:
            pid = loader.request("load", path=str(built / "ticker.hxe"))["pid"]
        dap = DapClient.start()
        try:
            dap.initialize()
            seq = dap.send("attach", pid=pid, connect=board.url)
            dap.wait_event("initialized", timeout=120)
            line = line_of(source, "tick")
            result = dap.ok("setBreakpoints", source={"path": str(source)},
                            breakpoints=[{"line": line}])["breakpoints"]
            assert result[0]["verified"] and result[0]["line"] == line
            dap.ok("configurationDone")
            assert dap.response(seq, timeout=120)["success"]
            dap.wait_event("output", lambda body: f"on the executive at {board.url}"
                           in body["output"])
            assert dap.stopped("breakpoint", timeout=120)["threadId"] == pid
            top = dap.top_frame(pid)
            assert (top["name"], top["line"], top["source"]["path"]) == ("main", line,
                                                                         str(source))
            first = int(dap.scope_variables(top["id"], "Locals")["n"]["value"])
            dap.ok("continue", threadId=pid)
            dap.stopped("breakpoint", timeout=120)
            top = dap.top_frame(pid)
            assert int(dap.scope_variables(top["id"], "Locals")["n"]["value"]) == first + 1
            # the task's output after the attach: `stdio` subscribes to it through the
            # client's gateway (which passed on only events.subscribe's types)
            dap.wait_output(f"tick {first}\n", timeout=60)
        finally:
            dap.close()
