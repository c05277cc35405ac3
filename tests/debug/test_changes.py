"""What a watch on a C object says changed: the innermost element or field holding
every changed byte, and its values before and after (hsx/debug/changes.py)."""
from __future__ import annotations

import struct

from hsx.debug import ctype as C
from hsx.debug.changes import describe_change
from hsx.debug.ctype import CType, Field

ITEM = CType("struct", 8, "item", fields=[Field("qty", C.INT, 0), Field("price", C.INT, 4)])
STOCK = CType("array", 24, target=ITEM, count=3)
FORMAT = C.Formatter(lambda addr, size: None, lambda addr, space: None)


def ints(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}i", *values)


def change(t: CType, name: str, old: bytes, new: bytes) -> dict | None:
    return describe_change(t, name, old, new, FORMAT)


def test_the_innermost_field_of_an_element_and_its_two_values():
    before = ints(5, 10, 3, 20, 8, 30)
    assert change(STOCK, "stock", before, ints(5, 10, 7, 20, 8, 30)) == \
        {"what": "stock[1].qty", "old": "3", "new": "7"}
    assert change(ITEM, "*it", ints(3, 20), ints(3, -1)) == \
        {"what": "(*it).price", "old": "20", "new": "-1"}
    assert change(C.INT, "left", ints(0), ints(2)) == {"what": "left", "old": "0", "new": "2"}
    assert change(STOCK, "stock", before, before) is None


def test_a_change_across_parts_names_what_holds_them_all():
    before = ints(5, 10, 3, 20, 8, 30)
    both = change(STOCK, "s->stock", before, ints(5, 10, 4, 21, 8, 30))
    assert both == {"what": "s->stock[1]", "old": "{qty = 3, price = 20}",
                    "new": "{qty = 4, price = 21}"}
    two = change(STOCK, "stock", before, ints(6, 10, 3, 20, 9, 30))
    assert two["what"] == "stock" and two["new"].startswith("[{qty = 6")


def test_unions_and_bit_fields_stop_at_their_container():
    union = CType("union", 4, "u", fields=[Field("i", C.INT, 0), Field("f", C.FLOAT, 0)])
    assert change(union, "u", ints(0), ints(1))["what"] == "u"
    flags = CType("struct", 4, "flags", fields=[Field("on", C.UINT, 0, 0, 1),
                                                 Field("level", C.UINT, 0, 1, 3)])
    assert change(flags, "f", ints(0), ints(1)) == \
        {"what": "f", "old": "{on = 0, level = 0}", "new": "{on = 1, level = 0}"}
