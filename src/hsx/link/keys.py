"""The numbered words of a board's protocol (docs/wire.md, "Payload"): every field
name, command name and word a board sends or reads, in one table.

A board's CBOR messages name them by number -- a map key is the word's number, a word
as a value is its number under tag 39 ("identifier"), and a code made of a word and a
detail (`pid_locked:3`, `mbx_wouldblock`) is tag 39 over [number, detail] -- so its
firmware carries none of their text; `hsx.client.link.payload` turns numbers into
protocol v1's names and back.  The device's header is generated from this table:

    python -m hsx.link.keys > port/c/hsx_keys.h

(tests/port/test_keys.py fails when they drift), and the table's digest, first in the
board's hello, tells a host whose table differs (an hsx of another version) that the
board must be built again.

Each entry is `ident` (the C name: K_ident) or `ident=text` when the text is not a C
identifier; request fields also name the one CBOR form a board takes (`:uint`, `:bool`,
`:text`, `:bytes`, `:list`).
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass

import hsx

WORD_TAG = 39                   # CBOR tag 39: "identifier" (a word of this table)

# Request fields, first: a board reads a request's fields into slots by these numbers.
REQUEST = (
    'pid:uint', 'addr:uint', 'length:uint', 'space:text', 'data:bytes', 'count:uint',
    'name:text', 'paused:bool', 'stream:uint', 'quantum:uint', 'priority:uint',
    'limit:uint', 'eof:bool', 'op:text', 'recent:bool', 'streams:list', 'client:text',
    'observer:bool', 'pid_lock:list', 'heartbeat_ms:uint', 'auth:uint', 'categories:list',
    'pids:list', 'since_seq:uint', 'seq:uint', 'oid:uint', 'group:uint', 'f16:uint',
    'async:bool', 'breakpoint_id:uint', 'temporary:bool', 'condition:text',
    'max_frames:uint', 'stop:bool', 'watch_id:uint', 'image:bytes', 'size:uint',
    'target:text', 'flags:uint', 'handle:uint', 'channel:uint', 'max_len:uint',
    'rate:uint', 'level:uint', 'program:text', 'session:text', 'cmd:uint',
)
# Command names, in the order of the board's command table.
COMMANDS = (
    'ping', 'info', 'ps', 'load', 'load_begin=load.begin', 'load_write=load.write',
    'load_end=load.end', 'load_abort=load.abort', 'kill', 'pause', 'resume', 'sched',
    'step', 'regs', 'peek', 'poke', 'stdio', 'session_open=session.open',
    'session_keepalive=session.keepalive', 'session_close=session.close',
    'session_list=session.list', 'events_subscribe=events.subscribe',
    'events_unsubscribe=events.unsubscribe', 'events_ack=events.ack', 'val_list=val.list',
    'val_get=val.get', 'val_set=val.set', 'val_stats=val.stats', 'cmd_list=cmd.list',
    'cmd_call=cmd.call', 'cmd_stats=cmd.stats', 'bp_set=bp.set', 'bp_clear=bp.clear',
    'bp_clear_all=bp.clear_all', 'bp_enable=bp.enable', 'bp_disable=bp.disable',
    'bp_list=bp.list', 'run_to=run.to', 'stack_info=stack.info', 'watch_add=watch.add',
    'watch_remove=watch.remove', 'watch_list=watch.list', 'trace_on=trace.on',
    'trace_off=trace.off', 'trace_records=trace.records', 'trace_status=trace.status',
    'jump', 'session_lock=session.lock', 'session_unlock=session.unlock', 'dmesg',
    'clock_status=clock.status', 'clock_start=clock.start', 'clock_stop=clock.stop',
    'clock_rate=clock.rate', 'mailbox_snapshot=mailbox.snapshot',
    'mailbox_open=mailbox.open', 'mailbox_close=mailbox.close', 'send', 'listen',
)
# Reply and event fields, words and error codes.
WORDS = (
    'status', 'ok', 'error', 'field', 'variant_required', 'minimal', 'development', 'full',
    'mbx_status', 'val_status', 'cmd_status', 'category', 'last_seq', 'bad_argument',
    'unknown_cmd', 'unsupported', 'session_required', 'read_only',
    'pid_locked=pid_locked:', 'too_many_sessions', 'not_subscribed', 'seq_evicted',
    'bad_condition', 'out_of_range', 'bad_request', 'bad_frame', 'bad_payload',
    'reply_lost', 'too_long', 'bad_crc', 'unknown_pid', 'task_ended',
    'bad_image=bad_image:', 'too_many_tasks', 'layout', 'image_too_large', 'mailbox_limit',
    'metadata_mailbox', 'app_exists=app_exists:', 'unknown_stream', 'too_many_streams',
    'stdin_full', 'mbx_=mbx_', 'val_=val_', 'cmd_=cmd_', 'unknown_name',
    'unknown_breakpoint', 'too_many_breakpoints', 'unknown_watch', 'too_many_watches',
    'bad_address', 'wouldblock', 'invalid_handle', 'no_data', 'msg_too_large',
    'no_descriptor', 'timeout', 'invalid_argument', 'access_denied', 'static_breakpoint',
    'brk', 'enoent', 'eperm', 'enospc', 'einval', 'eexist', 'ebusy', 'enoasync', 'efail',
    'proto', 'window', 'max_frame', 'variant', 'features', 'boot', 'board', 'hsx_version',
    'server', 'hsx_exec=hsx-exec', 'unknown', 'commands', 'load_stream', 'memory',
    'values', 'debug', 'events', 'stack', 'trace', 'watch', 'observers', 'reply', 'pong',
    'protocol', 'profile', 'uptime_s', 'limits', 'max_tasks', 'task_memory',
    'code_arena', 'max_mailboxes', 'max_values', 'max_commands', 'max_breakpoints',
    'max_watches', 'ring_records=trace_records', 'event_queue', 'max_sessions', 'tasks',
    'current_pid', 'retained', 'selected_pid', 'selected_registers', 'app_name',
    'app_name_base', 'state', 'pc', 'instructions', 'exit_status', 'turns', 'waits',
    'wakes', 'timeouts', 'sleeps', 'input_dropped', 'reg_base', 'stack_base', 'stack_top',
    'sp', 'locked_by', 'fault', 'kind', 'message', 'wait', 'ms', 'registers', 'psw',
    'steps', 'stack_size', 'code_len', 'symbols', 'received', 'aborted', 'task',
    'scheduler', 'queued', 'result', 'executed', 'requested', 'running', 'clock', 'mode',
    'code', 'written', 'output', 'stdout', 'stderr', 'text', 'dropped_chars', 'id',
    'heartbeat_s', 'max_events', 'created_at', 'age_s', 'idle_s', 'sessions', 'closed',
    'PUBLIC', 'USER', 'ADMIN', 'FACTORY', 'token', 'max', 'pending', 'coalesce_ms',
    'delivered', 'drops', 'high_water', 'last_ack', 'filters', 'cursor', 'replayed',
    'unsubscribed', 'type', 'prev_state', 'new_state', 'reason', 'how', 'why', 'old',
    'new', 'changed_by', 'descriptor', 'src_pid', 'caller_pid', 'group_id', 'value_id',
    'old_f16', 'new_f16', 'old_value', 'new_value', 'set', 'warning', 'events_dropped',
    'dropped', 'first_seq', 'subscription', 'task_state', 'debug_break', 'mailbox_send',
    'mailbox_recv', 'value_changed', 'watch_update', 'last_f16', 'last_value',
    'persist_mode', 'save', 'volatile_=volatile', 'subscribers', 'unit', 'epsilon',
    'epsilon_f16', 'rate_ms', 'min', 'min_f16', 'max_f16', 'persist_key', 'debounce_ms',
    'group_name', 'value', 'changed', 'capacity', 'usage_pct', 'stats', 'command',
    'cmd_id', 'owner_pid', 'auth_level', 'handler_addr', 'help', 'breakpoint',
    'breakpoints', 'address', 'symbol', 'offset', 'location', 'file', 'line', 'hits',
    'enabled', 'owner', 'remembered', 'cleared', 'frames', 'index', 'fp', 'truncated',
    'note', 'warnings', 'watches', 'format', 'trace_format=hsx.trace/1', 'returned',
    'records', 'nan', 'inf', 'minus_inf=-inf', 'size_clamped=size_clamped:', 'mailbox',
    'rate_hz', 'stopped', 'not_stopped', 'logs', 'descriptors', 'descriptor_id',
    'namespace', 'mode_mask', 'queue_depth', 'bytes_used', 'next_seq', 'handles',
    'waiters', 'max_descriptors', 'active_descriptors', 'woke', 'tap', 'event',
    'unknown_handle', 'killed', 'too_many_handles', 'messages', 'overrun',)


@dataclass(frozen=True)
class Key:
    ident: str                  # the C name (K_ident)
    text: str                   # as protocol v1 spells it
    form: str | None = None     # a request field's CBOR form


def _parse(entry: str) -> Key:
    entry, _, form = entry.partition(":") if entry.count(":") == 1 and "=" not in entry \
        else (entry, "", "")
    ident, _, text = entry.partition("=")
    return Key(ident, text or ident, form or None)


KEYS = tuple(_parse(e) for e in (*REQUEST, *COMMANDS, *WORDS))
TEXTS = tuple(k.text for k in KEYS)
NUMBERS = {text: number for number, text in enumerate(TEXTS)}
FIRST_COMMAND = len(REQUEST)
FIRST_WORD = FIRST_COMMAND + len(COMMANDS)
DIGEST = zlib.crc32("\n".join(f"{k.text}:{k.form or ''}" for k in KEYS).encode())
FORMS = {"uint": "A_UINT", "bool": "A_BOOL", "text": "A_TEXT", "bytes": "A_BYTES",
         "list": "A_LIST"}


def command_number(name: str) -> int | None:
    """A command's number (its canonical name), or None when a board has no such command."""
    number = NUMBERS.get(name)
    return number if number is not None and FIRST_COMMAND <= number < FIRST_WORD else None


def c_header() -> str:
    """port/c/hsx_keys.h: the numbers as an enum, the request fields' forms."""
    lines = [
        "/* HSX C executive: the numbered words of the protocol (docs/wire.md, \"Payload\").",
        " *",
        " * GENERATED from hsx.link.keys: python -m hsx.link.keys > port/c/hsx_keys.h",
        " * A map key is a word's number; a word as a value is its number under CBOR tag 39;",
        " * the firmware holds no text of them (hsx.client names them).",
        " */",
        "#ifndef HSX_KEYS_H", "#define HSX_KEYS_H", "",
        f"#define HSX_VERSION \"{hsx.__version__}\"    /* hsx.__version__ */",
        f"#define HSX_KEYS_DIGEST 0x{DIGEST:08X}u   /* first in the hello: the host checks it */",
        f"#define HSX_WORD_TAG {WORD_TAG}",
        "",
        "/* The form of a request field (hsx_call.arg): */",
        "#define A_UINT 1            /* an unsigned integer (above 32 bits: 0xFFFFFFFF) */",
        "#define A_BOOL 2            /* true or false */",
        "#define A_TEXT 3            /* a text string: its bytes and length */",
        "#define A_BYTES 4           /* a byte string: its bytes and length */",
        "#define A_LIST 5            /* an array (or one item standing for a list of one) */",
        "",
        "enum hsx_key {",
    ]
    for number, key in enumerate(KEYS):
        if number in (0, FIRST_COMMAND, FIRST_WORD):
            lines.append(["    /* request fields */", "    /* commands */",
                          "    /* reply and event fields, words, error codes */"][
                (0, FIRST_COMMAND, FIRST_WORD).index(number)])
        lines.append(f"    K_{key.ident},{' ' * max(1, 26 - len(key.ident))}/* {number}: {key.text} */")
    lines += ["    HSX_KEYS", "};", "",
              "#define HSX_ARGS K_" + KEYS[FIRST_COMMAND].ident +
              "             /* the request fields come first */",
              "#define HSX_FIRST_COMMAND K_" + KEYS[FIRST_COMMAND].ident,
              "#define HSX_COMMANDS (K_" + KEYS[FIRST_WORD].ident + " - K_" +
              KEYS[FIRST_COMMAND].ident + ")",
              "/* the forms of the request fields, by number */",
              "#define HSX_ARG_FORMS { \\", *_wrapped([FORMS[k.form] for k in KEYS[:FIRST_COMMAND]]),
              "}", "", "#endif", ""]
    return "\n".join(lines)


def _wrapped(items: list[str], width: int = 88) -> list[str]:
    """`items` as lines of a C initializer continued with backslashes."""
    lines, line = [], "   "
    for item in items:
        if len(line) + len(item) + 2 > width:
            lines.append(line + " \\")
            line = "   "
        line += f" {item},"
    return [*lines, line + " \\"]


if __name__ == "__main__":
    print(c_header(), end="")
