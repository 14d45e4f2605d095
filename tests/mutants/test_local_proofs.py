"""Proofs of equivalence from what is known where a change stands: the conditions on the way
to it (`path_facts.py`), the numbers a field is ever set to (`field_domains.py`), and lists
only ever used as sets (`order_free.py`)."""

from __future__ import annotations

from typing import Any

import pytest
from mutant_lookup import one

from baloot.conformance.mutants.field_domains import field_domains
from baloot.conformance.mutants.local_equivalence import by_local_algebra
from baloot.conformance.mutants.operators import SpecMutant
from baloot.conformance.mutants.order_free import by_order_free
from baloot.conformance.mutants.path_facts import path_facts
from baloot.grammar import model as m
from baloot.grammar.checks import check_spec
from baloot.grammar.parser import assemble, parse_text
from baloot.grammar.walk import walk_body

TEXT = """\
clause T.1 "A clause."
record Tally [T.1] "A tally." { count: int, step: int, items: list[int] }
const start [T.1] "The start." = 3
rule opened [T.1] "A new tally." (items: list[int]) -> Tally {
  return Tally(count=start, step=1, items=items)
}
rule grown [T.1] "One more." (t: Tally, n: int) -> Tally {
  if n > 2 { return t with { count = 4, step = n } }
  return t with { count = t.count }
}
rule pick [T.1] "Picks." (xs: list[int], n: int) -> int {
  if len(xs) == 0 { return 0 }
  require n > 2 else "n must be above 2"
  let big = [y for y in xs if y > 1]
  if len(xs) == 1 and n < 9 { return xs[0] }
  return if n == 5 then len(big) else n
}
"""


def small() -> m.Spec:
    spec = assemble(parse_text(TEXT, "t.baloot"), [("t.baloot", TEXT)])
    check_spec(spec)
    return spec


def _comparisons(rule: m.Rule, op: str) -> list[m.BinOp]:
    return [n for n in walk_body(rule.body) if isinstance(n, m.BinOp) and n.op == op]


def _said(spec: m.Spec, rule: m.Rule, site: m.BinOp) -> list[str]:
    # each fact as "not " + the condition's operator, or the operator alone
    return [("" if f.holds else "not ") + (f.condition.op if isinstance(f.condition, m.BinOp)
                                          else type(f.condition).__name__)
            for f in path_facts(rule, site)]


def test_the_facts_on_the_way_are_the_guards_passed_and_the_branch_taken() -> None:
    spec = small()
    pick = spec.rule("pick")
    one_item = next(c for c in _comparisons(pick, "==") if isinstance(c.right, m.IntLit)
                    and c.right.value == 1)
    # the early return on an empty list not taken, the requirement passed
    assert _said(spec, pick, one_item) == ["not ==", ">"]
    below_nine = _comparisons(pick, "<")[0]
    # on the right of `and`: its left operand holds too
    assert _said(spec, pick, below_nine) == ["not ==", ">", "=="]
    # after an `if` that returns only when its condition holds: that condition negated
    five = next(c for c in _comparisons(pick, "==") if isinstance(c.right, m.IntLit)
                and c.right.value == 5)
    assert _said(spec, pick, five) == ["not ==", ">", "not and"]
    # inside a comprehension: the facts outside it hold, none is said of its own name
    above_one = next(c for c in _comparisons(pick, ">") if isinstance(c.left, m.Name)
                     and c.left.name == "y")
    assert _said(spec, pick, above_one) == ["not ==", ">"]


def test_a_field_set_only_to_numbers_written_out_has_those_numbers() -> None:
    domains = field_domains(small())
    # count: the constant 3, the number 4 and a copy of itself
    assert domains["count"] == {3, 4}
    # step: once a parameter, so any number
    assert "step" not in domains
    # items: a list, not a number
    assert "items" not in domains


def test_the_real_spec_session_and_multiplier(spec: m.Spec) -> None:
    # a round has two bidding sessions (BID.7); the multiplier is an entry of
    # raise_multiplier, whatever the raise (RAISE.1)
    domains = field_domains(spec)
    assert domains["session"] == {1, 2}
    table = next(t for t in spec.tables if t.name == "raise_multiplier")
    assert domains["multiplier"] == {e.value for e in table.entries}


# (the method, the mutant's id prefix, its change, whether it is proven, why)
PROOFS = [
    (by_local_algebra, "game_winner/comparison/spec/game:175:6", "`==` into `<=`", True,
     "`len(reached) == 1` comes after `len(reached) == 0` returned: `<= 1` asks the same"),
    (by_local_algebra, "game_winner/comparison/spec/game:175:6", "`==` into `<`", False,
     "`len(reached) < 1` never holds there"),
    (by_local_algebra, "game_winner/comparison/spec/game:179:17", "`>` into `>=`", True,
     "under higher_total_wins, equal totals returned none before"),
    (by_local_algebra, "hokum_bid/comparison/spec/bidding:190:6", "`==` into `>=`", True,
     "`game.session == 2` is `>= 2` for a session of 1 or 2"),
    (by_local_algebra, "hokum_bid/comparison/spec/bidding:190:6", "`==` into `>`", False,
     "a session is never above 2"),
    (by_order_free, "sun_calls/list/spec/bidding:98", "items 1 and 2 of a list swapped", True,
     "sun_calls' [sun, ashkal] joins the legal actions, a set in the `legal` reply"),
    (by_order_free, "opponents_in_turn/list/spec/raises:31", "items 1 and 2 of a list swapped",
     False, "who is asked first is seen (the pack kills it)"),
    (by_order_free, "teams/list/spec/cards:35", "items 1 and 2 of a list swapped", False,
     "the team list [0, 1] is read by index (scores per team)"),
    (by_order_free, "sun_calls/list/spec/bidding:98", "item 1 of a list dropped", False,
     "dropping an item changes which actions there are"),
]


@pytest.mark.parametrize(("prove", "prefix", "change", "proven", "why"), PROOFS,
                         ids=[f"{p[1].split('/')[0]}: {p[2]}" for p in PROOFS])
def test_what_is_known_where_a_change_stands_proves_it_or_not(
        spec: m.Spec, mutants: dict[str, SpecMutant], prove: Any, prefix: str, change: str,
        proven: bool, why: str) -> None:
    assert (prove(spec, one(mutants, prefix, change)) is not None) is proven, why
