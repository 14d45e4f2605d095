"""Raises (RAISE.1-3, A10, A11), by hand, on the TWO_OF_EACH deal (dealer 3)."""

from __future__ import annotations

import pytest
from engine_helpers import TWO_OF_EACH, play, start, with_totals

HOKUM_BID = ["hokum", "pass", "pass", "pass", "hokum"]  # seat 0 wins with hokum


@pytest.mark.parametrize(("reading", "locked"), [
    # after: double, triple, four, gahwa
    ("double_and_four", [True, False, True, True]),
    ("any_raise", [True, True, True, True]),
])
def test_raise_ladder(reading: str, locked: list[bool]) -> None:
    game = start(TWO_OF_EACH, locked_round=reading)
    play(game, *HOKUM_BID)
    # The other team may double: seat 1 first (the bid winner's right), then seat 3.
    assert game.phase == "raising"
    assert (game.current_player, game.legal_actions()) == (1, ["pass", "double"])
    game.apply("pass")
    assert (game.current_player, game.legal_actions()) == (3, ["pass", "double"])
    steps = [("double", 0, 2), ("triple", 3, 3), ("four", 0, 4), ("gahwa", None, 4)]
    for (call, next_player, multiplier), lock in zip(steps, locked, strict=True):
        game.apply(call)
        assert game.state.multiplier == multiplier
        assert game.state.locked is lock
        if next_player is not None:
            assert game.current_player == next_player
    # After gahwa the play begins; the bid winner leads.
    assert game.phase == "playing" and game.current_player == 0
    assert [(c.seat, c.action.kind.value) for c in game.state.raises] == [
        (1, "pass"), (3, "double"), (0, "triple"), (3, "four"), (0, "gahwa")]


def test_a_pass_ends_the_raising() -> None:
    game = start(TWO_OF_EACH)
    play(game, *HOKUM_BID, "double", "pass")
    assert game.phase == "playing"
    assert game.state.multiplier == 2


@pytest.mark.parametrize(("reading", "totals", "raising"), [
    ("gate_strict_all", [0, 0], False),
    ("gate_strict_all", [110, 90], True),
    ("gate_strict_all", [100, 90], False),      # not more than 100
    ("gate_inclusive_all", [100, 90], True),    # at least 100
    ("gate_inclusive_all", [110, 101], False),  # the other team above 100
])
def test_sun_gate(reading: str, totals: list[int], raising: bool) -> None:
    game = with_totals(start(TWO_OF_EACH, sun_raises=reading), totals)
    play(game, "sun", "pass", "pass", "pass")
    assert game.phase == ("raising" if raising else "playing")


@pytest.mark.parametrize(("reading", "after_double"), [
    ("gate_strict_all", ["pass", "triple"]),
    ("gate_strict_no_gahwa", ["pass", "triple"]),
    ("gate_strict_double_only", None),  # the double is the only raise in sun
])
def test_sun_raises_above_the_double(reading: str, after_double: list[str] | None) -> None:
    game = with_totals(start(TWO_OF_EACH, sun_raises=reading), [110, 90])
    play(game, "sun", "pass", "pass", "pass", "double")
    if after_double is None:
        assert game.phase == "playing"
        assert game.state.multiplier == 2
    else:
        assert game.legal_actions() == after_double
        # Sun has no hokum suit: a raised sun round is never locked.
        assert game.state.locked is False


@pytest.mark.parametrize(("reading", "after_four"), [
    ("gate_strict_all", ["pass", "gahwa"]),  # RAISE.3: "the raises above", gahwa included
    ("gate_strict_no_gahwa", None),          # A22's other half: no gahwa in sun
])
def test_gahwa_in_sun(reading: str, after_four: list[str] | None) -> None:
    # Sun by seat 0 through the open gate: seat 1 doubles, seat 0 triples, seat 1 makes it four.
    game = with_totals(start(TWO_OF_EACH, sun_raises=reading), [110, 90])
    play(game, "sun", "pass", "pass", "pass", "double", "triple", "four")
    assert game.state.multiplier == 4
    if after_four is None:
        assert game.phase == "playing"
    else:
        assert (game.current_player, game.legal_actions()) == (0, after_four)
