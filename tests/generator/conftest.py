"""Make the generator tests' helpers importable (tests/ has no packages)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
