"""Answers its second case's question with something that is not JSON."""
from typing import Any

from fake_base import serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if starts == 2 and request["type"] == "legal":
        print("Traceback (most recent call last): not json at all", flush=True)
        return True
    return False


serve(misbehave)
