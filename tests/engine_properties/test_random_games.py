"""Property tests: hundreds of random complete games of the reference engine (thousands
with BALOOT_PROPERTY_SCALE=10).

Hypothesis draws the profile, a single-variant override (or none) and a seed;
the seed drives a `random.Random` that deals every round and picks every action
among the legal ones, so a game costs Hypothesis one draw. `property_driver`
checks each step and each round (see its docstring). Examples are few but each
plays several whole games: the runtime stays within CI's budget.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_driver import (
    MACHINES,
    Rates,
    Stats,
    card_bunts,
    deck_bunts,
    play_game,
    setup,
    setups,
)

from baloot.reference_impl import definitions

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
GAMES_PER_EXAMPLE = 12
# CI plays about 800 whole games (50 x 12 here, and the tests below); BALOOT_PROPERTY_SCALE=10
# plays ten times more.
SCALE = float(os.environ.get("BALOOT_PROPERTY_SCALE", "1"))


def examples(n: int) -> int:
    return max(1, round(n * SCALE))


PASS_BIASES = st.sampled_from([0.0, 0.0, 0.6])
WEAK_HANDS = st.sampled_from([0.0, 0.0, 0.2])


@settings(SETTINGS, max_examples=examples(50))
@given(setup(), SEEDS, PASS_BIASES, WEAK_HANDS)
def test_random_games_keep_every_invariant(chosen: tuple[str, dict[str, str] | None],
                                           seed: int, pass_bias: float, weak_hand: float) -> None:
    profile, overrides = chosen
    rng = random.Random(seed)
    stats = Stats()
    for _ in range(GAMES_PER_EXAMPLE):
        play_game(rng, profile, overrides, stats,
                  Rates(pass_bias=pass_bias, weak_hand=weak_hand))
    assert stats.games == GAMES_PER_EXAMPLE
    assert stats.rounds >= GAMES_PER_EXAMPLE


@pytest.mark.parametrize(("profile", "overrides"), setups(),
                         ids=lambda v: v if isinstance(v, str) else
                         "-".join(f"{k}={r}" for k, r in (v or {}).items()) or "profile")
@settings(SETTINGS, max_examples=examples(2))
@given(seed=SEEDS, pass_bias=PASS_BIASES)
def test_every_profile_and_every_reading(profile: str, overrides: dict[str, str] | None,
                                         seed: int, pass_bias: float) -> None:
    """Each profile alone, and with each variant read each other way, plays whole games."""
    stats = Stats()
    play_game(random.Random(seed), profile, overrides, stats, Rates(pass_bias=pass_bias))
    assert stats.games == 1


def test_a_fixed_run_reaches_every_transition_and_every_kind_of_action() -> None:
    """One game under every setup, passing often and dealing kawesh hands often: random play
    reaches every transition the spec's bidding machine declares, every kind of action and a
    redeal, so the checks above are not vacuous."""
    stats = Stats()
    rng = random.Random(20240601)
    for profile, overrides in setups():
        play_game(rng, profile, overrides, stats,
                  Rates(illegal=0.01, round_trip=0.01, text_check=0.02, pass_bias=0.6,
                        weak_hand=0.25))
    assert "stage" in MACHINES, "the bidding machine's transitions are not in definitions"
    declared = {(a.value, b.value) for a, b in MACHINES["stage"]}
    assert stats.stage_changes == declared, (
        f"random play never made the declared transitions {declared - stats.stage_changes}")
    assert stats.kinds == {k.value for k in definitions.ActionKind}
    assert stats.redeals > 0 and stats.refusals > 0 and stats.round_trips > 0


def test_the_totals_come_from_the_tables() -> None:
    """The bunts the checks compare with are the spec's tables, summed here (never typed)."""
    for trump in [None, *definitions.Suit]:
        total = deck_bunts(trump)
        assert total == sum(card_bunts(definitions.Card(rank=r, suit=s), trump)
                            for s in definitions.Suit for r in definitions.Rank)
        assert total > 0
    assert deck_bunts(definitions.Suit.SPADES) > deck_bunts(None)
