"""The clause IDs a conformance case may cite.

For now the list is the one of the rules notes (`shared/rules-notes.md`,
SETUP.1 to END.1). `known_clause_ids` is the one place to swap for the spec
model once the parser is in (the model's `Clause` declarations), so the
linter and the runner never hard-code the list elsewhere.
"""

from __future__ import annotations

import fnmatch
from functools import cache

# Family -> number of clauses, as numbered in the rules notes.
_CLAUSE_COUNTS: dict[str, int] = {
    "SETUP": 7,
    "GAME": 2,
    "BID": 9,
    "RAISE": 3,
    "PLAY": 4,
    "PROJ": 8,
    "SCORE": 11,
    "END": 1,
}


@cache
def known_clause_ids() -> frozenset[str]:
    """Every clause ID of the rules notes.

    Swap point: read `Clause.id` of the spec model here once it can be built.
    """
    return frozenset(
        f"{family}.{number}"
        for family, count in _CLAUSE_COUNTS.items()
        for number in range(1, count + 1)
    )


def clause_family(clause_id: str) -> str:
    """SCORE.7 -> SCORE."""
    return clause_id.split(".", 1)[0]


def matches_clause_glob(clause_ids: list[str], pattern: str) -> bool:
    """True when one of the clause IDs matches a glob like 'SCORE.*' or 'PLAY.2'."""
    return any(fnmatch.fnmatchcase(c, pattern) for c in clause_ids)
