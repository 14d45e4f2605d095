"""The Hypothesis strategies offered to engine authors (`baloot.conformance.harness.strategies`):
what each draws, the deal they describe, positions that replay, and where they shrink."""

from __future__ import annotations

from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from baloot.conformance.harness import strategies
from baloot.conformance.harness.protocol_notation import ALL_CARDS
from baloot.conformance.harness.variants import load_register
from baloot.reference_impl import new_game
from baloot.reference_impl.notation import card_text

QUICK = settings(max_examples=25, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(strategies.cards(), strategies.decks(), strategies.hands(), strategies.totals(),
       strategies.seats())
def test_values_are_in_the_protocols_notation(card: str, deck: list[str], hand: list[str],
                                              totals: list[int], seat: int) -> None:
    assert card in ALL_CARDS
    assert sorted(deck) == sorted(ALL_CARDS) and len(deck) == 32
    assert 1 <= len(hand) <= 8 and len(set(hand)) == len(hand)
    assert set(hand) <= set(ALL_CARDS)
    assert len(totals) == 2 and all(0 <= t <= 151 for t in totals)
    assert seat in range(4)


@QUICK
@given(strategies.profiles(), strategies.readings())
def test_profiles_and_readings_come_from_the_register(profile: str,
                                                      overrides: dict[str, str]) -> None:
    register = load_register()
    assert profile in register.profiles
    for variant, reading in overrides.items():
        assert reading in register.variants[variant].readings


def test_a_deal_follows_the_dealing_pattern() -> None:
    # SETUP.3/SETUP.4 and the protocol's dealing: five cards to each player in turn from
    # the dealer's right (dealer 0: seats 1, 2, 3, then 0), then the next card face up.
    deal = find(strategies.deals(dealer=0), lambda d: True)
    deck = deal.deck
    assert deck == list(ALL_CARDS)  # shrunk to the canonical deck
    assert deal.hands[1] == deck[0:5]
    assert deal.hands[2] == deck[5:10]
    assert deal.hands[3] == deck[10:15]
    assert deal.hands[0] == deck[15:20]
    assert deal.face_up == deck[20]


@QUICK
@given(strategies.deals())
def test_a_deal_is_what_the_reference_engine_deals(deal: strategies.Deal) -> None:
    state = new_game("literal", dealer=deal.dealer, deck=deal.deck).state
    assert [sorted(map(card_text, h)) for h in state.hands] == [sorted(h) for h in deal.hands]
    assert card_text(state.face_up) == deal.face_up


@QUICK
@given(strategies.legal_positions(profile=strategies.profiles(), max_actions=60,
                                  start_totals=True))
def test_a_position_replays_to_what_it_records(position: strategies.Position) -> None:
    assert len(position.actions) <= 60
    setup = position.setup()
    game = new_game(setup["profile"], setup["overrides"] or None, dealer=setup["dealer"],
                    deck=setup["deck"], totals=setup["totals"])
    for action in position.actions:
        assert action in game.legal_actions()
        game.apply(action)
    assert sorted(game.legal_actions()) == sorted(position.legal)
    assert game.current_player == position.player
    assert game.observation() == position.state
    assert game.round_result() == position.result
    if not position.legal:
        assert position.player is None


def test_positions_shrink_to_the_canonical_deck_and_the_first_action() -> None:
    # The canonical deck, dealer 0, totals 0-0, and at each step the first of the legal
    # actions in sorted order: the first bidder (seat 1) may pass, bid hokum or bid sun
    # (BID.2; ashkal is for the third and fourth bidders only, BID.6), and "hokum" sorts first.
    position = find(strategies.legal_positions(max_actions=3), lambda p: len(p.actions) >= 1,
                    settings=settings(database=None, max_examples=200))
    assert position.deck == list(ALL_CARDS)
    assert position.dealer == 0 and position.totals == [0, 0]
    assert position.actions == ["hokum"]


def test_overrides_may_be_a_strategy() -> None:
    drawn = find(strategies.legal_positions(overrides=st.just({"rounding": "adjusted_to_total"}),
                                            max_actions=0), lambda p: True)
    assert drawn.overrides == {"rounding": "adjusted_to_total"} and drawn.actions == []
