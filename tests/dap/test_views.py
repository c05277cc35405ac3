"""The custom requests behind the VS Code extension's views: hsx/tasks, hsx/mailboxes,
hsx/values, answered from the executive of the program being debugged."""
from __future__ import annotations


def test_views_need_a_program_first(dap):
    dap.initialize()
    for command in ("hsx/tasks", "hsx/mailboxes", "hsx/values"):
        assert "launch or attach first" in dap.fails(command)


def test_views_list_the_executives_tasks_mailboxes_and_values(dap, built, execd):
    dap.initialize()
    seq = dap.send("launch", program=str(built / "prog.hxe"), host=execd[0], port=execd[1],
                   stopOnEntry=True)
    dap.wait_event("initialized")
    dap.ok("configurationDone")
    assert dap.response(seq)["success"]
    pid = dap.stopped("entry")["threadId"]

    rows = {row["pid"]: row for row in dap.ok("hsx/tasks")["tasks"]}
    assert rows[pid]["app_name"] == "prog" and rows[pid]["state"] == "paused"
    mailboxes = dap.ok("hsx/mailboxes")
    targets = {d["target"] for d in mailboxes["descriptors"]}
    assert {f"svc:stdio.in@{pid}", f"svc:stdio.out@{pid}"} <= targets
    assert mailboxes["stats"]["active_descriptors"] == len(targets)
    registry = dap.ok("hsx/values")
    assert isinstance(registry["values"], list) and isinstance(registry["commands"], list)
