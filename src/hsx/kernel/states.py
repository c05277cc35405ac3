"""Task states and the one transition table the scheduler is allowed to follow.

A transition is named by its *reason*; the table says which states the reason may
leave and where it goes.  Anything else is a kernel bug and raises, so a task can
never drift into a state nobody planned for (the prior executive's wedged tasks).
`ready` <-> `running` switches are scheduling, not state changes: they are reported
as `scheduler` events, never as `task_state` events.
"""
from __future__ import annotations

from enum import Enum


class TaskState(str, Enum):
    READY = "ready"
    RUNNING = "running"
    WAITING_MBX = "waiting_mbx"
    SLEEPING = "sleeping"
    WAITING_CMD = "waiting_cmd"
    PAUSED = "paused"
    RETURNED = "returned"
    FAULTED = "faulted"
    KILLED = "killed"

    # Module-level tuples, not `TaskState.X` here: on Python 3.11 reading a member off
    # the class is a Python-level descriptor call, and these run on every request.
    @property
    def runnable(self) -> bool:
        return self in _RUNNABLE

    @property
    def ended(self) -> bool:
        return self in _ENDED


_RUNNABLE = (TaskState.READY, TaskState.RUNNING)
_ENDED = (TaskState.RETURNED, TaskState.FAULTED, TaskState.KILLED)


class Reason(str, Enum):
    LOADED = "loaded"
    DEBUG_BREAK = "debug_break"
    SLEEP = "sleep"
    SLEEP_WAKE = "sleep_wake"
    MAILBOX_WAIT = "mailbox_wait"
    MAILBOX_WAKE = "mailbox_wake"
    TIMEOUT = "timeout"
    COMMAND_WAIT = "command_wait"
    COMMAND_DONE = "command_done"
    HANDLER_RETURNED = "handler_returned"
    USER_PAUSE = "user_pause"
    RESUME = "resume"
    RETURNED = "returned"
    FAULTED = "faulted"
    KILLED = "killed"


S = TaskState
_WAITS = frozenset({S.WAITING_MBX, S.SLEEPING, S.WAITING_CMD})
_LIVE = frozenset({S.READY, S.RUNNING, S.PAUSED}) | _WAITS
_ON_CPU = frozenset({S.READY, S.RUNNING})

# reason -> (states it may leave, states it may enter).  None as a source = a new task.
# A paused task keeps any sleep or mailbox wait it had, so RESUME returns it to that
# wait (or to ready if the wake came while it was paused).
TRANSITIONS: dict[Reason, tuple[frozenset, frozenset]] = {
    Reason.LOADED: (frozenset({None}), frozenset({S.READY})),
    Reason.SLEEP: (_ON_CPU, frozenset({S.SLEEPING})),
    Reason.SLEEP_WAKE: (frozenset({S.SLEEPING}), frozenset({S.READY})),
    Reason.MAILBOX_WAIT: (_ON_CPU, frozenset({S.WAITING_MBX})),
    Reason.MAILBOX_WAKE: (frozenset({S.WAITING_MBX}), frozenset({S.READY})),
    Reason.TIMEOUT: (frozenset({S.WAITING_MBX}), frozenset({S.READY})),
    # a synchronous command call whose handler the debugger stopped: the caller waits
    Reason.COMMAND_WAIT: (_ON_CPU, frozenset({S.WAITING_CMD})),
    Reason.COMMAND_DONE: (frozenset({S.WAITING_CMD}), frozenset({S.READY})),
    # (from a wait: a breakpoint in a command handler the executive ran in the task)
    Reason.DEBUG_BREAK: (_ON_CPU | _WAITS, frozenset({S.PAUSED})),
    Reason.USER_PAUSE: (_LIVE - {S.PAUSED}, frozenset({S.PAUSED})),
    Reason.RESUME: (frozenset({S.PAUSED}), frozenset({S.READY}) | _WAITS),
    # a stopped handler returned: the task goes back to what it was doing before the call
    Reason.HANDLER_RETURNED: (_ON_CPU | {S.PAUSED}, _LIVE - {S.RUNNING}),
    Reason.RETURNED: (_ON_CPU | {S.PAUSED}, frozenset({S.RETURNED})),   # paused: a debugger step
    Reason.FAULTED: (_ON_CPU | {S.PAUSED}, frozenset({S.FAULTED})),
    Reason.KILLED: (_LIVE | {S.RETURNED, S.FAULTED}, frozenset({S.KILLED})),
}


class TransitionError(RuntimeError):
    """A transition the table forbids: a kernel bug, reported loudly."""


def next_state(current: TaskState | None, reason: Reason,
               target: TaskState | None = None) -> TaskState:
    """The state `reason` leads to from `current` (pass `target` where the table
    allows several), or TransitionError."""
    sources, targets = TRANSITIONS[reason]
    if current not in sources:
        name = current.value if current else "(new)"
        raise TransitionError(f"task_state: {reason.value} is not allowed from {name}")
    if target is None:
        if len(targets) != 1:
            raise TransitionError(f"task_state: {reason.value} needs an explicit target")
        (target,) = targets
    elif target not in targets:
        raise TransitionError(f"task_state: {reason.value} cannot enter {target.value}")
    return target


def transition_table_markdown() -> str:
    """The table as Markdown, for docs/scheduler.md (tested to stay in sync)."""
    lines = ["| reason | from | to |", "|---|---|---|"]
    for reason, (sources, targets) in TRANSITIONS.items():
        froms = ", ".join(sorted("(new)" if s is None else s.value for s in sources))
        tos = ", ".join(f"`{t.value}`" for t in sorted(targets, key=lambda t: t.value))
        lines.append(f"| `{reason.value}` | {froms} | {tos} |")
    return "\n".join(lines)
