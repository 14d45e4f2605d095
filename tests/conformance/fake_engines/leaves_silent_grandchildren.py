"""Well behaved, but at its hello starts two processes that never answer, each in a
session of its own, holding none of its pipes: a grandchild (the child between them
exits at once) that keeps the engine's environment, and a child that runs `sleep` with
an empty environment. Their pids are appended to the file GRANDCHILD_PIDS names."""

import os
import subprocess
import time
from typing import Any

from fake_base import serve


def note(pid: int) -> None:
    with open(os.environ["GRANDCHILD_PIDS"], "a", encoding="utf-8") as pids:
        pids.write(f"{pid}\n")


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if request["type"] == "hello":
        if os.fork() == 0:
            if os.fork() == 0:
                os.setsid()
                devnull = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(devnull, fd)
                note(os.getpid())
                time.sleep(60)
            os._exit(0)
        os.wait()
        child = subprocess.Popen(["sleep", "60"], env={}, start_new_session=True,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        note(child.pid)
        time.sleep(0.2)  # both noted before the hello is answered
    return False


serve(misbehave)
