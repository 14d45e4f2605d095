"""Leaves a child behind in its second case, once per run (CHILD_MARKER names a file
made then): the child leaves the engine's process session (so killing the engine
does not end it), keeps the engine's stdout, and prints stray replies for three
seconds while the engine itself hangs."""

import json
import os
import pathlib
import sys
import time
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    marker = pathlib.Path(os.environ["CHILD_MARKER"])
    if starts == 2 and request["type"] == "legal" and not marker.exists():
        marker.touch()
        if os.fork() == 0:
            os.setsid()
            for _ in range(30):
                time.sleep(0.1)
                sys.stdout.write(json.dumps({"seq": 9999, "ok": True}) + "\n")
                sys.stdout.flush()
            os._exit(0)
        time.sleep(3600)
        return True
    return False


serve(misbehave)
