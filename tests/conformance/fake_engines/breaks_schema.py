"""In its second case, answers `legal` with seat 9 (only --validate-protocol calls it a
protocol error; without it, the case just fails)."""

import json
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if starts == 2 and request["type"] == "legal":
        print(
            json.dumps(
                {
                    "seq": request["seq"],
                    "ok": True,
                    "player": 9,
                    "actions": ["pass", "hokum", "sun"],
                }
            ),
            flush=True,
        )
        return True
    return False


serve(misbehave)
