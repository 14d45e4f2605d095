"""Conversion of bunts to points and the derived totals, worked out by hand."""

from __future__ import annotations

import pytest

from baloot.reference_impl import cards_rules as cards
from baloot.reference_impl import definitions
from baloot.reference_impl import scoring_rules as scoring


@pytest.mark.parametrize(("bunts", "points"), [
    (64, 12),   # SCORE.7: 64 rounds to 60; 60 x 2 / 10 = 12
    (65, 13),   # ends in 5: not rounded; 65 x 2 / 10 = 13
    (66, 14),   # 66 rounds to 70; 70 x 2 / 10 = 14
    (25, 5),    # the page's own example: 25 x 2 / 10 = 5
    (130, 26),  # the whole sun round: 120 card bunts + 10 for the last trick
    (0, 0),
    (4, 0),     # 4 rounds to 0
])
def test_sun_conversion(bunts: int, points: int) -> None:
    assert scoring.sun_conversion(bunts) == points


@pytest.mark.parametrize(("bunts", "points"), [
    (74, 7),    # SCORE.8: 7.4 -> 7
    (75, 7),    # 7.5: the exact .5 is dropped
    (76, 8),    # 7.6 -> 8
    (25, 2),    # 2.5 -> 2
    (162, 16),  # the whole hokum round: 152 + 10 -> 16.2 -> 16
])
def test_hokum_conversion(bunts: int, points: int) -> None:
    assert scoring.hokum_conversion(bunts) == points


def test_deck_totals_come_from_the_tables() -> None:
    # SCORE.3: per suit A 11 + 10 10 + K 4 + Q 3 + J 2 = 30, four suits = 120.
    assert cards.deck_bunts(None) == 4 * (11 + 10 + 4 + 3 + 2)
    # SCORE.4: the trump suit is J 20 + 9 14 + A 11 + 10 10 + K 4 + Q 3 = 62, so 90 + 62 = 152,
    # whichever suit is trump.
    for suit in definitions.Suit:
        assert cards.deck_bunts(suit) == 3 * 30 + (20 + 14 + 11 + 10 + 4 + 3)


def test_rank_orders() -> None:
    rank = definitions.Rank
    # SETUP.6: in the trump suit J beats 9 beats A beats 10.
    trump = definitions.TRUMP_RANK_ORDER
    assert trump[rank.JACK] > trump[rank.NINE] > trump[rank.ACE] > trump[rank.TEN]
    # SETUP.7: elsewhere A beats 10 beats K, and J only beats 9, 8 and 7.
    plain = definitions.PLAIN_RANK_ORDER
    assert plain[rank.ACE] > plain[rank.TEN] > plain[rank.KING]
    assert plain[rank.KING] > plain[rank.QUEEN] > plain[rank.JACK]
