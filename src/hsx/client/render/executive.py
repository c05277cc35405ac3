"""The executive's replies: tasks, log, clock, mailboxes, values, sessions."""
from __future__ import annotations

import json
from typing import Any

from .text import Context, Line, generic, hexaddr, line, s, table

STATE_STYLE = {"running": "ok", "ready": "ok", "paused": "warn", "faulted": "err",
               "killed": "dim", "returned": "dim"}


def _state(state: str) -> tuple[str, str]:
    return s(STATE_STYLE.get(state, ""), state)


def _detail(row: dict[str, Any]) -> str:
    if row.get("fault"):
        return f"{row['fault']['kind']} at {hexaddr(row['fault'].get('pc'))}"
    if row.get("state") == "returned":
        return f"exit {row.get('exit_status')}"
    wait = row.get("wait") or {}
    if wait.get("kind") == "sleep":
        return f"sleep {wait.get('ms')} ms"
    if wait.get("kind") == "mailbox":
        return f"mailbox {wait.get('handle')}"
    return ""


def tasks(data: dict[str, Any], ctx: Context) -> list[Line]:
    rows = data["rows"] if "rows" in data else data["tasks"]["tasks"]
    for row in rows:
        ctx.names[row["pid"]] = row["app_name"]
        if row.get("program"):
            ctx.programs[row["pid"]] = row["program"]
    return table(["PID", "STATE", "PC", "INSTR", "PRI", "LOCK", "NAME", "DETAIL"],
                 [[str(r["pid"]), _state(r["state"]), s("addr", hexaddr(r["pc"])),
                   str(r["instructions"]), str(r["priority"]), r.get("locked_by") or "-",
                   r["app_name"], _detail(r)] for r in rows],
                 right=("PID", "INSTR", "PRI"))


def task(data: dict[str, Any], ctx: Context) -> list[Line]:
    if "task" in data:
        return tasks({"rows": [data["task"]]}, ctx)
    if "tasks" in data:
        return tasks({"rows": data["tasks"]}, ctx)
    return generic(data)


def resumed(data: dict[str, Any], ctx: Context) -> list[Line]:
    """`resume` says which tasks go on, not their rows: a row would be out of date at
    once (what happens next -- a stop, the end -- is announced when it happens)."""
    rows = [data["task"]] if "task" in data else data.get("tasks") or []
    for row in rows:
        ctx.names[row["pid"]] = row["app_name"]
    if not rows:
        return [line(s("dim", "no task to continue"))]
    return [line("continuing ", ", ".join(ctx.task(row["pid"]) for row in rows))]


def load(data: dict[str, Any], ctx: Context) -> list[Line]:
    image = data["image"]
    ctx.names[data["pid"]] = image["app_name"]
    if image.get("program"):
        ctx.programs[data["pid"]] = image["program"]
    if image.get("symbols"):
        ctx.symbol_files[data["pid"]] = image["symbols"]
    out = []
    if "reload" in data:
        out.append(line(f"pid {data['reload']['old_pid']} restarted as pid {data['pid']}"))
    symbols = "with symbols" if image.get("symbols") else "no symbols"
    out.append(line("loaded ", s("key", image["app_name"]), " as pid ", s("pid", data["pid"]),
                    f" ({image['code_len']} bytes of code, {symbols}; "
                    f"{data['task']['state']})"))
    return out


def info(data: dict[str, Any], ctx: Context) -> list[Line]:
    """`hsx execd`'s or a board's `info` (a board has no address or connections: it says
    which board it is)."""
    i = data["info"]
    clock = i.get("clock", {})
    where = f"at {i['address']}" if i.get("address") else f"on the {i.get('board')} board"
    variant = i.get("variant") or i.get("profile")
    speed = f", {clock['ips']:,.0f} instructions/s" if "ips" in clock else ""
    clients = [f"{i[k]} {k}" for k in ("sessions", "connections") if k in i]
    out = [line(s("key", "executive  "), f"{i.get('program')} {i.get('hsx_version')} "
                f"(protocol {i.get('protocol')}) {where}, up {i.get('uptime_s', 0):.0f} s, "
                f"{variant} variant"),
           line(s("key", "tasks      "), f"{len(i.get('tasks', []))}, "
                f"{i.get('instructions', 0)} instructions")]
    if clock:
        out.append(line(s("key", "clock      "), f"{clock.get('state')} ({clock.get('mode')})"
                        f"{speed}"))
    if clients:
        out.append(line(s("key", "clients    "), ", ".join(clients)))
    if "selected_registers" in data:
        out.append(line(s("key", "registers  "), json.dumps(data["selected_registers"])))
    return out


def logs(data: dict[str, Any], ctx: Context) -> list[Line]:
    style = {"error": "err", "warning": "warn", "debug": "dim"}
    return [line(s("dim", f"{e['seq']:>5} "), s(style.get(e["level"], ""), f"{e['level']:<7}"),
                 " ", e["message"]) for e in data["logs"]] or [line(s("dim", "(empty)"))]


def clock(data: dict[str, Any], ctx: Context) -> list[Line]:
    c = data["clock"]
    rate = f"limited to {c['rate_hz']}/s" if c.get("rate_hz") else "unlimited"
    speed = f", {c['ips']:,.0f} instructions/s" if "ips" in c else ""    # (not a board's)
    return [line("clock ", s("ok" if c.get("running") else "warn", c["state"]),
                 f" ({c['mode']}), {rate}{speed}")]


def sched(data: dict[str, Any], ctx: Context) -> list[Line]:
    if "task" in data:
        return task(data, ctx)
    sched_ = data["scheduler"]
    out = [line("ready queue: ", " ".join(map(str, sched_.get("queued", []))) or "(empty)")]
    out += [line(s("dim", f"  {t['from']} -> {t['to']} after {t['instructions']}"))
            for t in sched_.get("trace", [])]
    return out


def mailboxes(data: dict[str, Any], ctx: Context) -> list[Line]:
    rows = [[str(d["descriptor_id"]), d["target"], str(d.get("owner_pid")),
             str(d.get("queue_depth", 0)), f"{d.get('bytes_used', 0)}/{d.get('capacity', 0)}",
             str(d.get("handles", 0)), " ".join(map(str, d.get("waiters") or [])) or "-"]
            for d in data["descriptors"]]
    stats = data.get("stats", {})
    return table(["ID", "TARGET", "OWNER", "DEPTH", "BYTES", "HANDLES", "WAITING"], rows,
                 right=("ID", "OWNER", "DEPTH", "HANDLES")) + [
        line(s("dim", f"{stats.get('active_descriptors', len(rows))} of "
                      f"{stats.get('max_descriptors', '?')} mailboxes"
                      + (f", {stats['messages_sent']} messages sent"
                         if "messages_sent" in stats else "")))]


def messages(data: dict[str, Any], ctx: Context) -> list[Line]:
    return [line(s("dim", f"from {m.get('src_pid')}: "), s("str", repr(m["text"])))
            for m in data["messages"]] or [line(s("dim", "(no messages waiting)"))]


def sent(data: dict[str, Any], ctx: Context) -> list[Line]:
    woke = f", woke {', '.join(map(str, data['woke']))}" if data.get("woke") else ""
    return [line(f"sent {data['length']} bytes to {data.get('target')}{woke}")]


def written(data: dict[str, Any], ctx: Context) -> list[Line]:
    return [line(f"wrote {data['length']} bytes at ", s("addr", hexaddr(data["addr"])),
                 f" in pid {ctx.task(data['pid'])}")]


def stdin(data: dict[str, Any], ctx: Context) -> list[Line]:
    task = ctx.task(data["pid"])
    wrote = f"wrote {data['written']} bytes to the stdin of {task}" if data["written"] else ""
    if not data.get("eof"):
        return [line(wrote)]
    return [line(f"{wrote} and ended it" if wrote else f"ended the input of {task}",
                 s("dim", " (its reads return 0 from now on)"))]


def stdio(data: dict[str, Any], ctx: Context) -> list[Line]:
    """What tasks wrote lately (`recent`), and -- after a subscribe -- who is followed."""
    out = []
    for task in data.get("recent") or []:
        pid = task["pid"]
        if task.get("dropped_chars"):
            out.append(line(s("dim", f"{pid}| ... ({task['dropped_chars']} earlier "
                                     "characters not kept)")))
        out += _output_lines(pid, [("err" if chunk["stream"] == "stderr" else "", chunk["text"])
                                   for chunk in task.get("output", [])])
    if "events" not in data:
        return out or [line(s("dim", "(no output)"))]
    filters = data["events"].get("filters", [])
    pids = sorted({p for f in filters for p in (f.get("pids") or [])})
    who = f"pid {', '.join(map(str, pids))}" if pids else "every task"
    return out + [line(s("dim", f"showing stdout and stderr of {who} as it comes"))]


def _output_lines(pid: int, chunks: list[tuple[str, str]]) -> list[Line]:
    """`PID| text` lines from (style, text) chunks that may split or join lines."""
    out: list[Line] = []
    current: Line = [s("dim", f"{pid}| ")]
    for style, text in chunks:
        parts = text.split("\n")
        for index, part in enumerate(parts):
            if index:
                out.append(current)
                current = [s("dim", f"{pid}| ")]
            if part:
                current.append(s(style, part))
    if len(current) > 1:
        out.append(current)
    return out


def values(data: dict[str, Any], ctx: Context) -> list[Line]:
    rows = [[f"0x{v['oid']:04X}", ".".join(x for x in (v.get("group_name"), v.get("name")) if x),
             s("num", v.get("last_value")), v.get("unit") or "", str(v.get("owner_pid"))]
            for v in data["values"]]
    return table(["OID", "NAME", "VALUE", "UNIT", "OWNER"], rows, right=("VALUE", "OWNER"))


def value_one(data: dict[str, Any], ctx: Context) -> list[Line]:
    v = data["value"]
    changed = "" if v.get("changed", True) else s("dim", " (unchanged: within epsilon)")
    return [line(f"0x{v['oid']:04X} = ", s("num", v["value"]), changed)]


def commands(data: dict[str, Any], ctx: Context) -> list[Line]:
    rows = [[f"0x{c['oid']:04X}", ".".join(x for x in (c.get("group_name"), c.get("name")) if x),
             str(c.get("owner_pid")), c.get("help") or ""] for c in data["commands"]]
    return table(["OID", "NAME", "OWNER", "HELP"], rows, right=("OWNER",))


def called(data: dict[str, Any], ctx: Context) -> list[Line]:
    c = data["command"]
    return [line(f"0x{c['oid']:04X} returned ", s("num", c.get("result")))]


def sessions(data: dict[str, Any], ctx: Context) -> list[Line]:
    rows = [[x["handle"], x.get("client", ""), "observer" if x.get("observer") else "",
             ",".join(map(str, x.get("pid_lock") or [])) or "-",
             f"{x.get('idle_s', 0):.0f}s", "(this console)" if x.get("id") else ""]
            for x in data["sessions"]]
    return table(["SESSION", "CLIENT", "MODE", "LOCKS", "IDLE", ""], rows)


def session(data: dict[str, Any], ctx: Context) -> list[Line]:
    x = data["session"]
    locks = ", ".join(map(str, x.get("pid_lock") or [])) or "none"
    return [line(f"session {x['handle']} ({x.get('client')}), locks: {locks}")] + \
        [line(s("warn", w)) for w in x.get("warnings", [])]


def ping(data: dict[str, Any], ctx: Context) -> list[Line]:
    return [line(s("ok", data.get("reply", "pong")))]
