"""The one error the debug layer raises to its caller.

It is a `KernelError`, so the protocol server turns it into an error reply with the
same stable `code` as every other refused request, without knowing about the debugger.
"""
from __future__ import annotations

from hsx.kernel.errors import KernelError

# Stable codes (clients branch on them; docs/debugger.md lists their meaning).
UNKNOWN_PID = "unknown_pid"
TASK_ENDED = "task_ended"
BAD_ADDRESS = "bad_address"
UNKNOWN_SYMBOL = "unknown_symbol"
NO_SYMBOLS = "no_symbols"
NO_LINE_INFO = "no_line_info"
NO_CODE_FOR_LINE = "no_code_for_line"
NO_SOURCE = "no_source"
BAD_CONDITION = "bad_condition"
BAD_EXPRESSION = "bad_expression"
UNKNOWN_BREAKPOINT = "unknown_breakpoint"
STATIC_BREAKPOINT = "static_breakpoint"
UNKNOWN_WATCH = "unknown_watch"
TOO_MANY_BREAKPOINTS = "too_many_breakpoints"
TOO_MANY_WATCHES = "too_many_watches"
OUT_OF_RANGE = "out_of_range"
BAD_ARGUMENT = "bad_argument"
OUTERMOST_FRAME = "outermost_frame"
OUTSIDE_FUNCTION = "outside_function"
NOT_STOPPED = "not_stopped"
NOT_RECORDING = "not_recording"
HISTORY_START = "history_start"
SYMBOL_FILE = "symbol_file"
TRACE_FILE = "trace_file"
STORE = "debug_store"


class DebugError(KernelError):
    """A debugger request that cannot be carried out; `code` is one of the constants above."""


def quoted(text: object, limit: int = 80) -> str:
    """`text` as repr, shortened: messages quote what the client sent, never all of it."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit - 4] + "...'"
