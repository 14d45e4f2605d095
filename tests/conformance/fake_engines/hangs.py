"""Stops answering in its second case."""

import time

from fake_base import serve


def misbehave(request, starts):
    if starts == 2 and request["type"] == "legal":
        time.sleep(3600)
    return False


serve(misbehave)
