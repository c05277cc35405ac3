"""Requests as a board takes them, and the words of a board's errors (docs/wire.md,
"Requests" and "Errors").

A board's protocol module takes only canonical requests, so that it stays small: the
command's own name (no alias, no `{cmd, op}` form), each field under its own name, numbers
as integers, booleans as booleans, bytes as byte strings, lists as lists. `board_request`
makes one from anything `hsx execd` accepts, with the server's own command table and
argument schemas: a field execd would refuse is refused here, in execd's words, and
never sent. What only the host can do is done here too: a symbol or a source line is the
gateway's business, a `path` is read on the host, a `value` becomes its f16 bits.

A board's error replies carry a code and the fields that say what was wrong (`field`,
`variant_required`, ...), not a message: `explain` words it from them and the request.
"""
from __future__ import annotations

import functools
from typing import Any

from hsx.isa.f16 import float_to_f16
from hsx.server.errors import bad_argument
from hsx.server.schema import ENVELOPE

BOARD_STEPS = 10_000             # a board steps at most this many instructions per request
BOARD_LOCKS = 4                  # PIDs a board locks in a session, or filters in a clause
_SYMBOLIC = ("symbol", "file", "line")
_RESOLVE = ("'{}' names a symbol or a source line: the host resolves those (hsx.client's "
            "gateway does); send an address")


@functools.lru_cache(maxsize=None)
def _dispatcher() -> Any:
    from hsx.server.dispatch import Dispatcher
    from hsx.server.handlers import GROUPS
    return Dispatcher(GROUPS)


def board_request(message: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a protocol v1 request for a board; RequestError as hsx execd
    would refuse it (or as only a board must: a symbol, a path)."""
    from hsx.server.framing import _check_envelope

    request = dict(message)
    _check_envelope(request)                      # version, cmd (lower-cased), session
    command = _dispatcher().resolve(request)
    binary = {k: v for k, v in request.items() if isinstance(v, (bytes, bytearray))}
    checked = command.arguments({k: v for k, v in request.items() if k not in binary})
    out: dict[str, Any] = {"cmd": command.name}
    if request.get("session") is not None:
        out["session"] = request["session"]
    spellings = command.schema.spellings if command.schema is not None else []
    for names, _ in spellings:
        for name in names.split("|"):
            value = binary.get(name, checked.get(name))
            if value is not None:
                out[names.split("|")[0]] = value
                break
    declared = {n for names, _ in spellings for n in names.split("|")}
    out.update((k, v) for k, v in request.items()        # what nobody reads goes as it is
               if k not in declared and k not in ENVELOPE and v is not None)
    return _FOR_A_BOARD.get(command.name, _unchanged)(out)


def _unchanged(fields: dict[str, Any]) -> dict[str, Any]:
    return fields


def _located(fields: dict[str, Any]) -> dict[str, Any]:
    """bp.set, bp.clear, run.to, watch.add: an address, never a symbol or a line."""
    for key in _SYMBOLIC:
        if key in fields:
            raise bad_argument(_RESOLVE.format(key))
    if "expr" in fields:                          # watch.add's other spelling
        fields.setdefault("addr", fields.pop("expr"))
    if isinstance(fields.get("addr"), str):
        raise bad_argument(_RESOLVE.format("addr"))
    return fields


def _load(fields: dict[str, Any]) -> dict[str, Any]:
    if "path" in fields:
        raise bad_argument("a board has no files to load from: send the image's bytes "
                           "('image', or a streamed load; hsx.client does this for a path)")
    fields.pop("cc", None)
    return fields


def _session_open(fields: dict[str, Any]) -> dict[str, Any]:
    from hsx.server.sessions import _auth

    if "heartbeat_s" in fields:
        fields["heartbeat_ms"] = int(fields.pop("heartbeat_s") * 1000)
    if "auth" in fields:
        fields["auth"] = int(_auth(fields["auth"]))
    fields.pop("capabilities", None)
    if "pid_lock" in fields:
        fields["pid_lock"] = list(dict.fromkeys(fields["pid_lock"]))
    return fields


# the event types a board emits (port/c/hsx_proto_events.c)
BOARD_EVENTS = ("task_state", "debug_break", "fault", "stdout", "stderr", "mailbox_send",
                "mailbox_recv", "value_changed", "watch_update", "dmesg")


def _subscribe(fields: dict[str, Any]) -> dict[str, Any]:
    """The board's event types each category names (a type, or a prefix of types, as
    hsx execd matches them; none given: execd's default set)."""
    from hsx.kernel.events import type_matches
    from hsx.server.subscriptions import check_categories

    nested = fields.pop("filters", None) or {}
    for key in ("pids", "categories", "since_seq"):
        value = nested.get(key, nested.get("pid") if key == "pids" else None)
        if value is not None:
            fields[key] = value
    categories = check_categories(fields.get("categories"))
    fields["categories"] = [t for t in BOARD_EVENTS if type_matches(t, categories)]
    fields.pop("coalesce_ms", None)
    return fields


def _stdio(fields: dict[str, Any]) -> dict[str, Any]:
    if isinstance(fields.get("pid"), list):       # a filter of PIDs
        fields["pids"] = fields.pop("pid")
    return fields


def _pid_list(fields: dict[str, Any]) -> dict[str, Any]:
    """session.lock / unlock: the PIDs as the list a board reads (`pid_lock`)."""
    pids = fields.pop("pid", None)
    if pids is not None:
        fields["pid_lock"] = list(dict.fromkeys(pids if isinstance(pids, list) else [pids]))
    return fields


def _dmesg(fields: dict[str, Any]) -> dict[str, Any]:
    from hsx.server.dmesg import LEVELS

    if "level" in fields:
        fields["level"] = LEVELS.index(fields["level"])
    if fields.pop("filter_session", None) is not None:
        raise bad_argument("a board's log names no sessions: leave out 'filter_session'")
    return fields


def _mailbox_open(fields: dict[str, Any]) -> dict[str, Any]:
    from hsx.server.handlers.mailbox import _MODES

    tap = bool(fields.pop("tap", False))
    mode = fields.pop("mode", "r" if tap else "rw")
    fields["flags"] = int(_MODES[mode]) | (4 if tap else 0)
    return fields


def _send(fields: dict[str, Any]) -> dict[str, Any]:
    """The older forms: a target in `channel`, a task's stdin by `pid`."""
    channel = fields.get("channel")
    if isinstance(channel, str):
        if channel.strip().isdigit():
            fields["channel"] = int(channel)
        else:
            fields.setdefault("target", fields.pop("channel"))
    pid = fields.pop("pid", None)
    if "handle" not in fields and "target" not in fields and pid is not None:
        fields["target"] = f"svc:stdio.in@{pid}"
    return fields


def _clock_rate(fields: dict[str, Any]) -> dict[str, Any]:
    rate = fields.pop("rate", fields.pop("hz", None))
    if rate is not None:
        fields["rate"] = int(round(rate))
    return fields


def _val_set(fields: dict[str, Any]) -> dict[str, Any]:
    value = fields.pop("value", None)
    if "f16" not in fields and value is not None:
        fields["f16"] = float_to_f16(float(value))
    fields.pop("pin", None)
    return fields


def _without(*keys: str):
    def drop(fields: dict[str, Any]) -> dict[str, Any]:
        for key in keys:
            fields.pop(key, None)
        return fields
    return drop


_FOR_A_BOARD = {
    "bp.set": _located, "bp.clear": _located, "run.to": _located, "watch.add": _located,
    "jump": _located, "load": _load, "session.open": _session_open,
    "events.subscribe": _subscribe, "stdio": _stdio, "val.set": _val_set,
    "cmd.call": _without("pin"), "session.lock": _pid_list, "session.unlock": _pid_list,
    "dmesg": _dmesg, "mailbox.open": _mailbox_open, "send": _send, "clock.rate": _clock_rate,
}

# -- the words of a board's errors ------------------------------------------------------------

_WORDS = {
    "bad_request": "a request needs 'cmd', a command name",
    "read_only": "an observer session cannot change anything",
    "task_ended": "the task has ended",
    "too_many_tasks": "the board's task limit is reached",
    "layout": "the image does not fit a task's memory",
    "image_too_large": "no room in the board's code arena",
    "mailbox_limit": "no mailbox left for the image",
    "metadata_mailbox": "the image's .mailbox was refused",
    "unknown_stream": "no such streamed load",
    "too_many_streams": "too many streamed loads open",
    "stdin_full": "the task's stdin is full",
    "unknown_breakpoint": "no breakpoint with that id",
    "too_many_breakpoints": "the board's breakpoints are all in use",
    "unknown_watch": "no watch with that id",
    "too_many_watches": "the board's watches are all in use",
    "bad_address": "not the start of an instruction",
    "too_many_sessions": "the board's sessions are all in use: close one first",
    "not_subscribed": "events.ack without a subscription",
    "seq_evicted": "a board keeps no event history: subscribe without 'since_seq' after "
                   "fetching the state afresh",
    "bad_condition": "a board does not evaluate breakpoint conditions: the host's gateway does",
    "out_of_range": "the watched range is outside the task's memory",
    "static_breakpoint": "the breakpoint is a BRK instruction in the code: disable it instead",
    "not_stopped": "the task is not paused where it runs: pause it first (a task blocked in "
                   "a wait cannot jump)",
    "unknown_handle": "that handle was not opened by this host (mailbox.open)",
    "too_many_handles": "the board keeps few mailbox handles for the host: close one first",
}
_PREFIXED = {
    "pid_locked:": "pid {} is locked by another session",
    "bad_image:": "not a valid HXE image: {}",
    "app_exists:": "one instance only, and it runs: {}",
    "mbx_": "mailbox status {}",
    "val_": "value status {}",
    "cmd_": "command status {}",
}
# bad_argument naming a field the request has: what the board refused (by command, field)
_REFUSED = {
    ("peek", "addr"): "the range is outside the task's memory",
    ("poke", "addr"): "the range is outside the task's memory",
    ("stdio", "data"): "empty stdin write: use 'eof': true to end the input",
    ("stdio", "streams"): "'streams' names no stream",
    ("events.subscribe", "pids"): f"a board filters at most {BOARD_LOCKS} pids",
    ("stdio", "pids"): f"a board filters at most {BOARD_LOCKS} pids",
    ("cmd.call", "async"): "host calls are synchronous: the reply carries the result",
}
_REQUIRED = {"oid": "'oid' or 'name'", "f16": "a numeric 'value' (or 'f16' bits)"}


def explain(reply: dict[str, Any], request: dict[str, Any] | None,
            hello: dict[str, Any] | None) -> dict[str, Any]:
    """The reply, with a `message` for a board's error reply that has none."""
    if reply.get("status") != "error" or reply.get("message"):
        return reply
    return {**reply, "message": _message(reply, request or {}, hello or {})}


def _message(reply: dict[str, Any], request: dict[str, Any], hello: dict[str, Any]) -> str:
    code = str(reply.get("error", ""))
    cmd = str(request.get("cmd", "request"))
    if code == "bad_argument":
        return _bad_argument(reply.get("field"), cmd, request)
    if code == "unsupported":
        return _unsupported(reply.get("variant_required"), cmd, request, hello)
    if code == "unknown_cmd":
        return f"the board has no command '{cmd}'"
    if code == "unknown_pid":
        return f"no task with pid {request.get('pid')}"
    if code == "unknown_name":
        return f"no entry is named '{request.get('name')}'"
    if code == "session_required":
        return ("unknown or expired session" if request.get("session") is not None
                else f"{cmd} needs a 'session'")
    if code in _WORDS:
        return _WORDS[code]
    for prefix, words in _PREFIXED.items():
        if code.startswith(prefix):
            return words.format(code[len(prefix):])
    return code.replace("_", " ")


def _bad_argument(field: Any, cmd: str, request: dict[str, Any]) -> str:
    if not isinstance(field, str):
        return f"{cmd} was refused by the board"
    if field not in request:
        return f"{cmd} requires {_REQUIRED.get(field, repr(field))}"
    if (cmd, field) in _REFUSED:
        return _REFUSED[(cmd, field)]
    if cmd == "step" and field == "count":
        return (f"a board steps at most {BOARD_STEPS} instructions before it replies: use "
                "run.to, or resume and pause" if "pid" in request else
                "'count' must be an integer 1..1000000000")
    if cmd == "session.open" and field == "pid_lock":
        return ("an observer session cannot lock pids" if request.get("observer")
                else f"a board locks at most {BOARD_LOCKS} pids in a session")
    return f"'{field}' is out of the board's range ({request[field]!r})"


def _unsupported(variant: Any, cmd: str, request: dict[str, Any], hello: dict[str, Any]) -> str:
    runs = f"; this board runs {hello.get('variant', 'another variant')}"
    needs = "the full variant" if variant == "full" else "the development or full variant"
    if cmd == "stdio":
        return (f"stdio subscribes to output events, which need {needs}{runs} "
                "(stdio op=recent reads what tasks wrote)")
    if cmd == "session.open" and request.get("observer"):
        return f"observer sessions need {needs}{runs}"
    return f"{cmd} needs {needs}{runs}"
