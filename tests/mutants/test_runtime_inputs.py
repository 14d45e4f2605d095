"""Mutants equal on every input the runtime gives the rules: a dealer 0 to 3, the 32 cards
once each, two totals (`runtime_inputs.py`); the runtime refuses every other setup."""

from __future__ import annotations

import pytest
from mutant_lookup import one

from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant
from baloot.conformance.mutants.run import load_cases
from baloot.conformance.mutants.runtime_inputs import by_runtime_inputs, parameter_inputs
from baloot.conformance.mutants.spec_run import SAME_CODE, SURVIVED, PackOnMutants
from baloot.grammar import model as m
from baloot.reference_impl.runtime import SetupError, new_game, shuffled_deck

DECK = shuffled_deck(3)


@pytest.mark.parametrize("setup", [
    {"dealer": 4}, {"dealer": -1}, {"dealer": True},
    {"deck": DECK[:31]}, {"deck": [*DECK[:31], DECK[0]]}, {"deck": [*DECK, DECK[0]]},
    {"totals": [10]}, {"totals": [1, 2, 3]},
])
def test_the_runtime_refuses_every_other_setup(setup: dict[str, object]) -> None:
    # what the proofs take as the rules' inputs holds because these never reach them
    arguments: dict[str, object] = {"dealer": 0, "deck": DECK, **setup}
    with pytest.raises(SetupError):
        new_game("literal", **arguments)  # type: ignore[arg-type]


def test_the_next_deal_refuses_a_deck_that_is_not_the_32_cards() -> None:
    game = new_game("literal", deck=DECK, dealer=3)
    for _ in range(8):  # all pass twice: the deal is dead, the next one is dealt (BID.9)
        game.apply("pass")
    with pytest.raises(SetupError):
        game.deal([*DECK[1:], DECK[1]])


def test_a_parameter_passed_on_unchanged_has_the_inputs_of_its_callers(spec: m.Spec) -> None:
    inputs = parameter_inputs(spec)
    # start_game, start_game_at and deal_next hand their deck to deal, which hands it to
    # is_full_deck
    assert inputs[("deal", "deck")] == inputs[("is_full_deck", "deck")] == "the 32 cards"
    # deal_next deals for the game's next dealer, a field, not an input
    assert ("deal", "dealer") not in inputs
    assert inputs[("start_game", "dealer")] == "a seat"


def test_changes_equal_on_the_runtimes_inputs_are_proven_and_others_not(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    # a deck of the 32 cards once each has 32 cards and holds every card (SETUP.2)
    either = one(mutants, "is_full_deck/connective/", "`and` into `or`")
    assert by_runtime_inputs(spec, either)
    assert by_runtime_inputs(spec, one(mutants, "is_full_deck/extreme/", "`all` into `any`"))
    assert by_runtime_inputs(spec, one(mutants, "is_full_deck/comparison/spec/deal:35:10",
                                       "`==` into `<`")) is None
    # the dealer is a seat: the requirement never refuses on what the runtime gives
    assert by_runtime_inputs(spec, one(mutants, "start_game/condition/",
                                       "the requirement never refuses"))
    assert by_runtime_inputs(spec, one(mutants, "start_game/negation/",
                                       "the requirement negated")) is None
    # the next deal's phase is the game's, not an input: not proven
    assert by_runtime_inputs(spec, one(mutants, "deal_next/condition/",
                                       "the requirement never refuses")) is None


def test_the_proven_ones_survive_the_cases(spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    cases = [c for c in load_cases()[1] if c.file.replace("\\", "/").endswith("bidding.json")]
    pack = PackOnMutants(LiveSpec(spec), cases[:8], "literal")
    proven = [mut for mut in mutants.values()
              if (mut.target == "is_full_deck" or mut.id.startswith("start_game/condition/"))
              and by_runtime_inputs(spec, mut) is not None]
    assert len(proven) >= 5
    for mut in proven:
        assert pack.run(mut, kills=1).status in (SURVIVED, SAME_CODE), mut.id
