"""The debugger's replies: stack, breakpoints, watches, symbols, variables, run control."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .text import Context, Line, hexaddr, line, s, table, where


def stack(data: dict[str, Any], ctx: Context) -> list[Line]:
    info = data["stack"]
    pid = info["pid"]
    if data.get("program"):
        ctx.programs.setdefault(pid, data["program"])
    out = []
    for frame in info["frames"]:
        out.append(line(s("dim", f"#{frame['index']:<2} "), s("addr", hexaddr(frame["pc"])),
                        " in ", *(where(frame.get("function"), frame.get("offset"),
                                        frame.get("file"), frame.get("line"))
                                  or [s("dim", "??")])))
        text = ctx.source_line(pid, frame.get("file"), frame.get("line"))
        if text is not None:
            out.append(line(s("src", f"     {frame['line']:>5}  {text.strip()}")))
    if info.get("truncated"):
        out.append(line(s("dim", "(more frames: stack PID N shows N)")))
    for note in [info.get("note"), *info.get("warnings", [])]:
        if note:
            out.append(line(s("warn", note)))
    return out


def _location(item: dict[str, Any]) -> Line:
    file = item.get("file")
    return line(s("sym", item.get("location") or hexaddr(item.get("address"))),
                s("file", f"  {Path(file).name}:{item['line']}") if file and item.get("line")
                else "")


def breakpoints(data: dict[str, Any], ctx: Context) -> list[Line]:
    rows = [[str(b["id"]), str(b["pid"]), _location(b), str(b["hits"]),
             s("ok", "yes") if b["enabled"] else s("dim", "no"),
             ("temp " if b.get("temporary") else "") + (b["kind"] if b["kind"] != "breakpoint"
                                                        else ""),
             b.get("condition") or ""]
            for b in data["breakpoints"]]
    return table(["ID", "PID", "WHERE", "HITS", "ON", "KIND", "CONDITION"], rows,
                 right=("ID", "PID", "HITS"))


def breakpoint(data: dict[str, Any], ctx: Context) -> list[Line]:
    b = data["breakpoint"]
    state = "" if b["enabled"] else " (disabled)"
    cond = f" if {b['condition']}" if b.get("condition") else ""
    return [line(f"breakpoint {b['id']} at ", *_location(b), f" in pid {b['pid']}{cond}{state}")]


def cleared(data: dict[str, Any], ctx: Context) -> list[Line]:
    ids = [str(b["id"]) for b in data["cleared"]]
    return [line(f"cleared breakpoint{'s' if len(ids) != 1 else ''} {', '.join(ids)}"
                 if ids else "no breakpoints to clear")]


def watches(data: dict[str, Any], ctx: Context) -> list[Line]:
    rows = [[str(w["id"]), str(w["pid"]), s("addr", hexaddr(w["addr"])), str(w["length"]),
             s("sym", w.get("symbol") or ""), "yes" if w.get("stop") else "no",
             s("num", w.get("value") or "")] for w in data["watches"]]
    return table(["ID", "PID", "ADDR", "LEN", "SYMBOL", "STOP", "VALUE"], rows,
                 right=("ID", "PID", "LEN"))


def watch(data: dict[str, Any], ctx: Context) -> list[Line]:
    w = data["watch"]
    name = f" ({w['symbol']})" if w.get("symbol") else ""
    return [line(f"watch {w['id']}: {w['length']} bytes at ", s("addr", hexaddr(w["addr"])),
                 name, f" in pid {w['pid']} = ", s("num", w.get("value") or "?"),
                 " (stops the task on change)" if w.get("stop") else "")]


def symbols(data: dict[str, Any], ctx: Context) -> list[Line]:
    listing = data["symbols"]
    rows = [[s("addr", hexaddr(x["address"])), str(x.get("size") or ""), x.get("type") or "",
             s("sym", x["name"]), s("file", f"{Path(x['file']).name}:{x['line']}")
             if x.get("file") and x.get("line") else ""] for x in listing["symbols"]]
    out = table(["ADDR", "SIZE", "TYPE", "NAME", "SOURCE"], rows, right=("SIZE",))
    return out + [line(s("warn", w)) for w in listing.get("warnings", [])]


def symbol(data: dict[str, Any], ctx: Context) -> list[Line]:
    x = data["symbol"]
    if "name" in x:
        return [line(s("sym", x["name"]), " is at ", s("addr", hexaddr(x["address"])),
                     f" ({x.get('type') or x.get('space')}, {x.get('size') or '?'} bytes)",
                     s("file", f"  {Path(x['file']).name}:{x['line']}")
                     if x.get("file") and x.get("line") else "")]
    place = where(x.get("symbol"), x.get("offset"), x.get("file"), x.get("line"))
    label = x.get("label")
    return [line(s("addr", hexaddr(x["address"])), " is ", *(place or [s("dim", "unknown")]),
                 f"  (label {label}+{x.get('label_offset', 0)})" if label else "")] + \
        [line(s("warn", w)) for w in x.get("warnings", [])]


def regions(data: dict[str, Any], ctx: Context) -> list[Line]:
    rows = [[r["name"], r["space"], s("addr", hexaddr(r["start"])),
             s("addr", hexaddr(r["end"])), str(r["size"]), r.get("permissions", "")]
            for r in data["memory"]["regions"]]
    return table(["REGION", "SPACE", "START", "END", "SIZE", "PERM"], rows, right=("SIZE",))


def _variable(v: dict[str, Any], indent: str = "  ") -> Line:
    value = v["value"] if v.get("available", True) else f"<{v.get('value') or 'unavailable'}>"
    more = s("dim", f"  [ref {v['ref']}: {v.get('children')} more]") if v.get("ref") else ""
    return line(indent, s("key", v["name"]), " = ", s("num", value),
                s("dim", f"  ({v['type']})"), more)


def variables(data: dict[str, Any], ctx: Context, scopes: tuple[str, ...] = (
        "arguments", "locals", "globals", "registers")) -> list[Line]:
    info = data["variables"]
    out = [line(s("dim", f"frame {info['frame']} of pid {info['pid']}: "),
                *where(info.get("function"), None, info.get("file"), info.get("line")))]
    for scope in scopes:
        if scope in info:
            out.append(line(s("head", f"{scope}:")))
            out += [_variable(v) for v in info[scope]] or [line(s("dim", "  (none)"))]
    return out + [line(s("warn", w)) for w in info.get("warnings", [])]


def locals_(data: dict[str, Any], ctx: Context) -> list[Line]:
    return variables(data, ctx, ("arguments", "locals"))


def value(data: dict[str, Any], ctx: Context) -> list[Line]:
    return [_variable(data["result"], "")]


def expanded(data: dict[str, Any], ctx: Context) -> list[Line]:
    info = data["variables"]
    out = [_variable(v) for v in info["variables"]]
    shown = info.get("start", 0) + len(info["variables"])
    if shown < info.get("total", shown):
        out.append(line(s("dim", f"  ... {info['total'] - shown} more "
                                 f"(expand {info['ref']} {shown})")))
    return out


def step(data: dict[str, Any], ctx: Context) -> list[Line]:
    r = data["result"]
    if r.get("pid") is None:
        return [line(f"executed {r['executed']} of {r['requested']} instructions")]
    return [line(f"pid {ctx.task(r['pid'])}: executed {r['executed']} instruction"
                 f"{'s' if r['executed'] != 1 else ''}, now at ", s("addr", hexaddr(r["pc"])),
                 f" ({r['state']})")]


def started(data: dict[str, Any], ctx: Context) -> list[Line]:
    r = data["result"]
    if "executed" in r:
        return step(data, ctx)
    if r.get("reverse") or "steps" in r:
        return [line(f"pid {ctx.task(r['pid'])}: back to ", s("addr", hexaddr(r["pc"])), " ",
                     *where(r.get("symbol"), r.get("offset"), r.get("file"), r.get("line")))]
    if r.get("pending") == "step_out" and r.get("function"):
        return [line(f"pid {ctx.task(r['pid'])}: run till exit from ", s("sym", r["function"]))]
    return [line(s("dim", f"pid {ctx.task(r['pid'])} running (the stop is announced)"))]


def listing(data: dict[str, Any], ctx: Context) -> list[Line]:
    src = data["source"]
    out = [line(s("file", f"{src['file']}:{src['line']}"),
                s("dim", f"  ({src['path']})") if src["path"] != src["file"] else "")]
    for number, text in enumerate(src["lines"], src["first"]):
        here = number == src["line"]
        mark = ("=>" if src["pc_line"] else " >") if here else "  "
        out.append(line(s("pc" if here else "", mark), s("dim", f" {number:>5}  "),
                        s("src", text)))
    return out


def jumped(data: dict[str, Any], ctx: Context) -> list[Line]:
    r = data["result"]
    return [line(f"pid {ctx.task(r['pid'])}: now at ", s("addr", hexaddr(r["pc"])), " ",
                 *where(r.get("symbol"), r.get("offset"), r.get("file"), r.get("line")),
                 s("dim", " (nothing ran)"))]


def history(data: dict[str, Any], ctx: Context) -> list[Line]:
    h = data["history"]
    if not h.get("recording"):
        return [line(f"pid {ctx.task(h['pid'])}: not recording")]
    place = "in the past" if h.get("replaying") else "at the present"
    return [line(f"pid {ctx.task(h['pid'])}: recording, {place}; steps {h['start']}.."
                 f"{h['end']} (at {h['position']}), {h['checkpoints']} checkpoints, "
                 f"{h['bytes'] // 1024} KiB of {h['budget'] // 1024} KiB")]


def timeline(data: dict[str, Any], ctx: Context) -> list[Line]:
    t = data["timeline"]
    if "path" in t:
        return [line(f"wrote {t['events']} events ({t['format']}, {t['bytes'] // 1024} KiB) to ",
                     s("file", t["path"]))]
    state = s("ok", "recording") if t["recording"] else s("dim", "stopped")
    dropped = f", {t['dropped']} oldest dropped" if t["dropped"] else ""
    return [line("timeline: ", state, f", {t['records']} records "
                 f"({t['bytes'] // 1024} KiB of {t['budget'] // (1 << 20)} MiB{dropped}), "
                 f"instructions {t['start']}..{t['end']}")]


def trace(data: dict[str, Any], ctx: Context) -> list[Line]:
    t = data["trace"]
    records = t.get("records")
    if records is None:
        if "path" in t:
            return [line(f"wrote {t['count']} records to ", s("file", t["path"]))]
        state = s("ok", "on") if t.get("enabled") else s("dim", "off")
        return [line(f"trace of pid {ctx.task(t['pid'])}: ", state,
                     f", {t.get('count', 0)} of {t.get('capacity', 0)} records")]
    rows = [[str(r["seq"]), s("addr", hexaddr(r["pc"])), s("mnemonic", r["text"]),
             " ".join(f"{k}={v:#x}" for k, v in r.get("regs", {}).items())]
            for r in records]
    return table(["SEQ", "PC", "INSTRUCTION", "CHANGED"], rows, right=("SEQ",))
