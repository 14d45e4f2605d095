"""What becomes of a spec mutant the pack does not kill.

Each survivor is first shown equivalent or not (`equivalence.py`: the same
code, enumeration, z3). One that is not is played against the reference in
seeded random games (`differential.py`): a game where they differ is a
witness, from which `synthesis.py` writes a case; no difference in the games
played leaves it "probably equivalent", reported apart and still counted as
alive.
"""

from __future__ import annotations

from collections.abc import Callable

from baloot.conformance.mutants.differential import Witness, find_witness
from baloot.conformance.mutants.equivalence import equivalence
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant
from baloot.conformance.mutants.spec_report import MutantRow, SpecReport


def survivor_rows(report: SpecReport) -> list[MutantRow]:
    """The rows alive under some profile and not yet excused."""
    return [r for r in report.rows
            if r.excused is None and not all(r.killed(p) for p in report.profiles)]


def analyse_survivors(live: LiveSpec, report: SpecReport, mutants: dict[str, SpecMutant], *,
                      games: int = 24, seed: int = 0,
                      on_row: Callable[[MutantRow], None] | None = None) -> list[Witness]:
    """Excuse the survivors shown equivalent, and find a witness for the others (their
    rows are updated in place); the witnesses found."""
    witnesses: list[Witness] = []
    for row in survivor_rows(report):
        mutant = mutants[row.id]
        proof = equivalence(live, mutant)
        if proof is not None:
            row.excused = {"method": proof.method, "detail": proof.detail}
        elif games > 0:
            alive_under = tuple(p for p in report.profiles if not row.killed(p))
            witness = find_witness(live, mutant, alive_under, games=games, seed=seed)
            if witness is None:
                row.probably_equivalent = True
            else:
                row.witness = (f"differs under {witness.profile} at step {len(witness.steps)}: "
                               f"{witness.what}")
                witnesses.append(witness)
        if on_row:
            on_row(row)
    return witnesses
