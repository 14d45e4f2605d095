"""Answers the hello, then dies at every `start`: exits with a traceback on stderr, or,
given `garbage`, answers with a line that is not JSON."""

import sys
from typing import Any

from fake_base import serve

GARBAGE = sys.argv[1:] == ["garbage"]


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if request["type"] != "start":
        return False
    if GARBAGE:
        print("starting a game...", flush=True)
        return True
    print("Traceback (most recent call last):", file=sys.stderr)
    print('  File "engine.py", line 12, in on_start', file=sys.stderr)
    print("KeyError: 'setup'", file=sys.stderr, flush=True)
    sys.exit(1)


serve(misbehave)
