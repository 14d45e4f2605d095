"""`baloot conform coverage`: which cases exercise which clause and which
variant reading.

A case covers the clauses it cites, and the readings it requires (`requires`,
the readings a case pins on top of the run's profile). Regression snapshots
(the golden playthroughs, recorded from the reference engine rather than
worked out from the rules) are listed apart and never count: coverage is a
claim about worked-out cases. A gap is a clause with fewer than
`MIN_CASES_PER_CLAUSE` cases, or a reading with none.

The boundary table is `boundary_probe.boundary_coverage`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..harness.clauses import clause_ids
from ..harness.pack import REGRESSION_SNAPSHOT, Case, Pack
from ..harness.variants import Register

MIN_CASES_PER_CLAUSE = 3
MIN_CASES_PER_READING = 1


@dataclass(frozen=True)
class Row:
    key: str  # a clause ID, or variant=reading
    cases: tuple[str, ...]  # the ids of the cases that cover it
    minimum: int

    @property
    def gap(self) -> bool:
        return len(self.cases) < self.minimum


@dataclass(frozen=True)
class Coverage:
    clauses: tuple[Row, ...]
    readings: tuple[Row, ...]
    counted: int  # cases that count
    snapshots: int  # regression snapshots, not counted

    @property
    def gaps(self) -> list[Row]:
        return [row for row in (*self.clauses, *self.readings) if row.gap]


def counts(case: Case) -> bool:
    return case.origin != REGRESSION_SNAPSHOT


def coverage(pack: Pack, register: Register) -> Coverage:
    counted = [c for c in pack.cases if counts(c)]
    clauses = tuple(
        Row(clause, tuple(c.id for c in counted if clause in c.clauses), MIN_CASES_PER_CLAUSE)
        for clause in clause_ids()
    )
    readings = tuple(
        Row(
            f"{info.name}={reading}",
            tuple(c.id for c in counted if c.requires.get(info.name) == reading),
            MIN_CASES_PER_READING,
        )
        for info in register.variants.values()
        for reading in info.readings
    )
    return Coverage(clauses, readings, len(counted), len(pack.cases) - len(counted))
