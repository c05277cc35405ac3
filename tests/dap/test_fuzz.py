"""Random arguments to every request the adapter answers, in a live session: each gets
a response — success, or a message for a person — never a traceback or an "internal
error", and the adapter keeps serving."""
from __future__ import annotations

from execdkit import execd_child
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hsx.dap import handlers  # noqa: F401  (registers the handlers)
from hsx.dap.requests import HANDLERS

# What would end the session or the program under test rather than exercise a handler.
ENDING = {"launch", "attach", "disconnect", "terminate", "continue", "configurationDone"}
COMMANDS = sorted(set(HANDLERS) - ENDING)
FIELDS = ["threadId", "frameId", "variablesReference", "expression", "value", "name",
          "source", "line", "lines", "breakpoints", "memoryReference", "offset", "count",
          "instructionReference", "targetId", "granularity", "context", "text", "column",
          "startFrame", "levels", "dataId", "accessType", "filters", "format",
          "resolveSymbols", "instructionOffset", "instructionCount", "data", "start",
          "condition", "hitCondition", "path"]
SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.integers(0, 2**20)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=24)
           | st.sampled_from(["main", "total", "0x0", "prog.c", "instruction", "repl", "*p"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), inner,
                                        max_size=3), max_leaves=8)
ARGUMENTS = st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=5)


def test_random_arguments_get_answers_not_tracebacks(dap, built, tmp_path):
    executive = execd_child(tmp_path / "execd")       # its own: nothing else shares it
    host, port = next(executive)
    try:
        dap.launch(built / "prog.hxe", (host, port), stopOnEntry=True)
        dap.stopped("entry")

        @settings(max_examples=300, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(command=st.sampled_from(COMMANDS), arguments=ARGUMENTS)
        def answered(command, arguments):
            reply = dap.request(command, **arguments)
            message = reply.get("message") or ""
            assert "Traceback" not in message and "internal error" not in message, \
                (command, arguments, message)

        answered()
        assert dap.ok("threads")["threads"]         # still serving (restart may change the PID)
    finally:
        next(executive, None)
