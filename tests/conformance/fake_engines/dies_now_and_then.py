"""Serves well, but at some starts, counted over every launch in the file COUNTER, dies:
the n-th start does what the n-th letter of PATTERN says (the last letter for every start
after), `o` serve it, `x` exit with a traceback on stderr, `g` answer with a line that is
not JSON.

    dies_now_and_then.py COUNTER PATTERN
"""

import sys
from pathlib import Path
from typing import Any

from fake_base import serve

COUNTER, PATTERN = Path(sys.argv[1]), sys.argv[2]


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if request["type"] != "start":
        return False
    count = int(COUNTER.read_text()) if COUNTER.exists() else 0
    COUNTER.write_text(str(count + 1))
    what = PATTERN[min(count, len(PATTERN) - 1)]
    if what == "g":
        print("starting a game...", flush=True)
        return True
    if what == "x":
        print("Traceback (most recent call last):", file=sys.stderr)
        print(f"RuntimeError: start {count + 1} failed", file=sys.stderr, flush=True)
        sys.exit(1)
    return False


serve(misbehave)
