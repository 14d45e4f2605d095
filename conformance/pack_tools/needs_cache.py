"""What `case_needs` finds for each case, kept between runs (`harness/kept_results.py`): a
case is replayed again only when it, the readings register or the code that replays it
has changed.

The key hashes the case as loaded (every field), the register's variants and profiles,
and the source of `case_needs.py`, of the reference engine and of every module of the
package they import. The folder is `$BALOOT_CACHE_DIR/needs` (see `kept_results`);
`BALOOT_CACHE_DIR=off` keeps nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

from ... import reference_impl as engine_package
from ..harness import kept_results
from ..harness.pack import Case
from ..harness.variants import Register
from . import case_needs as case_needs_module
from .case_needs import CaseNeeds, case_needs

FORMAT = 1  # of the stored findings


@cache
def code_fingerprint() -> str:
    """A hash of the source of every module a replay goes through."""
    return kept_results.source_fingerprint(
        [Path(case_needs_module.__file__), Path(__file__)],
        folders=(Path(engine_package.__file__).parent,))


def replay_needs(cases: list[Case], register: Register, jobs: int) -> Iterator[CaseNeeds]:
    """`case_needs` of each case, in order: those kept from an earlier run read back, the
    others replayed in `jobs` worker processes (and kept)."""
    folder = kept_results.cache_folder("needs")
    registered = kept_results.register_part(register)
    keys = [kept_results.key_of(str(FORMAT), code_fingerprint(), registered, repr(case))
            for case in cases] if folder else []
    found: list[CaseNeeds | None] = [None] * len(cases)
    if folder is not None:
        for at, key in enumerate(keys):
            data = kept_results.load(folder, key, FORMAT)
            if data is not None:
                found[at] = CaseNeeds(data["steps"], data["capabilities"], data["problem"])
    missing = [at for at, needs in enumerate(found) if needs is None]
    for at, needs in zip(missing, _replayed([cases[at] for at in missing], register, jobs),
                         strict=True):
        found[at] = needs
        if folder is not None:
            kept_results.store(folder, keys[at], FORMAT, {
                "steps": needs.steps, "capabilities": needs.capabilities,
                "problem": needs.problem})
    for kept in found:
        assert kept is not None
        yield kept


def _replayed(cases: list[Case], register: Register, jobs: int) -> Iterator[CaseNeeds]:
    if jobs <= 1 or len(cases) < 2:
        yield from (case_needs(case, register) for case in cases)
        return
    with ProcessPoolExecutor(min(jobs, len(cases))) as pool:
        yield from pool.map(case_needs, cases, [register] * len(cases), chunksize=8)
