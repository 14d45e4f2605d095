"""Echoes the wrong sequence number in its second case."""

import json
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if starts == 2 and request["type"] == "legal":
        print(
            json.dumps({"seq": request["seq"] + 7, "ok": True, "player": 0, "actions": []}),
            flush=True,
        )
        return True
    return False


serve(misbehave)
