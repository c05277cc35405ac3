"""The task state table: legal moves, illegal moves, and the docs agree with it."""
from pathlib import Path

import pytest

from hsx.kernel.states import (TRANSITIONS, Reason, TaskState, TransitionError, next_state,
                               transition_table_markdown)

S, R = TaskState, Reason


def test_every_reason_has_a_row():
    assert set(TRANSITIONS) == set(Reason)


@pytest.mark.parametrize("current, reason, expected", [
    (None, R.LOADED, S.READY),
    (S.RUNNING, R.SLEEP, S.SLEEPING),
    (S.SLEEPING, R.SLEEP_WAKE, S.READY),
    (S.RUNNING, R.MAILBOX_WAIT, S.WAITING_MBX),
    (S.WAITING_MBX, R.TIMEOUT, S.READY),
    (S.RUNNING, R.DEBUG_BREAK, S.PAUSED),
    (S.RUNNING, R.RETURNED, S.RETURNED),
    (S.RUNNING, R.FAULTED, S.FAULTED),
    (S.FAULTED, R.KILLED, S.KILLED),
])
def test_legal_transitions(current, reason, expected):
    assert next_state(current, reason) == expected


@pytest.mark.parametrize("current, reason", [
    (S.RETURNED, R.RESUME),          # an ended task never runs again
    (S.KILLED, R.KILLED),
    (S.SLEEPING, R.MAILBOX_WAKE),
    (S.PAUSED, R.SLEEP),
    (S.READY, R.LOADED),
    (None, R.RESUME),
])
def test_illegal_transitions_raise(current, reason):
    with pytest.raises(TransitionError, match=reason.value):
        next_state(current, reason)


def test_resume_returns_to_the_wait_it_was_in():
    assert next_state(S.PAUSED, R.RESUME, S.WAITING_MBX) == S.WAITING_MBX
    with pytest.raises(TransitionError, match="explicit target"):
        next_state(S.PAUSED, R.RESUME)
    with pytest.raises(TransitionError, match="cannot enter"):
        next_state(S.PAUSED, R.RESUME, S.FAULTED)


def test_docs_show_the_same_table():
    doc = (Path(__file__).parents[2] / "docs" / "scheduler.md").read_text()
    assert transition_table_markdown() in doc
