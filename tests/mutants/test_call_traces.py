"""Screening cases by the calls the reference makes (`call_traces.py`): a case whose calls
of the mutated rules the mutant answers as the reference did is not run, and nothing else
changes: every mutant gets the verdict it gets when every case is run."""

from __future__ import annotations

import sys
import types

import pytest
from mutant_lookup import one

from baloot.conformance.harness.pack import Case
from baloot.conformance.mutants.call_traces import Screen
from baloot.conformance.mutants.differential import find_witness
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant
from baloot.conformance.mutants.spec_run import FIRST_RUN, SURVIVED, PackOnMutants, SpecVerdict


@pytest.fixture(scope="module")
def packs(live: LiveSpec, cases: list[Case]) -> tuple[PackOnMutants, PackOnMutants]:
    """The same cases, every one run (first) and screened (second)."""
    return (PackOnMutants(live, cases, "literal", screening=False),
            PackOnMutants(live, cases, "literal", screening=True))


# One mutant of each kind the screen handles differently, by id and description.
KINDS = [
    # a rule under a `choose` branch: cases leaving the variant open are pinned to it
    ("redeal/update/spec/bidding:290", "field `next_dealer_seat` left out of the update"),
    # a constant under a reading, read by the rules that name it
    ("kaboot_ace_points/constant/", "kaboot_ace_points 88 into 89"),
    # a table entry, changed in place
    ("hokum_project_value/table/", "hokum_project_value[baloot] 2 into 3 (plus one)"),
    # a rank order, read by several rules
    ("trump_rank_order/order/", "trump_rank_order: ten and king swapped"),
    # a rule that refuses (raises) where the reference does not, and the other way round
    ("play_a_card/negation/spec/play:144", "the requirement negated"),
    ("play_a_card/condition/spec/play:142", "the requirement never refuses"),
    # the shortcut for a listed action, played through itself, not judged
    ("apply_legal_action/member/spec/game:150:21", "`play_card` into `declare_project`"),
    # a survivor: asks the same question, every call answered alike
    ("four_of_a_kind_project/list/", "items 1 and 2 of a list swapped"),
]


def _same(run: SpecVerdict, screened: SpecVerdict) -> None:
    assert (screened.status, screened.killed_by, screened.at_check, screened.cases_run) == \
        (run.status, run.killed_by, run.at_check, run.cases_run)


@pytest.mark.parametrize(("prefix", "description"), KINDS)
def test_a_screened_mutant_gets_the_verdict_of_every_case_run(
        packs: tuple[PackOnMutants, PackOnMutants], mutants: dict[str, SpecMutant],
        prefix: str, description: str) -> None:
    mutant = one(mutants, prefix, description)
    every, screening = packs
    run = every.run(mutant, kills=0)  # every case reaching the change, to the end
    screened = screening.run(mutant, kills=0)
    _same(run, screened)
    assert run.screened == 0 and run.cases_run > 0
    assert screened.screened <= screened.cases_run - len(screened.killed_by)


def test_a_case_answered_alike_is_not_run(packs: tuple[PackOnMutants, PackOnMutants],
                                          mutants: dict[str, SpecMutant]) -> None:
    # `rank in [ten, jack, queen, king]` with two items swapped returns what it returned on
    # every call: no case is run past the first few (those are run before any trace is made)
    mutant = one(mutants, "four_of_a_kind_project/list/", "items 1 and 2 of a list swapped")
    verdict = packs[1].run(mutant, kills=2)
    assert verdict.status == SURVIVED
    assert verdict.cases_run == len(packs[1].selected(mutant)) > FIRST_RUN
    assert verdict.screened >= verdict.cases_run - FIRST_RUN
    # a mutant that answers some calls otherwise has those cases run, and is killed by them
    killed = one(mutants, "trump_rank_order/order/", "trump_rank_order: ten and king swapped")
    verdict = packs[1].run(killed, kills=0)
    assert verdict.killed_by and verdict.screened < verdict.cases_run


def test_a_constant_held_outside_the_rules_is_not_screened(
        live: LiveSpec, mutants: dict[str, SpecMutant], monkeypatch: pytest.MonkeyPatch) -> None:
    mutant = one(mutants, "kaboot_ace_points/constant/", "kaboot_ace_points 88 into 89")
    screen = Screen(live)
    assert screen.screenable(mutant)
    # a hand-written module of the engine that reads the constant itself, past the rules
    reader = types.ModuleType("baloot.reference_impl.reads_a_constant")
    reader.KABOOT_ACE_POINTS = 88  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, reader.__name__, reader)
    assert not screen.screenable(mutant)


@pytest.mark.parametrize(("prefix", "description"), [
    ("trick_winner/extreme/spec/play:43", "`max` into `min`"),  # differs at once
    ("play_a_card/condition/spec/play:148", "the requirement never refuses"),  # a probe
    ("four_of_a_kind_project/list/", "items 1 and 2 of a list swapped"),  # never differs
])
def test_a_screened_game_finds_the_witness_a_replay_finds(
        live: LiveSpec, mutants: dict[str, SpecMutant], prefix: str, description: str) -> None:
    mutant = one(mutants, prefix, description)
    found = [find_witness(live, mutant, ("literal",), games=6, screening=screening)
             for screening in (False, True)]
    replayed, screened = found
    if replayed is None:
        assert screened is None
        return
    assert screened is not None
    assert (screened.what, screened.dealer, screened.deck, len(screened.steps),
            screened.expected, screened.actual) == \
        (replayed.what, replayed.dealer, replayed.deck, len(replayed.steps),
         replayed.expected, replayed.actual)
