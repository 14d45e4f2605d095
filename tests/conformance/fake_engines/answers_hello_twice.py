"""Answers the hello twice, otherwise well behaved; each launch appends a line to the
file LAUNCHES names."""

import json
import os
from typing import Any

from fake_base import reply_to, serve

with open(os.environ["LAUNCHES"], "a", encoding="utf-8") as launches:
    launches.write("launched\n")


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if request["type"] == "hello":
        line = json.dumps(reply_to(request, {}))
        print(line, flush=True)
        print(line, flush=True)
        return True
    return False


serve(misbehave)
