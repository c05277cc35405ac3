"""The commands: one row each, with their arguments, help and an example.

Names are the shell's; aliases include the protocol's names and gdb's words, so a user
of either finds them.  Everything else on a line that is not a command here is sent as
a protocol command (`NAME field=value ...`).
"""
from __future__ import annotations

from . import plans
from .parse import Table
from .syntax import (BREAKPOINT, CATEGORY, CODE, COMMAND_ID, COMMAND_NAME, DATA, EXPR, FLAG,
                     HEX, INT, MAILBOX, MEMORY_BYTES, NUMBER, PATH, PID, REGISTER,
                     REMOTE_PATH, STACK_BYTES, TARGET, TEXT, VALUE, WATCH, WORDS, Arg, Command,
                     Request, UsageError)

PID_ARG = Arg("pid", PID)
ANY_PID = Arg("pid", PID, optional=True, help="one task (default: all)")


def C(name: str, summary: str, *args: Arg, **kw) -> Command:
    return Command(name, summary, args, **kw)


def _history(invocation):
    """record PID on|off|status -> history.*"""
    op = invocation.values.get("op", "status")
    fields = {"pid": invocation.values["pid"]}
    if op == "on" and "budget_mb" in invocation.values:
        fields["budget_mb"] = invocation.values["budget_mb"]
    return (yield Request(f"history.{op}", fields))


def _trace(invocation):
    """trace PID on|off|status|records|export -> trace.*"""
    op = invocation.values.get("op", "status")
    fields = {"pid": invocation.values["pid"], **invocation.extra}
    if op in ("records", "export") and "limit" in invocation.values:
        fields["limit"] = invocation.values["limit"]
    return (yield Request(f"trace.{op}", fields))


def _timeline(invocation):
    """timeline start|stop|status|export PATH -> timeline.*"""
    op = invocation.values.get("op", "status")
    fields = dict(invocation.extra)
    if op == "export":
        if "path" not in invocation.values:
            raise UsageError("timeline export needs the file to write", invocation.command.usage)
        fields["path"] = invocation.values["path"]
    return (yield Request(f"timeline.{op}", fields))


def _stdin(invocation):
    """stdin PID TEXT [-n] [--eof]: TEXT as a line (a newline is added unless it ends
    with one, or -n), then the end of the input with --eof."""
    values = invocation.values
    pid, text, eof = values["pid"], values.get("data"), values.get("eof", False)
    if text is not None and not values.get("no_newline") and not text.endswith("\n"):
        text += "\n"
    if not text and not eof:
        raise UsageError("stdin -n with no TEXT writes nothing (--eof ends the input)",
                         invocation.command.usage)
    written = (yield Request("stdio", {"pid": pid, "data": text}))["written"] if text else 0
    if eof:
        yield Request("stdio", {"pid": pid, "eof": True})
    return {"pid": pid, "written": written, "eof": eof}


OPT_LEVELS = ("0", "1", "2", "3", "s", "z")        # hsx cc's -O (the executive checks too)
CC_FIELDS = ("opt", "debug", "include", "define")


def _load(invocation):
    """load PATH [-O LEVEL] [-g] [-I DIR] [-D MACRO]: a .c is built with -g, and -O0
    unless told (what a debugging console wants); the options are for a .c only."""
    fields = invocation.fields()
    compiler = {key: fields.pop(key) for key in CC_FIELDS if key in fields}
    if fields["path"].lower().endswith(".c"):
        fields["cc"] = {"opt": "0", **compiler, "debug": True}
    elif compiler:
        raise UsageError(f"-O, -g, -I and -D are for a .c file, not {fields['path']}",
                         invocation.command.usage)
    return (yield Request("load", fields))


def _lookup(invocation):
    """sym PID ADDR|NAME: by address (what is there) or by name (where it is)."""
    what = invocation.values["what"]
    key = "addr" if isinstance(what, int) else "name"
    return (yield Request("symbols.lookup", {"pid": invocation.values["pid"],
                                                   key: what, **invocation.extra}))


# the groups `help` shows, by the word `help GROUP` takes
TASKS, RUN, BREAK, LOOK, VARS = "tasks", "run", "breakpoints", "inspect", "variables"
MAIL, VALS, SESS, SHELL = "mailboxes", "values", "sessions", "console"
GROUPS = {TASKS: "Tasks", RUN: "Run control", BREAK: "Breakpoints and watches",
          LOOK: "Inspecting a task", VARS: "Variables (C built with -g)",
          MAIL: "Mailboxes and stdio", VALS: "Values and commands",
          SESS: "Sessions and events", SHELL: "The console"}

COMMANDS = [
    # ---------------------------------------------------------------- tasks
    C("ps", "List the tasks (or one).", ANY_PID, cmd="ps", aliases=("list_tasks", "tasks"),
      examples=("ps", "ps 2"), group=TASKS, view="tasks", current=False),
    C("info", "The executive: version, limits, clock, sessions (with PID: its registers).",
      ANY_PID, cmd="info", examples=("info",), group=TASKS, view="info", current=False),
    C("load", "Load an image (.hxe, or .mvasm/.c built on the fly) as a new task.",
      Arg("path", PATH),
      Arg("paused", FLAG, flag=True, help="pause before its first instruction"),
      Arg("level", TEXT, option="-O", field="opt", choices=OPT_LEVELS,
          help="a .c: optimisation, 0 (the default here), 1, 2, 3, s or z"),
      Arg("debug", FLAG, flag=True, short="-g", help="a .c: debug information (always here)"),
      Arg("dir", PATH, option="-I", field="include", repeat=True,
          help="a .c: an include directory"),
      Arg("macro", TEXT, option="-D", field="define", repeat=True,
          help="a .c: define NAME or NAME=VALUE"),
      Arg("name", TEXT, optional=True, help="app name"),
      Arg("stack_size", STACK_BYTES, optional=True, named=True, help="bytes of stack"),
      Arg("memory", MEMORY_BYTES, optional=True, named=True, help="bytes of task memory"),
      Arg("env", TEXT, optional=True, named=True, repeat=True,
          help="NAME=VALUE the program's getenv sees (repeatable)"),
      Arg("args", WORDS, optional=True, keyword="--", help="the program's arguments"),
      plan=_load, aliases=("exec",),
      examples=("load examples/mvasm/hello.mvasm", "load prog.c --paused",
                "load prog.c -O2 -I include -D LIMIT=8",
                "load cat.c stack_size=16K -- notes.txt"),
      details="A .c is built as a debugger wants it, with -g -O0: every line has code "
              "and every\nvariable a home. -O1/-O2 debug the optimised build (hsx run "
              "builds -O2).", group=TASKS, view="load"),
    C("kill", "End a task (killing an ended task removes it from ps).", PID_ARG, cmd="kill",
      confirm="danger", examples=("kill 2",), group=TASKS, view="task"),
    C("pause", "Pause a task, or every task.", ANY_PID, cmd="pause",
      examples=("pause 1", "pause"), group=TASKS, view="task"),
    C("resume", "Resume a task (past a breakpoint), or every task.", ANY_PID, cmd="resume",
      aliases=("continue", "cont", "c"), examples=("resume 1", "c"), group=RUN,
      view="resumed"),
    C("restart", "Load a task's image again (a rebuilt file is picked up) as a new PID.",
      PID_ARG, Arg("paused", FLAG, flag=True), cmd="restart", aliases=("reload",),
      examples=("restart 1 --paused",), group=TASKS, view="load"),
    C("sched", "Scheduler overview, or set a task's quantum and priority.", ANY_PID,
      Arg("quantum", INT, optional=True), Arg("priority", INT, optional=True), cmd="sched",
      examples=("sched", "sched 2 4 20"), group=TASKS, view="sched"),
    C("dmesg", "The executive's log.", Arg("limit", INT, optional=True), cmd="dmesg",
      aliases=("log",), extras=("level", "pid", "filter_session"),
      examples=("dmesg 20", "dmesg level=warning"), group=TASKS, view="logs"),
    C("ping", "Is the executive there?", cmd="ping", examples=("ping",), group=TASKS,
      view="ping"),
    C("shutdown", "Stop the executive (every task is killed).", cmd="shutdown",
      confirm="danger", examples=("shutdown -y",), group=TASKS),
    C("clock", "The auto clock's state.", cmd="clock.status", aliases=("clock status",),
      examples=("clock",), group=RUN, view="clock"),
    C("clock start", "Start the auto clock.", cmd="clock.start", examples=("clock start",),
      group=RUN, view="clock"),
    C("clock stop", "Stop the auto clock (tasks move only by step).", cmd="clock.stop",
      examples=("clock stop",), group=RUN, view="clock"),
    C("clock rate", "Limit the clock to HZ instructions per second (0: unlimited).",
      Arg("rate", INT), cmd="clock.rate", examples=("clock rate 1000",), group=RUN,
      view="clock"),
    C("clock step", "Run COUNT instructions of the scheduler over all ready tasks.",
      Arg("count", INT, optional=True), cmd="step", examples=("clock step 1000",),
      group=RUN, view="step"),
    # ---------------------------------------------------------------- run control
    C("step", "Execute COUNT instructions of a task (default 1), then stop.", PID_ARG,
      Arg("count", INT, optional=True), cmd="step", aliases=("stepi", "si"),
      examples=("step 1", "step 1 10"), group=RUN, view="step"),
    C("next", "Run to the next source line, over calls.", PID_ARG, cmd="step.line",
      aliases=("n", "step.line"), examples=("next 1",), group=RUN, view="started",
      feature="debug"),
    C("into", "Run to the next source line, into calls (gdb's step).", PID_ARG,
      cmd="step.line", fixed={"mode": "into"}, aliases=("s", "stepin"),
      examples=("into 1",), group=RUN, view="started", feature="debug"),
    C("nexti", "One instruction, but a call runs to its return.", PID_ARG, cmd="step.over",
      aliases=("ni", "step.over"), examples=("nexti 1",), group=RUN, view="started",
      feature="debug"),
    C("finish", "Run until the current function returns.", PID_ARG, cmd="step.out",
      aliases=("step.out", "out"), examples=("finish 1",), group=RUN, view="started",
      feature="debug"),
    C("until", "Run until a code location is reached.", PID_ARG,
      Arg("addr", CODE), cmd="run.to",
      aliases=("advance", "run.to", "runto"), examples=("until 1 main", "until 1 prog.c:12"),
      group=RUN, view="started", feature="debug"),
    C("jump", "Move a paused task's PC to a line or address of the function it is in "
      "(nothing runs).", PID_ARG, Arg("addr", CODE), cmd="jump",
      examples=("jump 1 prog.c:12", "jump 1 main+8"), group=RUN, view="jumped", feature="debug"),
    C("back", "Step back one instruction (or `line`) in a recorded task.", PID_ARG,
      Arg("unit", TEXT, optional=True, choices=("instruction", "line")), cmd="step.back",
      aliases=("step.back", "reverse-step"), examples=("back 1", "back 1 line"), group=RUN,
      view="started", feature="reverse"),
    C("back continue", "Run back to the latest breakpoint hit (or the history's start).",
      PID_ARG, cmd="continue.back", aliases=("continue.back", "reverse-continue", "rc"),
      examples=("back continue 1",), group=RUN, view="started", feature="reverse"),
    C("record", "Record a task (on), stop (off), or show its history (status).", PID_ARG,
      Arg("op", TEXT, optional=True, choices=("on", "off", "status")),
      Arg("budget_mb", INT, optional=True), plan=_history,
      aliases=("history",), examples=("record 1 on", "record 1 status"), group=RUN,
      view="history", feature="reverse"),
    # ---------------------------------------------------------------- breakpoints, watches
    C("bp", "List breakpoints (of one task, or all).", ANY_PID, cmd="bp.list",
      aliases=("bp list", "bp ls", "breakpoints", "bp.list", "info breakpoints"),
      examples=("bp", "bp list 1"), group=BREAK, view="breakpoints", feature="debug"),
    C("bp set", "Set a breakpoint at an address, symbol or file:line, with a condition.",
      PID_ARG, Arg("addr", CODE),
      Arg("condition", EXPR, optional=True, rest=True, keyword="if"),
      Arg("temporary", FLAG, flag=True, help="removed at its first hit"), cmd="bp.set",
      aliases=("break", "b", "bp add", "bp.set"),
      examples=("bp set 1 main", "break 1 prog.c:12", "bp set 1 loop if R1 == 5"),
      group=BREAK, view="breakpoint", feature="debug"),
    C("bp clear", "Remove a breakpoint by id.", Arg("breakpoint_id", BREAKPOINT),
      cmd="bp.clear", aliases=("delete", "d", "bp rm", "bp del", "bp.clear"),
      examples=("bp clear 3",), group=BREAK, view="cleared", feature="debug"),
    C("bp clearall", "Remove every breakpoint of a task (not its BRKs).", PID_ARG,
      cmd="bp.clear_all", aliases=("bp clear_all", "bp.clear_all"),
      examples=("bp clearall 1",), group=BREAK, view="cleared", feature="debug"),
    C("bp enable", "Enable a breakpoint.", Arg("breakpoint_id", BREAKPOINT),
      cmd="bp.enable", aliases=("enable", "bp.enable"), examples=("bp enable 3",),
      group=BREAK, view="breakpoint", feature="debug"),
    C("bp disable", "Disable a breakpoint (a disabled BRK does not stop its task).",
      Arg("breakpoint_id", BREAKPOINT), cmd="bp.disable", aliases=("disable", "bp.disable"),
      examples=("bp disable 3",), group=BREAK, view="breakpoint", feature="debug"),
    C("watch", "List watches (of one task, or all).", ANY_PID, cmd="watch.list",
      aliases=("watch list", "watch ls", "watches", "watch.list"),
      examples=("watch", "watch list 1"), group=BREAK, view="watches", feature="watch"),
    C("watch add", "Watch the bytes a symbol, address, register or C expression names.",
      PID_ARG, Arg("expr", DATA, help="symbol, address or C expression"),
      Arg("length", INT, optional=True),
      Arg("stop", FLAG, flag=True, help="stop the task when they change"),
      plan=plans.watch_add, aliases=("watch.add",),
      examples=("watch add 1 counter", "watch add 1 buf+4 2 --stop"), group=BREAK,
      view="watch", feature="watch"),
    C("watch rm", "Remove a watch by id.", Arg("watch_id", WATCH), cmd="watch.remove",
      aliases=("watch remove", "watch del", "watch.remove"), examples=("watch rm 1",),
      group=BREAK, view="watch", feature="watch"),
    # ---------------------------------------------------------------- inspect
    C("regs", "A task's registers, with the flags decoded.", PID_ARG, plan=plans.registers,
      aliases=("registers", "dumpregs", "info registers"), examples=("regs 1",), group=LOOK,
      view="registers"),
    C("stack", "A task's call stack, innermost first, with source lines.", PID_ARG,
      Arg("max_frames", INT, optional=True), plan=plans.stack,
      aliases=("bt", "backtrace", "where", "stack.info"), examples=("stack 1", "bt 1 4"),
      group=LOOK, view="stack", feature="stack"),
    C("disasm", "Disassemble around the PC, or at a code location.", PID_ARG,
      Arg("addr", CODE, optional=True), Arg("count", INT, optional=True), cmd="disasm.read",
      aliases=("dis", "disassemble", "disasm.read"), extras=("mode",),
      examples=("disasm 1", "disasm 1 main 8", "disasm 1 0x40 4 mode=from"), group=LOOK,
      view="disasm", feature="disasm"),
    C("list", "Source lines around the PC, or a function or file:line (read where the "
      "executive runs).", PID_ARG, Arg("addr", CODE, optional=True), plan=plans.list_source,
      aliases=("l", "source"), examples=("list 1", "list 1 main", "list 1 prog.c:20"),
      group=LOOK, view="listing", feature="symbols"),
    C("peek", "Memory as hex and ASCII, at an address, symbol, register or expression.",
      PID_ARG, Arg("addr", DATA), Arg("length", INT, optional=True), plan=plans.peek,
      aliases=("mem.read", "read_mem", "mem"), extras=("space",),
      examples=("peek 1 0x4000", "peek 1 counter 32", "peek 1 SP 64", "peek 1 0 16 space=code"),
      group=LOOK, view="memory"),
    C("x", "Examine memory gdb-style: x/COUNT FORMAT UNIT (x d u o t c s i; b h w g).",
      PID_ARG, Arg("addr", DATA), plan=plans.examine, formats=True, extras=("space",),
      examples=("x/16xb 1 counter", "x/4dw 1 SP", "x/s 1 msg", "x/8i 1 main"), group=LOOK,
      view="memory"),
    C("poke", "Write hex bytes into a task's memory.", PID_ARG, Arg("addr", DATA),
      Arg("data", HEX, rest=True), plan=plans.poke,
      aliases=("mem.write", "write_mem"), confirm="write",
      examples=("poke 1 counter 2a000000", "poke 1 0x4000 de ad be ef"), group=LOOK,
      view="written"),
    C("reg", "Set a register (R0..R15, SP, FP, PC, PSW) to a value or expression.", PID_ARG,
      Arg("register", REGISTER), Arg("value", EXPR, rest=True), plan=plans.set_register,
      aliases=("setreg",), confirm="write", examples=("reg 1 R3 42", "reg 1 PC main"),
      group=LOOK, view="value", feature="expressions"),
    C("memory", "A task's memory map: code, data sections, heap, stack, registers.", PID_ARG,
      cmd="memory.regions", aliases=("regions", "memory.regions", "map"),
      examples=("memory 1",), group=LOOK, view="regions"),
    C("symbols", "A task's symbols (functions, variables or all).", PID_ARG,
      Arg("type", TEXT, optional=True, choices=("all", "functions", "variables")),
      cmd="symbols.list", aliases=("symbols.list",), examples=("symbols 1 functions",),
      group=LOOK, view="symbols", feature="symbols"),
    C("sym", "What is at an address (function, line, label), or where a symbol is.", PID_ARG,
      Arg("what", CODE), plan=_lookup, aliases=("symbols.lookup", "info symbol"),
      extras=("space",), examples=("sym 1 0x24", "sym 1 counter"), group=LOOK, view="symbol",
      feature="symbols"),
    C("sym load", "Load a .sym file (on the executive's machine) for a task.", PID_ARG,
      Arg("path", REMOTE_PATH), cmd="symbols.load", aliases=("symbols.load",),
      examples=("sym load 1 build/prog.sym",), group=LOOK, view="reply", feature="symbols"),
    C("trace", "Trace a task's instructions (on/off), or show its last records.", PID_ARG,
      Arg("op", TEXT, optional=True, choices=("on", "off", "status", "records", "export")),
      Arg("limit", INT, optional=True), plan=_trace, extras=("path", "size"),
      examples=("trace 1 on", "trace 1 records 20", "trace 1 export"), group=LOOK,
      view="trace", feature="trace"),
    C("timeline", "Record what every task does (start/stop), or write it to a file: Perfetto "
      "(.pftrace), Chrome JSON (.json) or values as signals (.vcd).",
      Arg("op", TEXT, optional=True, choices=("start", "stop", "status", "export")),
      Arg("path", PATH, optional=True), plan=_timeline,
      extras=("format", "values", "size", "instructions"),
      examples=("timeline start", "timeline export run.pftrace", "timeline stop"),
      group=LOOK, view="timeline", feature="timeline"),
    # ---------------------------------------------------------------- variables
    C("locals", "Arguments and locals of a frame (0 = innermost).", PID_ARG,
      Arg("frame", INT, optional=True), cmd="frame.variables", fixed={"scope": "all"},
      aliases=("frame.variables",), examples=("locals 1", "locals 1 2"), group=VARS,
      view="locals", feature="variables"),
    C("vars", "Variables of a frame by scope (all, arguments, locals, globals, registers).",
      PID_ARG, Arg("frame", INT, optional=True),
      Arg("scope", TEXT, optional=True,
          choices=("all", "arguments", "locals", "globals", "registers")),
      cmd="frame.variables", aliases=("variables",), examples=("vars 1 0 globals",),
      group=VARS, view="variables", feature="variables"),
    C("print", "Evaluate a C expression in a task (frame=N for an outer frame).", PID_ARG,
      Arg("expr", EXPR, rest=True), cmd="evaluate", aliases=("p", "eval", "evaluate"),
      extras=("frame",), examples=("print 1 list->head->value", "p 1 buf[2] + 1"),
      group=VARS, view="value", feature="expressions"),
    C("set", "Store a value into a variable, field, element or register.", PID_ARG,
      Arg("assignment", EXPR, rest=True, help="LVALUE = VALUE"), plan=plans.assign,
      aliases=("set var",), confirm="write", extras=("frame",),
      examples=("set 1 total = 5", "set 1 p->next = 0"), group=VARS, view="value",
      feature="expressions"),
    C("expand", "The children of a value (its ref from locals/print).", Arg("ref", INT),
      Arg("start", INT, optional=True), Arg("count", INT, optional=True),
      cmd="variables.expand", aliases=("variables.expand",), examples=("expand 7",),
      group=VARS, view="expanded", feature="variables"),
    # ---------------------------------------------------------------- mailboxes, stdio
    C("mailboxes", "Every mailbox, with depth, owner and mode.", cmd="mailbox.snapshot",
      aliases=("mbox", "mailbox.snapshot", "mailbox_snapshot"), examples=("mailboxes",),
      group=MAIL, view="mailboxes"),
    C("send", "Send text to a mailbox, or to a task's stdin (a PID).",
      Arg("target", TARGET, help="app:name, svc:..., or a PID for its stdin"),
      Arg("data", TEXT, rest=True), cmd="send", aliases=("mailbox.send",),
      extras=("flags", "channel", "data_hex"),
      examples=("send app:chan hello", "send 2 \"line of input\""), group=MAIL,
      view="sent"),
    C("listen", "Take the messages waiting in a mailbox (add tap=true to only look).",
      Arg("target", MAILBOX), Arg("limit", INT, optional=True), cmd="listen",
      aliases=("mailbox.recv",), extras=("max_len", "handle"),
      examples=("listen app:chan", "listen app:chan 20"), group=MAIL, view="messages"),
    C("stdio", "Show what a task wrote lately (stdout, stderr), then its output as it comes.",
      ANY_PID, cmd="stdio", fixed={"recent": True}, extras=("streams",),
      examples=("stdio 2", "stdio"), group=MAIL, view="stdio", feature="events"),
    C("output", "What a task wrote lately (the executive keeps 64 KiB of it per task).",
      ANY_PID, cmd="stdio", fixed={"op": "recent"}, extras=("streams",),
      examples=("output 2", "output"), group=MAIL, view="stdio"),
    C("grant", "Let task TO open task PID's stdio mailboxes (--revoke takes it back).",
      PID_ARG, Arg("to", PID), Arg("revoke", FLAG, flag=True), cmd="grant.stdio",
      aliases=("grant.stdio",), examples=("grant 2 3", "grant 2 3 --revoke"), group=MAIL,
      view="reply"),
    C("stdin", "Write a line to a task's stdin (--eof ends its input).", PID_ARG,
      Arg("text", TEXT, rest=True, field="data", unless="eof",
          help='sent with a newline after it; "..." takes C escapes: "a\\tb\\n"'),
      Arg("no-newline", FLAG, flag=True, short="-n", field="no_newline",
          help="send TEXT as it is, without a newline"),
      Arg("eof", FLAG, flag=True, help="then end the input: reads return 0 from then on"),
      plan=_stdin, examples=("stdin 2 hello", 'stdin 2 "two\\nlines"',
                             "stdin 2 -n partial --eof", "stdin 2 --eof"),
      details="A newline is added unless TEXT ends with one (or -n is given): `stdin 2 "
              "hello`\nsends \"hello\\n\", a line that a program reading lines gets at once.",
      group=MAIL, view="stdin"),
    # ---------------------------------------------------------------- values, commands
    C("values", "The value registry (of one owner task, or all).", ANY_PID, cmd="val.list",
      aliases=("val list", "val.list", "vals"), extras=("group", "name", "oid"),
      examples=("values", "values 2"), group=VALS, view="values"),
    C("val get", "Read a value by name (rpm, motor.rpm) or OID (0x0102).",
      Arg("oid", VALUE), cmd="val.get", aliases=("val.get", "get"),
      examples=("val get motor.rpm", "val get 0x0102"), group=VALS, view="value_one"),
    C("val set", "Set a value (a number or true/false).", Arg("oid", VALUE),
      Arg("value", NUMBER), cmd="val.set", aliases=("val.set",), extras=("pin", "f16"),
      examples=("val set motor.rpm 1200",), group=VALS, view="value_one"),
    C("commands", "The command registry (of one owner task, or all).", ANY_PID,
      cmd="cmd.list", aliases=("cmd list", "cmd.list"), extras=("group", "name", "oid"),
      examples=("commands",), group=VALS, view="commands"),
    C("call", "Run a registered command in its task and show its result.",
      Arg("oid", COMMAND_ID), cmd="cmd.call", aliases=("cmd call", "cmd.call"),
      extras=("pin",), examples=("call motor.reset",), group=VALS, view="called"),
    # ---------------------------------------------------------------- sessions, events
    C("sessions", "The sessions connected to the executive.", cmd="session.list",
      aliases=("session list", "session.list"), examples=("sessions",), group=SESS,
      view="sessions"),
    C("session open", "Open a session (later commands act as it); --lock PIDs.",
      Arg("client", TEXT, optional=True), cmd="session.open",
      extras=("pid_lock", "observer", "heartbeat_s", "auth"), aliases=("session.open",),
      examples=("session open", "session open me pid_lock=2"), group=SESS, view="session"),
    C("session close", "Close this console's session (its locks and breakpoints go).",
      cmd="session.close", aliases=("session.close",), examples=("session close",),
      group=SESS, view="reply"),
    C("lock", "Own a task (others can no longer change it); needs a session.", PID_ARG,
      cmd="session.lock", aliases=("session.lock",), examples=("lock 2",), group=SESS,
      view="session"),
    C("unlock", "Release a task you own.", PID_ARG, cmd="session.unlock",
      aliases=("session.unlock",), examples=("unlock 2",), group=SESS, view="session"),
    C("events", "Which live events are shown; turn a category on or off, for all or one PID.",
      Arg("switch", TEXT, optional=True, choices=("on", "off")),
      Arg("category", CATEGORY, optional=True), Arg("pid", PID, optional=True), local=True,
      examples=("events", "events off stdout", "events on stdout 2", "events off all"),
      group=SESS, view="events", feature="events"),
    # ---------------------------------------------------------------- the console itself
    C("help", "The groups of commands, a group's commands, every command (all), or one "
      "command with its usage and examples.",
      Arg("command", COMMAND_NAME, optional=True, rest=True, help="a command, a group or all"),
      local=True, aliases=("?",), examples=("help", "help run", "help peek", "help all"),
      group=SHELL, view="help"),
    C("use", "Make PID the current task (commands may then leave it out); `use` alone "
      "forgets it.", Arg("pid", PID, optional=True), local=True, examples=("use 2", "use"),
      group=SHELL, view="use", current=False),
    C("wait", "Wait until a task stops (breakpoint, step, fault, end), at most SECONDS.",
      PID_ARG, Arg("seconds", NUMBER, optional=True), local=True,
      examples=("wait 1", "wait 1 5"), group=SHELL, view="stopped"),
    C("quit", "Leave the console.", local=True, aliases=("exit",), examples=("quit",),
      group=SHELL),
]


TABLE = Table(COMMANDS, GROUPS)
