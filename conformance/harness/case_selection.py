"""Which cases of a pack a run takes: `--only ID|GLOB` (and the pytest plugin's
`--baloot-only`) keeps a case whose id is one of them, matches an id glob, or
cites a clause matching a clause glob (`SCORE.*`)."""

from __future__ import annotations

import fnmatch

from baloot.conformance.harness.clauses import matches_clause_glob
from baloot.conformance.harness.pack import Case, Pack


def select_cases(pack: Pack, only: list[str]) -> list[Case]:
    """The pack's cases that `only` names (every case when `only` is empty)."""
    if not only:
        return list(pack.cases)
    return [
        case
        for case in pack.cases
        if any(
            case.id == p or fnmatch.fnmatchcase(case.id, p) or matches_clause_glob(case.clauses, p)
            for p in only
        )
    ]
