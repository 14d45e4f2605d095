"""Dies in the middle of its second case, with a message on stderr."""

import sys
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if starts == 2 and request["type"] == "legal":
        print("fake engine: internal error, giving up", file=sys.stderr, flush=True)
        sys.exit(3)
    return False


serve(misbehave)
