"""The debugger over protocol v1: breakpoints, run control, stack, disassembly, symbols,
the memory map and watches (docs/protocol.md, "Debugger").

Each command is a thin translation to `hsx.debug.Debugger` (`server.debugger`, one per
executive): the handler reads the fields, checks that the caller may change the PID,
and names the caller's session as the owner of what it sets, so that a session that
closes, expires or disconnects takes its breakpoints and watches with it
(`Server._session_released`).  Owners are session *handles* ("s3"), never ids: listings
are shown to everyone and ids are secrets.

Ids of breakpoints and watches travel as `breakpoint_id` and `watch_id`: a bare `id` is
the request's id, which the server echoes.  Dotted names are canonical; the prior
executive's forms (`bp {op}`, `stack`, `disasm`, `symbols`, `sym {op}`,
`memory {op: regions}`, `watch {op}`) are aliases of them.
"""
from __future__ import annotations

from typing import Any

from hsx.debug import Debugger
from hsx.debug.disasm import DEFAULT_COUNT, MAX_COUNT
from hsx.debug.stack import DEFAULT_FRAMES, MAX_FRAMES
from hsx.debug.stepping import LINE_MODES
from hsx.debug.symbols import Where

from ..dispatch import Call, Group
from ..errors import bad_argument
from ..images import host_file
from ..schema import ADDR, LOCATION, MAX_TEXT, MAX_U32, PID, Bool, Int, FilePath, Str

group = Group("debug", feature="debug")

# disasm.read modes, with the prior executive's and the design's names for them
_DISASM_MODES = {"around": "around", "around_pc": "around", "from": "from",
                 "from_addr": "from", "on-demand": "from", "cached": "from"}
BREAKPOINT = Int(1, MAX_U32)
MAX_WATCH = 4096                 # bytes one watch compares
MAX_SYM_FILE = 64 << 20          # bytes of a .sym symbols.load reads
# a code location: an address (or text the debugger parses), a symbol, or file and line
WHERE = {"addr|address": LOCATION, "symbol": Str(MAX_TEXT, empty=False),
         "file": Str(MAX_TEXT, empty=False), "line": Int(1, 10_000_000)}
# the frame a C expression is evaluated in (0: the innermost)
FRAME = {"frame|frame_id": Int(0, MAX_FRAMES - 1)}


def debugger(call: Call) -> Debugger:
    return call.server.debugger


def owner(call: Call) -> str | None:
    """Who owns what this request sets: the session's handle (None without a session)."""
    return call.session.handle if call.session is not None else None


def frame_of(call: Call) -> int:
    return call.int("frame", 0, min=0, max=MAX_FRAMES - 1, aliases=("frame_id",))


def controlled_pid(call: Call) -> int:
    """The request's `pid`, once it is known that the caller may change that task."""
    pid = call.task().pid
    call.control(pid)
    return pid


def where(call: Call, *, required: bool = True) -> Where | None:
    """A code location: `addr` (a number, or text the debugger parses: "0x34",
    "main+8", "prog.c:12"), `symbol`, or `file` and `line`."""
    addr = call.field("addr") if call.has("addr") else call.field("address")
    if isinstance(addr, str):
        return addr
    if addr is not None:
        return call.int("addr", min=0, aliases=("address",))
    if call.has("symbol"):
        return call.str("symbol")
    if call.has("file"):
        return call.str("file"), call.int("line", min=1)
    if required:
        raise bad_argument(f"{call.args['cmd']} requires 'addr', 'symbol' or 'file' and 'line'")
    return None


# -- breakpoints ------------------------------------------------------------------------

@group.command("bp.set", "bp.add", writes=True, args={
    "pid": PID, **WHERE, "temporary": Bool(), "condition": Str(MAX_TEXT)})
def bp_set(call: Call) -> dict[str, Any]:
    dbg = debugger(call)
    pid = controlled_pid(call)
    bp_id = dbg.breakpoints.set(pid, where(call), temporary=call.bool("temporary"),
                                condition=call.str("condition", None), owner=owner(call))
    # not `id` at the top: that is the request's id, echoed
    return {"breakpoint_id": bp_id,
            "breakpoint": dbg.breakpoints.describe(dbg.breakpoints.get(bp_id))}


@group.command("bp.clear", "bp.remove", "bp.rm", "bp.del", "bp.delete", writes=True,
               args={"breakpoint_id": BREAKPOINT, "pid": PID, **WHERE})
def bp_clear(call: Call) -> dict[str, Any]:
    """By `breakpoint_id`; the older form names `pid` and `addr` and clears what is set
    there."""
    breakpoints = debugger(call).breakpoints
    if call.has("breakpoint_id"):
        bp = breakpoints.get(call.int("breakpoint_id", min=1))
        call.control(bp.pid)
        return {"cleared": [breakpoints.clear(bp.id)]}
    if not call.has("pid"):
        raise bad_argument("bp.clear requires 'breakpoint_id' (or 'pid' and 'addr')")
    pid = controlled_pid(call)
    addr = debugger(call).symbols.resolve_code(pid, where(call), past_prologue=True)
    return {"cleared": [breakpoints.clear(bp.id) for bp in breakpoints.at(pid, addr)
                        if bp.kind == "breakpoint"]}


@group.command("bp.clear_all", "bp.clearall", "bp.reset", writes=True, args={"pid": PID})
def bp_clear_all(call: Call) -> dict[str, Any]:
    """Every breakpoint of the task (BRK instructions in its code stay)."""
    breakpoints = debugger(call).breakpoints
    pid = controlled_pid(call)
    return {"cleared": [breakpoints.clear(bp["id"]) for bp in breakpoints.list(pid)
                        if bp["kind"] == "breakpoint"]}


@group.command("bp.enable", writes=True, args={"breakpoint_id": BREAKPOINT})
def bp_enable(call: Call) -> dict[str, Any]:
    return _enable(call, True)


@group.command("bp.disable", writes=True, args={"breakpoint_id": BREAKPOINT})
def bp_disable(call: Call) -> dict[str, Any]:
    return _enable(call, False)


def _enable(call: Call, enabled: bool) -> dict[str, Any]:
    breakpoints = debugger(call).breakpoints
    bp = breakpoints.get(call.int("breakpoint_id", min=1))
    call.control(bp.pid)
    return {"breakpoint": breakpoints.enable(bp.id, enabled)}


@group.command("bp.list", "bp", "bp.ls", args={"pid": PID})
def bp_list(call: Call) -> dict[str, Any]:
    pid = call.task().pid if call.has("pid") else None
    return {"breakpoints": debugger(call).breakpoints.list(pid)}


# -- run control (plain `step`, `pause` and `resume` are in run.py and tasks.py) ----------

def _started(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    """The reply of a command that lets the task run on: its `debug_break` comes later,
    when the auto clock has run it there (`clock` says whether the clock runs)."""
    return {"result": result, "clock": call.server.clock.status()}


@group.command("run.to", writes=True, args={"pid": PID, **WHERE})
def run_to(call: Call) -> dict[str, Any]:
    pid = controlled_pid(call)
    return _started(call, debugger(call).run_to(pid, where(call), owner=owner(call)))


@group.command("jump", writes=True, args={"pid": PID, **WHERE})
def jump(call: Call) -> dict[str, Any]:
    return {"result": debugger(call).jump(controlled_pid(call), where(call))}


@group.command("step.over", writes=True, args={"pid": PID})
def step_over(call: Call) -> dict[str, Any]:
    return _started(call, debugger(call).step_over(controlled_pid(call)))


@group.command("step.out", writes=True, args={"pid": PID})
def step_out(call: Call) -> dict[str, Any]:
    return _started(call, debugger(call).step_out(controlled_pid(call)))


@group.command("step.line", writes=True, args={"pid": PID, "mode": Str(choices=LINE_MODES)})
def step_line(call: Call) -> dict[str, Any]:
    """To another source line: `mode` over (the default), into or out."""
    pid = controlled_pid(call)
    return _started(call, debugger(call).step_line(pid, call.str("mode", "over")))


# -- inspection -------------------------------------------------------------------------

@group.command("stack.info", "stack", "stack.list", feature="stack",
               args={"pid": PID, "max_frames|max|limit|frames": Int(1, MAX_FRAMES)})
def stack_info(call: Call) -> dict[str, Any]:
    pid = call.task().pid
    frames = call.int("max_frames", DEFAULT_FRAMES, min=1, aliases=("max", "limit", "frames"))
    return {"stack": debugger(call).stack_info(pid, frames)}


@group.command("disasm.read", "disasm", feature="disasm", args={
    "pid": PID, **WHERE, "mode": Str(choices=tuple(_DISASM_MODES)), "count": Int(1, MAX_COUNT)})
def disasm_read(call: Call) -> dict[str, Any]:
    pid = call.task().pid
    mode = call.str("mode", "around")
    return {"disasm": debugger(call).disasm(pid, where(call, required=False),
                                            call.int("count", DEFAULT_COUNT, min=1),
                                            _DISASM_MODES[mode])}


@group.command("symbols.list", "symbols", feature="symbols",
               args={"pid": PID, "type|kind": Str(32)})
def symbols_list(call: Call) -> dict[str, Any]:
    pid = call.task().pid
    return {"symbols": debugger(call).symbols_list(pid, call.str("type", "all",
                                                                 aliases=("kind",)))}


@group.command("symbols.lookup", "sym.lookup", "sym.lookup_name", "sym.name", "sym.addr",
               "sym.lookup_addr", "sym.line", "sym.lookup_line", feature="symbols",
               args={"pid": PID, "name": Str(MAX_TEXT), "addr|address": ADDR,
                     "file": WHERE["file"], "line": WHERE["line"],
                     "space": Str(choices=("code", "data"))})
def symbols_lookup(call: Call) -> dict[str, Any]:
    """By `name` (the symbol); by `addr` (what holds it: function, line, label); by
    `file` and `line` (as `addr`, where a breakpoint on that line lands: its first
    instruction, or the next line's with code, or past the prologue of the function
    whose opening line it is)."""
    pid = call.task().pid
    if call.has("name"):
        key: int | str = call.str("name")
    elif call.has("addr") or call.has("address"):
        key = call.int("addr", min=0, aliases=("address",))
    elif call.has("file"):
        key = debugger(call).symbols.resolve_code(
            pid, (call.str("file"), call.int("line", min=1)), past_prologue=True)
    else:
        raise bad_argument("symbols.lookup requires 'name', 'addr', or 'file' and 'line'")
    return {"symbol": debugger(call).symbols_lookup(pid, key, call.str("space", "code"))}


@group.command("source.read", feature="symbols", args={"pid": PID, "file": WHERE["file"]})
def source_read(call: Call) -> dict[str, Any]:
    """A source file the task's symbols name, read on the executive's side (for a front
    end on another machine)."""
    if not call.has("file"):
        raise bad_argument("source.read requires 'file'")
    return {"source": debugger(call).source_read(call.task().pid, call.str("file"))}


@group.command("symbols.info", "sym", "sym.info", feature="symbols", args={"pid": PID})
def symbols_info(call: Call) -> dict[str, Any]:
    return {"symbols": debugger(call).symbols.info(call.task().pid)}


@group.command("symbols.load", "sym.load", "sym.set", writes=True, feature="symbols",
               args={"pid": PID, "path": FilePath()})
def symbols_load(call: Call) -> dict[str, Any]:
    """A `.sym` file on the daemon's side (as `load` reads images); remembered
    breakpoints that needed names are restored."""
    pid = controlled_pid(call)
    path = host_file(call.str("path"), MAX_SYM_FILE, "symbol_file", "symbol")
    return {"symbols": debugger(call).load_symbols(pid, path)}


@group.command("memory.regions", "memory", feature="memory", args={"pid": PID})
def memory_regions(call: Call) -> dict[str, Any]:
    return {"memory": debugger(call).memory_regions(call.task().pid)}


# -- watches ----------------------------------------------------------------------------

@group.command("watch.add", "watch.create", writes=True, feature="watch", args={
    "pid": PID, **WHERE, "expr": LOCATION, "length|size": Int(1, MAX_WATCH), "stop": Bool(),
    **FRAME})
def watch_add(call: Call) -> dict[str, Any]:
    pid = controlled_pid(call)
    return {"watch": debugger(call).watch_add(pid, _data_where(call),
                                              call.int("length", None, min=1,
                                                       aliases=("size",)),
                                              stop=call.bool("stop"), owner=owner(call),
                                              frame=frame_of(call))}


def _data_where(call: Call) -> int | str:
    """A data location: `addr` or `symbol` ("counter", "buf+4"); the older form's `expr`."""
    if call.has("expr"):
        expr = call.field("expr")
        return expr if isinstance(expr, str) else call.int("expr", min=0)
    found = where(call)
    if isinstance(found, tuple):
        raise bad_argument("a watch needs an address or a data symbol, not a source line")
    return found


@group.command("watch.remove", "watch.rm", "watch.del", "watch.delete", writes=True,
               feature="watch",
               args={"watch_id|watch": Int(1, MAX_U32)})
def watch_remove(call: Call) -> dict[str, Any]:
    """By `watch_id` (`watch` in the older form, which also named it `id`: that field is
    the request's id in the dotted form)."""
    dbg = debugger(call)
    older = ("watch", "id") if call.args["cmd"] == "watch" else ("watch",)
    watch_id = call.int("watch_id", min=1, aliases=older)
    for watch in dbg.watch_list():
        if watch["id"] == watch_id:
            call.control(watch["pid"])
    return {"watch": dbg.watch_remove(watch_id)}


@group.command("watch.list", "watch", "watch.ls", feature="watch", args={"pid": PID})
def watch_list(call: Call) -> dict[str, Any]:
    pid = call.task().pid if call.has("pid") else None
    return {"watches": debugger(call).watch_list(pid)}
