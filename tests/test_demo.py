"""The README's demo command works and shows what it promises."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def demo_files() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"hsx run (examples/\S+(?: examples/\S+)*)", readme)
    assert command, "the README's demo command is missing"
    return command.group(1).split()


def test_readme_demo_runs_the_example_tasks_together():
    files = demo_files()
    assert all((ROOT / f).exists() for f in files)
    proc = subprocess.run([sys.executable, "-m", "hsx", "run", *files], cwd=ROOT,
                          capture_output=True, timeout=120)
    out = proc.stdout.decode().splitlines()
    assert proc.returncode == 0, proc.stderr.decode()
    assert out[0] == "Hello from HSX"
    assert [line for line in out if line.startswith("consumer")] == [
        f"consumer got: reading #{n}" for n in range(1, 6)]
    assert out.count("sensor: temp updated") == 3
