"""The readings added from how Baloot is played (A9 sun_44_hokum_25_projects_unraised,
A10 doubler_chooses_bidder_opens, A18 hundred_cancels, A23 trump_lead, A24 raised_share)
and the unmultiplied projects of A6 bunts_before_rounding, by hand."""

from __future__ import annotations

import dataclasses

import pytest
from engine_helpers import TWO_OF_EACH, play, plays, start

from baloot.reference_impl import IllegalAction
from baloot.reference_impl.definitions import Card, Mode, Project, ProjectKind, Rank, Suit
from baloot.reference_impl.projects_rules import cancels_baloot
from baloot.reference_impl.readings import PROFILES, Kaboot, RaisedShare
from baloot.reference_impl.scoring_rules import (
    kaboot_result,
    kaboot_value,
    round_points,
    success_points,
)

# Seat 0 bids hokum on the face-up 7H and keeps it: hearts are trumps (order J 9 A 10 K Q
# 8 7); dealer 3, so seat 0 bids first and leads under both A16 readings. No hand holds a
# project. In OPPONENT seat 1 holds the 9H (above the ace) and the 8H (below it).
OPPONENT = [
    ["AS", "9S", "AD", "8D", "AH", "7H", "QC", "7C"],
    ["KS", "8S", "QD", "7D", "9H", "8H", "AC", "9C"],
    ["QS", "7S", "KD", "9D", "10H", "JH", "KC", "8C"],
    ["JS", "10S", "JD", "10D", "JC", "10C", "KH", "QH"],
]
# As OPPONENT, but seat 1 holds no heart; seat 2, seat 0's partner, holds the JH (above the
# ace) and the 10H (below it).
PARTNER = [
    ["AS", "9S", "AD", "8D", "AH", "7H", "QC", "7C"],
    ["KS", "JS", "8S", "QD", "7D", "AC", "KC", "9C"],
    ["QS", "7S", "KD", "9D", "10H", "JH", "JC", "8C"],
    ["10S", "JD", "10D", "10C", "KH", "QH", "9H", "8H"],
]
HOKUM_NO_RAISE = ["hokum", "pass", "pass", "pass", "hokum", "pass", "pass"]


# ---- A23: following a hokum lead ------------------------------------------------------

@pytest.mark.parametrize(("reading", "seat_1"), [
    ("any_trump", {"9H", "8H"}),  # PLAY.2 asks only for a heart
    ("must_overtrump", {"9H"}),  # only the 9 beats the ace
    ("must_overtrump_opponent", {"9H"}),  # the ace is an opponent's
])
def test_a_trump_lead_an_opponent_wins(reading: str, seat_1: set[str]) -> None:
    game = start(OPPONENT, trump_lead=reading)
    play(game, *HOKUM_NO_RAISE, "play AH")
    assert game.current_player == 1
    assert plays(game) == {f"play {c}" for c in seat_1}
    if "8H" not in seat_1:
        with pytest.raises(IllegalAction):
            game.apply("play 8H")


@pytest.mark.parametrize(("reading", "seat_2"), [
    ("any_trump", {"10H", "JH"}),
    ("must_overtrump", {"JH"}),  # the ace must be beaten, the partner's though it is
    ("must_overtrump_opponent", {"10H", "JH"}),  # the partner's ace is winning
])
def test_a_trump_lead_the_partner_wins(reading: str, seat_2: set[str]) -> None:
    game = start(PARTNER, trump_lead=reading)
    play(game, *HOKUM_NO_RAISE, "play AH", "play 9C")  # seat 1 has no heart: any card
    assert game.current_player == 2
    assert plays(game) == {f"play {c}" for c in seat_2}


def test_the_lead_of_another_suit_owes_no_over_trump() -> None:
    """A23 speaks of a hokum lead only: on a spade lead seat 1 follows with either spade."""
    game = start(OPPONENT, trump_lead="must_overtrump")
    play(game, *HOKUM_NO_RAISE, "play 9S")
    assert plays(game) == {"play KS", "play 8S"}


# ---- A10: the bid winner's raises open a closed double -----------------------------------

@pytest.mark.parametrize(("reading", "lock", "locked"), [
    # after: double, triple, four, gahwa
    ("doubler_chooses_bidder_opens", "closed", [True, False, True, False]),
    ("doubler_chooses_bidder_opens", "open", [False, False, False, False]),
    ("doubler_chooses", "closed", [True, True, True, True]),
])
def test_who_raised_last_decides_the_lock(reading: str, lock: str, locked: list[bool]) -> None:
    game = start(TWO_OF_EACH, locked_round=reading)
    play(game, "hokum", "pass", "pass", "pass", "hokum")
    assert game.legal_actions() == ["pass", "double closed", "double open"]
    for call, lock_now in zip([f"double {lock}", "triple", "four", "gahwa"], locked,
                              strict=True):
        game.apply(call)
        assert game.state.locked is lock_now, call


# ---- A18: only a hundred holding the K and Q cancels baloot ----------------------------------

def _card(text: str) -> Card:
    rank = {"K": Rank.KING, "Q": Rank.QUEEN, "J": Rank.JACK, "A": Rank.ACE, "10": Rank.TEN,
            "9": Rank.NINE, "8": Rank.EIGHT}
    suit = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
    return Card(suit=suit[text[-1]], rank=rank[text[:-1]])


def _project(kind: ProjectKind, *cards: str) -> Project:
    return Project(seat=0, kind=kind, cards=[_card(c) for c in cards])


PAIR = [_card("KH"), _card("QH")]


@pytest.mark.parametrize(("project", "cancels"), [
    (_project(ProjectKind.SIRA, "KH", "QH", "JH"), False),
    (_project(ProjectKind.FIFTY, "AH", "KH", "QH", "JH"), False),
    (_project(ProjectKind.HUNDRED, "AH", "KH", "QH", "JH", "10H"), True),
    (_project(ProjectKind.HUNDRED, "KS", "KH", "KD", "KC"), True),  # four kings
    (_project(ProjectKind.HUNDRED, "JS", "JH", "JD", "JC"), False),  # four jacks: no K or Q
    (_project(ProjectKind.HUNDRED, "QH", "JH", "10H", "9H", "8H"), False),  # no king
])
def test_what_takes_the_place_of_baloot(project: Project, cancels: bool) -> None:
    assert cancels_baloot(project.kind, project.cards, PAIR) is cancels


# ---- A24 and A6: the points of a raised round ------------------------------------------------

LITERAL = PROFILES["literal"]


def test_a_raised_round_the_bidder_wins() -> None:
    """Hokum, 140 bunts to 22, each team converted (SCORE.8): 14 and 2 points."""
    def share(reading: RaisedShare, multiplier: int) -> list[int]:
        readings = dataclasses.replace(LITERAL, raised_share=reading)
        return success_points(readings, Mode.HOKUM, [140, 22], [0, 0], [0, 0], multiplier, 0)

    assert share("each_keeps_share", 1) == share("winner_takes_all", 1) == [14, 2]
    assert share("each_keeps_share", 2) == [28, 4]  # each team's points doubled
    assert share("winner_takes_all", 2) == [32, 0]  # (14 + 2) x 2 to the bidding team
    assert share("winner_takes_all", 3) == [48, 0]


def test_unmultiplied_bunt_projects_add_what_they_add_unraised() -> None:
    """A6 bunts_before_rounding, A12 points_only, hokum: team 0 149 card bunts and a sira
    with baloot (2 + 2 bunts), team 1 13 bunts and a fifty (5). Unraised: 153 -> 15 and
    18 -> 2. Doubled: the cards alone 149 -> 15 and 13 -> 1, doubled to 30 and 2; the
    projects add what they add unraised, 15 - 15 = 0 and 2 - 1 = 1: [30, 3]. The baloot
    that rounding takes from team 0 is lost raised or not, never by the raise alone."""
    readings = dataclasses.replace(LITERAL, project_units="bunts_before_rounding",
                                   multipliers="points_only", rounding="each_team")
    def points(multiplier: int, projects: list[int]) -> list[int]:
        return round_points(readings, Mode.HOKUM, [149, 13], projects, [2, 0], multiplier, 0)

    assert points(1, [4, 5]) == [15, 2]
    assert points(2, [4, 5]) == [30, 3]
    # Baloot alone (2 bunts): 151 -> 15 unraised as 149 -> 15, so 15 x 2 + 0 doubled; with
    # 155 card bunts it crosses the boundary (157 -> 16 against 155 -> 15): +1 raised too.
    assert points(2, [2, 0])[0] == 30
    assert round_points(readings, Mode.HOKUM, [155, 7], [2, 0], [2, 0], 1, 0)[0] == 16
    assert round_points(readings, Mode.HOKUM, [155, 7], [2, 0], [2, 0], 2, 0)[0] == 15 * 2 + 1


# ---- A9: the kaboot of the Saudi apps ----------------------------------------------------

@pytest.mark.parametrize(("reading", "doubled"), [
    # 25 in hokum plus the sweeping team's 2-point baloot (A6 points_after_rounding)
    ("sun_44_hokum_25_projects_unraised", [27, 0]),  # a raise multiplies neither
    ("sun_44_hokum_25", [54, 0]),  # (25 + 2) x 2, A12 points_and_projects
])
def test_a_doubled_hokum_kaboot(reading: Kaboot, doubled: list[int]) -> None:
    readings = dataclasses.replace(LITERAL, kaboot=reading, project_units="points_after_rounding",
                                   multipliers="points_and_projects")
    game = start(TWO_OF_EACH)
    play(game, *["hokum", "pass", "pass", "pass", "hokum"])
    assert kaboot_value(readings, game.state) == 25  # hokum, whatever the face-up card
    for multiplier, want in ((1, [27, 0]), (2, doubled)):
        got = kaboot_result(readings, game.state, 0, [2, 0], [2, 0], multiplier, 0)
        assert got == want, multiplier
