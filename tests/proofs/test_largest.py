"""The largest value of a term, as projects-max proves it: a model at the value and
none above, from a guess or from z3's optimizer."""

from __future__ import annotations

import pytest
import z3

from baloot.proofs.projects import largest


def _total() -> tuple[z3.ArithRef, list[z3.BoolRef]]:
    # Three cards worth 4, 10 and 11 and a hand of at most two of them: the most a
    # hand holds is 10 + 11 = 21, and the values it can hold are 0, 4, 10, 11, 14, 15, 21.
    held = [z3.Bool(f"held{i}") for i in range(3)]
    total = z3.Sum(*[z3.If(h, v, 0) for h, v in zip(held, (4, 10, 11), strict=True)])
    at_most_two = z3.Sum(*[z3.If(h, 1, 0) for h in held]) <= 2
    return total, [at_most_two]


@pytest.mark.parametrize("guess", [None, 0, 14, 21, 22, 100])
def test_the_largest_value_whatever_the_guess(guess: int | None) -> None:
    total, constraints = _total()
    found = largest(total, constraints, guess)
    assert found is not None
    value, model = found
    assert value == 21
    assert model.eval(total, model_completion=True).as_long() == 21


def test_the_largest_value_under_a_constraint_the_guess_breaks() -> None:
    total, constraints = _total()
    ace_left_out = z3.Not(z3.Bool("held2"))  # without the 11: 10 + 4 = 14
    found = largest(total, [*constraints, ace_left_out], 21)
    assert found is not None and found[0] == 14
