"""The Output and Events panels' buffer: rows from a stream written in any pieces."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hsx.tui.widgets.textlog import LineBuffer


def test_rows_open_until_their_newline():
    buffer = LineBuffer(100)
    buffer.write("Enter a value: ")
    assert list(buffer) == ["Enter a value: "]
    buffer.write("42\nnext\n")
    assert list(buffer) == ["Enter a value: 42", "next"]
    assert buffer.added == 2 and buffer.width == len("Enter a value: 42")
    buffer.write("\n")
    assert list(buffer) == ["Enter a value: 42", "next", ""]
    buffer.write("half")
    buffer.note("[3 events lost]")
    buffer.write(" a line\n")
    assert list(buffer)[-3:] == ["half", "[3 events lost]", " a line"]


def test_old_rows_fall_off_the_top_and_records_render_when_read():
    buffer = LineBuffer(3, render=lambda event: f"#{event['seq']}")
    for seq in range(10):
        buffer.append({"seq": seq})
    assert list(buffer) == ["#7", "#8", "#9"] and buffer.added == 10 and len(buffer) == 3


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="ab\n", max_size=60), cuts=st.lists(st.integers(0, 60), max_size=8),
       limit=st.integers(1, 8))
def test_pieces_make_the_same_rows_as_the_whole(text, cuts, limit):
    whole, pieces = LineBuffer(limit), LineBuffer(limit)
    whole.write(text)
    start = 0
    for cut in sorted(cuts) + [len(text)]:
        pieces.write(text[start:max(start, cut)])
        start = max(start, cut)
    expected = text.split("\n")
    if expected[-1] == "":
        expected.pop()
    assert list(whole) == list(pieces) == expected[-limit:]
    assert whole.added == pieces.added
