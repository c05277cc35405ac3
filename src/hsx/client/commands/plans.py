"""Commands that take more than one request, written without I/O.

A plan is a generator: it yields `Request`s, is sent each reply (or thrown the
`ProtocolError`), and returns the result the front end shows -- so the blocking shell,
the asyncio TUI and the debug adapter run the same plans (run.py drives them).

Data locations are resolved here, the same way for every command that reads or writes
memory: a number; a register (`SP`, `r3`, `$fp`: its value); a symbol with an optional
offset (`counter`, `buf+4`: its address); else a C expression (a pointer's value, an
lvalue's address).
"""
from __future__ import annotations

import re
from typing import Any, Generator

from ..errors import ProtocolError
from .parse import RAW, Invocation
from .syntax import PID, REGISTERS, Request, UsageError, parse_format

Plan = Generator[Request, dict[str, Any], dict[str, Any]]

_SYMBOL = re.compile(r"^([A-Za-z_.$][\w.$]*)\s*(?:([+-])\s*(0x[0-9a-fA-F]+|\d+))?$")


def plan(invocation: Invocation) -> Plan:
    """The plan of any invocation: its command's own, or one request."""
    command = invocation.command
    if command.local:
        raise ValueError(f"{command.name} is carried out by the front end")
    return _named_tasks(invocation, command.plan or single)


def _named_tasks(invocation: Invocation, inner) -> Plan:
    """Tasks given by app name become PIDs first, then the plan runs."""
    for arg in invocation.command.args:
        if arg.kind is PID and isinstance(invocation.values.get(arg.key), str):
            invocation.values[arg.key] = yield from task_pid(invocation.values[arg.key])
    return (yield from inner(invocation))


def task_pid(name: str) -> Generator[Request, Any, int]:
    """The PID of the task running app `name` (a live one before an ended one)."""
    rows = (yield Request("ps", {}))["tasks"]["tasks"]
    found = [r for r in rows if name in (r["app_name"], r.get("app_name_base"))]
    live = [r for r in found if r["state"] not in ("returned", "faulted", "killed")]
    found = live or found
    if not found:
        raise UsageError(f"no task named {name!r} (ps lists them)")
    if len(found) > 1:
        pids = ", ".join(str(r["pid"]) for r in found)
        raise UsageError(f"several tasks are named {name!r} (pids {pids}): give the PID")
    return found[0]["pid"]


def single(invocation: Invocation) -> Plan:
    if invocation.command is RAW:
        fields = dict(invocation.extra)
        cmd = fields.pop("cmd")
    else:
        cmd, fields = invocation.command.cmd, invocation.fields()
    return (yield Request(cmd, fields))


# ------------------------------------------------------------------ locations

def data_address(pid: int, where: int | str, frame: int = 0) -> Generator[Request, Any, int]:
    """The address a data location names (see the module's docstring)."""
    if isinstance(where, int):
        return where
    text = where.strip()
    register = text.lower().lstrip("$")
    if register in REGISTERS:
        regs = (yield Request("regs", {"pid": pid}))["registers"]
        if register.startswith("r"):
            return regs["regs"][int(register[1:])]
        return regs["regs"][14] if register == "fp" else regs[register]
    match = _SYMBOL.match(text)
    if match:
        name, sign, offset = match.groups()
        try:
            symbol = (yield Request("symbols.lookup", {"pid": pid, "name": name}))["symbol"]
        except ProtocolError as error:
            if error.code not in ("unknown_symbol", "no_symbols"):
                raise
            symbol = None
            missing = error
        if symbol is not None:
            delta = int(offset, 0) if offset else 0
            return symbol["address"] + (-delta if sign == "-" else delta)
        if sign:
            raise missing
    try:
        result = (yield Request("evaluate", {"pid": pid, "expr": text, "frame": frame}))["result"]
    except ProtocolError as error:
        if match and error.code in ("bad_expression", "no_symbols"):
            raise missing from None
        raise
    return _address_of(result, text)


def _address_of(result: dict[str, Any], text: str) -> int:
    """A pointer's value, an lvalue's address, or an integer's value."""
    value = str(result.get("value", ""))
    if "*" in str(result.get("type", "")) or result.get("address") is None:
        number = re.match(r"\s*(-?0x[0-9a-fA-F]+|-?\d+)", value)
        if number is None:
            raise UsageError(f"{text!r} is {value} ({result.get('type')}), not an address")
        return int(number.group(1), 0) & 0xFFFFFFFF
    return int(result["address"])


def _data_symbols(pid: int, start: int, length: int) -> Generator[Request, Any, list]:
    """The data symbols inside [start, start + length), for annotating a dump."""
    try:
        listing = (yield Request("symbols.list", {"pid": pid, "type": "variables"}))["symbols"]
    except ProtocolError:
        return []
    end = start + length
    found = [{"name": s["name"], "address": s["address"], "size": s.get("size") or 0}
             for s in listing.get("symbols", []) if s.get("space", "data") == "data"]
    return sorted((s for s in found
                   if s["address"] < end and s["address"] + max(s["size"], 1) > start),
                  key=lambda s: s["address"])


# ------------------------------------------------------------------ memory

def peek(invocation: Invocation) -> Plan:
    values = invocation.values
    pid = values["pid"]
    addr = yield from data_address(pid, values["addr"])
    fields = {"pid": pid, "addr": addr, "length": values.get("length", 64),
              **invocation.extra}
    reply = yield Request("peek", fields)
    symbols = yield from _data_symbols(pid, addr, reply["length"])
    return {**reply, "location": values["addr"], "symbols": symbols, "unit": 1,
            "format": "x"}


def examine(invocation: Invocation) -> Plan:
    """`x/NFU PID WHERE`: N units of U bytes (b h w g) shown as F (x d u o t c s; i is
    disassembly)."""
    count, fmt, unit = parse_format(invocation.format, invocation.command.usage)
    values = invocation.values
    pid = values["pid"]
    if fmt == "i":
        fields = {"pid": pid, "addr": values["addr"], "count": count, "mode": "from"}
        return (yield Request("disasm.read", fields))
    addr = yield from data_address(pid, values["addr"])
    length = 256 if fmt == "s" else count * unit
    reply = yield Request("peek", {"pid": pid, "addr": addr, "length": length,
                                   **invocation.extra})
    symbols = yield from _data_symbols(pid, addr, reply["length"])
    return {**reply, "location": values["addr"], "symbols": symbols, "unit": unit,
            "format": fmt, "count": count}


def poke(invocation: Invocation) -> Plan:
    values = invocation.values
    addr = yield from data_address(values["pid"], values["addr"])
    return (yield Request("poke", {"pid": values["pid"], "addr": addr,
                                   "data": values["data"]}))


def watch_add(invocation: Invocation) -> Plan:
    """A watch on what a location names; registers and numbers are resolved here, names
    and expressions by the executive (which also knows their size)."""
    values = invocation.values
    where = values["expr"]
    if isinstance(where, str) and where.lower().lstrip("$") in REGISTERS:
        where = yield from data_address(values["pid"], where)
    fields = {**invocation.fields(), "expr": where}
    return (yield Request("watch.add", fields))


# ------------------------------------------------------------------ registers, variables

def set_register(invocation: Invocation) -> Plan:
    values = invocation.values
    name = values["register"].lower().lstrip("$")
    if name not in REGISTERS:
        raise UsageError(f"no register {values['register']!r} (R0..R15, SP, FP, PC, PSW)",
                         invocation.command.usage)
    return (yield Request("set", {"pid": values["pid"], "lvalue": f"${name}",
                                  "value": str(values["value"])}))


def assign(invocation: Invocation) -> Plan:
    """`set PID LVALUE = VALUE`: split at the first `=` that is not part of ==, <=, ..."""
    values = invocation.values
    lvalue, value = split_assignment(values["assignment"])
    if not lvalue or not value:
        raise UsageError("set needs LVALUE = VALUE", invocation.command.usage)
    fields = {"pid": values["pid"], "lvalue": lvalue, "value": value,
              **({"frame": values["frame"]} if "frame" in values else {})}
    return (yield Request("set", fields))


_COMPOUND = ("<<", ">>", "+", "-", "*", "/", "%", "&", "|", "^")   # C's `op=` assignments


def split_assignment(text: str) -> tuple[str, str]:
    """`LVALUE = VALUE` as (LVALUE, VALUE), split at the first `=` outside brackets and
    character literals that is not part of `==`, `!=`, `<=` or `>=`; a compound
    assignment `x += 2` becomes ("x", "x + (2)").  (text, "") when there is none."""
    depth, quoted, index = 0, False, 0
    while index < len(text):
        char = text[index]
        if quoted:
            index += 2 if char == "\\" else 1
            quoted = char != "'"
            continue
        if char == "'":
            quoted = True
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "=" and depth == 0:
            if text[index + 1:index + 2] == "=":
                index += 2                                 # ==
                continue
            before = text[:index]
            if before.endswith(("<<", ">>")) or not before.endswith(("<", ">", "!", "=")):
                op = next((o for o in _COMPOUND if before.endswith(o)), "")
                lvalue, value = before[:len(before) - len(op)].strip(), text[index + 1:].strip()
                return lvalue, (f"{lvalue} {op} ({value})" if op and value else value)
        index += 1
    return text.strip(), ""


def registers(invocation: Invocation) -> Plan:
    """The registers, and where the PC is (function, line) when symbols say."""
    reply = yield Request("regs", invocation.fields())
    try:
        where = (yield Request("symbols.lookup", {"pid": invocation.values["pid"],
                                                  "addr": reply["registers"]["pc"]}))
    except ProtocolError:
        return reply
    return {**reply, "pc_symbol": where["symbol"]}


# ------------------------------------------------------------------ source lines

def stack(invocation: Invocation) -> Plan:
    """The stack, with the task's program path so source lines can be shown."""
    reply = yield Request("stack.info", invocation.fields())
    row = (yield Request("ps", {"pid": invocation.values["pid"]}))["tasks"]["tasks"][0]
    return {**reply, "program": row.get("program")}



LIST_CONTEXT = 5                 # lines `list` shows before and after its line


def list_source(invocation: Invocation) -> Plan:
    """list PID [WHERE]: the source around the PC, a function or file:line, read where the
    executive runs (`source.read`), so it works when the files are only there."""
    pid, where = invocation.values["pid"], invocation.values.get("addr")
    at_pc = where is None
    fields = {"pid": pid, "count": 1, "mode": "from"}    # the executive resolves `where`
    if not at_pc:                                        # (address, symbol, file:line)
        fields["addr"] = where
    found = (yield Request("disasm.read", fields))["disasm"]["instructions"][0]
    file, number = found.get("file"), found.get("line")
    if not file or not number:
        shown = "the PC" if at_pc else where
        raise UsageError(f"no source line at {shown} (build with -g for lines)")
    text = (yield Request("source.read", {"pid": pid, "file": file}))["source"]
    lines = text["text"].splitlines()
    first = max(1, number - LIST_CONTEXT)
    return {"source": {"pid": pid, "file": text["file"], "path": text["path"], "line": number,
                       "pc_line": at_pc, "first": first,
                       "lines": lines[first - 1:number + LIST_CONTEXT]}}
