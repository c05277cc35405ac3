"""Reading the executive's lines: every JSON value as the standard library reads it."""
import json
import math

import pytest
from hypothesis import given, settings, strategies as st

from hsx.client.wire import decode, encode_request, has_long_number

_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 80), 2 ** 80) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=30)


@given(st.dictionaries(st.text(max_size=6), _values, max_size=5))
@settings(max_examples=200, deadline=None)
def test_a_line_reads_as_the_standard_library_reads_it(message):
    line = json.dumps(message).encode()
    assert repr(decode(line)) == repr(json.loads(line))     # ints stay ints, at any size
    assert repr(decode(bytearray(line))) == repr(json.loads(line))


def test_a_line_that_is_not_an_object_is_refused():
    with pytest.raises(ValueError, match="non-object"):
        decode(b"[1, 2]")


_fields = st.dictionaries(
    st.text(min_size=1, max_size=6).filter(lambda k: k not in ("version", "cmd", "id")),
    st.none() | st.booleans() | st.integers(-(2 ** 80), 2 ** 80) | st.text(max_size=8)
    | st.floats(allow_nan=False) | st.lists(st.integers(), max_size=3),
    max_size=4)


@given(_fields, st.none() | st.text(max_size=6))
@settings(max_examples=200, deadline=None)
def test_a_request_line_says_what_the_standard_library_would(fields, session):
    """orjson writes the plain requests, the standard library the rest: the server
    reads the same request either way."""
    line = encode_request("step", fields, 7, session)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    expected = {"version": 1, "cmd": "step", "id": 7}
    if session is not None and "session" not in fields:
        expected["session"] = session
    expected.update(fields)
    assert repr(json.loads(line)) == repr(json.loads(json.dumps(expected)))


def test_a_nan_is_sent_as_the_standard_library_sends_it():
    """The server refuses it as a bad argument (orjson would have sent null)."""
    assert b"NaN" in encode_request("clock.rate", {"rate": math.nan}, 1, None)
    assert b"\\ud800" in encode_request("ping", {"text": "\ud800"}, 1, None)


@pytest.mark.parametrize("line, long", [
    (b'{"a":1234567890123456789}', True), (b'{"a":-12345678901234567890}', True),
    (b'{"a":123456789012345678}', False), (b'{"a":"x","b":1.5e300}', False),
    (b'{"a":"1234567890123456789"}', True),      # in a string: harmless, still looked at
    (bytearray(b'[0000000000000000000]'), True), (b"", False)])
def test_long_numbers_are_spotted(line, long):
    assert has_long_number(line) is long
