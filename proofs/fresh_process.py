"""Run tasks each in a fresh worker process, so that a z3 result depends on the
task alone.

z3 keeps one context per process, and the same query asked after other queries
can take another path and return another model (another counterexample, another
witness). Each task therefore runs in a process forked from a fork server that
never asks z3 anything, with a fixed hash seed, whatever ran before it in this
process and whichever worker picks it up: the stored results of `baloot verify`
and `baloot explore` come out byte for byte the same on every run.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

HASH_SEED = "0"  # the fork server's PYTHONHASHSEED: set and dict orders do not vary
# Every module that makes z3 terms, imported by the fork server (applies when it starts:
# the first call in this process)
PRELOAD = ("baloot.proofs.verify", "baloot.explorer.explore")


def each_in_fresh_process(task: Callable[[T], R], items: Iterable[T], jobs: int = 2
                          ) -> Iterator[R]:
    """`task(x)` for each item, in order, each call in a fresh process, `jobs` at a
    time. `task` must be a module-level function; items and results are pickled."""
    todo = list(items)
    if not todo:
        return
    context = multiprocessing.get_context("forkserver")
    # The server imports the same modules, in the same order, whichever task comes
    # first: the z3 terms made at import are then the same in every worker.
    context.set_forkserver_preload(list(PRELOAD))
    saved = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = HASH_SEED  # read when the fork server starts
    try:
        pool = ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo))),
                                   mp_context=context, max_tasks_per_child=1)
        # the first worker starts the fork server now, with the hash seed above
        first = pool.submit(task, todo[0])
    finally:
        if saved is None:
            del os.environ["PYTHONHASHSEED"]
        else:
            os.environ["PYTHONHASHSEED"] = saved
    with pool:
        rest = [pool.submit(task, x) for x in todo[1:]]
        for future in [first, *rest]:
            yield future.result()
