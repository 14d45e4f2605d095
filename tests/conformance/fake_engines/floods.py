"""Starts printing an endless line in its second case."""

import sys
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if starts == 2 and request["type"] == "legal":
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    return False


serve(misbehave)
