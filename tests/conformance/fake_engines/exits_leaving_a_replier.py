"""Asked to apply `ashkal`, exits (status 3), leaving a grandchild in a session of its
own that holds its stdin and stdout and answers that request, and every later one,
`{"seq": N, "ok": true}`. The grandchild's pid is appended to the file GRANDCHILD_PIDS
names."""

import json
import os
import sys
import time
from typing import Any

from fake_base import serve


def answer(request: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps({"seq": request["seq"], "ok": True}) + "\n")
    sys.stdout.flush()


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if request["type"] != "apply" or request["action"] != "ashkal":
        return False
    if os.fork() == 0:
        if os.fork() == 0:
            os.setsid()
            with open(os.environ["GRANDCHILD_PIDS"], "a", encoding="utf-8") as pids:
                pids.write(f"{os.getpid()}\n")
            time.sleep(0.3)  # the engine has exited by now
            answer(request)
            for line in sys.stdin:
                answer(json.loads(line))
            time.sleep(60)
        os._exit(0)
    os.wait()
    os._exit(3)


serve(misbehave)
