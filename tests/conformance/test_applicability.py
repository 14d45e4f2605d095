"""`baloot conform applicability` on a tiny pack whose figures follow from the rules.

The pack, dealer 3 (seat 0 bids first):
- first-bidder: no pins; the first bidder's options (pass, hokum, sun; BID.2, BID.6)
  come before anything a variant decides, so it holds under every reading set;
- after-sun: pins A2 last_caller_wins; after seat 0's sun, seat 1 may pass or take the
  sun over only under that reading (earlier_seat_priority leaves it pass alone,
  sun_ends_bidding ends the bidding);
- after-sun-rounding: the same, pinning also A5 rounding each_team, which cannot change a
  bid (an over-pin: federation plays bidder_takes_rest, so it is not applied there);
- after-sun-unpinned: the same expectation with no pin at all (an under-pin: applied
  everywhere, it holds only under last_caller_wins).
Literal plays last_caller_wins and rounds each_team; federation plays earlier_seat_priority
and rounds bidder_takes_rest, and the sets moved from it to last_caller_wins show the
over-pin and the under-pin apart from the A2 reading.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from baloot.conformance.cli import main
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case
from baloot.conformance.harness.variants import Register, load_register
from baloot.conformance.pack_tools.applicability import (
    ReadingSet,
    all_figures,
    clause_holding,
    profile_sets,
    random_sets,
    targets,
)

from .conftest import legal_case, write_pack

AFTER_SUN: dict[str, Any] = {"actions": ["0: sun"],
                             "expect": {"player": 1, "actions": ["pass", "sun"]}}
LAST_CALLER = {"sun_overcall": "last_caller_wins"}


def tiny_pack(folder: Path) -> Path:
    return write_pack(folder, [
        legal_case("first-bidder"),
        legal_case("after-sun", requires=LAST_CALLER, **AFTER_SUN),
        legal_case("after-sun-rounding", requires={**LAST_CALLER, "rounding": "each_team"},
                   **AFTER_SUN),
        legal_case("after-sun-unpinned", **AFTER_SUN),
    ])


@pytest.fixture
def cases(tmp_path: Path) -> list[Case]:
    pack, problems = lint_pack(tiny_pack(tmp_path / "pack"))
    assert problems == []
    return list(pack.cases)


def moved(register: Register, profile: str, **moves: str) -> ReadingSet:
    return ReadingSet("hand", profile, moves, {**register.readings_of(profile), **moves})


def test_figures_worked_out_by_hand(cases: list[Case]) -> None:
    register = load_register()
    sets = [*profile_sets(register),
            moved(register, "literal", sun_overcall="earlier_seat_priority"),
            moved(register, "federation", **LAST_CALLER, rounding="each_team"),
            moved(register, "federation", **LAST_CALLER)]
    literal, federation, earlier, federation_each_team, federation_last = all_figures(
        cases, register, sets)
    everything = {"first-bidder", "after-sun", "after-sun-rounding", "after-sun-unpinned"}

    assert literal.holding == literal.applied == everything
    assert (literal.share, literal.unfair) == (1.0, [])

    # federation plays earlier_seat_priority: seat 1 may only pass after seat 0's sun
    assert federation.holding == {"first-bidder"}
    assert federation.applied == {"first-bidder", "after-sun-unpinned"}
    assert (federation.share, federation.unfair) == (1.0, ["after-sun-unpinned"])

    assert federation_last.holding == everything
    assert federation_last.applied == everything - {"after-sun-rounding"}
    assert (federation_last.applied_holding, federation_last.share,
            federation_last.unfair) == (3, 0.75, [])

    assert earlier.holding == {"first-bidder"}
    assert earlier.applied == {"first-bidder", "after-sun-unpinned"}
    assert (earlier.share, earlier.unfair) == (1.0, ["after-sun-unpinned"])
    assert "legal actions differ: missing sun" in earlier.failures["after-sun-unpinned"]

    assert federation_each_team.holding == federation_each_team.applied == everything

    assert clause_holding(cases, literal)["BID.2"] == 4
    assert clause_holding(cases, earlier)["BID.2"] == 1
    met = {t.text: t for t in targets(cases, [literal, federation_last], [earlier])}
    assert not met["no case applied that does not hold"].met
    assert met["no case applied that does not hold"].detail == "1 unfair (case, set) pair(s)"
    assert not met["profile literal: >= 200 holding cases"].met
    assert not met["profile hand: >= 95% of holding applied"].met  # federation_last
    assert met["profile literal: >= 95% of holding applied"].met


def test_random_sets_move_the_number_of_variants_asked() -> None:
    register = load_register()
    sets = random_sets(register, 30, 5, seed=7)
    assert len(sets) == 30
    for reading_set in sets:
        base = register.readings_of(reading_set.profile)
        assert len(reading_set.moved) == 5
        assert {v for v in base if base[v] != reading_set.readings[v]} == set(reading_set.moved)
    assert sets == random_sets(register, 30, 5, seed=7)
    assert sets != random_sets(register, 30, 5, seed=8)


def test_worker_processes_give_the_same_figures(cases: list[Case]) -> None:
    register = load_register()
    sets = [*profile_sets(register), *random_sets(register, 4, 3, seed=1)]
    assert all_figures(cases, register, sets, jobs=2) == all_figures(cases, register, sets)


def test_applicability_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tiny_pack(tmp_path / "pack")
    status = main(["conform", "applicability", "--cases", str(folder), "--sets", "3",
                   "--jobs", "1"])
    out = capsys.readouterr().out
    assert status == 1  # four cases cannot meet the targets
    assert "target NOT met: profile literal: >= 200 holding cases (4)" in out
    assert "target met: profile literal: >= 95% of holding applied (100.0%)" in out
    assert "3 random set(s), 5 variant(s) moved off a random profile, seed 0" in out
