"""Stops answering in its second case (and, when HANGS_MARKER names a file,
writes its process id there first, so a test knows the first case is done)."""

import os
import pathlib
import time
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if starts == 2 and request["type"] == "legal":
        marker = os.environ.get("HANGS_MARKER")
        if marker:
            pathlib.Path(marker).write_text(str(os.getpid()))
        time.sleep(3600)
    return False


serve(misbehave)
