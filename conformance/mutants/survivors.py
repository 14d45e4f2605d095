"""What becomes of a spec mutant the pack does not kill.

Each survivor is first shown equivalent or not (`equivalence.py`: the same
code, enumeration, z3). One that is not is played against the reference in
seeded random games (`differential.py`): a game where they differ is a
witness, from which `synthesis.py` writes a case; no difference in the games
played leaves it "probably equivalent", reported apart and still counted as
alive.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .differential import Setup, Witness, find_witness
from .equivalence import equivalence
from .live import LiveSpec
from .operators import SpecMutant
from .spec_report import MutantRow, SpecReport


def survivor_rows(report: SpecReport) -> list[MutantRow]:
    """The rows alive under some profile and not yet excused."""
    return [r for r in report.rows
            if r.excused is None and not all(r.killed(p) for p in report.profiles)]


@dataclass
class Finding:
    """What became of one survivor: excused, a witness, or neither."""

    id: str
    excused: dict[str, str] | None = None
    witness: Witness | None = None


# inherited by the pool
_LIVE: list[tuple[LiveSpec, dict[str, SpecMutant], int, int, tuple[Setup, ...]]] = []


def _analyse(item: tuple[str, tuple[str, ...]]) -> Finding:
    """Prove one survivor equivalent, or seek its witness (in a worker, or here)."""
    live, mutants, games, seed, setups = _LIVE[0]
    mutant_id, alive_under = item
    mutant = mutants[mutant_id]
    proof = equivalence(live, mutant)
    if proof is not None:
        return Finding(mutant_id, excused={"method": proof.method, "detail": proof.detail})
    if games <= 0:
        return Finding(mutant_id)
    return Finding(mutant_id, witness=find_witness(live, mutant, alive_under, games=games,
                                                   seed=seed, setups=setups))


def analyse_survivors(live: LiveSpec, report: SpecReport, mutants: dict[str, SpecMutant], *,
                      games: int = 24, seed: int = 0, jobs: int = 1,
                      setups: Sequence[Setup] = ()) -> list[Witness]:
    """Excuse the survivors shown equivalent, and find a witness for the others (their
    rows are updated in place, in `jobs` processes), in random games and games started
    where the pack's cases start (`setups`); the witnesses found, in row order."""
    rows = survivor_rows(report)
    items = [(row.id, tuple(p for p in report.profiles if not row.killed(p))) for row in rows]
    _LIVE[:] = [(live, mutants, games, seed, tuple(setups))]
    try:
        if jobs > 1 and len(items) > 1:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(min(jobs, len(items)), mp_context=context) as pool:
                findings = list(pool.map(_analyse, items, chunksize=4))
        else:
            findings = [_analyse(item) for item in items]
    finally:
        _LIVE.clear()
    witnesses: list[Witness] = []
    for row, finding in zip(rows, findings, strict=True):
        if finding.excused is not None:
            row.excused = finding.excused
        elif finding.witness is not None:
            witness = finding.witness
            row.witness = (f"differs under {witness.profile} at step {len(witness.steps)}: "
                           f"{witness.what}")
            witnesses.append(witness)
        elif games > 0:
            row.probably_equivalent = True
    return witnesses
