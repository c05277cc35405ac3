"""Executive errors in words for the person at the editor (never a traceback)."""
from __future__ import annotations

from hsx.client import ConnectionClosed, ProtocolError


def explain(error: BaseException) -> str:
    if isinstance(error, ProtocolError):
        code = error.code
        if code.startswith("pid_locked:"):
            return (f"task {code.partition(':')[2]} is being debugged by another session; "
                    "close that debugger first")
        if code == "read_only":
            return "this session may only look, not change anything"
        if code == "task_ended":
            return f"the task has ended ({error.message})" if error.message else "the task has ended"
        return error.message or code.replace("_", " ")
    if isinstance(error, ConnectionClosed):
        return f"lost the connection to the executive ({error})"
    if isinstance(error, TimeoutError):
        return f"the executive did not answer in time ({error})"
    return str(error) or type(error).__name__
