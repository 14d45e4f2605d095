"""Whole rounds worked out by hand: bunts, conversion, success, failure, kaboot,
projects, raises and the end of the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import (
    HOKUM_TRICKS,
    ONE_SUIT_EACH,
    SUN_TRICKS,
    TWO_OF_EACH,
    play,
    result,
    start,
    with_totals,
)

from baloot.conformance.harness.pack import case_from_json
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools.case_needs import played_game
from baloot.reference_impl import Game, IllegalAction

VARIANT_CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases" / "variants"


def load_case_file(variant: str, reading: str) -> list[dict[str, Any]]:
    """The cases of one reading's file in the pack (a deal and actions to reuse)."""
    path = VARIANT_CASES / variant / f"{reading}.json"
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return cases

SUN_BID = ["sun", "pass", "pass", "pass"]            # seat 0 bids sun; nobody takes it over
HOKUM_BID = ["hokum", "pass", "pass", "pass", "hokum"]  # seat 0 bids hokum and stays


# ---- the sun round of TWO_OF_EACH ---------------------------------------------------
# Team 0 (seats 0, 2) wins tricks 1, 2, 5, 6, 7: 13+13+14+14+16 = 70 bunts; team 1
# tricks 3, 4, 8: 17+16+17 = 50, and the last trick: +10 = 60 (70 + 60 = 130).


def test_sun_round_literal_fails_by_margin() -> None:
    game = start(TWO_OF_EACH)
    play(game, *SUN_BID, *SUN_TRICKS)
    r = result(game)
    assert r["contract"]["kind"] == "sun" and r["contract"]["bidder"] == 0
    assert r["card_bunts"] == [70, 50]
    assert r["last_trick_bunts"] == [0, 10]
    # SCORE.7 each team (A5 each_team): 70 -> 14; 60 -> 12 (26 in all).
    assert r["points"] == [14, 12]
    # A4 margin_points: 14 - 12 = 2 is not more than 13: the bidder fails and the other
    # team takes the sun maximum, 26 (SCORE.10).
    assert (r["success"], r["kaboot"]) == (False, None)
    assert r["added"] == [0, 26]
    assert r["totals"] == [0, 26]
    assert game.phase == "round_over"
    assert game.state.trick_winners == [0, 0, 1, 1, 2, 2, 2, 1]


@pytest.mark.parametrize("reading", ["more_than_half_points", "more_than_half_bunts",
                                     "half_bunts_or_more"])
def test_sun_round_succeeds_under_the_other_success_readings(reading: str) -> None:
    game = start(TWO_OF_EACH, bidder_success=reading)
    play(game, *SUN_BID, *SUN_TRICKS)
    # 14 > 13 points; 70 > 60 bunts: success, each team adds its own points.
    assert result(game)["added"] == [14, 12]


# The sun tie of the pack (var.bidder_success.*.sun-tie): team 0 takes 17+17+2+19 = 55
# card bunts and the last trick, 65; team 1 13+11+28+13 = 65. Each ends in 5, so each
# converts unrounded (SCORE.7): 65 x 2 / 10 = 13 points a team.
@pytest.mark.parametrize(("reading", "added"), [
    ("margin_points", [0, 26]),          # 13 - 13 = 0 is not more than 13
    ("more_than_half_points", [0, 26]),  # 13 is not more than 13
    ("half_points_or_more", [13, 13]),   # 13 is at least 13: the tie succeeds
    ("more_than_half_bunts", [0, 26]),   # 65 is not more than 65
    ("half_bunts_or_more", [13, 13]),    # 65 is at least 65
])
def test_a_sun_tie_under_each_success_reading(reading: str, added: list[int]) -> None:
    raw = next(c for c in load_case_file("bidder_success", "half_bunts_or_more")
               if c["id"].endswith("sun-tie"))
    readings = {**load_register().readings_of("literal"), "bidder_success": reading,
                "rounding": "each_team"}
    r = result(played_game(case_from_json(raw, "half_bunts_or_more.json"), readings))
    assert (r["card_bunts"], r["last_trick_bunts"], r["points"]) == ([55, 65], [10, 0], [13, 13])
    assert r["added"] == added


def test_sun_round_federation() -> None:
    game = start(TWO_OF_EACH, profile="federation")
    play(game, *SUN_BID, *SUN_TRICKS)
    r = result(game)
    # A5 bidder_takes_rest: team 1's 60 -> 12; team 0 gets 26 - 12 = 14.
    assert r["points"] == [14, 12]
    assert r["success"] is True  # A4: 70 bunts > 60
    assert r["added"] == [14, 12]


# ---- the hokum round of TWO_OF_EACH ------------------------------------------------
# Team 0 wins tricks 1, 2, 4, 5, 7: 13+13+34+14+16 = 90; team 1 tricks 3, 6, 8:
# 17+28+17 = 62, +10 for the last = 72 (90 + 72 = 162). Seat 3 played the hokum
# king and queen: baloot, 2 in hokum (SCORE.6), for team 1.


def test_hokum_round_literal() -> None:
    game = start(TWO_OF_EACH)
    play(game, *HOKUM_BID, "pass", "pass", *HOKUM_TRICKS)
    r = result(game)
    assert r["contract"] == {**r["contract"], "kind": "hokum", "trump": "D", "bidder": 0}
    assert r["card_bunts"] == [90, 62]
    assert r["last_trick_bunts"] == [0, 10]
    assert [[p["kind"] for p in team] for team in r["projects"]] == [[], ["baloot"]]
    assert r["projects"][1][0]["seat"] == 3
    # A6 bunts_before_rounding: team 1 has 72 + 2 = 74 -> 7; team 0 90 -> 9 (SCORE.8).
    assert r["points"] == [9, 7]
    # A4 margin: 9 - 7 = 2, not more than 8: failure; A8 maximum_only: 16, no projects.
    assert r["success"] is False
    assert r["added"] == [0, 16]


def test_hokum_round_federation() -> None:
    game = start(TWO_OF_EACH, profile="federation")
    play(game, *HOKUM_BID, "pass", "pass", *HOKUM_TRICKS)
    r = result(game)
    # A5 bidder_takes_rest: team 1's 72 -> 7, team 0 gets 16 - 7 = 9; A6 points after
    # rounding: team 1 adds its baloot, 2.
    assert r["points"] == [9, 9]
    # A4 more_points_app_ties: the points compared without the baloot, 9 to 7: the bidding
    # team has more, and succeeds (under more_than_half_bunts, team 0's 90 bunts against
    # team 1's 72 + 2 points x 10 = 92 fail it: the baloot decides there).
    assert r["success"] is True
    # each team keeps its own points, team 1's baloot among them: 9 and 7 + 2.
    assert r["added"] == [9, 9]
    old = start(TWO_OF_EACH, profile="federation", bidder_success="more_than_half_bunts")
    play(old, *HOKUM_BID, "pass", "pass", *HOKUM_TRICKS)
    # A8 maximum_and_all_projects: 16 + the baloot 2 to team 1.
    assert result(old)["success"] is False and result(old)["added"] == [0, 18]


def test_locked_round_refuses_a_trump_lead() -> None:
    game = start(TWO_OF_EACH)
    play(game, *HOKUM_BID, "double", "pass")  # seat 1 doubles, seat 0 does not triple
    assert game.state.multiplier == 2
    assert game.state.locked is True  # A10 double_and_four: doubled is locked
    play(game, *HOKUM_TRICKS[:12])
    # Seat 1 leads trick 4 holding 10H AD 9D 9C JC: no trump lead (RAISE.2).
    assert game.current_player == 1
    assert [a for a in game.legal_actions()] == ["play 10H", "play 9C", "play JC"]
    with pytest.raises(IllegalAction) as refused:
        game.apply("play AD")
    assert refused.value.rule == "play_a_card"
    assert "RAISE.2" in refused.value.clauses


def test_doubled_open_round_doubles_the_maximum() -> None:
    game = start(TWO_OF_EACH, locked_round="doubler_chooses")
    play(game, *HOKUM_BID)
    assert game.legal_actions() == ["pass", "double closed", "double open"]
    play(game, "double open", "pass")
    assert game.state.locked is False
    play(game, *HOKUM_TRICKS)
    r = result(game)
    assert r["multiplier"] == 2
    assert r["added"] == [0, 32]  # failure: 16 x 2


@pytest.mark.parametrize("reading", ["double_and_four", "any_raise", "doubler_chooses"])
def test_a_sun_double_is_plain_under_every_locked_round_reading(reading: str) -> None:
    # RAISE.2 locks hokum rounds only, so closed and open would mean the same in sun:
    # the double is offered once, as `double`, whatever A10 says of hokum.
    game = with_totals(start(TWO_OF_EACH, locked_round=reading), [101, 50])
    play(game, *SUN_BID)
    assert game.phase == "raising"  # RAISE.3: 101 > 100 and 50 < 100, the gate is open
    assert game.legal_actions() == ["pass", "double"]
    play(game, "double")
    assert game.state.locked is False and game.state.multiplier == 2


@pytest.mark.parametrize(("reading", "added"), [
    ("round_decides_game", [0, 64]),  # failure 16 x 4; the other team wins the game (A13)
    ("worth_152", [0, 152]),          # the round's winner takes 152
])
def test_gahwa_round(reading: str, added: list[int]) -> None:
    game = start(TWO_OF_EACH, locked_round="doubler_chooses", gahwa=reading)
    play(game, *HOKUM_BID, "double open")
    assert game.current_player == 0 and game.legal_actions() == ["pass", "triple"]
    game.apply("triple")
    assert game.current_player == 1 and game.legal_actions() == ["pass", "four"]
    game.apply("four")
    assert game.current_player == 0 and game.legal_actions() == ["pass", "gahwa"]
    game.apply("gahwa")
    assert game.phase == "playing"
    play(game, *HOKUM_TRICKS)
    r = result(game)
    assert r["added"] == added
    assert (r["game_over"], r["winner"]) == (True, 1)
    assert game.phase == "game_over"
    assert game.legal_actions() == []


# ---- kaboot -------------------------------------------------------------------------

def sweep(game: Game, lead_suit: str) -> None:
    """Seat 0 leads its eight cards high to low; the others play their first legal card."""
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7"]
    for rank in ranks:
        game.apply(f"play {rank}{lead_suit}")
        for _ in range(3):
            game.apply(next(a for a in game.legal_actions() if a.startswith("play")))


@pytest.mark.parametrize(("profile", "first", "added"), [
    ("literal", "9S", [44, 0]),
    ("literal", "AS", [88, 0]),      # the face-up card bid on was an ace (SCORE.11)
    ("federation", "AS", [44, 0]),   # A9 sun_44_hokum_25: the ace changes nothing
])
def test_sun_kaboot(profile: str, first: str, added: list[int]) -> None:
    # Seat 0's sixth card is the face-up card (engine_helpers.start).
    others = [c for c in ["10S", "KS", "QS", "JS", "9S", "AS", "8S", "7S"] if c != first]
    hands = [[*others[:5], first, *others[5:]], *ONE_SUIT_EACH[1:]]
    game = start(hands, profile=profile)
    assert game.state.face_up.rank.value + game.state.face_up.suit.value == first
    play(game, *SUN_BID)
    sweep(game, "S")
    r = result(game)
    assert r["card_bunts"] == [120, 0] and r["last_trick_bunts"] == [10, 0]
    assert (r["success"], r["kaboot"]) == (True, 0)
    assert r["added"] == added


@pytest.mark.parametrize(("profile", "points", "added"), [
    # Literal: 152 + 10 + baloot 2 = 164 bunts -> 16; kaboot 44, nothing on top (A9).
    ("literal", [16, 0], [44, 0]),
    # Federation: 16 - 0 = 16, + baloot 2 = 18; kaboot in hokum 25, + baloot 2 = 27.
    ("federation", [18, 0], [27, 0]),
])
def test_hokum_kaboot_with_baloot(profile: str, points: list[int], added: list[int]) -> None:
    game = start(ONE_SUIT_EACH, profile=profile)
    play(game, *HOKUM_BID, "pass", "pass")
    sweep(game, "S")
    r = result(game)
    assert r["contract"]["trump"] == "S"
    assert r["card_bunts"] == [152, 0]
    assert [[p["kind"] for p in team] for team in r["projects"]] == [["baloot"], []]
    assert r["points"] == points
    assert r["kaboot"] == 0
    assert r["added"] == added


@pytest.mark.parametrize(("reading", "raise_", "added"), [
    # Federation otherwise: A6 points_after_rounding (the baloot is 2 points), A12
    # points_only (projects are not multiplied). Seat 0's face-up 9S is no ace.
    ("flat_44", "pass", [44, 0]),
    ("flat_44", "double open", [44, 0]),                                # nothing on top
    ("flat_44_with_projects_and_raises", "pass", [46, 0]),             # 44 + 2
    ("flat_44_with_projects_and_raises", "double open", [90, 0]),      # 44 x 2 + 2
    ("sun_44_hokum_25", "pass", [27, 0]),                              # 25 + 2
    ("sun_44_hokum_25", "double open", [52, 0]),                       # 25 x 2 + 2
    ("sun_44_hokum_25_nothing_added", "pass", [25, 0]),
    ("sun_44_hokum_25_nothing_added", "double open", [25, 0]),
])
def test_hokum_kaboot_under_each_reading(reading: str, raise_: str, added: list[int]) -> None:
    game = start(ONE_SUIT_EACH, profile="federation", kaboot=reading)
    # Seat 1, the first opponent, passes or doubles (open: not locked); seat 0 does not triple
    # after a double, and seat 3 does not double after a pass.
    play(game, *HOKUM_BID, raise_, "pass")
    assert game.phase == "playing"
    sweep(game, "S")
    r = result(game)
    assert r["kaboot"] == 0
    assert [[p["kind"] for p in team] for team in r["projects"]] == [["baloot"], []]
    assert r["added"] == added


# Seat 1 holds all eight hearts, a hundred (PROJ.5, A17 hundred_only), and wins no trick:
# seat 0 bids sun and takes every trick with its aces, tens and kings.
SWEPT_WITH_A_HUNDRED = [
    ["AS", "10S", "KS", "AD", "10D", "KD", "AC", "10C"],
    ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H"],
    ["QS", "9S", "7S", "QD", "9D", "7D", "KC", "9C"],
    ["JS", "8S", "JD", "8D", "QC", "JC", "8C", "7C"],
]
# Trick by trick, seat 0 leading each (sun order A 10 K Q J 9 8 7); seat 1 declares its
# hundred at its first turn and throws a heart to every trick.
SWEEP_OF_SEAT_1 = [
    "play AS", "declare hundred AH KH QH JH 10H 9H 8H 7H", "play AH", "play 7S", "play 8S",
    "play 10S", "play KH", "play 9S", "play JS",
    "play KS", "play QH", "play QS", "play QC",      # seat 3 has no spade left
    "play AD", "play JH", "play 7D", "play 8D",
    "play 10D", "play 10H", "play 9D", "play JD",
    "play KD", "play 9H", "play QD", "play 7C",      # seat 3 has no diamond left
    "play AC", "play 8H", "play 9C", "play 8C",
    "play 10C", "play 7H", "play KC", "play JC",     # 10C above KC and JC
]


@pytest.mark.parametrize(("profile", "overrides"), [
    ("literal", {}),                                  # A9 flat_44
    ("literal", {"kaboot": "sun_44_hokum_25"}),
    ("federation", {}),  # A7 best_team_only makes the hundred the best project: no matter
])
def test_the_swept_team_scores_nothing_not_even_its_projects(
        profile: str, overrides: dict[str, str]) -> None:
    # SCORE.11: "the other team scores nothing"; A9 only asks what the sweeping team adds.
    game = start(SWEPT_WITH_A_HUNDRED, profile=profile, readings=overrides)
    play(game, "sun", "pass", "pass", "pass", *SWEEP_OF_SEAT_1)
    r = result(game)
    assert r["kaboot"] == 0 and r["card_bunts"] == [120, 0]
    assert [[p["kind"] for p in team] for team in r["projects"]] == [[], ["hundred"]]
    assert r["added"] == [44, 0]


# ---- the end of the game -------------------------------------------------------------

def test_target_reached_ends_the_game() -> None:
    game = with_totals(start(TWO_OF_EACH), [100, 140])
    play(game, *SUN_BID, *SUN_TRICKS)
    r = result(game)
    assert r["totals"] == [100, 166]
    assert (r["game_over"], r["winner"]) == (True, 1)
    assert game.phase == "game_over"


@pytest.mark.parametrize(("reading", "winner"), [
    ("higher_total_wins", None),   # 164 to 164: a tie, play on (A19)
    ("bidder_team_wins", 0),
])
def test_both_reach_the_target(reading: str, winner: int | None) -> None:
    game = with_totals(start(TWO_OF_EACH, profile="federation", both_reach_target=reading),
                       [150, 152])
    play(game, *SUN_BID, *SUN_TRICKS)
    r = result(game)
    assert r["totals"] == [164, 164]
    assert r["winner"] == winner
    assert game.phase == ("round_over" if winner is None else "game_over")
