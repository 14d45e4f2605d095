"""Hypothesis strategies for Baloot engine authors.

    from hypothesis import given
    from baloot.conformance.harness.strategies import decks, deals, legal_positions

    @given(legal_positions(profile="literal", max_actions=40))
    def test_my_engine_agrees(position):
        game = my_engine.start(position.dealer, position.deck, totals=position.totals)
        for action in position.actions:
            game.apply(action)
        assert sorted(game.legal()) == sorted(position.legal)

Everything is in the protocol's notation (cards `10S`, actions `play 10S`,
seats 0-3, see PROTOCOL.md); the positions come from the reference engine,
so `position.legal`, `position.state` and `position.result` are what a
conforming engine must answer there. All strategies shrink towards the
canonical deck (7S 8S ... AC), dealer 0, totals 0-0 and the first legal
action (in sorted order) at every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

try:
    from hypothesis import strategies as st
except ModuleNotFoundError as missing:  # the base install leaves hypothesis out
    if missing.name != "hypothesis":
        raise
    raise ModuleNotFoundError(
        "baloot.conformance.harness.strategies needs hypothesis, which the base install "
        "leaves out: pip install 'baloot-conformance[hypothesis]'", name="hypothesis",
    ) from missing

from ... import reference_impl as reference
from .deal_layout import face_up_card, first_hands
from .protocol_notation import ALL_CARDS, SEATS
from .variants import load_register

__all__ = [
    "Deal",
    "Position",
    "cards",
    "deals",
    "decks",
    "hands",
    "legal_positions",
    "profiles",
    "readings",
    "seats",
    "totals",
]


def cards() -> st.SearchStrategy[str]:
    """One of the 32 cards."""
    return st.sampled_from(ALL_CARDS)


def decks() -> st.SearchStrategy[list[str]]:
    """A pinned deck: the 32 cards in some order, `deck[0]` on top."""
    return st.permutations(list(ALL_CARDS))


def hands(min_size: int = 1, max_size: int = 8) -> st.SearchStrategy[list[str]]:
    """A hand: distinct cards, 1 to 8 of them by default (8 after the deal, 5 before)."""
    return st.lists(cards(), min_size=min_size, max_size=max_size, unique=True)


def seats() -> st.SearchStrategy[int]:
    return st.sampled_from(SEATS)


def totals(maximum: int = 151) -> st.SearchStrategy[list[int]]:
    """Running totals [team 0, team 1] a game may start from (below the 152 target by default)."""
    return st.lists(st.integers(0, maximum), min_size=2, max_size=2)


def profiles() -> st.SearchStrategy[str]:
    return st.sampled_from(sorted(load_register().profiles))


def readings(variants: list[str] | None = None) -> st.SearchStrategy[dict[str, str]]:
    """Overrides: some variants (all, or those named) set to one of their readings."""
    register = load_register()
    names = sorted(variants or register.variants)
    return st.fixed_dictionaries(
        {}, optional={n: st.sampled_from(register.variants[n].readings) for n in names}
    )


@dataclass(frozen=True)
class Deal:
    """A deck dealt by a dealer: the five-card hands by seat and the face-up card."""

    dealer: int
    deck: list[str]
    hands: list[list[str]]
    face_up: str


@st.composite
def deals(draw: st.DrawFn, dealer: int | None = None) -> Deal:
    """A dealer and a deck, with the first hands the protocol's dealing gives."""
    seat = dealer if dealer is not None else draw(seats())
    deck = draw(decks())
    return Deal(seat, deck, first_hands(deck, seat), face_up_card(deck))


@dataclass(frozen=True)
class Position:
    """A legal position: a setup and the legal actions that lead to it, with what the
    reference engine says there (its state, legal actions, and last round result)."""

    profile: str
    overrides: dict[str, str]
    dealer: int
    deck: list[str]
    totals: list[int]
    actions: list[str]
    legal: list[str] = field(default_factory=list)
    player: int | None = None
    state: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None

    def setup(self) -> dict[str, Any]:
        """The protocol's `start` setup of this position."""
        return {
            "profile": self.profile,
            "overrides": dict(self.overrides),
            "dealer": self.dealer,
            "deck": list(self.deck),
            "totals": list(self.totals),
        }


@st.composite
def legal_positions(
    draw: st.DrawFn,
    profile: str | st.SearchStrategy[str] = "literal",
    overrides: dict[str, str] | st.SearchStrategy[dict[str, str]] | None = None,
    max_actions: int = 40,
    start_totals: bool = False,
) -> Position:
    """A random legal action prefix from a random deck and dealer under a profile.

    Each step picks one of the reference engine's legal actions; the prefix
    stops after `max_actions` actions or when nobody is to act (a finished
    round, a redeal). With `start_totals` the game starts from random totals.
    """
    chosen_profile = draw(profile) if isinstance(profile, st.SearchStrategy) else profile
    if isinstance(overrides, st.SearchStrategy):
        chosen_overrides = draw(overrides)
    else:
        chosen_overrides = dict(overrides or {})
    deal = draw(deals())
    start = draw(totals()) if start_totals else [0, 0]
    game = reference.new_game(
        profile=chosen_profile,
        overrides=chosen_overrides or None,
        dealer=deal.dealer,
        deck=deal.deck,
        totals=start,
    )
    count = draw(st.integers(0, max_actions))
    actions: list[str] = []
    for _ in range(count):
        legal = sorted(game.legal_actions())  # an index means the same whatever the listing order
        if not legal:
            break
        action = legal[draw(st.integers(0, len(legal) - 1))]
        game.apply(action)
        actions.append(action)
    observation = game.observation()
    return Position(
        profile=chosen_profile,
        overrides=chosen_overrides,
        dealer=deal.dealer,
        deck=deal.deck,
        totals=start,
        actions=actions,
        legal=game.legal_actions(),
        player=game.current_player,
        state=dict(observation),
        result=game.round_result(),
    )
