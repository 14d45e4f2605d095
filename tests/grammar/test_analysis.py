"""The one analysis of what rules use (`baloot.grammar.analysis`), on a small spec written
here and on the real one."""

from __future__ import annotations

import pytest

from baloot.backends.python.generate import RuleModules, rule_module
from baloot.grammar import model as m
from baloot.grammar.analysis import (
    INT,
    ListOf,
    Maybe,
    Simple,
    analyse,
    variants_used,
)
from baloot.grammar.checks import check_spec
from baloot.grammar.errors import SpecError
from baloot.grammar.parser import assemble, load_spec, parse_text

TEXT = """\
clause T.1 "A clause."
enum Suit [T.1] "Suits." { spades "S", hearts "H" }
record Card [T.1] "A card." { suit: Suit, worth: int }
record Hand [T.1] "A hand." { cards: list[Card], best: Card? }
variant A1 first [T.1] "One." { reading a "A." source "x" reading b "B." source "y" default a }
variant A2 second [T.1] "Two." { reading c "C." source "x" reading d "D." source "y" default c }
profile p "P." { first = a second = c }

rule leaf [T.1] "Reads the first variant." (x: int) -> int {
  choose first { a { return x } b { return x + 1 } }
}
rule middle [T.1] "Calls leaf, reads the second." (x: int) -> int {
  if second is d { return leaf(x) }
  return 0
}
rule top [T.1] "Calls middle only." (h: Hand) -> int {
  return middle(h.best.worth) + len(h.cards)
}
rule plain [T.1] "Reads nothing." (h: Hand) -> list[Suit] {
  return [c.suit for c in h.cards]
}
"""


def small(extra: str = "") -> m.Spec:
    text = TEXT + extra
    spec = assemble(parse_text(text, "t.baloot"), [("t.baloot", text)])
    check_spec(spec)
    return spec


def test_variants_direct_and_through_calls() -> None:
    a = analyse(small())
    assert a.variants_consulted("top") == ()
    assert a.variants_consulted("middle") == ("second",)
    assert a.variants_reached(["top"]) == ("first", "second")
    assert a.variants_reached(["plain"]) == ()
    assert [a.needs_readings(r) for r in ("leaf", "middle", "top", "plain")] == [
        True, True, True, False]
    assert [r.name for r in a.consulting_rules("A1")] == ["leaf"]
    assert a.rules_called("top") == ("middle",)
    assert a.rules_reached(["top"]) == ("top", "middle", "leaf")
    assert variants_used(small().rule("middle").body) == ["second"]


def test_types_of_expressions() -> None:
    spec = small()
    a = analyse(spec)
    top = spec.rule("top").body[0]
    assert isinstance(top, m.Return) and isinstance(top.value, m.BinOp)
    call = top.value.left
    assert isinstance(call, m.Call)
    worth = call.args[0]
    assert isinstance(worth, m.FieldOf) and isinstance(worth.base, m.FieldOf)
    assert a.type_of(worth.base) == Maybe(Simple("Card"))
    assert a.type_of(worth) == INT
    assert a.type_of(top.value) == INT
    plain = spec.rule("plain").body[0]
    assert isinstance(plain, m.Return)
    assert a.type_of(plain.value) == ListOf(Simple("Suit"))


def test_an_optional_value_where_a_value_is_needed_is_marked_known() -> None:
    spec = small()
    code = rule_module(spec, "t.baloot", RuleModules(spec))
    assert "known(h.best).worth" in code
    assert "else:\n        raise UnknownReading(\"first\", readings.first)" in code


def test_a_field_the_record_does_not_have_is_a_type_problem() -> None:
    extra = 'rule bad [T.1] "A suit has no field." (c: Card) -> int { return c.suit.worth }\n'
    with pytest.raises(SpecError) as err:
        small(extra)
    problem = err.value.problems[0]
    assert "field 'worth' of a Suit, not a record" in problem.message
    line = (TEXT + extra).splitlines()[problem.pos.line - 1]
    assert line.startswith("rule bad") and line[problem.pos.column - 1:].startswith("worth }")


def test_a_field_of_another_record_is_a_type_problem() -> None:
    extra = 'rule bad [T.1] "Hands have no worth." (h: Hand) -> int { return h.worth }\n'
    with pytest.raises(SpecError) as err:
        small(extra)
    assert "Hand has no field 'worth'" in err.value.problems[0].message


def test_the_real_spec_every_rule_analysed() -> None:
    spec = load_spec()
    a = analyse(spec)
    assert analyse(spec) is a  # one analysis per spec
    assert set(a.local_types) == {r.name for r in spec.rules}
    assert "rounding" in a.variants_reached(["score_round"])
