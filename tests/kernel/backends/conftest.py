"""The backend suites' helpers (fskit, storekit) live beside them."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
