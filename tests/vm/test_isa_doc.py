"""docs/isa.md is generated from the opcode table and must not drift from it."""
from pathlib import Path

from hsx.isa import OPCODES
from hsx.isa.doc import generate

DOC = Path(__file__).resolve().parents[2] / "docs" / "isa.md"


def test_isa_md_is_up_to_date():
    assert DOC.read_text() == generate(), (
        "docs/isa.md is stale: run `python -m hsx.isa.doc > docs/isa.md`")


def test_every_opcode_is_documented():
    text = generate()
    assert all(f"| 0x{op.code:02X} | {op.mnemonic} |" in text for op in OPCODES)
