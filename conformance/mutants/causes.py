"""One cause per case: does a case fail only for the rules it cites?

A spec-wide run that lets each mutant run every case reaching it (`--kills 0`)
knows every case each mutant kills, and which of them it kills at a check: the
script played through as written, and an expected legal set, state or result
differs. A case killed at a check by a mutant of a rule none of whose clauses
the case cites has a second cause: its expectation rests on that rule too, an
engine with that bug fails the case, and the case's name and clauses point
elsewhere (a game-target case whose totals also depend on rounding). Such a
case should cite that rule's clause, or get a deal that does not touch it. A
mutant that sends the game elsewhere (an action refused, another seat asked)
breaks the play every case stands on, and is no second cause.

Some rules are the ground every played case stands on: dealing, turn order,
following suit, who wins a trick, what a card is worth. A case that plays
cards cannot avoid them, so mutants of the rules that cite only the clauses in
`GROUND` (setup, the deal, the play of a trick, the bunts of the cards) do not
count as a second cause.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..harness.pack import Case
from .spec_report import SpecReport

# The clauses of the game's ground: the deck and its ranks, the deal, turn order, the
# play of a trick and the bunts of cards. A mutant of a declaration citing only these
# breaks every played case alike.
GROUND = frozenset({
    "SETUP.1", "SETUP.2", "SETUP.3", "SETUP.4", "SETUP.5", "SETUP.6", "SETUP.7",
    "PLAY.1", "PLAY.2", "PLAY.3", "PLAY.4", "SCORE.1", "SCORE.2", "SCORE.3", "SCORE.4",
    "GAME.1",
})


@dataclass(frozen=True)
class SecondCause:
    case: str
    cited: tuple[str, ...]
    rule: str  # the rule (or table, constant, order) whose mutants kill the case
    clauses: tuple[str, ...]  # that rule's clauses, none cited by the case
    mutants: tuple[str, ...]  # the killing mutants of that rule


def second_causes(report: SpecReport, cases: list[Case], profile: str) -> list[SecondCause]:
    """Every (case, rule) where mutants of a rule the case does not cite kill it."""
    if report.kills_wanted != 0:
        raise ValueError("one cause per case needs every kill of every mutant: run with "
                         "--kills 0")
    by_id = {c.id: c for c in cases}
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    clauses_of: dict[str, tuple[str, ...]] = {}
    for row in report.rows:
        verdict = row.verdicts.get(profile, {})
        clauses = tuple(row.clauses)
        if not clauses or set(clauses) <= GROUND:
            continue
        clauses_of[row.target] = clauses
        for case_id in verdict.get("at_check", []):
            case = by_id.get(case_id)
            if case is not None and not set(case.clauses) & set(clauses):
                found[(case_id, row.target)].append(row.id)
    return [SecondCause(case_id, tuple(by_id[case_id].clauses), rule, clauses_of[rule],
                        tuple(mutants))
            for (case_id, rule), mutants in sorted(found.items())]
