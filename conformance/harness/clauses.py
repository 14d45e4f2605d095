"""The clause IDs a conformance case may cite: the `clause` declarations of
the spec (SETUP.1 to END.1), in the order of the spec, as the register data
file `baloot gen` writes lists them (`spec_register.py`).
"""

from __future__ import annotations

import fnmatch
from functools import cache

from .spec_register import clause_entries


@cache
def clause_ids() -> tuple[str, ...]:
    """Every clause ID of the spec, in the spec's order."""
    return tuple(clause.id for clause in clause_entries())


@cache
def known_clause_ids() -> frozenset[str]:
    """Every clause ID of the spec, as a set."""
    return frozenset(clause_ids())


def clause_family(clause_id: str) -> str:
    """SCORE.7 -> SCORE."""
    return clause_id.split(".", 1)[0]


def matches_clause_glob(clause_ids: list[str], pattern: str) -> bool:
    """True when one of the clause IDs matches a glob like 'SCORE.*' or 'PLAY.2'."""
    return any(fnmatch.fnmatchcase(c, pattern) for c in clause_ids)
