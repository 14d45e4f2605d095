"""Bad input to the engine's API: each gets an error that says what was expected, and a
refused action or deal leaves the game as it was."""

from __future__ import annotations

import pytest

from baloot.reference_impl import IllegalAction, new_game
from baloot.reference_impl.runtime import SetupError, shuffled_deck

DECK = shuffled_deck(3)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"profile": "saudi"}, "unknown profile 'saudi': expected one of literal, federation"),
        ({"overrides": {"A99": "x"}}, "unknown variant 'A99'"),
        ({"overrides": {"rounding": "nearest"}}, "'nearest' is not a reading of rounding"),
        ({"dealer": 4}, "dealer 4 is not a seat: expected 0, 1, 2 or 3"),
        ({"deck": DECK[:31]}, "a deck is each of the 32 cards once; got 31 cards"),
        ({"deck": [*DECK[:31], DECK[0]]}, "got 32 cards, 31 different"),
        ({"deck": ["1S", *DECK[1:]]}, "'1S' is not a card"),
        ({"deck": [["7S"], *DECK[1:]]}, "['7S'] is not a card"),
        ({"totals": [0]}, "expected two whole numbers, one per team"),
        ({"dealer": 1.0}, "dealer 1.0 is not a seat"),
        ({"dealer": True}, "dealer True is not a seat"),
        ({"totals": [0.5, 0]}, "expected two whole numbers, one per team"),
        ({"totals": [True, 0]}, "expected two whole numbers, one per team"),
    ],
)
def test_a_bad_setup_says_what_was_expected(kwargs: dict[str, object], expected: str) -> None:
    with pytest.raises(SetupError) as refused:
        new_game(**{"deck": DECK, **kwargs})  # type: ignore[arg-type]
    assert expected in str(refused.value)


@pytest.mark.parametrize("action", [5, None, ["pass"]])
def test_something_that_is_no_action_is_a_type_error(action: object) -> None:
    game = new_game(deck=DECK)
    before = game.to_json()
    with pytest.raises(TypeError, match="is not an action: expected its text"):
        game.apply(action)  # type: ignore[arg-type]
    assert game.to_json() == before


def test_text_that_is_no_action_is_refused_by_the_notation() -> None:
    game = new_game(deck=DECK)
    before = game.to_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply("play 11S")
    assert refused.value.rule == "notation" and "is not an action" in refused.value.message
    assert game.to_json() == before


def test_a_deal_in_the_middle_of_a_round_is_refused() -> None:
    # GAME.1: the next round is dealt only after a round (or after everyone passed twice).
    game = new_game(deck=DECK)
    before = game.to_json()
    with pytest.raises(IllegalAction) as refused:
        game.deal(DECK)
    assert refused.value.rule == "deal_next"
    assert game.to_json() == before


def test_a_float_dealer_leaves_no_trace_for_the_next_game() -> None:
    # A dealer of 1.0 was once taken, and the rules' caches then kept float seats.
    with pytest.raises(SetupError):
        new_game(dealer=1.0, seed=0)  # type: ignore[arg-type]
    game = new_game(dealer=1, seed=0)
    for action in ("sun", "pass", "pass", "pass"):
        if game.phase == "bidding":
            game.apply(action)
    assert game.current_player is None or type(game.current_player) is int


def _tampered(change: object) -> str:
    import json

    data = json.loads(new_game(deck=DECK).to_json())
    change(data["state"])  # type: ignore[operator]
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        # seat 0's first card is also put in seat 1's hand: that card is in two places
        (lambda s: s["hands"][1].append(s["hands"][0][0]), "a card is in two places"),
        (lambda s: s["hands"][0].extend(s["stock"][:3]), "a card is in two places"),
        (lambda s: s["hands"][0].extend([s["stock"].pop() for _ in range(4)]),
         "hands of [9, 5, 5, 5] cards in the bidding phase: expected [5, 5, 5, 5]"),
        (lambda s: s["stock"].pop(), "1 card(s) are nowhere"),
        (lambda s: s.update(totals=[-300, 0]), "totals [-300, 0]"),
        (lambda s: s.update(dealer=7), "dealer 7 is not a seat"),
    ],
)
def test_a_tampered_saved_game_is_refused(change: object, expected: str) -> None:
    from baloot.reference_impl import Game

    with pytest.raises(SetupError, match="the saved game cannot be played") as refused:
        Game.from_json(_tampered(change))
    assert expected in str(refused.value)
