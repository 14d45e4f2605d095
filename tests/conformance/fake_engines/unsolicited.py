"""Prints an extra line after its second case's start reply."""

import json
import sys
from typing import Any

from fake_base import reply_to

game: dict[str, Any] = {}
starts = 0
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "start":
        starts += 1
    print(json.dumps(reply_to(request, game)), flush=True)
    if request["type"] == "start" and starts == 2:
        print(json.dumps({"log": "started!"}), flush=True)
    if request["type"] == "bye":
        break
