"""Tampered saved games: `Game.from_json` refuses, with a SetupError naming what is wrong,
any text that is no saved game and any state no game reaches; a game it accepts plays on
without any other exception."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from campaign_common import json_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot.reference_impl import Game, IllegalAction, new_game
from baloot.reference_impl.runtime import SetupError, shuffled_deck


def _played(seed: int, actions: int) -> Game:
    rng = random.Random(seed)
    game = new_game(profile=rng.choice(["literal", "federation"]), seed=seed, dealer=seed % 4)
    for _ in range(actions):
        legal = game.legal_actions()
        if not legal:
            break
        game.apply(rng.choice(legal))
    return game


SAVED = [_played(seed, actions).to_json() for seed, actions in
         [(0, 0), (1, 3), (2, 9), (3, 12), (4, 30), (5, 60), (6, 200)]]
BIDDING = SAVED[0]


def _tampered(change: Callable[[dict[str, Any]], object], saved: str = BIDDING) -> str:
    data = json.loads(saved)
    change(data["state"])
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "the saved game is not JSON"),
        (b"\xff\xfe{}", "the saved game is not JSON"),
        ("[" * 100_000 + "]" * 100_000, "the saved game is not JSON"),
        ("[]", 'expected an object {"readings", "state"}'),
        ("null", 'expected an object {"readings", "state"}'),
        (json.dumps({"state": {}}), 'expected an object {"readings", "state"}'),
        (json.dumps({"readings": [1], "state": {}}), "overrides [1]: expected an object"),
        (json.dumps({"readings": {"rounding": 5}, "state": {}}), "5 is not a reading of"),
        (BIDDING.replace('"totals": [0, 0]', '"totals": [NaN, 0]'), "NaN is no JSON number"),
        (json.dumps({"readings": {}, "state": []}), "$.state: expected an object for Game"),
        (_tampered(lambda s: s.update(extra=1)), "$.state: Game has no field extra"),
        (_tampered(lambda s: s.update(dealer=1.0)), "$.state.dealer: expected a whole number"),
        (_tampered(lambda s: s.update(multiplier=True)), "$.state.multiplier: expected a whole"),
        (_tampered(lambda s: s.update(phase="nope")), "$.state.phase: 'nope' is not a Phase"),
        (_tampered(lambda s: s.update(totals=[10**30, 0])), "expected two whole numbers from 0"),
        (_tampered(lambda s: s.update(multiplier=9)), "multiplier 9 or session 1"),
        (_tampered(lambda s: s.update(winner=5)), "winner 5 is not a team"),
        (_tampered(lambda s: s.update(asking=[])), "asking [] in the bidding phase"),
        (_tampered(lambda s: s.update(asking=[0, 4])), "asking[1] 4 is not a seat"),
        (_tampered(lambda s: s.update(stage="contract_made")), "stage contract_made in the"),
        (_tampered(lambda s: s.update(stage="hokum_choice")), "with hokum_bidder None"),
        (_tampered(lambda s: s.update(phase="playing")), "in the playing phase"),
        (_tampered(lambda s: s["hands"][0].append(s["stock"].pop())), "hands of [6, 5, 5, 5]"),
        (_tampered(lambda s: s["hands"][0].extend(s["hands"][0] * 20_000)),
         "a card is in two places"),
    ],
    ids=lambda value: value[:40] if isinstance(value, str) else None,
)
def test_text_that_is_no_saved_game_is_a_setup_error(text: str | bytes, expected: str) -> None:
    began = time.monotonic()
    with pytest.raises(SetupError) as refused:
        Game.from_json(text)  # type: ignore[arg-type]
    assert expected in str(refused.value)
    assert time.monotonic() - began < 2  # a hand of 100,000 cards is counted once, not n * n


def test_every_state_a_game_reaches_is_loaded_again() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        game = new_game(seed=seed, dealer=seed % 4, totals=[rng.choice([0, 140]), 150])
        for _ in range(120):
            again = Game.from_json(game.to_json())
            assert again.observation() == game.observation()
            legal = game.legal_actions()
            if not legal:
                if game.phase not in ("round_over", "deal"):
                    break
                game.deal(shuffled_deck(rng.randrange(1000)))
                continue
            game.apply(rng.choice(legal))


VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 12), st.sampled_from(
    ["", "x", "7S", "AH", "bidding", "playing", "contract_made", "doubled"]),
    st.just([]), st.just({}), st.floats(allow_nan=False, allow_infinity=False))


@st.composite
def tampered_games(draw: st.DrawFn) -> str:
    """A saved game with one to three of its state's values replaced, deleted or swapped."""
    data = json.loads(draw(st.sampled_from(SAVED)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(json_paths(data["state"])[1:]))
        parent = data["state"]
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.sampled_from(["replace", "delete", "swap"]))
        if how == "delete" and isinstance(parent, list):
            del parent[path[-1]]
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[path[-1]], parent[other] = parent[other], parent[path[-1]]
        else:
            parent[path[-1]] = draw(VALUES)
    return json.dumps(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tampered_games(), st.randoms(use_true_random=False))
def test_a_tampered_game_is_refused_or_plays_on(text: str, rng: random.Random) -> None:
    try:
        game = Game.from_json(text)
    except SetupError:
        return
    for _ in range(25):  # what was accepted plays on: legal actions, refusals, deals
        game.observation()
        game.round_result()
        with pytest.raises(IllegalAction):
            game.apply("declare nothing")
        legal = game.legal_actions()
        if legal:
            game.apply(rng.choice(legal))
        elif game.phase in ("round_over", "deal"):
            game.deal(shuffled_deck(rng.randrange(1000)))
        else:
            break
