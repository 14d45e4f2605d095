"""The play (A15, A16) and the projects (PROJ.*, A1, A7, A17, A21, A22), by hand."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import ONE_SUIT_EACH, play, plays, result, start

from baloot.reference_impl import Game, IllegalAction

# Seat 3 takes the face-up KD; trump diamonds. Seats 0 and 1 hold no hearts.
VOID = [
    ["AD", "KS", "QS", "JS", "7C", "8C", "9C", "10C"],
    ["JD", "9D", "8D", "10S", "9S", "8S", "7S", "JC"],
    ["JH", "10H", "9H", "8H", "7H", "AS", "QC", "KC"],
    ["AH", "KH", "QH", "7D", "10D", "KD", "QD", "AC"],
]
# As VOID, but seat 0 holds 7H (and seat 2 the 10C), so seat 0 can follow hearts.
PARTNER = [
    ["AD", "KS", "QS", "JS", "7C", "8C", "9C", "7H"],
    ["JD", "9D", "8D", "10S", "9S", "8S", "7S", "JC"],
    ["JH", "10H", "9H", "8H", "10C", "AS", "QC", "KC"],
    ["AH", "KH", "QH", "7D", "10D", "KD", "QD", "AC"],
]
# Seat 3 bids hokum on the face-up KD and stays; nobody raises.
SEAT_3_HOKUM = ["pass", "pass", "pass", "hokum", "pass", "pass", "pass", "hokum", "pass", "pass"]

# Four of a kind everywhere, no sequence anywhere; seat 0's face-up card is 9H.
FOURS = [
    ["AS", "AH", "AD", "AC", "9S", "9H", "9D", "9C"],
    ["10S", "10H", "10D", "10C", "KS", "KH", "KD", "KC"],
    ["JS", "JH", "JD", "JC", "QS", "QH", "QD", "QC"],
    ["8S", "8H", "8D", "8C", "7S", "7H", "7D", "7C"],
]


def declarations(game: Game) -> list[str]:
    return [a for a in game.legal_actions() if a.startswith("declare ")]


# ---- the play ----------------------------------------------------------------------

@pytest.mark.parametrize(("reading", "first_leader"), [("bid_winner", 3), ("dealer_right", 0)])
def test_first_leader(reading: str, first_leader: int) -> None:
    game = start(VOID, taker=3, first_leader=reading)
    play(game, *SEAT_3_HOKUM)
    assert game.phase == "playing"
    assert game.current_player == first_leader


@pytest.mark.parametrize(("reading", "seat_0", "seat_1"), [
    ("any_card", set(VOID[0]), set(VOID[1])),
    # Seat 0, void in hearts, must trump; seat 1 must then beat the AD: J and 9 do, 8 does not.
    ("must_trump", {"AD"}, {"JD", "9D"}),
    ("must_trump_unless_partner_wins", {"AD"}, {"JD", "9D"}),
])
def test_void_in_hokum(reading: str, seat_0: set[str], seat_1: set[str]) -> None:
    game = start(VOID, taker=3, void_in_hokum=reading)
    play(game, *SEAT_3_HOKUM, "play AH")
    assert game.current_player == 0
    assert plays(game) == {f"play {c}" for c in seat_0}
    game.apply("play AD")
    assert plays(game) == {f"play {c}" for c in seat_1}
    if reading != "any_card":
        with pytest.raises(IllegalAction) as refused:
            game.apply("play 8D")
        assert refused.value.rule == "play_a_card"


@pytest.mark.parametrize(("reading", "seat_1"), [
    ("must_trump", {"JD", "9D", "8D"}),
    ("must_trump_unless_partner_wins", set(PARTNER[1])),  # seat 3's AH is winning
])
def test_partner_winning(reading: str, seat_1: set[str]) -> None:
    game = start(PARTNER, taker=3, void_in_hokum=reading)
    play(game, *SEAT_3_HOKUM, "play AH", "play 7H")
    assert game.current_player == 1
    assert plays(game) == {f"play {c}" for c in seat_1}


# Seat 0 holds every heart and leads under dealer_right (A16); seat 3 takes the face-up KD,
# so diamonds are trumps (order J 9 A 10 K Q 8 7). Seats 1, 2 and 3 hold no heart; seat 1,
# seat 3's partner, holds one trump, the 10D. In OVER seat 2 holds the 9D, above the 10D;
# in UNDER the QD, below it; in NONE no trump at all.
def _trumping(seat_2_trump: str | None) -> list[list[str]]:
    seat_2 = ["7S", "AC", "KC", "QC", "JC", "10C", "9C", seat_2_trump or "8C"]
    seat_3 = ["AD", "JD", "8D", "7D", "QD", "KD", "9D", "7C"]  # sixth card: the face-up KD
    if seat_2_trump:  # seat 3 gives up that trump and takes the 8C instead
        seat_3[seat_3.index(seat_2_trump)] = "8C"
    return [
        ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H"],
        ["10D", "AS", "KS", "QS", "JS", "10S", "9S", "8S"],
        seat_2,
        seat_3,
    ]


NONE, OVER, UNDER = _trumping(None), _trumping("9D"), _trumping("QD")
SEAT_3_TRUMPS = {"AD", "JD", "8D", "7D", "QD", "KD", "9D"}


@pytest.mark.parametrize(("deal", "seat_2_plays", "reading", "seat_3"), [
    # Only the partner has trumped (10D): the duty to trump stays, the duty to beat it does
    # not, so every trump is allowed, the 8D and 7D below the 10D included; not the 7C.
    (NONE, "7S", "must_trump", SEAT_3_TRUMPS),
    (NONE, "7S", "must_trump_unless_partner_wins", set(NONE[3])),  # the 10D is winning
    (NONE, "7S", "any_card", set(NONE[3])),
    # The opponent over-trumps with the 9D: seat 3 must beat it, and only the JD does.
    (OVER, "9D", "must_trump", {"JD"}),
    (OVER, "9D", "must_trump_unless_partner_wins", {"JD"}),  # the 9D is winning
    # The opponent trumps under the partner with the QD: an opponent has trumped, so seat 3
    # must go above every trump in the trick, the partner's 10D too: J, 9 and A do.
    (UNDER, "QD", "must_trump", {"JD", "9D", "AD"}),
    (UNDER, "QD", "must_trump_unless_partner_wins", set(UNDER[3])),  # the 10D is winning
])
def test_over_trumping_is_owed_once_an_opponent_has_trumped(
        deal: list[list[str]], seat_2_plays: str, reading: str, seat_3: set[str]) -> None:
    game = start(deal, taker=3, first_leader="dealer_right", void_in_hokum=reading)
    play(game, *SEAT_3_HOKUM, "play AH", "play 10D", f"play {seat_2_plays}")
    assert game.current_player == 3
    assert plays(game) == {f"play {c}" for c in seat_3}
    if reading == "must_trump":
        with pytest.raises(IllegalAction) as refused:
            game.apply("play 7C")
        assert refused.value.rule == "play_a_card" and "must trump" in refused.value.message


# ---- declaring projects -----------------------------------------------------------------

@pytest.mark.parametrize(("reading", "offered"), [
    ("natural", ["declare sira KS QS JS", "declare fifty 10C 9C 8C 7C"]),
    # In the sun rank order A 10 K Q J 9 8 7, the 10 does not touch the 9.
    ("rank_order", ["declare sira KS QS JS", "declare sira 9C 8C 7C"]),
])
def test_sequence_order(reading: str, offered: list[str]) -> None:
    game = start(VOID, taker=0, sequence_order=reading)
    play(game, "sun", "pass", "pass", "pass")
    assert game.current_player == 0
    assert declarations(game) == offered


@pytest.mark.parametrize(("reading", "offered"), [
    ("hundred_only", ["declare hundred AS KS QS JS 10S 9S 8S 7S"]),
    ("hundred_and_rest", ["declare hundred AS KS QS JS 10S", "declare sira 9S 8S 7S"]),
])
def test_long_sequence(reading: str, offered: list[str]) -> None:
    game = start(ONE_SUIT_EACH, long_sequence=reading)
    play(game, "sun", "pass", "pass", "pass")
    assert declarations(game) == offered
    if reading == "hundred_and_rest":
        game.apply(offered[0])
        assert declarations(game) == [offered[1]]


@pytest.mark.parametrize(("overrides", "offered"), [
    ({}, ["declare four_hundred AS AH AD AC"]),
    ({"low_four_of_a_kind": "nines_hundred"},
     ["declare hundred 9S 9H 9D 9C", "declare four_hundred AS AH AD AC"]),
])
def test_four_of_a_kind_in_sun(overrides: dict[str, str], offered: list[str]) -> None:
    game = start(FOURS, readings=overrides)
    play(game, "sun", "pass", "pass", "pass")
    assert declarations(game) == offered


@pytest.mark.parametrize(("reading", "offered"), [
    ("hundred", ["declare hundred AS AH AD AC"]),
    ("four_hundred", ["declare four_hundred AS AH AD AC"]),
])
def test_four_aces_in_hokum(reading: str, offered: list[str]) -> None:
    game = start(FOURS, aces_in_hokum=reading)
    play(game, "hokum", "pass", "pass", "pass", "hokum", "pass", "pass")
    assert declarations(game) == offered


def test_declaration_limits() -> None:
    game = start(FOURS)
    play(game, "sun", "pass", "pass", "pass")
    play(game, "declare four_hundred AS AH AD AC", "play AS")
    # Seat 1: two hundreds, then no more (PROJ.2); a card counts once (PROJ.8).
    assert declarations(game) == ["declare hundred 10S 10H 10D 10C", "declare hundred KS KH KD KC"]
    game.apply("declare hundred 10S 10H 10D 10C")
    with pytest.raises(IllegalAction) as refused:
        game.apply("declare hundred 10S 10H 10D 10C")
    assert refused.value.rule == "declare"
    game.apply("declare hundred KS KH KD KC")
    assert declarations(game) == []
    # Seat 3 holds four 8s and four 7s: no project (PROJ.5, A21).
    play(game, "play KS", "play QS")
    assert declarations(game) == []
    game.apply("play 8S")
    # The first trick is over: no more declarations (PROJ.1).
    with pytest.raises(IllegalAction) as refused:
        game.apply("declare hundred 9S 9H 9D 9C")
    assert refused.value.rule == "declare"


# ---- scoring projects ----------------------------------------------------------------------
# Sun, seat 0 leads. Tricks 1-4: A K Q 8 of each suit, seat 0: 18 each = 72. Tricks 5-8:
# 9 10 J 7 of each suit, the 10 wins: seat 1, 12 each = 48, +10 for the last = 58.
# Declared: seat 0 four aces (400: 40 in sun), seat 1 four 10s and four kings (20 + 20),
# seat 2 four jacks and four queens (20 + 20).
FOURS_ROUND = [
    "sun", "pass", "pass", "pass",
    "declare four_hundred AS AH AD AC", "play AS",
    "declare hundred 10S 10H 10D 10C", "declare hundred KS KH KD KC", "play KS",
    "declare hundred JS JH JD JC", "declare hundred QS QH QD QC", "play QS",
    "play 8S",
    "play AH", "play KH", "play QH", "play 8H",
    "play AD", "play KD", "play QD", "play 8D",
    "play AC", "play KC", "play QC", "play 8C",
    "play 9S", "play 10S", "play JS", "play 7S",
    "play 10H", "play JH", "play 7H", "play 9H",
    "play 10D", "play JD", "play 7D", "play 9D",
    "play 10C", "play JC", "play 7C", "play 9C",
]


def kinds(r: dict[str, Any]) -> list[list[str]]:
    return [sorted(p["kind"] for p in team) for team in r["projects"]]


def test_projects_literal() -> None:
    game = start(FOURS)
    play(game, *FOURS_ROUND)
    r = result(game)
    assert r["card_bunts"] == [72, 48] and r["last_trick_bunts"] == [0, 10]
    assert kinds(r) == [["four_hundred", "hundred", "hundred"], ["hundred", "hundred"]]
    # A6 bunts_before_rounding: 72 + 80 = 152 -> 150 -> 30; 58 + 40 = 98 -> 100 -> 20.
    assert r["points"] == [30, 20]
    # A4 margin_points: 30 - 20 = 10 is not more than 13: failure, 26 to team 1.
    assert (r["success"], r["added"]) == (False, [0, 26])


def test_projects_federation() -> None:
    game = start(FOURS, profile="federation")
    play(game, *FOURS_ROUND)
    r = result(game)
    # A7 best_team_only: the best project is the four hundred: team 0 scores all of its
    # projects (40 + 20 + 20 = 80), team 1 none.
    assert kinds(r) == [["four_hundred", "hundred", "hundred"], []]
    # A5: team 1's 58 -> 60 -> 12, team 0 26 - 12 = 14; A6: + 80 points after rounding.
    assert r["points"] == [94, 12]
    # A4 more_than_half_bunts: 72 + 80 x 5 bunts > 58.
    assert (r["success"], r["added"]) == (True, [94, 12])
