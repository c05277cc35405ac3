"""Write `NAME.expected` for conformance programs from the host's gcc:

    python tests/cc/conformance/regenerate.py            # every program
    python tests/cc/conformance/regenerate.py files_seek # some

An expected file is the program's stdout followed by `<exit N>` and a newline.  Each
program runs in a fresh empty directory, as the test runs it in a fresh sandbox."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cckit import CONFORMANCE, expected_text, native_run  # noqa: E402


def main(names: list[str]) -> None:
    sources = [CONFORMANCE / f"{n}.c" for n in names] or sorted(CONFORMANCE.glob("*.c"))
    with tempfile.TemporaryDirectory() as tmp:
        for source in sources:
            cwd = Path(tmp) / source.stem
            cwd.mkdir()
            out, status = native_run(source, Path(tmp), cwd)
            source.with_suffix(".expected").write_bytes(expected_text(out, status))
            print(f"{source.stem}: {len(out)} bytes, exit {status}")


if __name__ == "__main__":
    main(sys.argv[1:])
