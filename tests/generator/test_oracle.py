"""The generated engine means what the rule language means: on inputs for every rule of
the spec, each generated function gives what the evaluator (`baloot.grammar.evaluate`)
gives: the same value, the same illegal action, or an error for both."""

from __future__ import annotations

import dataclasses

import pytest
from rule_samples import (
    ANALYSIS,
    SPEC,
    Sample,
    agree,
    evaluated,
    generated,
    module_for,
    samples,
)

from baloot.grammar.evaluate import evaluate


def test_every_rule_has_inputs() -> None:
    found = samples()
    assert [r.name for r in SPEC.rules if not found[r.name]] == []


@pytest.mark.parametrize("rule", [r.name for r in SPEC.rules])
def test_generated_rule_agrees_with_the_evaluator(rule: str) -> None:
    differ: list[tuple[Sample, object, object]] = []
    for sample in samples()[rule]:
        want, got = evaluated(sample), generated(sample)
        if not agree(want, got):
            differ.append((sample, want, got))
    assert not differ, f"{len(differ)} disagreement(s); first: {differ[0]}"


def test_a_generated_rule_that_computes_otherwise_disagrees(
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = module_for("card_value")
    real = module.card_value
    monkeypatch.setattr(module, "card_value", lambda *args: real(*args) + 1)
    wrong = [s for s in samples()["card_value"] if not agree(evaluated(s), generated(s))]
    assert wrong and len(wrong) == len(samples()["card_value"])


def test_an_evaluator_of_another_spec_disagrees() -> None:
    """A spec whose sun card values differ: its evaluator no longer agrees with the engine."""
    table = SPEC.table("sun_card_value")
    entries = tuple(dataclasses.replace(e, value=e.value + 1) for e in table.entries)
    changed = dataclasses.replace(SPEC, tables=tuple(
        dataclasses.replace(t, entries=entries) if t is table else t for t in SPEC.tables))
    wrong = [s for s in samples()["card_value"]
             if evaluate(changed, s.rule, s.args, s.reading_map) != evaluated(s)[1]]
    assert wrong


def test_an_unknown_reading_raises_in_both() -> None:
    rule = next(r.name for r in SPEC.rules if r.name in {
        rr.name for rr in ANALYSIS.consulting_rules("rounding")})
    chosen = next(s for s in samples()[rule])
    bad = dataclasses.replace(chosen, readings=tuple(
        (v, "no_such_reading" if v == "rounding" else r) for v, r in chosen.readings))
    assert evaluated(bad) == ("error",) == generated(bad)
