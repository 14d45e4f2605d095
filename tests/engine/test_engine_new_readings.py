"""Readings of the game as played that the register gained from its sources, worked by
hand: A12 points_and_projects_capped (the projects doubled at most); A25 ashkal_limits (no
ashkal on a face-up ace, none after a pass); A10 each_raiser_chooses (the tripler and the
quadrupler call their raise closed or open too, gahwa always open); A4 more_points_app_ties
(the ties of the Kammelna app: a sun tie split, a raised hokum tie lost by the doubler, an
unraised one by the bidder); A26 double_order (who is asked first to double); A27
reverse_kaboot (88 to the defenders who sweep a sun bid winner at the dealer's right
holding an ace); A28 kawesh (a hand of 7s, 8s and 9s voids the deal, the same dealer
dealing again)."""

from __future__ import annotations

import dataclasses

import pytest
from engine_helpers import TWO_OF_EACH, play, plays, result, start, with_totals

from baloot.conformance.harness.deal_layout import deck_for_hands
from baloot.reference_impl import IllegalAction
from baloot.reference_impl.definitions import Mode
from baloot.reference_impl.readings import PROFILES
from baloot.reference_impl.scoring_rules import (
    bidder_succeeds,
    failure_points,
    round_points,
    success_points,
)

LITERAL = PROFILES["literal"]

# ---- A12: the projects capped at x2 under the triple, the four and gahwa ---------------------

CAPPED = dataclasses.replace(LITERAL, multipliers="points_and_projects_capped")


def test_capped_projects_in_points() -> None:
    """Hokum, A6 points_after_rounding, A5 each_team: team 0 149 bunts (15 points) with a sira
    (2) and a baloot (2), team 1 13 bunts (1 point) with a fifty (5). The cards take the whole
    raise, the sira and the fifty at most x2, the baloot none."""
    readings = dataclasses.replace(CAPPED, project_units="points_after_rounding")

    def points(multiplier: int) -> list[int]:
        return round_points(readings, Mode.HOKUM, [149, 13], [4, 5], [2, 0], multiplier, 0)

    assert points(1) == [15 + 4, 1 + 5]
    assert points(2) == [(15 + 2) * 2 + 2, (1 + 5) * 2]  # 36, 12: as but_baloot at the double
    assert points(3) == [15 * 3 + 2 * 2 + 2, 1 * 3 + 5 * 2]  # 51, 13
    assert points(4) == [15 * 4 + 2 * 2 + 2, 1 * 4 + 5 * 2]  # 66, 14
    but_baloot = dataclasses.replace(readings, multipliers="points_and_projects_but_baloot")
    assert round_points(but_baloot, Mode.HOKUM, [149, 13], [4, 5], [2, 0], 3, 0) == [53, 18]


def test_capped_projects_in_bunts() -> None:
    """A6 bunts_before_rounding: the sira 20 bunts, the baloot 20, the fifty 50. Tripled: the
    cards alone 149 -> 15 and 13 -> 1, x3; the sira and the fifty add what they add to the
    cards, 169 -> 17 (+2) and 63 -> 6 (+5), x2; the baloot what it adds then, 189 -> 19 (+2)."""
    readings = dataclasses.replace(CAPPED, project_units="bunts_before_rounding")
    got = round_points(readings, Mode.HOKUM, [149, 13], [40, 50], [20, 0], 3, 0)
    assert got == [15 * 3 + 2 * 2 + 2, 1 * 3 + 5 * 2]


def test_capped_projects_on_failure() -> None:
    """A8 maximum_and_all_projects, hokum, tripled, the bidder (team 0) failed: team 1 takes
    16 x 3, both teams' sira and fifty (2 + 5) doubled only, and the baloot (2) unmultiplied."""
    readings = dataclasses.replace(CAPPED, project_units="points_after_rounding",
                                   projects_on_failure="maximum_and_all_projects")
    assert failure_points(readings, Mode.HOKUM, [4, 5], [2, 0], 3, 0) == [0, 48 + 14 + 2]


# ---- A25: the limits on ashkal ----------------------------------------------------------------

# TWO_OF_EACH with seat 0's 8D and AH swapped: seat 0's sixth card, the face-up card when
# seat 0 takes it, is the AH. Dealer 3: seats 0, 1, 2, 3 bid in that order, so seats 2 (the
# dealer's left) and 3 (the dealer) are the third and fourth bidders of A14.
ACE_UP = [["AS", "7S", "8D", "7H", "7D", "AH", "7C", "8C"], *TWO_OF_EACH[1:]]


@pytest.mark.parametrize(("reading", "offered"), [
    ("unlimited", True),
    ("no_ace", False),
    ("not_after_pass", True),
    ("no_ace_not_after_pass", False),
])
def test_ashkal_on_a_face_up_ace(reading: str, offered: bool) -> None:
    """Seats 0 and 1 pass; seat 2, the third bidder, has the face-up AH before it."""
    game = start(ACE_UP, ashkal_limits=reading)
    assert game.state.face_up.rank.value == "A"
    play(game, "pass", "pass")
    assert game.current_player == 2
    expected = ["pass", "hokum", "sun", "ashkal"] if offered else ["pass", "hokum", "sun"]
    assert game.legal_actions() == expected
    if not offered:
        before = game.to_json()
        with pytest.raises(IllegalAction):
            game.apply("ashkal")
        assert game.to_json() == before


def test_no_ace_leaves_other_face_up_cards() -> None:
    """The face-up 8D of TWO_OF_EACH: the ace limit does not touch it."""
    game = start(TWO_OF_EACH, ashkal_limits="no_ace")
    play(game, "pass", "pass")
    assert game.legal_actions() == ["pass", "hokum", "sun", "ashkal"]


@pytest.mark.parametrize(("reading", "offered"), [
    ("unlimited", True),
    ("no_ace", True),
    ("not_after_pass", False),
    ("no_ace_not_after_pass", False),
])
def test_ashkal_after_a_pass(reading: str, offered: bool) -> None:
    """A3 all_others: seats 0, 1 and 2 pass, the dealer (seat 3) bids hokum, and the three
    are asked again from seat 3's right: 0, 1, then 2, who passed before and is the third
    bidder. A sun call stays open to seat 2 under every reading."""
    game = start(TWO_OF_EACH, ashkal_limits=reading, hokum_answer="all_others")
    play(game, "pass", "pass", "pass", "hokum", "pass", "pass")
    assert game.current_player == 2
    expected = ["pass", "sun", "ashkal"] if offered else ["pass", "sun"]
    assert game.legal_actions() == expected
    if not offered:
        before = game.to_json()
        with pytest.raises(IllegalAction):
            game.apply("ashkal")
        assert game.to_json() == before


def test_the_hokum_bidder_has_not_passed() -> None:
    """As above under not_after_pass: seat 2 answers sun, and under A2 last_caller_wins seats
    3, 0 and 1 are asked in turn. Seat 3 bid hokum and never passed: the dealer may ashkal."""
    game = start(TWO_OF_EACH, ashkal_limits="not_after_pass", hokum_answer="all_others",
                 sun_overcall="last_caller_wins")
    play(game, "pass", "pass", "pass", "hokum", "pass", "pass", "sun")
    assert game.current_player == 3
    assert game.legal_actions() == ["pass", "sun", "ashkal"]


def test_a_pass_of_the_first_session_does_not_count_in_the_second() -> None:
    """All four pass in the first session; seats 0 and 1 pass in the second. Seat 2 passed in
    the first session only, so it may ashkal (A14 third_fourth_any_session)."""
    game = start(TWO_OF_EACH, ashkal_limits="not_after_pass")
    play(game, *["pass"] * 6)
    assert game.state.session == 2
    assert game.current_player == 2
    assert game.legal_actions() == ["pass", "hokum", "sun", "ashkal"]


# ---- A10 each_raiser_chooses: every raiser calls the raise closed or open ---------------------

# TWO_OF_EACH in hokum: seat 0 bids hokum, seats 1, 2 and 3 pass, and seat 0 stays with
# hokum; the trump is the face-up card's suit, diamonds. Seat 1 doubles, seat 0 triples, seat 1
# makes it four, seat 0 declares gahwa (RAISE.1). Seat 0 leads the first trick (A16 bid_winner)
# holding AS 7S AH 7H 7D 8D 7C 8C: two trumps and six cards of other suits, so in a locked
# round (RAISE.2) it may lead any card but the 7D and the 8D.
HOKUM_STAYED = ("hokum", "pass", "pass", "pass", "hokum")
EVERY_CARD = {f"play {c}" for c in TWO_OF_EACH[0]}
NO_TRUMP_LEAD = EVERY_CARD - {"play 7D", "play 8D"}


def test_each_raiser_offers_both_forms() -> None:
    """The double, the triple and the four each come closed or open; gahwa comes plain."""
    game = start(TWO_OF_EACH, locked_round="each_raiser_chooses")
    play(game, *HOKUM_STAYED)
    assert game.legal_actions() == ["pass", "double closed", "double open"]
    game.apply("double open")
    assert game.legal_actions() == ["pass", "triple closed", "triple open"]
    game.apply("triple open")
    assert game.legal_actions() == ["pass", "four closed", "four open"]
    game.apply("four open")
    assert game.legal_actions() == ["pass", "gahwa"]


def test_a_closed_triple_locks() -> None:
    """An open double leaves the round open; the bid winner's closed triple locks it, and
    the doubler's pass starts the play locked: seat 0 may not lead a diamond."""
    game = start(TWO_OF_EACH, locked_round="each_raiser_chooses")
    play(game, *HOKUM_STAYED, "double open")
    assert game.state.locked is False
    play(game, "triple closed")
    assert game.state.locked is True
    play(game, "pass")
    assert game.phase == "playing" and game.current_player == 0
    assert game.state.multiplier == 3
    assert plays(game) == NO_TRUMP_LEAD


def test_an_open_four_unlocks() -> None:
    """A closed double and a closed triple lock the round; the doubler's open four opens it
    again (the latest call holds), and the bid winner's pass starts the play open."""
    game = start(TWO_OF_EACH, locked_round="each_raiser_chooses")
    play(game, *HOKUM_STAYED, "double closed", "triple closed")
    assert game.state.locked is True
    play(game, "four open", "pass")
    assert game.state.locked is False
    assert game.state.multiplier == 4
    assert plays(game) == EVERY_CARD


def test_gahwa_is_open() -> None:
    """Closed at every raise, then gahwa: the round is open, and every card may be led."""
    game = start(TWO_OF_EACH, locked_round="each_raiser_chooses")
    play(game, *HOKUM_STAYED, "double closed", "triple closed", "four closed")
    assert game.state.locked is True
    play(game, "gahwa")
    assert game.state.locked is False
    assert game.phase == "playing"
    assert plays(game) == EVERY_CARD


@pytest.mark.parametrize(("reading", "refused"), [
    ("each_raiser_chooses", "triple"),  # the triple must be called closed or open
    ("doubler_chooses", "triple closed"),  # only the double is
    ("doubler_chooses_bidder_opens", "triple open"),
    ("double_and_four", "double closed"),
])
def test_the_form_of_a_raise(reading: str, refused: str) -> None:
    game = start(TWO_OF_EACH, locked_round=reading)
    play(game, *HOKUM_STAYED)
    if refused.startswith("triple"):
        game.apply("double closed")
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(refused)
    assert game.to_json() == before


def test_sun_raises_stay_plain() -> None:
    """Sun is never locked (RAISE.2 speaks of hokum cards): its raises are plain under
    each_raiser_chooses too. Seat 0 bids sun with its team at 110 and the other at 50, inside
    the literal gate (A11 gate_strict_all, RAISE.3); seats 1, 2 and 3 pass on it (A2
    last_caller_wins asks each in turn)."""
    game = with_totals(start(TWO_OF_EACH, locked_round="each_raiser_chooses"), [110, 50])
    play(game, "sun", "pass", "pass", "pass")
    assert game.legal_actions() == ["pass", "double"]
    play(game, "double")
    assert game.legal_actions() == ["pass", "triple"]
    play(game, "triple")
    assert game.legal_actions() == ["pass", "four"]
    play(game, "four")
    assert game.state.locked is False


# ---- A4: the app's ties (more_points_app_ties, SCORE.9) ----------------------------------------

APP_TIES = dataclasses.replace(LITERAL, bidder_success="more_points_app_ties")


def test_a_sun_tie_is_split() -> None:
    """Sun, team 0 bids, 65 bunts to 65 (130 with the last trick). SCORE.7: 65 ends in 5, so
    65 x 2 / 10 = 13 points each: a tie in points, and in bunts. The app splits it: the bidder
    does not fail, and each team keeps its own 13 (SCORE.9, no SCORE.10 maximum). With a bunt
    fewer on the same tie in points the bidder fails; under more_than_half_bunts a tie fails."""
    points = round_points(APP_TIES, Mode.SUN, [65, 65], [0, 0], [0, 0], 1, 0)
    assert points == [13, 13]
    assert bidder_succeeds(APP_TIES, Mode.SUN, 0, points, [65, 65], points, False, 1)
    assert success_points(APP_TIES, Mode.SUN, [65, 65], [0, 0], [0, 0], 1, 0) == [13, 13]
    assert not bidder_succeeds(APP_TIES, Mode.SUN, 0, points, [64, 66], points, False, 1)
    assert bidder_succeeds(APP_TIES, Mode.SUN, 0, points, [66, 64], points, False, 1)
    old = dataclasses.replace(APP_TIES, bidder_success="more_than_half_bunts")
    assert not bidder_succeeds(old, Mode.SUN, 0, points, [65, 65], points, False, 1)


def test_a_doubled_hokum_tie_is_lost_by_the_doubler() -> None:
    """Hokum, team 0 bids, 80 bunts to 82. SCORE.8: 80 -> 8, 82 -> 8.2 -> 8: a tie in points,
    the bidder two bunts fewer. Doubled by seat 1 (team 1, the only team that doubles,
    RAISE.1): the doubler's team loses the tie and the bidder succeeds, each team then keeping
    8 x 2 = 16 (A24 each_keeps_share). Were the doubler of the bidder's team, it would lose."""
    points = round_points(APP_TIES, Mode.HOKUM, [80, 82], [0, 0], [0, 0], 1, 0)
    assert points == [8, 8]
    assert bidder_succeeds(APP_TIES, Mode.HOKUM, 0, points, [80, 82], points, True, 1)
    assert bidder_succeeds(APP_TIES, Mode.HOKUM, 0, points, [81, 81], points, True, 1)
    assert success_points(APP_TIES, Mode.HOKUM, [80, 82], [0, 0], [0, 0], 2, 0) == [16, 16]
    assert not bidder_succeeds(APP_TIES, Mode.HOKUM, 0, points, [82, 80], points, True, 0)
    old = dataclasses.replace(APP_TIES, bidder_success="more_than_half_bunts")
    assert not bidder_succeeds(old, Mode.HOKUM, 0, points, [80, 82], points, True, 1)


def test_an_unraised_hokum_tie() -> None:
    """The same tie in points, unraised (no doubler): the bidder succeeds only with more bunts,
    82 to 80; at 81 to 81 ('exactly half') and at 80 to 82 it fails, and the other team takes
    the 16 of SCORE.10."""
    points = [8, 8]
    assert bidder_succeeds(APP_TIES, Mode.HOKUM, 0, points, [82, 80], points, False, 1)
    assert not bidder_succeeds(APP_TIES, Mode.HOKUM, 0, points, [81, 81], points, False, 1)
    assert not bidder_succeeds(APP_TIES, Mode.HOKUM, 0, points, [80, 82], points, False, 1)
    assert failure_points(APP_TIES, Mode.HOKUM, [0, 0], [0, 0], 1, 0) == [0, 16]


def test_baloot_is_set_aside_from_the_points_compared() -> None:
    """Hokum, A6 points_after_rounding, team 0 bids with a baloot: 75 bunts to 87. SCORE.8:
    75 -> 7.5 -> 7 (an exact .5 dropped), 87 -> 8.7 -> 9. With the baloot's 2 the points are
    9 to 9, but the app compares them without it, 7 to 9: the bidder fails. more_than_half_bunts
    counts the baloot's 20 bunts, 95 to 87, and the bidder succeeds."""
    readings = dataclasses.replace(APP_TIES, project_units="points_after_rounding")
    with_baloot = round_points(readings, Mode.HOKUM, [75, 87], [2, 0], [2, 0], 1, 0)
    plain = round_points(readings, Mode.HOKUM, [75, 87], [0, 0], [0, 0], 1, 0)
    assert with_baloot == [9, 9] and plain == [7, 9]
    assert not bidder_succeeds(readings, Mode.HOKUM, 0, with_baloot, [95, 87], plain, False, 1)
    old = dataclasses.replace(readings, bidder_success="more_than_half_bunts")
    assert bidder_succeeds(old, Mode.HOKUM, 0, with_baloot, [95, 87], plain, False, 1)


# A26 double_order: which opponent is asked first to double. The dealer is seat 3,
# so the bidding order of BID.2 is 0, 1, 2, 3. Seat 1 (the dealer's partner) wins a
# hokum bid: its opponents are seat 2 (its right, the next in play) and seat 0 (the
# dealer's right, the first in the bidding order). Seat 2 (the dealer's left) wins
# one: its opponents are seat 3 (its right, the dealer, last in the bidding order)
# and seat 1 (second in the bidding order). Seat 0 (the dealer's right) wins one:
# its right, seat 1, is also the earlier of its opponents in the bidding order.
SEAT_1_HOKUM = ("pass", "hokum", "pass", "pass", "pass", "hokum")
SEAT_2_HOKUM = ("pass", "pass", "hokum", "pass", "pass", "pass", "hokum")


@pytest.mark.parametrize(("reading", "bidding", "first", "second"), [
    ("bidder_right", SEAT_1_HOKUM, 2, 0),
    ("dealer_right_first", SEAT_1_HOKUM, 0, 2),
    ("bidder_right", SEAT_2_HOKUM, 3, 1),
    ("dealer_right_first", SEAT_2_HOKUM, 1, 3),
    ("bidder_right", HOKUM_STAYED, 1, 3),
    ("dealer_right_first", HOKUM_STAYED, 1, 3),
])
def test_who_is_asked_to_double(reading: str, bidding: tuple[str, ...], first: int,
                                second: int) -> None:
    """The first opponent asked, and after its pass the other one; then the play."""
    game = start(TWO_OF_EACH, double_order=reading)
    play(game, *bidding)
    assert list(game.state.asking) == [first, second]
    assert game.legal_actions() == ["pass", "double"]
    game.apply("pass")
    assert list(game.state.asking) == [second]
    game.apply("pass")
    assert game.state.phase.value == "playing"


def test_the_later_raises_follow_the_doubler() -> None:
    """Under dealer_right_first seat 0 doubles seat 1's hokum first: the bid winner (1)
    triples, the doubler (0) is asked for the four, the bid winner for gahwa."""
    game = start(TWO_OF_EACH, double_order="dealer_right_first")
    play(game, *SEAT_1_HOKUM, "double")
    assert list(game.state.asking) == [1]
    game.apply("triple")
    assert list(game.state.asking) == [0]
    game.apply("four")
    assert list(game.state.asking) == [1]


# ---- A27: the reverse kaboot ------------------------------------------------------------------


def tricks(text: str) -> list[str]:
    """The cards of whole tricks, written four by four."""
    return text.split()


# Seat 0 holds the AC and nothing else above a jack; seat 1 the ace, ten and king of spades
# and of hearts, seat 3 those of diamonds with the KC and 10C; seat 2, seat 0's partner, the
# rest. No hand holds a project. Seat 0's sixth card, 9D, is the face-up card.
SWEPT_WITH_AN_ACE = [
    ["7S", "JS", "7H", "9H", "7D", "9D", "8C", "AC"],
    ["AS", "10S", "KS", "AH", "10H", "KH", "8D", "9C"],
    ["9S", "8S", "JH", "QD", "JD", "QC", "JC", "7C"],
    ["AD", "10D", "KD", "KC", "10C", "QS", "QH", "8H"],
]
# Seat 0 leads the 7S into the AS; seat 1 leads its 10S, KS, AH, 10H, KH, each the highest of
# its suit still out (sun: A, 10, K, Q, J, 9, 8, 7), seat 0 throwing the AC on the KS; then
# the 8D to seat 3's AD, and seat 3's 10D takes the last trick above the QD and the 9D.
SWEEP_LED_BY_SEAT_0 = [f"play {card}" for card in tricks(
    "7S AS 8S QS  10S 9S KC JS  KS 7C 10C AC  AH JH QH 7H  "
    "10H JC 8H 9H  KH QC KD 8C  8D JD AD 7D  10D 9D 9C QD")]


@pytest.mark.parametrize(("reading", "added"), [
    ("as_any_kaboot", [0, 44]),
    ("sun_dealer_right_ace", [0, 88]),
])
def test_a_sweep_of_the_dealer_right_sun_bidder_holding_an_ace(reading: str,
                                                               added: list[int]) -> None:
    """Dealer 3: seat 0, at the dealer's right, bids sun and leads; team 1 wins every trick.
    The face-up card is a 9, so A9 flat_44 gives 44; the reverse kaboot gives 88 instead."""
    game = start(SWEPT_WITH_AN_ACE, reverse_kaboot=reading)
    play(game, "sun", "pass", "pass", "pass", *SWEEP_LED_BY_SEAT_0)
    got = result(game)
    assert got["kaboot"] == 1 and got["success"] is False
    assert got["card_bunts"] == [0, 120]
    assert got["added"] == added


def test_no_reverse_kaboot_without_an_ace() -> None:
    """The AC and the 7C change hands: seat 0 holds no ace, its partner throws the AC."""
    hands = [list(h) for h in SWEPT_WITH_AN_ACE]
    hands[0][7], hands[2][7] = "7C", "AC"
    moves = list(SWEEP_LED_BY_SEAT_0)
    moves[9], moves[11] = "play AC", "play 7C"
    game = start(hands, reverse_kaboot="sun_dealer_right_ace")
    play(game, "sun", "pass", "pass", "pass", *moves)
    assert result(game)["added"] == [0, 44]


def test_no_reverse_kaboot_away_from_the_dealer_right() -> None:
    """Dealer 2: seat 0 bids sun second in the order. Seat 3, at the dealer's right, leads
    (A16 dealer_right): its AD, 10D, KD (seat 0 throws the AC on the KD), KC and 10C, then
    the QS into seat 1's AS; seat 1's 10S and KS take the last two tricks."""
    game = start(SWEPT_WITH_AN_ACE, dealer=2, reverse_kaboot="sun_dealer_right_ace",
                 first_leader="dealer_right")
    play(game, "pass", "sun", "pass", "pass", "pass")
    play(game, *[f"play {card}" for card in tricks(
    "AD 7D 8D JD  10D 9D KH QD  KD AC 10H 7C  KC 8C 9C QC  "
    "10C 7H AH JC  QS 7S AS 8S  10S 9S QH JS  KS JH 8H 9H")])
    got = result(game)
    assert got["kaboot"] == 1
    assert got["added"] == [0, 44]


# ---- A28: kawesh --------------------------------------------------------------------------

# Dealer 3, so seat 0 bids first. Seat 0's five cards before the bidding, 7S 8H 9D 7C 8S, are
# all 7s, 8s and 9s; seat 1's, AS 10S KH QH JD, are not. The face-up card is seat 0's sixth,
# QD.
WEAK_FIRST_BIDDER = [
    ["7S", "8H", "9D", "7C", "8S", "QD", "AH", "JC"],
    ["AS", "10S", "KH", "QH", "JD", "9S", "10C", "7D"],
    ["KS", "QS", "JS", "10H", "9H", "AD", "8C", "9C"],
    ["AC", "KC", "QC", "10D", "KD", "JH", "7H", "8D"],
]


@pytest.mark.parametrize(("reading", "calls"), [
    ("no_kawesh", ["pass", "hokum", "sun"]),
    ("weak_hand_redeal", ["pass", "hokum", "sun", "kawesh"]),
])
def test_kawesh_is_offered_to_a_hand_of_sevens_eights_and_nines(reading: str,
                                                               calls: list[str]) -> None:
    game = start(WEAK_FIRST_BIDDER, kawesh=reading)
    assert game.current_player == 0
    assert game.legal_actions() == calls
    game.apply("pass")
    assert "kawesh" not in game.legal_actions()  # seat 1 holds an ace, a ten, ...


def test_kawesh_is_refused_without_the_reading() -> None:
    game = start(WEAK_FIRST_BIDDER, kawesh="no_kawesh")
    with pytest.raises(IllegalAction):
        game.apply("kawesh")
    assert game.current_player == 0 and game.state.bids == []


@pytest.mark.parametrize("redeal_dealer", ["same_dealer", "next_dealer"])
def test_after_a_kawesh_the_same_dealer_deals_again(redeal_dealer: str) -> None:
    """Whatever A20 says of a redeal after two rounds of passes, the kawesh dealer deals."""
    game = start(WEAK_FIRST_BIDDER, kawesh="weak_hand_redeal", redeal_dealer=redeal_dealer)
    game.apply("kawesh")
    assert game.state.phase.value == "deal" and game.state.contract is None
    assert game.state.totals == [0, 0]
    game.deal(deck_for_hands(TWO_OF_EACH, 3, 0))
    assert game.state.dealer == 3 and game.current_player == 0
