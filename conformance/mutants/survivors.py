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


def thin_rows(report: SpecReport) -> list[MutantRow]:
    """The rows killed under every profile, but under some by fewer cases than the target
    counts (`SpecReport.enough_kills`)."""
    wanted = report.enough_kills()
    return [r for r in report.rows
            if r.excused is None and all(r.killed(p) for p in report.profiles)
            and any(r.kills(p) < wanted for p in report.profiles)]


def killing_cases(report: SpecReport, row: MutantRow) -> frozenset[str]:
    """The cases that kill a row's mutant, under any profile."""
    return frozenset(c for p in report.profiles
                     for c in row.verdicts.get(p, {}).get("killed_by", []))


@dataclass
class Finding:
    """What became of one survivor: excused, a witness, or neither."""

    id: str
    excused: dict[str, str] | None = None
    witness: Witness | None = None


# inherited by the pool
_LIVE: list[tuple[LiveSpec, dict[str, SpecMutant], int, int, tuple[Setup, ...]]] = []


@dataclass(frozen=True)
class _Item:
    id: str
    profiles: tuple[str, ...]  # where a witness is sought
    killed_by: frozenset[str] = frozenset()  # a thin kill's cases (their deals avoided)
    thin: bool = False
    readings: tuple[tuple[str, str], ...] = ()  # what its killing case pins


def _analyse(item: _Item) -> Finding:
    """Prove one survivor equivalent, or seek its witness (in a worker, or here); seek a
    thin kill's second witness."""
    live, mutants, games, seed, setups = _LIVE[0]
    mutant = mutants[item.id]
    if item.thin:
        turned = [s for s in setups if s.turned_from in item.killed_by]
        return Finding(item.id, witness=find_witness(
            live, mutant, item.profiles, games=games, seed=seed,
            setups=[s for s in setups if s.turned_from is None], avoid=item.killed_by,
            off_profile=False, readings=dict(item.readings), first=turned))
    proof = equivalence(live, mutant)
    if proof is not None:
        return Finding(item.id, excused={"method": proof.method, "detail": proof.detail})
    if games <= 0:
        return Finding(item.id)
    return Finding(item.id, witness=find_witness(
        live, mutant, item.profiles, games=games, seed=seed,
        setups=[s for s in setups if s.turned_from is None]))


def analyse_survivors(live: LiveSpec, report: SpecReport, mutants: dict[str, SpecMutant], *,
                      games: int = 24, seed: int = 0, jobs: int = 1,
                      setups: Sequence[Setup] = (), thin: bool = False) -> list[Witness]:
    """Excuse the survivors shown equivalent, and find a witness for the others (their
    rows are updated in place, in `jobs` processes), in random games and games started
    where the pack's cases start (`setups`); with `thin`, a witness for each thin kill
    too. The witnesses found, in row order."""
    rows = survivor_rows(report)
    items = [_Item(row.id, tuple(p for p in report.profiles if not row.killed(p)))
             for row in rows]
    if thin and games > 0:
        wanted = report.enough_kills()
        for row in thin_rows(report):
            killers = killing_cases(report, row)
            pinned = next((s.pins for s in setups if s.cases & killers), ())
            rows.append(row)
            items.append(_Item(row.id, tuple(p for p in report.profiles if row.kills(p) < wanted),
                               killers, thin=True, readings=pinned))
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
    for row, item, finding in zip(rows, items, findings, strict=True):
        if item.thin:
            if finding.witness is not None:
                row.witness = (f"a second witness, under {finding.witness.profile} at step "
                               f"{len(finding.witness.steps)}: {finding.witness.what}")
                witnesses.append(finding.witness)
            continue
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
