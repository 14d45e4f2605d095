"""Property tests: any action, at any point of a random game, is either legal and taken, or
refused by a named rule with the state left byte-identical; and the JSON state round-trips.

Hypothesis draws the point in the game (a seed and a number of steps) and the
action itself, from every kind of action the notation can write.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_driver import (
    DECK_TEXT,
    GARBLED,
    NEVER_LEGAL,
    advance,
    assert_names_a_rule,
    is_legal,
    round_trip,
    setup,
)

from baloot.reference_impl import Game, IllegalAction
from baloot.reference_impl.definitions import ActionKind, Lock, ProjectKind, Suit
from baloot.reference_impl.notation import NotationError, action_text

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    max_examples=150)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
# about 45 actions and deals make a round: this reaches well into the second or third round
STEPS = st.integers(min_value=0, max_value=130)

CARDS = st.sampled_from(DECK_TEXT)
KIND_ONLY = st.sampled_from([k.value for k in ActionKind])
ACTIONS = st.one_of(
    KIND_ONLY,
    st.builds(lambda s: f"hokum {s}", st.sampled_from([s.value for s in Suit])),
    st.builds(lambda lock: f"double {lock}", st.sampled_from([x.value for x in Lock])),
    st.builds(lambda c: f"play {c}", CARDS),
    st.builds(lambda k, cs: " ".join(["declare", k, *cs]),
              st.sampled_from([k.value for k in ProjectKind]),
              st.lists(CARDS, min_size=0, max_size=6, unique=True)),
    st.sampled_from(NEVER_LEGAL + GARBLED),
)


@settings(SETTINGS)
@given(setup(), SEEDS, STEPS, ACTIONS)
def test_any_action_is_taken_when_legal_and_refused_unchanged_otherwise(
        chosen: tuple[str, dict[str, str] | None], seed: int, steps: int, text: str) -> None:
    profile, overrides = chosen
    game = advance(random.Random(seed), profile, overrides, steps)
    snapshot, state = game.to_json(), game.state
    try:
        legal = is_legal(text, game.legal_action_records())
    except NotationError:
        legal = None  # not an action at all
    try:
        game.apply(text)
    except IllegalAction as err:
        assert legal is not True, f"the legal action {text!r} was refused: {err}"
        if legal is None:
            assert err.rule == "notation" and err.clauses == ()
        else:
            assert_names_a_rule(err)
        assert game.state is state and game.to_json() == snapshot
        return
    assert legal is True, f"{text!r} is not among {game.legal_actions()} yet was taken"
    assert game.to_json() != snapshot


@settings(SETTINGS)
@given(setup(), SEEDS, STEPS)
def test_the_json_state_round_trips_anywhere(chosen: tuple[str, dict[str, str] | None],
                                             seed: int, steps: int) -> None:
    profile, overrides = chosen
    rng = random.Random(seed)
    game = advance(rng, profile, overrides, steps)
    copy = round_trip(game)
    data = json.loads(game.to_json())
    assert Game.from_json(json.dumps(data, indent=1)).to_json() == game.to_json()
    # the copy goes on exactly as the original does
    for _ in range(10):
        actions = game.legal_action_records()
        if not actions:
            break
        action = rng.choice(actions)
        game.apply(action)
        copy.apply(action_text(action))
        assert copy.to_json() == game.to_json()
