"""Proving a spec mutant equivalent where it stands: the changed expression takes the
same value as the original for every value its parts can take.

The proof looks only at the change and the expression around it, so it holds
whatever the rule's arguments, the game or the readings are:

- a comparison whose operator or number changed is translated to z3 over the
  integers, with what the conditions on the way to it say of the same operands
  (`path_facts.py`: a branch taken, a `require` passed, an earlier `if` that
  returns not taken). `len(...)` is a fresh integer at least 0; a field of a record
  that the rules set only to numbers written out or looked up (`session`, 1 or 2:
  `field_domains.py`) is one of those; a `const` is its value;
  `+`, `-` and `*` of those are themselves; any other operand is a fresh
  integer (the same operand, the same integer). Reading a value of another type
  (a suit, a truth value, none) as an unconstrained integer allows more values
  than there are, never fewer, so "no integers where they differ" proves the
  two comparisons equal. For example `len(x) == 0` and `len(x) <= 0`, or
  `len(x) > 0` and `len(x) != 0`.
- a list literal that only stands on the right of `in` or `not in`, with two
  items swapped (or an item dropped that another item repeats): membership
  asks only which items there are. Its items must be names or literals, which
  cannot fail, so evaluating them in another order changes nothing.

Anything else is left to the other methods (`equivalence.py`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...grammar import model as m
from ...grammar.boundaries import COMPARISONS
from ...grammar.walk import located, parents
from .field_domains import field_domains
from .operators import DROP, SpecMutant, rebuilt
from .path_facts import bound_names, path_facts

_ARITHMETIC_HOLDERS = (*COMPARISONS, "+", "-", "*")
_ATOMS = (m.Name, m.IntLit, m.BoolLit, m.StrLit, m.NoneLit)


def without_pos(node: Any) -> Any:
    """A key for a node that two copies at other places share."""
    if isinstance(node, tuple):
        return tuple(without_pos(n) for n in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__, *(without_pos(getattr(node, f.name))
                                       for f in dataclasses.fields(node) if f.name != "pos"))
    return node


class _Integers:
    """Operands of a comparison as z3 integers, with what is known of them."""

    def __init__(self, spec: m.Spec, local_names: set[str]) -> None:
        import z3

        self.z3 = z3
        self.consts = {c.name: c.value for c in spec.consts}
        self.domains = field_domains(spec)
        self.local_names = local_names
        self.atoms: dict[Any, Any] = {}
        self.facts: list[Any] = []

    def term(self, e: m.Expr) -> Any:
        z3 = self.z3
        if isinstance(e, m.IntLit):
            return z3.IntVal(e.value)
        if isinstance(e, m.Name) and e.name in self.consts and e.name not in self.local_names:
            return z3.IntVal(self.consts[e.name])
        if isinstance(e, m.UnaryOp) and e.op == "-":
            return -self.term(e.operand)
        if isinstance(e, m.BinOp) and e.op in ("+", "-", "*"):
            left, right = self.term(e.left), self.term(e.right)
            return {"+": left + right, "-": left - right, "*": left * right}[e.op]
        key = without_pos(e)
        if key not in self.atoms:
            atom = z3.Int(f"v{len(self.atoms)}")
            self.atoms[key] = atom
            if isinstance(e, m.Call) and isinstance(e.func, m.Name) and e.func.name == "len" \
                    and "len" not in self.local_names:
                self.facts.append(atom >= 0)
            if isinstance(e, m.FieldOf) and e.field in self.domains:
                self.facts.append(z3.Or(*(atom == v for v in sorted(self.domains[e.field]))))
        return self.atoms[key]

    def compare(self, e: m.BinOp) -> Any:
        left, right = self.term(e.left), self.term(e.right)
        return {"<": left < right, "<=": left <= right, ">": left > right,
                ">=": left >= right, "==": left == right, "!=": left != right}[e.op]

    def condition(self, e: m.Expr) -> Any:
        """A condition of comparisons joined by `and`, `or`, `not`, as a z3 truth value;
        None when some part of it is not one."""
        z3 = self.z3
        if isinstance(e, m.BoolLit):
            return z3.BoolVal(e.value)
        if isinstance(e, m.UnaryOp) and e.op == "not":
            inner = self.condition(e.operand)
            return None if inner is None else z3.Not(inner)
        if isinstance(e, m.BinOp) and e.op in ("and", "or"):
            left, right = self.condition(e.left), self.condition(e.right)
            if left is None or right is None:
                return None
            return z3.And(left, right) if e.op == "and" else z3.Or(left, right)
        if isinstance(e, m.BinOp) and e.op in COMPARISONS:
            return self.compare(e)
        return None


def _comparison_around(site: Any, holders: dict[int, Any]) -> m.BinOp | None:
    """The comparison the site is, or stands in as an operand (through `+`, `-`, `*`)."""
    node = site
    while True:
        if isinstance(node, m.BinOp) and node.op in COMPARISONS:
            return node
        parent = holders.get(id(node))
        arithmetic_parent = (isinstance(parent, m.BinOp) and parent.op in _ARITHMETIC_HOLDERS) \
            or (isinstance(parent, m.UnaryOp) and parent.op == "-")
        if isinstance(node, m.IntLit | m.BinOp | m.UnaryOp) and arithmetic_parent:
            node = parent
            continue
        return None


def equal_comparison(spec: m.Spec, rule: m.Rule, site: Any, new: Any) -> bool:
    """Whether the comparison holding `site` gives the same truth with `new` there."""
    site = located(rule.body, site)
    if new is DROP or not isinstance(site, m.BinOp | m.IntLit):
        return False
    holders = parents(rule.body)
    around = _comparison_around(site, holders)
    if around is None:
        return False
    changed = rebuilt(around, site, new)
    if not isinstance(changed, m.BinOp) or changed.op not in COMPARISONS:
        return False
    integers = _Integers(spec, bound_names(rule))
    z3 = integers.z3
    try:
        differ = integers.compare(around) != integers.compare(changed)
        known = []
        for fact in path_facts(rule, around):
            condition = integers.condition(fact.condition)
            if condition is not None:
                known.append(condition if fact.holds else z3.Not(condition))
    except (z3.Z3Exception, KeyError):
        return False
    solver = z3.Solver()
    solver.set("timeout", 5_000)
    solver.add(*integers.facts, *known, differ)
    return bool(solver.check() == z3.unsat)


def same_members(rule: m.Rule, site: Any, new: Any) -> bool:
    """Whether `site` is a list of names or literals that stands only on the right of
    `in` / `not in`, and `new` lists the same items (in another order, or without a
    repeated one)."""
    site = located(rule.body, site)
    if not isinstance(site, m.ListLit) or not isinstance(new, m.ListLit):
        return False
    parent = parents(rule.body).get(id(site))
    if not (isinstance(parent, m.BinOp) and parent.op in ("in", "not in") and parent.right is site):
        return False
    if not all(isinstance(item, _ATOMS) for item in (*site.items, *new.items)):
        return False
    return {without_pos(i) for i in site.items} == {without_pos(i) for i in new.items}


def by_local_algebra(spec: m.Spec, mutant: SpecMutant) -> str | None:
    """What shows the change equal where it stands, or None."""
    if mutant.kind != "rule" or mutant.site is None:
        return None
    rule = spec.rule(mutant.target)
    if same_members(rule, mutant.site, mutant.replacement):
        return "a list asked only for membership holds the same items"
    if mutant.operator in ("comparison", "number") and \
            equal_comparison(spec, rule, mutant.site, mutant.replacement):
        return "the comparison it changes is equal for every integer its operands can be"
    return None
