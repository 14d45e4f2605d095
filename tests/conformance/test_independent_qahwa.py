"""The case pack judges qahwa, an engine written apart from the reference.

qahwa (independent_engines/qahwa.py) keeps its game as an event log folded
into immutable snapshots, with its rules as tables. It declares the federation
profile with seven readings moved off it and many more it can be asked for, and
no ashkal, no gahwa and no pass-only turns. Run clean, the pack must pass it
but for the cases of SUITE_FAULTS, which fail for a fault of the pack (they are
run as expected failures); run with one planted rule break (`--bug NAME`), the
pack must fail it, only in cases the clean engine passes, and in at least one
case about the broken rule.

The clean run's counts and the cases each planted break fails are a
regression snapshot, `independent_engines/qahwa_verdicts.json`, checked
exactly. Regenerate it (after a change to the pack) with

    python tests/conformance/test_independent_qahwa.py

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

ENGINE = Path(__file__).parent / "independent_engines" / "qahwa.py"
SNAPSHOT = Path(__file__).parent / "independent_engines" / "qahwa_verdicts.json"

# The planted breaks and the clauses each breaks: every case a break fails must pass
# without it, and at least one must cite one of these clauses (a case about the rule).
BUG_CLAUSES: dict[str, set[str]] = {
    "trump_nine_under_ace": {"SETUP.6", "PLAY.3"},
    "hokum_half_rounded_up": {"SCORE.8"},
    "second_session_face_suit": {"BID.8"},
    "void_may_undertrump": {"PLAY.2"},
    "sun_gate_at_100": {"RAISE.3"},
}

# Cases the clean engine fails through a fault of the pack, run as expected failures
# (none now: the two qahwa found, a gahwa turn expected of an engine without gahwa, were
# mended in the runner).
SUITE_FAULTS: dict[str, str] = {}


@pytest.fixture(scope="module")
def runs() -> dict[str, Run]:
    return all_runs(ENGINE, BUG_CLAUSES, xfail=SUITE_FAULTS)


def test_the_clean_engine_passes(runs: dict[str, Run]) -> None:
    status, report = runs[""]
    summary = report["summary"]
    problems = [f"{c['id']}: {c['message']}" for c in failed_cases(report)]
    assert status == 0, problems
    assert summary["failed"] == 0 and summary["errored"] == 0, problems
    assert report["stale_xfails"] == [], "a suite fault is fixed: drop it from SUITE_FAULTS"
    assert {c["id"] for c in report["cases"] if c["status"] == "xfailed"} == set(SUITE_FAULTS)
    # No ashkal, gahwa or pass-only turns: the cases that need them are not run.
    lacking = {c for case in report["cases"] if case["status"] == "unsupported"
               for c in case["lacking"]}
    assert lacking == {"ashkal", "raise_gahwa", "pass_only_turns"}, lacking
    assert summary == read_snapshot(SNAPSHOT)["clean"], "regression snapshot: see the module doc"


@pytest.mark.parametrize("bug", sorted(BUG_CLAUSES))
def test_each_planted_break_is_caught(runs: dict[str, Run], bug: str) -> None:
    check_planted_break(runs, bug, BUG_CLAUSES[bug], read_snapshot(SNAPSHOT))


if __name__ == "__main__":
    write_snapshot(SNAPSHOT, ENGINE, BUG_CLAUSES, xfail=SUITE_FAULTS)
