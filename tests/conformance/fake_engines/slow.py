"""Takes a second for every reply from its second case on."""

import time
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if starts >= 2:
        time.sleep(1.0)
    return False


serve(misbehave)
