"""Takes a second for every reply from its second case on."""

import time

from fake_base import serve


def misbehave(request, starts):
    if starts >= 2:
        time.sleep(1.0)
    return False


serve(misbehave)
