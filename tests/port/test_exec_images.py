"""The C executive checks an HXE image as hsx.image does: every defect is refused with
the same error code (docs/hxe.md, "Error codes"), found in the same order, and every
image hsx.image accepts loads. Hand-made defects for each code, the mailbox section's
JSON forms, and random damage behind a correct CRC."""
from __future__ import annotations

import json
import random
import struct
import zlib

import pytest
from execapi import executive

from hsx.image.errors import ImageError
from hsx.image.hxe import read_hxe, write_hxe
from hsx.image.model import CommandSpec, HxeImage, MailboxSpec, Metadata, ValueSpec

CODE = bytes.fromhex("10000000" "01000000") * 4        # LDI-ish words; never run here


def _base(**metadata) -> bytes:
    meta = Metadata(**metadata)
    return write_hxe(HxeImage(code=CODE, rodata=b"rodata!", entry=4, bss_size=16,
                              app_name="probe", metadata=meta))


FULL = _base(
    values=[ValueSpec(1, 2, name="rpm", unit="rpm", group_name="motor", min_f16=0, max_f16=0x5640),
            ValueSpec(1, 3, init_f16=0x3C00)],
    commands=[CommandSpec(1, 7, handler_offset=8, name="go", help="Go on")],
    mailboxes=[MailboxSpec("app:telemetry", 96, 3), MailboxSpec("svc:log", 0, 0x13)])


def _fix_crc(data: bytes) -> bytes:
    header = 96 if data[4:6] == b"\x00\x02" else 32
    crc = zlib.crc32(data[header:], zlib.crc32(data[:0x1C])) if len(data) >= 0x1C else 0
    return data[:0x1C] + crc.to_bytes(4, "big") + data[0x20:] if len(data) >= 0x20 else data


def _python(data: bytes) -> str:
    try:
        read_hxe(data)
    except ImageError as error:
        return error.code
    return "ok"


@pytest.fixture(scope="module", params=["minimal", "development"])
def ex(request):
    return executive(request.param)


def _c(ex, data: bytes) -> str:
    status, pid = ex.load(data, paused=True)
    if status == "ok":
        ex.call("kill", pid)
        ex.call("kill", pid)
        return "ok"
    return ex.lib.hsx_exec_last_detail().decode() if status == "bad_image" else f"({status})"


def _same(ex, data: bytes) -> None:
    expected, got = _python(data), _c(ex, data)
    if got.startswith("("):            # refused after the image checks: hsx.image accepted it
        assert expected == "ok", (expected, got)
    else:
        assert got == expected


def _poke(data: bytes, offset: int, value: bytes, crc: bool = True) -> bytes:
    out = data[:offset] + value + data[offset + len(value):]
    return _fix_crc(out) if crc else out


def _table(data: bytes) -> tuple[int, int]:
    return struct.unpack_from(">II", data, 0x40)


HEADER_DEFECTS = {
    "too_small": lambda d: d[:31],
    "header_truncated": lambda d: d[:64],
    "bad_magic": lambda d: _poke(d, 0, b"HSXF"),
    "unsupported_version": lambda d: _poke(d, 4, b"\x00\x03"),
    "reserved_nonzero": lambda d: _poke(d, 0x50, b"\x01"),
    "bad_app_name (control)": lambda d: _poke(d, 0x20, b"a\x01"),
    "bad_app_name (no NUL)": lambda d: _poke(d, 0x20, b"x" * 32),
    "code_too_large": lambda d: _poke(d, 0x0C, (0x2000004).to_bytes(4, "big")),
    "rodata_too_large": lambda d: _poke(d, 0x10, (0xFFFFC001).to_bytes(4, "big")),
    "bss_too_large": lambda d: _poke(d, 0x14, (0xFFFFC001).to_bytes(4, "big")),
    "bad_task_size (stack)": lambda d: _poke(d, 0x48, (1022).to_bytes(4, "big")),
    "bad_task_size (memory)": lambda d: _poke(d, 0x4C, (1000).to_bytes(4, "big")),
    "code_misaligned": lambda d: _poke(d, 0x0C, (34).to_bytes(4, "big")),
    "entry_misaligned": lambda d: _poke(d, 0x08, (2).to_bytes(4, "big")),
    "entry_outside_code": lambda d: _poke(d, 0x08, (32).to_bytes(4, "big")),
    "metadata_table_missing": lambda d: _poke(d, 0x40, b"\0\0\0\0"),
    "metadata_overlap (table)": lambda d: _poke(d, 0x40, (100).to_bytes(4, "big")),
    "truncated": lambda d: _fix_crc(d[:96 + 10]),
    "crc_mismatch": lambda d: _poke(d, len(d) - 1, bytes([d[-1] ^ 0x40]), crc=False),
    "trailing_bytes": lambda d: d + b"\0\0",
    "metadata_out_of_bounds (table)": lambda d: _poke(d, 0x44, (200).to_bytes(4, "big")),
    "version 1": lambda d: _fix_crc(_poke(d, 4, b"\x00\x01")[:32] + d[96:96 + 32 + 7]),
}


@pytest.mark.parametrize("label", list(HEADER_DEFECTS))
def test_header_and_layout_defects(ex, label):
    _same(ex, HEADER_DEFECTS[label](FULL))


def _sections(data: bytes) -> list[tuple[int, int, int, int, int]]:
    """(table entry offset, type, offset, size, count) of each metadata section."""
    meta_off, count = _table(data)
    return [(meta_off + 16 * i, *struct.unpack_from(">IIII", data, meta_off + 16 * i))
            for i in range(count)]


def _section(data: bytes, kind: int):
    return next(s for s in _sections(data) if s[1] == kind)


def test_metadata_defects(ex):
    entry, _, v_off, v_size, v_count = _section(FULL, 1)
    c_entry, _, c_off, c_size, _ = _section(FULL, 2)
    m_entry, _, m_off, m_size, _ = _section(FULL, 3)
    cases = [
        _poke(FULL, entry + 4, (v_off + 2000).to_bytes(4, "big")),           # out of bounds
        _poke(FULL, entry + 4, (100).to_bytes(4, "big")),                    # over rodata
        _poke(FULL, c_entry + 4, (v_off + 4).to_bytes(4, "big")),            # over values
        _poke(FULL, entry + 12, (50).to_bytes(4, "big")),                    # truncated
        _poke(FULL, v_off + 6, (v_size + 5).to_bytes(2, "big")),             # string out of range
        _poke(FULL, v_off + 6, (8).to_bytes(2, "big")),                      # inside the records
        _poke(FULL, v_off + v_size - 1, b"x"),                               # unterminated
        _poke(FULL, v_off + 40, b"\xff"),                                    # not UTF-8
        _poke(FULL, v_off + 20, FULL[v_off:v_off + 2]),                      # duplicate OID
        _poke(FULL, c_off + 4, (6).to_bytes(4, "big")),                      # handler misaligned
        _poke(FULL, c_off + 4, (64).to_bytes(4, "big")),                     # handler outside
        _poke(FULL, c_entry, (1).to_bytes(4, "big")),                        # two value sections
        _poke(FULL, m_entry, (9).to_bytes(4, "big")),                        # unknown type: kept
        _poke(FULL, m_entry + 8, (m_size - 3).to_bytes(4, "big")),           # JSON cut short
    ]
    for data in cases:
        _same(ex, data)


def _with_mailbox_section(payload: bytes, count: int = 1) -> bytes:
    """FULL with its mailbox section replaced by `payload` (the table entry patched)."""
    m_entry, _, m_off, m_size, _ = _section(FULL, 3)
    assert m_off + m_size == len(FULL)
    data = FULL[:m_off] + payload
    data = data[:m_entry + 8] + struct.pack(">II", len(payload), count) + data[m_entry + 16:]
    return _fix_crc(data)


MAILBOX_DOCUMENTS = [
    {"mailboxes": [{"target": "app:a", "capacity": 64, "mode_mask": 3}], "version": 1},
    [{"name": "app:a", "queue_depth": 32, "mode": "rdwr | fanout_drop, tap"}],
    {"entries": [{"target": "app:a", "flags": 17}]},
    {"mailboxes": [{"target": "app:a", "mode": "RO"}, {"target": "app:a"}]},   # duplicate
    {"mailboxes": [{"target": "app:a", "mode": "sideways"}]},
    {"mailboxes": [{"target": "app:a", "capacity": -1}]},
    {"mailboxes": [{"target": "app:a", "capacity": 1.5}]},
    {"mailboxes": [{"target": "app:a", "capacity": True}]},
    {"mailboxes": [{"target": "app:a", "mode_mask": 0x10000}]},
    {"mailboxes": [{"target": "  "}]},
    {"mailboxes": [{"capacity": 3}]},
    {"mailboxes": [{"target": "app:a", "bindings": [{"pid": 3, "flags": 1}], "owner_pid": 2}]},
    {"mailboxes": [{"target": "app:a", "bindings": [{"flags": 1}]}]},
    {"mailboxes": [{"target": "app:a", "bindings": {"pid": 1}}]},
    {"mailboxes": [{"target": "app:a", "owner_pid": "x"}]},
    {"mailboxes": None},
    {"mailboxes": [], "version": 2},
    {"mailboxes": [], "version": None},
    {"mailboxes": [3]},
    {"target": "app:a"},
    {"mailboxes": [{"target": "app:a", "target": "app:b"}, {"target": "app:a"}]},
    {"mailboxes": [{"target": "hal:uart"}]},                     # refused at provisioning
    {"mailboxes": [{"target": "app:a", "capacity": 70000}]},     # idem
    {"mailboxes": [{"target": "app:é"}]},
]


@pytest.mark.parametrize("index", range(len(MAILBOX_DOCUMENTS)))
def test_mailbox_json_forms(ex, index):
    document = MAILBOX_DOCUMENTS[index]
    _same(ex, _with_mailbox_section(json.dumps(document, ensure_ascii=False).encode()))


@pytest.mark.parametrize("text", [b"{", b"[1,]", b"{\"mailboxes\": [}", b"\xff{", b"{} x",
                                  b"{\"a\": NaN, \"mailboxes\": []}", b"  [ ]  \0\0",
                                  b"{\"mailboxes\": [{\"target\": \"app:\\u0061\"}]}",
                                  b"[" * 40 + b"]" * 40,
                                  b"{\"a\": [true, false, null, Infinity, -Infinity, -0.5e+3],"
                                  b" \"mailboxes\": []}",
                                  b"[tru]", b"[nul]", b"[-Inf]", b"[-]", b"[NaNa]", b"[01]"])
def test_mailbox_json_syntax(ex, text):
    _same(ex, _with_mailbox_section(text))


def test_legacy_mailbox_records(ex):
    names = b"app:old\0"
    records = struct.pack(">IHHQ", 32, 48, 0, 0) + struct.pack(">IHHQ", 0, 0, 0, 0)
    _same(ex, _with_mailbox_section(records[:16] + b"\0" * 16 + names, 1))
    _same(ex, _with_mailbox_section(records + names, 2))            # a record without a name
    _same(ex, _with_mailbox_section(records[:16], 3))               # truncated


def test_random_damage_behind_a_correct_crc(ex):
    """Bytes changed at random anywhere after the header's fixed fields, the CRC made
    right again: the C executive and hsx.image agree on every one."""
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    for _ in range(400):
        data = bytearray(FULL)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(0x20, len(data))
            data[at] = rng.randrange(256)
        if rng.random() < 0.2:
            data = data[:rng.randrange(len(data))]
        try:
            _same(ex, _fix_crc(bytes(data)))
        except AssertionError as error:
            raise AssertionError(f"seed {seed}: {bytes(data).hex()}") from error


def _sized(bss: int, **sizes) -> bytes:
    return write_hxe(HxeImage(code=CODE, rodata=b"rodata!", entry=4, bss_size=bss,
                              app_name="sized", **sizes))


@pytest.mark.parametrize("bss, sizes, status", [
    (0x9000, {}, "ok"),                                    # fits the default 8 KiB stack
    (0x9000, {"stack_size": 0x4000}, "layout"),            # the stack it asks for does not fit
    (0xB000, {}, "layout"),                                # too much data for the default stack
    (0xB000, {"stack_size": 0x400}, "ok"),                 # ... and fits with a small one
    (0x100, {"mem_size": 0x10000}, "ok"),                  # the board's task memory exactly
    (0x100, {"mem_size": 0x20000}, "layout"),              # more than a task of this board has
])
def test_the_header_sizes_the_stack_and_memory(ex, bss, sizes, status):
    """The image's stack_size gives the task its stack (the layout decides what fits);
    a mem_size beyond the board's task memory is refused, not quietly shrunk."""
    got, pid = ex.load(_sized(bss, **sizes), paused=True)
    assert got == status
    if got == "ok":
        ex.call("kill", pid)
