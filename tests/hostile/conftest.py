"""Make the campaign scripts of this folder importable by the tests (tests/ has no packages)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
