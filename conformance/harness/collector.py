"""The cyclic garbage collector, run less often while games are replayed
(`baloot fuzz`) or served (the reference adapter's process).

A replay makes no reference cycle, and neither does a protocol session (tests
check both): their objects are freed by their reference counts as soon as
they are done with. The collector still runs whenever objects pile up, and a
planned game keeps its requests and replies for the whole game (a batch its
replies), so at its usual threshold it runs many times a game over objects
that are all alive. Counting to `THRESHOLD` new objects before a collection
instead leaves it almost nothing to do.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

THRESHOLD = 50_000  # objects allocated, less those freed, before the youngest are collected


def collect_less() -> tuple[int, int, int]:
    """Collect the youngest generation every `THRESHOLD` objects; the thresholds before."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], THRESHOLD), *before[1:])
    return before


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """`collect_less` while the block runs, then the thresholds as before."""
    before = collect_less()
    try:
        yield
    finally:
        gc.set_threshold(*before)
