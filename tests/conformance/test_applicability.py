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

from baloot.cli.main import main
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
    unfair = "no case given a verdict whose expectation does not hold"
    assert not met[unfair].met
    assert met[unfair].detail == "1 unfair (case, set) pair(s)"
    assert not met["profile literal: >= 200 holding cases"].met
    assert not met["profile hand: >= 95% of holding applied"].met  # federation_last
    assert met["profile literal: >= 95% of holding applied"].met


# after-sun under its other A2 readings: earlier_seat_priority leaves seat 1 pass alone
# after the first bidder's sun (PROTOCOL.md, "Sun overcalls"); sun_ends_bidding ends the
# bidding there, and has no alternative (skipped). The wrong one claims sun for seat 1.
EARLIER = {"origin": "hand_worked", "requires": {"sun_overcall": "earlier_seat_priority"},
           "expect": {"player": 1, "actions": ["pass"]}}
WRONG = {**EARLIER, "expect": {"player": 1, "actions": ["pass", "sun"]}}


def test_a_verdict_by_an_alternative(tmp_path: Path) -> None:
    pack, problems = lint_pack(write_pack(tmp_path / "pack", [
        legal_case("after-sun", requires=LAST_CALLER, **AFTER_SUN,
                   alternatives=[EARLIER]),
        legal_case("after-sun-wrong", requires=LAST_CALLER, **AFTER_SUN,
                   alternatives=[WRONG]),
    ]))
    assert problems == []
    register = load_register()
    literal, federation, ends = all_figures(list(pack.cases), register, [
        *profile_sets(register), moved(register, "literal", sun_overcall="sun_ends_bidding")])
    # literal plays last_caller_wins: the cases' own expectation, no alternative
    assert literal.verdict == literal.applied == literal.verdict_holding == {
        "after-sun", "after-sun-wrong"}
    assert literal.by_alternative == set() and literal.verdict_share == 1.0
    # federation plays earlier_seat_priority: the alternatives, one right, one wrong
    assert federation.applied == set() and federation.holding == set()
    assert federation.verdict == federation.by_alternative == {"after-sun", "after-sun-wrong"}
    assert federation.verdict_holding == {"after-sun"}
    assert federation.unfair == ["after-sun-wrong"]
    assert "alternatives[0]: " in federation.failures["after-sun-wrong"]
    # sun_ends_bidding: no expectation applies, no verdict
    assert ends.verdict == set() and ends.verdict_share == 0.0


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


def test_the_engine_of_a_reading_set_claims_every_capability() -> None:
    """Applicability counts by readings alone: its engine claims every capability. A hello
    that leaves `capabilities` out claims none (PROTOCOL.md), so the list is named; without
    it, every case that needs a capability would count as not applied."""
    from baloot.conformance.harness.declared import CAPABILITIES
    from baloot.conformance.pack_tools.applicability import engine_declaring

    register = load_register()
    for reading_set in profile_sets(register):
        declared = engine_declaring(reading_set, register)
        assert declared.capabilities == frozenset(CAPABILITIES)
        assert declared.missing_capabilities(["raises", "declarations", "game_score"]) == []
