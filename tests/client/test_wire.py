"""Reading the executive's lines: every JSON value as the standard library reads it."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from hsx.client.wire import decode

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
