"""The case pack judges majlis, an engine written apart from the reference.

majlis (independent_engines/majlis.py) declares the federation profile with
seven readings moved off it, and no raises and no declaration step. Run
clean, the pack must pass it; run with one planted rule break (`--bug NAME`),
the pack must fail it, only in cases the clean engine passes, and in at least one
case about the broken rule.

The clean run's counts and the cases each planted break fails are a
regression snapshot, `independent_engines/majlis_verdicts.json`, checked
exactly. Regenerate it (after a change to the pack) with

    python tests/conformance/test_independent_majlis.py

which runs the pack clean and once per bug and writes the file; the tests
still check that every failure is one the planted break explains.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from independent_runs import (
    Run,
    all_runs,
    check_planted_break,
    failed_cases,
    read_snapshot,
    write_snapshot,
)

ENGINE = Path(__file__).parent / "independent_engines" / "majlis.py"

# The planted breaks and the clauses each breaks: every case a break fails must pass
# without it, and at least one must cite one of these clauses (a case about the rule).
BUG_CLAUSES: dict[str, set[str]] = {
    "last_trick_to_losers": {"SCORE.2"},
    "sun_ten_below_king": {"SETUP.7", "PLAY.3"},
    "ashkal_second_bidder": {"BID.6"},
    "sun_fives_rounded_up": {"SCORE.7"},
    "void_no_trump_duty": {"PLAY.2"},
}

SNAPSHOT = Path(__file__).parent / "independent_engines" / "majlis_verdicts.json"


@pytest.fixture(scope="module")
def runs() -> dict[str, Run]:
    return all_runs(ENGINE, BUG_CLAUSES)


def test_the_clean_engine_passes(runs: dict[str, Run]) -> None:
    status, report = runs[""]
    summary = report["summary"]
    problems = [f"{c['id']}: {c['message']}" for c in failed_cases(report)]
    assert status == 0, problems
    assert summary["failed"] == 0 and summary["errored"] == 0, problems
    # No raises and no declaration step: the cases that need them are not run.
    assert summary["unsupported"] > 0, summary
    assert summary == read_snapshot(SNAPSHOT)["clean"], "regression snapshot: see the module doc"


@pytest.mark.parametrize("bug", sorted(BUG_CLAUSES))
def test_each_planted_break_is_caught(runs: dict[str, Run], bug: str) -> None:
    check_planted_break(runs, bug, BUG_CLAUSES[bug], read_snapshot(SNAPSHOT))


if __name__ == "__main__":
    write_snapshot(SNAPSHOT, ENGINE, BUG_CLAUSES)
