"""Designed deals (`conformance/mutants/designed_deals.json`): each is a deal the
reference plays from its opening under its readings, reaches what its note says whatever
the play after it, and lets the witness search find survivors random deals miss."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from mutant_lookup import one

from baloot.conformance.harness.deal_layout import full_hands
from baloot.conformance.mutants.designed_deals import (
    DEALS_FILE,
    DesignedDealError,
    designed_setups,
)
from baloot.conformance.mutants.differential import Setup, find_witness
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant
from baloot.reference_impl import new_game


def _sweep() -> tuple[dict[str, Any], Setup]:
    raw = next(d for d in json.loads(DEALS_FILE.read_text(encoding="utf-8"))["deals"]
               if d["name"] == "doubled-sweep-with-baloot")
    setup = next(s for s in designed_setups() if s.deal == raw["name"])
    return raw, setup


def test_every_deal_deals_its_hands_and_its_opening_is_legal() -> None:
    for raw in json.loads(DEALS_FILE.read_text(encoding="utf-8"))["deals"]:
        setup = next(s for s in designed_setups() if s.deal == raw["name"])
        assert full_hands(list(setup.deck), raw["dealer"], raw["taker"]) == raw["hands"]
        game = new_game(profile="literal", overrides=dict(setup.pins), dealer=setup.dealer,
                        deck=list(setup.deck))
        for action in setup.opening:
            game.apply(action)  # raises IllegalAction when the opening does not hold
        assert raw["clauses"] and raw["note"] and raw["games"] >= 1


def test_the_doubled_sweep_is_a_kaboot_with_a_baloot_whatever_is_played() -> None:
    """The note's claim, played: seats 0 and 2 win all eight tricks and score the baloot
    of seat 0, in a round doubled (or raised further) by seat 1."""
    _, setup = _sweep()
    for seed in range(20):
        rng = random.Random(seed)
        game = new_game(profile="literal", overrides=dict(setup.pins), dealer=setup.dealer,
                        deck=list(setup.deck))
        for action in setup.opening:
            game.apply(action)
        while game.legal_actions():
            game.apply(rng.choice(game.legal_actions()))
        result: dict[str, Any] | None = game.round_result()
        assert result is not None
        assert result["kaboot"] == 0 and result["multiplier"] >= 2, (seed, result)
        assert [p["kind"] for p in result["projects"][0]] == ["baloot"], (seed, result)


def test_a_deal_that_cannot_be_played_is_named(tmp_path: Path) -> None:
    raw, _ = _sweep()
    broken = {**raw, "hands": [raw["hands"][0], *raw["hands"][0:3]]}  # a card twice
    path = tmp_path / "deals.json"
    path.write_text(json.dumps({"deals": [broken]}), encoding="utf-8")
    with pytest.raises(DesignedDealError, match=r"deals\[0\] \(doubled-sweep-with-baloot\)"):
        designed_setups(path)
    path.write_text(json.dumps({"deals": [{**raw, "requires": {"kaboot": "nine"}}]}))
    with pytest.raises(DesignedDealError, match="no reading 'nine'"):
        designed_setups(path)


def test_the_designed_deal_finds_a_witness_random_deals_do_not(
        live: LiveSpec, mutants: dict[str, SpecMutant]) -> None:
    """The baloot a kaboot adds in a doubled round (kaboot_result's `own_baloot`): random
    deals seldom sweep with a baloot and a double, and 24 of them find no difference."""
    mutant = one(mutants, "kaboot_result/negation/spec/scoring:293:", "an if-else condition "
                 "negated")
    profiles = ("literal", "federation")
    assert find_witness(live, mutant, profiles, games=24) is None
    _, setup = _sweep()
    witness = find_witness(live, mutant, profiles, games=1, setups=[setup])
    assert witness is not None and witness.deal == "doubled-sweep-with-baloot"
    assert witness.overrides["kaboot"] == "sun_44_hokum_25"
