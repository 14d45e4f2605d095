"""Helpers for the hand-worked engine tests: pinned deals and a few shortcuts.

Every test drives the generated reference engine through its runtime API
(`baloot.reference_impl.runtime`): `new_game`, `legal_actions`, `apply`,
`deal`, `round_result`, the state record, and `to_json`/`from_json`.
"""

from __future__ import annotations

import json
from typing import Any

from baloot.conformance.harness.deal_layout import deck_for_hands
from baloot.reference_impl import Game, new_game
from baloot.reference_impl.notation import card_text

ALL_SUITS = "SHDC"
RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]


def start(hands: list[list[str]], dealer: int = 3, taker: int = 0, profile: str = "literal",
          readings: dict[str, str] | None = None, **overrides: str) -> Game:
    """A game whose first round deals exactly `hands` (eight cards a seat, by seat).

    The first five cards of each hand are its first deal; the sixth card of the
    taker's hand is the face-up card (protocol dealing, conformance/harness/deal_layout.py).
    """
    chosen = {**(readings or {}), **overrides}
    return new_game(profile, chosen or None, dealer, deck_for_hands(hands, dealer, taker))


def play(game: Game, *actions: str) -> None:
    for action in actions:
        game.apply(action)


def plays(game: Game) -> set[str]:
    """The cards the player to act may play, as `play CARD` actions."""
    return {a for a in game.legal_actions() if a.startswith("play ")}


def hand(game: Game, seat: int) -> list[str]:
    return [card_text(c) for c in game.state.hands[seat]]


def with_totals(game: Game, totals: list[int]) -> Game:
    """The same game with other running totals, through the JSON round trip."""
    data = json.loads(game.to_json())
    data["state"]["totals"] = totals
    return Game.from_json(json.dumps(data))


def result(game: Game) -> dict[str, Any]:
    found = game.round_result()
    assert found is not None, "no round result yet"
    return found


# A deal where every player holds two cards of each suit, so that everyone can
# always follow suit; no hand holds a project (seat 0's four 7s are none, A21).
#   spades:   seat 0 AS 7S   seat 1 10S 8S   seat 2 KS 9S   seat 3 QS JS
#   hearts:   seat 0 AH 7H   seat 1 10H 8H   seat 2 KH 9H   seat 3 QH JH
#   diamonds: seat 0 7D 8D   seat 1 AD 9D    seat 2 10D JD  seat 3 KD QD
#   clubs:    seat 0 7C 8C   seat 1 9C JC    seat 2 AC 10C  seat 3 KC QC
# Seat 0's sixth card, 8D, is the face-up card when seat 0 takes it.
TWO_OF_EACH = [
    ["AS", "7S", "AH", "7H", "7D", "8D", "7C", "8C"],
    ["10S", "8S", "10H", "8H", "AD", "9D", "9C", "JC"],
    ["KS", "9S", "KH", "9H", "10D", "JD", "AC", "10C"],
    ["QS", "JS", "QH", "JH", "KD", "QD", "KC", "QC"],
]

# The sun round on TWO_OF_EACH with seat 0 leading, trick by trick (leader first).
SUN_TRICKS = [
    "play AS", "play 8S", "play 9S", "play JS",      # seat 0 leads; AS wins: seat 0, 11+0+0+2 = 13
    "play AH", "play 8H", "play 9H", "play JH",      # seat 0: 11+0+0+2 = 13
    "play 7S", "play 10S", "play KS", "play QS",     # 10S (seat 1): 0+10+4+3 = 17
    "play AD", "play JD", "play QD", "play 7D",      # seat 1 leads; AD: seat 1, 11+2+3+0 = 16
    "play 9D", "play 10D", "play KD", "play 8D",     # 10D (seat 2): 0+10+4+0 = 14
    "play AC", "play QC", "play 7C", "play 9C",      # seat 2 leads; AC: seat 2, 11+3+0+0 = 14
    "play 10C", "play KC", "play 8C", "play JC",     # 10C (seat 2): 10+4+0+2 = 16
    "play KH", "play QH", "play 7H", "play 10H",     # 10H (seat 1): 4+3+0+10 = 17
]

# One suit a seat: whoever leads in sun wins every trick (nobody can follow).
ONE_SUIT_EACH = [
    ["AS", "10S", "KS", "QS", "JS", "9S", "8S", "7S"],
    [f"{r}H" for r in RANKS],
    [f"{r}D" for r in RANKS],
    [f"{r}C" for r in RANKS],
]

# The hokum round on TWO_OF_EACH: seat 0 bids hokum, the trump is the face-up
# suit, diamonds; seat 0 leads. Trump ranks J 9 A 10 K Q 8 7 (SETUP.6), trump
# values J 20, 9 14, A 11, 10 10, K 4, Q 3 (SCORE.4).
HOKUM_TRICKS = [
    "play AS", "play 8S", "play 9S", "play JS",      # seat 0: 11+0+0+2 = 13
    "play AH", "play 8H", "play 9H", "play JH",      # seat 0: 13
    "play 7S", "play 10S", "play KS", "play QS",     # 10S, seat 1: 17
    "play AD", "play JD", "play QD", "play 7D",      # seat 1 leads trump; JD, seat 2: 34 (11+20+3)
    "play AC", "play QC", "play 7C", "play 9C",      # seat 2: 11+3+0+0 = 14
    "play 10D", "play KD", "play 8D", "play 9D",     # 9D, seat 1: 10+4+0+14 = 28 (seat 3 has now
                                                     # played QD and KD: baloot, PROJ.7)
    "play JC", "play 10C", "play KC", "play 8C",     # seat 1 leads; 10C, seat 2: 2+10+4+0 = 16
    "play KH", "play QH", "play 7H", "play 10H",     # seat 2 leads; 10H, seat 1: 4+3+0+10 = 17
]
