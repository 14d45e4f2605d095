"""Mutants equal on every input the rules are given: a dealer 0 to 3, the 32 cards once
each, two totals (the runtime refuses every other setup), and an action of the protocol's
notation (`conform lint` refuses any other text in a case) (`runtime_inputs.py`)."""

from __future__ import annotations

import pytest
from mutant_lookup import one

from baloot.conformance.harness.protocol_notation import NotationError, parse_action
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant
from baloot.conformance.mutants.run import load_cases
from baloot.conformance.mutants.runtime_inputs import (
    ACTION,
    by_runtime_inputs,
    parameter_inputs,
)
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


@pytest.mark.parametrize("text", ["play AH AS", "play", "pass 7H", "double AH",
                                  "declare sira AH AH KH", "declare sira", "declare baloot KH QH",
                                  "hokum S AH"])
def test_the_notation_a_case_is_held_to_has_no_other_action(text: str) -> None:
    # what the proofs take as a case's actions holds because `conform lint` refuses these
    with pytest.raises(NotationError):
        parse_action(text)


def test_a_cases_action_reaches_the_rules_as_an_action_of_the_notation(spec: m.Spec) -> None:
    inputs = parameter_inputs(spec)
    # the runtime hands a case's action to apply_action (or to apply_legal_action, which
    # hands it on), and they hand it on unchanged to the rule of the phase
    for rule in ("apply_action", "apply_legal_action", "apply_play_action", "apply_bid",
                 "declare", "same_project"):
        assert inputs[(rule, "action")] == ACTION, rule


def test_a_requirement_on_the_notations_actions_is_proven_where_it_is_alike(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    # past the declaration's early return, the notation's actions with one card are the
    # plays: "a play of one card" is "a play" (PLAY.2)
    for change in ("`and` into `or`", "`and` keeps its left operand only",
                   "`and` keeps its right operand only", "`==` into `<=`", "`==` into `>=`"):
        assert by_runtime_inputs(spec, one(mutants, "apply_play_action/", change)), change
    # a call in the play (a `pass`, a `double`) is refused by it: not proven
    assert by_runtime_inputs(spec, one(mutants, "apply_play_action/condition/",
                                       "the requirement never refuses")) is None
    assert by_runtime_inputs(spec, one(mutants, "apply_play_action/comparison/spec/play:132:40",
                                       "`==` into `!=`")) is None


def test_the_proven_requirements_on_actions_survive_the_cases(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    cases = [c for c in load_cases()[1] if c.id.startswith("refusal.play.")]
    pack = PackOnMutants(LiveSpec(spec), cases, "literal")
    proven = [mut for mut in mutants.values() if mut.target == "apply_play_action"
              and by_runtime_inputs(spec, mut) is not None]
    assert len(proven) == 5
    for mut in proven:
        assert pack.run(mut, kills=1).status in (SURVIVED, SAME_CODE), mut.id
    never = one(mutants, "apply_play_action/condition/", "the requirement never refuses")
    assert pack.run(never, kills=1).status not in (SURVIVED, SAME_CODE)
