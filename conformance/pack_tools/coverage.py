"""`baloot conform coverage`: which cases exercise which clause and which
variant reading.

A case covers the clauses it cites, and the readings it requires (`requires`,
the readings a case pins on top of the run's profile). Regression snapshots
(the golden playthroughs, recorded from the reference engine rather than
worked out from the rules) are listed apart and never count: coverage is a
claim about worked-out cases. A gap is a clause with fewer than
`MIN_CASES_PER_CLAUSE` cases, or a reading with none.

The boundary table (`boundary_coverage`): for each numeric boundary of the spec
and each side it reads, whether cases reach the boundary value and one point
either side; a reachable point no case reaches is a gap too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from baloot.conformance.harness.clauses import clause_ids
from baloot.conformance.harness.pack import REGRESSION_SNAPSHOT, Case, Pack
from baloot.conformance.harness.variants import Register
from baloot.conformance.pack_tools.boundaries import OFFSETS

if TYPE_CHECKING:
    from baloot.conformance.pack_tools.boundaries import Comparison
    from baloot.conformance.pack_tools.boundary_probe import PointCoverage

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


# ---- numeric boundaries -------------------------------------------------------------------


@dataclass(frozen=True)
class BoundaryCoverage:
    """The spec's numeric boundaries (`boundaries.py`), the cases reaching each point
    (`boundary_probe.py`), and the comparisons with a number the finder does not track."""

    points: tuple[PointCoverage, ...]
    untracked: tuple[Comparison, ...]

    @property
    def reachable(self) -> int:
        return sum(len(OFFSETS) - len(p.boundary.unreachable) for p in self.points)

    @property
    def covered(self) -> int:
        return sum(
            1 for p in self.points for o in OFFSETS
            if o not in p.boundary.unreachable and p.covered(o)
        )

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / max(1, self.reachable)

    @property
    def gaps(self) -> list[str]:
        """`boundary key@offset` of every reachable point no case reaches."""
        return [f"{p.boundary.key}@{o:+d}" for p in self.points for o in p.missing()]



def boundary_coverage(pack: Pack) -> BoundaryCoverage:
    """Run the pack's counted cases through the probed reference engine (a few seconds)."""
    from baloot.conformance.pack_tools.boundaries import boundaries, comparisons
    from baloot.conformance.pack_tools.boundary_probe import point_coverage
    from baloot.conformance.pack_tools.spec_model import spec_model

    spec = spec_model()
    found = comparisons(spec)
    tracked = boundaries(spec, found)
    profiles = tuple(p.name for p in spec.profiles)
    points = point_coverage(spec, found, tracked, pack.cases, profiles)
    return BoundaryCoverage(tuple(points), tuple(c for c in found if not c.tracked))
