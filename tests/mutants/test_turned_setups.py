"""A case turned one seat (`differential.turned_setup`): the same round, each hand and
action at the next seat, the other team's; where the witness search looks first for a
second case of a mutant the pack kills by one case only."""

from __future__ import annotations

import dataclasses

import pytest
from mutant_lookup import one

from baloot.conformance.harness.pack import Case
from baloot.conformance.mutants.differential import find_witness, turned_setup
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant
from baloot.conformance.mutants.run import load_cases
from baloot.reference_impl import new_game

# A hokum round where the bidding team and the other team end level in points and in
# bunts (81 each): under A4 more_points_app_ties it fails (SCORE.9)
TIE = "boundary.success.more_points_app_ties.hokum.bunts-at"


@pytest.fixture(scope="module")
def tie() -> Case:
    return next(c for c in load_cases()[1] if c.id == TIE)


def _played(dealer: int, deck: list[str], requires: dict[str, str], actions: list[str],
            totals: list[int] | None = None) -> object:
    game = new_game(profile="literal", overrides=requires, dealer=dealer, deck=deck,
                    totals=totals)
    for action in actions:
        game.apply(action)
    return game


def test_a_turned_case_deals_each_hand_to_the_next_seat(tie: Case) -> None:
    turned = turned_setup(tie)
    assert turned is not None and turned.turned_from == TIE
    assert turned.dealer == (tie.dealer + 1) % 4 and list(turned.deck) == list(tie.deck)
    before = new_game(profile="literal", overrides=tie.requires, dealer=tie.dealer,
                      deck=tie.deck).observation()["hands"]
    after = new_game(profile="literal", overrides=dict(turned.pins), dealer=turned.dealer,
                     deck=list(turned.deck)).observation()["hands"]
    assert isinstance(before, list) and isinstance(after, list)
    # the deal starts from the dealer's right (SETUP.4): every hand moves one seat on
    assert [after[(seat + 1) % 4] for seat in range(4)] == before


def test_the_turned_opening_plays_the_same_round_for_the_other_team(tie: Case) -> None:
    turned = turned_setup(tie)
    assert turned is not None
    original = _played(tie.dealer, tie.deck, tie.requires, list(turned.opening))
    other = _played(turned.dealer, list(turned.deck), dict(turned.pins), list(turned.opening))
    first, second = original.round_result(), other.round_result()  # type: ignore[attr-defined]
    assert first is not None and second is not None
    assert first["points"] == second["points"][::-1]
    bidders = [g.observation()["contract"]["bidder"] for g in (original, other)]  # type: ignore[attr-defined]
    assert bidders[1] == (bidders[0] + 1) % 4


def test_running_totals_go_to_the_other_team(tie: Case) -> None:
    started = dataclasses.replace(tie, totals=[40, 120])
    turned = turned_setup(started)
    assert turned is not None and turned.totals == (120, 40)


def test_a_case_of_more_than_one_round_is_not_turned() -> None:
    several = next(c for c in load_cases()[1] if c.then)
    assert turned_setup(several) is None


def test_the_turned_killer_gives_a_second_witness(
        live: LiveSpec, mutants: dict[str, SpecMutant], tie: Case) -> None:
    # `>` into `>=`: a tie in points and bunts then counts for the bidder; the pack's one
    # case of such a tie kills it, and the same round turned a seat is a second
    mutant = one(mutants, "bidder_succeeds/comparison/spec/scoring:210:16", "`>` into `>=`")
    turned = turned_setup(tie)
    assert turned is not None
    witness = find_witness(live, mutant, ("literal",), games=1, setups=(), avoid=frozenset({TIE}),
                           off_profile=False, readings=tie.requires, first=[turned])
    assert witness is not None and witness.dealer == turned.dealer
