"""What holds where a mutated comparison stands: the conditions on the way to it.

The rule language is pure and a `let` never changes, so a condition the evaluation
has passed still holds, on the same values, where the comparison is evaluated:

- the condition of the `if` or `elif` branch it sits in, and the negation of every
  branch condition before that one (the `else` part: all of them negated);
- after `require C`, C;
- after an `if` whose every branch returns (and that has no `else`), every branch
  condition negated: the evaluation fell through;
- the left operand of an `and` on whose right it stands; the negated left operand of
  an `or`; the condition of an `if ... then ... else` expression, or its negation.

A fact is used only where every name in it means one value throughout the rule: a
parameter, a constant, an enum member, or a name bound once by a `let` and never by
a comprehension. Anything else is left out, which can only leave a proof unfound.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...grammar import model as m
from ...grammar.checks import always_returns
from ...grammar.walk import children, walk, walk_body


@dataclass(frozen=True)
class Fact:
    condition: m.Expr
    holds: bool  # True: the condition is true there; False: it is false


def _contains(node: Any, target: Any) -> bool:
    return any(n is target for n in walk(node))


def _in_block(body: tuple[m.Stmt, ...], target: Any, facts: list[Fact]) -> list[Fact] | None:
    for stmt in body:
        if _contains(stmt, target):
            return _in_statement(stmt, target, facts)
        if isinstance(stmt, m.Require):
            facts = [*facts, Fact(stmt.condition, True)]
        elif isinstance(stmt, m.If) and stmt.otherwise is None \
                and all(always_returns(b.body) for b in stmt.branches):
            facts = [*facts, *(Fact(b.condition, False) for b in stmt.branches)]
    return None


def _in_statement(stmt: m.Stmt, target: Any, facts: list[Fact]) -> list[Fact] | None:
    if isinstance(stmt, m.Let | m.Return):
        return _in_expr(stmt.value, target, facts)
    if isinstance(stmt, m.Require):
        return _in_expr(stmt.condition, target, facts)
    if isinstance(stmt, m.If):
        before: list[Fact] = []
        for branch in stmt.branches:
            if _contains(branch.condition, target):
                return _in_expr(branch.condition, target, [*facts, *before])
            if any(_contains(s, target) for s in branch.body):
                return _in_block(branch.body, target,
                                 [*facts, *before, Fact(branch.condition, True)])
            before.append(Fact(branch.condition, False))
        return _in_block(stmt.otherwise or (), target, [*facts, *before])
    if isinstance(stmt, m.Choose):
        for case in stmt.cases:
            if any(_contains(s, target) for s in case.body):
                return _in_block(case.body, target, facts)
    return None


def _in_expr(expr: m.Expr, target: Any, facts: list[Fact]) -> list[Fact]:
    node: Any = expr
    while node is not target:
        if isinstance(node, m.BinOp) and node.op in ("and", "or") and _contains(node.right, target):
            facts = [*facts, Fact(node.left, node.op == "and")]
            node = node.right
        elif isinstance(node, m.IfExpr) and _contains(node.then, target):
            facts, node = [*facts, Fact(node.condition, True)], node.then
        elif isinstance(node, m.IfExpr) and _contains(node.otherwise, target):
            facts, node = [*facts, Fact(node.condition, False)], node.otherwise
        else:
            # any other holder: descend without a fact (a comprehension's names are
            # its own, so nothing outside it is said about them)
            child = next((c for c in children(node) if _contains(c, target)), None)
            if child is None:
                return facts
            node = child
    return facts


def bound_names(rule: m.Rule) -> set[str]:
    """Every name the rule binds: its parameters, its `let`s, its comprehensions' names."""
    names = {p.name for p in rule.params}
    for node in walk_body(rule.body):
        if isinstance(node, m.Let):
            names.add(node.name)
        elif isinstance(node, m.CompFor):
            names.add(node.target)
    return names


def _single_names(rule: m.Rule) -> set[str]:
    """Names bound once in the rule, by a parameter or a `let`, never by a comprehension."""
    bound = Counter(p.name for p in rule.params)
    loops: set[str] = set()
    for node in walk_body(rule.body):
        if isinstance(node, m.Let):
            bound[node.name] += 1
        elif isinstance(node, m.CompFor):
            loops.add(node.target)
    return {name for name, count in bound.items() if count == 1 and name not in loops}


def path_facts(rule: m.Rule, target: Any) -> list[Fact]:
    """The facts that hold where `target` (a node of the rule's body) is evaluated."""
    found = _in_block(rule.body, target, []) or []
    single, bound = _single_names(rule), bound_names(rule)

    def usable(fact: Fact) -> bool:
        names = {n.name for n in walk(fact.condition) if isinstance(n, m.Name)}
        return all(name in single or name not in bound for name in names)

    return [f for f in found if usable(f)]
