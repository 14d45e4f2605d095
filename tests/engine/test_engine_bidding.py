"""Bidding, by hand: who bids, what they may say, and what contract results.

All on the TWO_OF_EACH deal, dealer 3, so the bidding order is seats 0, 1, 2, 3
(from the dealer's right, BID.2, SETUP.3) and the face-up card is 8D.
"""

from __future__ import annotations

import pytest
from engine_helpers import TWO_OF_EACH, hand, play, start

from baloot.reference_impl import Game, IllegalAction, new_game, shuffled_deck


def contract(game: Game) -> tuple[str, str | None, int, int]:
    c = game.state.contract
    assert c is not None, "no contract yet"
    return c.kind.value, (c.trump.value if c.trump else None), c.bidder, c.taker


def test_explicit_deck_is_dealt_in_blocks_from_the_dealers_right() -> None:
    deck = shuffled_deck(7)
    game = new_game("literal", None, 1, deck)
    # Dealer 1: the order is seats 2, 3, 0, 1; five cards each, then deck[20] face up.
    for k, seat in enumerate([2, 3, 0, 1]):
        assert hand(game, seat) == deck[5 * k: 5 * k + 5]
    assert game.state.face_up is not None
    # Seat 2 bids sun; nobody takes it over (literal: each other player is asked once).
    play(game, "sun", "pass", "pass", "pass")
    # After the bidding, from deck[21] in the same order: seat 2 takes the face-up card and
    # two more, seats 3, 0 and 1 three each (SETUP.5, BID.1).
    assert hand(game, 2) == [*deck[0:5], deck[20], *deck[21:23]]
    assert hand(game, 3) == deck[5:10] + deck[23:26]
    assert hand(game, 0) == deck[10:15] + deck[26:29]
    assert hand(game, 1) == deck[15:20] + deck[29:32]


def test_first_and_third_bidders() -> None:
    game = start(TWO_OF_EACH)
    assert game.current_player == 0
    assert game.legal_actions() == ["pass", "hokum", "sun"]
    with pytest.raises(IllegalAction) as refused:
        game.apply("ashkal")
    assert refused.value.rule == "call_in_open_bidding"
    play(game, "pass", "pass")
    assert game.current_player == 2
    assert game.legal_actions() == ["pass", "hokum", "sun", "ashkal"]


def test_sun_overcall_last_caller_wins() -> None:
    game = start(TWO_OF_EACH, sun_overcall="last_caller_wins")
    play(game, "pass", "sun")
    # Each other player is asked once, in turn from seat 1's right: 2, 3, 0.
    assert game.current_player == 2
    assert game.legal_actions() == ["pass", "sun", "ashkal"]
    play(game, "sun", "pass")
    assert game.current_player == 0
    assert game.legal_actions() == ["pass", "sun"]
    game.apply("sun")
    assert contract(game) == ("sun", None, 0, 0)
    # Sun at 0 to 0 points: no raises (RAISE.3); the bid winner leads (PLAY.1).
    assert game.phase == "playing"
    assert game.current_player == 0


def test_sun_overcall_earlier_seat_priority() -> None:
    game = start(TWO_OF_EACH, sun_overcall="earlier_seat_priority")
    play(game, "pass", "sun")
    # Seats 2 and 3 bid after seat 1: they may only pass. Seat 0 bid before: it may take it.
    assert game.legal_actions() == ["pass"]
    game.apply("pass")
    assert game.legal_actions() == ["pass"]
    game.apply("pass")
    assert game.current_player == 0
    assert game.legal_actions() == ["pass", "sun"]
    game.apply("sun")
    assert contract(game) == ("sun", None, 0, 0)


def test_sun_ends_bidding() -> None:
    game = start(TWO_OF_EACH, sun_overcall="sun_ends_bidding")
    game.apply("sun")
    assert contract(game) == ("sun", None, 0, 0)
    assert game.phase == "playing"


@pytest.mark.parametrize(("reading", "asked"), [
    ("all_others", [2, 3, 0]),      # BID.4: every other player, seat 0 (who passed) included
    ("not_yet_passed", [2, 3]),     # BID.8 read back: only those who have not passed
])
def test_who_answers_a_hokum_bid(reading: str, asked: list[int]) -> None:
    game = start(TWO_OF_EACH, hokum_answer=reading)
    play(game, "pass", "hokum")
    for seat in asked:
        assert game.current_player == seat
        assert game.legal_actions()[0] == "pass"
        assert "hokum" not in game.legal_actions()
        game.apply("pass")
    # All passed: the hokum bidder stays or switches (BID.4).
    assert game.current_player == 1
    assert game.legal_actions() == ["hokum", "sun"]
    game.apply("hokum")
    # First session: the trump is the face-up card's suit (BID.3).
    assert contract(game) == ("hokum", "D", 1, 1)
    # Hokum: the raising follows; the bid winner's opponents are asked first (RAISE.1).
    assert game.phase == "raising"
    assert game.current_player == 2


def test_hokum_bidder_switches_to_sun() -> None:
    game = start(TWO_OF_EACH)
    play(game, "hokum", "pass", "pass", "pass", "sun")
    assert contract(game) == ("sun", None, 0, 0)


def test_second_session_names_another_trump() -> None:
    game = start(TWO_OF_EACH)
    play(game, "pass", "pass", "pass", "pass")  # BID.7: the second session starts at once
    assert game.phase == "bidding"
    assert game.current_player == 0
    play(game, "pass", "hokum")
    # BID.8: only the players who have not passed yet answer: seats 2 and 3.
    play(game, "pass", "pass")
    assert game.current_player == 1
    # Staying with hokum names the trump, never the face-up suit (8D).
    assert game.legal_actions() == ["hokum S", "hokum H", "hokum C", "sun"]
    with pytest.raises(IllegalAction) as refused:
        game.apply("hokum D")
    assert refused.value.rule == "hokum_bidder_choice"
    assert "BID.8" in refused.value.clauses
    game.apply("hokum S")
    assert contract(game) == ("hokum", "S", 1, 1)


def test_second_session_sun_ends_bidding() -> None:
    game = start(TWO_OF_EACH, sun_overcall="last_caller_wins")
    play(game, "pass", "pass", "pass", "pass", "pass", "sun")
    assert contract(game) == ("sun", None, 1, 1)


@pytest.mark.parametrize(("reading", "next_dealer"), [("same_dealer", 3), ("next_dealer", 0)])
def test_all_pass_twice_redeals(reading: str, next_dealer: int) -> None:
    game = start(TWO_OF_EACH, redeal_dealer=reading)
    play(game, *["pass"] * 8)
    assert game.phase == "deal"
    assert game.current_player is None
    assert game.legal_actions() == []
    game.deal(shuffled_deck(3))
    assert game.phase == "bidding"
    assert game.state.dealer == next_dealer
    assert game.current_player == (next_dealer + 1) % 4


@pytest.mark.parametrize(("reading", "bidder"), [
    ("third_fourth_any_session", 2),
    ("partner_is_bidder", 0),
    ("partner_is_bidder_any_session", 0),
])
def test_ashkal_gives_the_card_to_the_partner(reading: str, bidder: int) -> None:
    game = start(TWO_OF_EACH, taker=0, ashkal=reading)
    play(game, "pass", "pass", "ashkal", "pass", "pass", "pass")
    c = game.state.contract
    assert c is not None
    assert (c.kind.value, c.caller, c.taker, c.bidder, c.ashkal) == ("sun", 2, 0, bidder, True)
    # Seat 0, the caller's partner, got the face-up 8D and two more; seat 2 three more.
    assert hand(game, 0) == TWO_OF_EACH[0]
    assert hand(game, 2) == TWO_OF_EACH[2]
    # The bidder leads (PLAY.1, A16 bid_winner).
    assert game.current_player == bidder


@pytest.mark.parametrize(("reading", "offered"), [
    ("third_fourth_any_session", True),
    ("third_fourth_first_session", False),
    ("partner_is_bidder", False),
    ("partner_is_bidder_any_session", True),
])
def test_ashkal_in_the_second_session(reading: str, offered: bool) -> None:
    game = start(TWO_OF_EACH, ashkal=reading)
    play(game, *["pass"] * 6)
    assert game.current_player == 2
    assert ("ashkal" in game.legal_actions()) == offered


@pytest.mark.parametrize(("reading", "bidder"), [
    ("third_fourth_any_session", 2),
    ("partner_is_bidder_any_session", 0),
])
def test_second_session_ashkal_makes_the_bidder_the_reading_says(reading: str,
                                                                 bidder: int) -> None:
    game = start(TWO_OF_EACH, taker=0, ashkal=reading)
    # BID.7: in the second session a sun call, ashkal included, ends the bidding at once.
    play(game, *["pass"] * 6, "ashkal")
    c = game.state.contract
    assert c is not None
    assert (c.kind.value, c.caller, c.taker, c.bidder) == ("sun", 2, 0, bidder)
    assert game.current_player == bidder  # the bidder leads (PLAY.1, A16 bid_winner)
