"""Make the shared helpers in vmkit.py importable from the VM tests."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
