"""Stops answering in its second case (and, when HANGS_MARKER names a file, starts a
child that sleeps and writes its own process id and the child's there first, so a test
knows the first case is done and which processes must be gone after the run)."""

import os
import pathlib
import subprocess
import sys
import time
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if starts == 2 and request["type"] == "legal":
        marker = os.environ.get("HANGS_MARKER")
        if marker:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            pathlib.Path(marker).write_text(f"{os.getpid()} {child.pid}")
        time.sleep(3600)
    return False


serve(misbehave)
