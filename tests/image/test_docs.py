"""docs/hxe.md documents every error code the image layer can raise."""
from __future__ import annotations

import re
from pathlib import Path

from hsx.image import ERROR_CODES

DOC = Path(__file__).resolve().parents[2] / "docs" / "hxe.md"


def test_every_error_code_is_documented():
    section = DOC.read_text().split("## Error codes", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE))
    assert documented == ERROR_CODES
