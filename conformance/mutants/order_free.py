"""Proving a spec mutant equivalent because the list it reorders is only ever used as a
set.

The protocol's `legal` reply is a set (`schema/legal.reply.json`: its `actions` are
`"x-order": "free"`), so the order of the list `legal_actions` hands the runtime is not
seen. A list the rules build only to join into that list, or to ask whether an action is
in it, may be built in any order. A value stands where its order is not seen
(`_unordered`) when it is:

- the right operand of `in` or `not in`, or the argument of `len`;
- an operand of `+` (list joining) whose result stands so;
- returned by a rule each of whose calls stands so (the rule `legal_actions` too: the
  runtime hands its list to the protocol's set);
- kept in a `let` each of whose uses stands so;
- passed to a rule whose parameter stands so at each of its uses;
- the list a comprehension of one `for` runs over, when the comprehension stands so
  (it maps and filters the items one by one).

A mutant that swaps two items of a list literal (the same items, in another order)
standing so changes nothing any reply shows. Any other use, or a cycle of calls, leaves
the proof unfound.
"""

from __future__ import annotations

from typing import Any

from ...grammar import model as m
from ...grammar.walk import located, parents, rule_calls, walk_body
from .local_equivalence import without_pos
from .operators import SpecMutant

SET_RULES = ("legal_actions",)  # rules whose result the runtime hands the protocol as a set


class _Uses:
    def __init__(self, spec: m.Spec) -> None:
        self.rules = {r.name: r for r in spec.rules}
        self.holders = {r.name: parents(r.body) for r in spec.rules}
        self.calls = rule_calls(spec)
        self.open: set[tuple[str, str]] = set()  # what is being shown: a cycle fails

    def result(self, name: str) -> bool:
        """Whether every use of the rule's result is blind to its order."""
        key = ("result", name)
        if key in self.open:
            return False
        self.open.add(key)
        try:
            uses = self.calls.get(name, [])
            if name not in SET_RULES and not uses:
                return False
            return all(self.unordered(caller, call) for caller, call in uses)
        finally:
            self.open.discard(key)

    def parameter(self, rule: str, index: int) -> bool:
        key = ("parameter", f"{rule}#{index}")
        if key in self.open:
            return False
        self.open.add(key)
        try:
            spec_rule = self.rules[rule]
            name = spec_rule.params[index].name
            return self.name_uses(spec_rule, name)
        finally:
            self.open.discard(key)

    def name_uses(self, rule: m.Rule, name: str) -> bool:
        uses = [n for n in walk_body(rule.body) if isinstance(n, m.Name) and n.name == name]
        return all(self.unordered(rule.name, use) for use in uses)

    def unordered(self, rule_name: str, node: Any) -> bool:
        """Whether the value of `node`, in the rule, is used only where order is not seen."""
        holders = self.holders[rule_name]
        parent = holders.get(id(node))
        if isinstance(parent, m.BinOp):
            if parent.op in ("in", "not in"):
                return parent.right is node
            if parent.op == "+":
                return self.unordered(rule_name, parent)
            return False
        if isinstance(parent, m.Return):
            return self.result(rule_name)
        if isinstance(parent, m.Let):
            lets = [n for n in walk_body(self.rules[rule_name].body)
                    if isinstance(n, m.Let) and n.name == parent.name]
            return len(lets) == 1 and self.name_uses(self.rules[rule_name], parent.name)
        if isinstance(parent, m.Call) and isinstance(parent.func, m.Name):
            if parent.func.name == "len" and parent.args == (node,):
                return True
            if parent.func.name in self.rules and node in parent.args:
                index = next(i for i, a in enumerate(parent.args) if a is node)
                return self.parameter(parent.func.name, index)
            return False
        if isinstance(parent, m.CompFor) and parent.iterable is node:
            comprehension = holders.get(id(parent))
            return isinstance(comprehension, m.Comprehension) \
                and sum(isinstance(c, m.CompFor) for c in comprehension.clauses) == 1 \
                and self.unordered(rule_name, comprehension)
        return False


def by_order_free(spec: m.Spec, mutant: SpecMutant) -> str | None:
    """What shows the mutant only reorders a list no reply sees the order of, or None."""
    if mutant.kind != "rule" or mutant.site is None or mutant.operator != "list":
        return None
    site, new = mutant.site, mutant.replacement
    if not isinstance(site, m.ListLit) or not isinstance(new, m.ListLit):
        return None
    if sorted(map(repr, _keys(site.items))) != sorted(map(repr, _keys(new.items))):
        return None  # an item dropped: not the same items
    if not all(_cannot_refuse(spec, item) for item in site.items):
        return None  # two items that may refuse could refuse with other messages
    rule = spec.rule(mutant.target)
    found = located(rule.body, site)
    if found is None or not _Uses(spec).unordered(rule.name, found):
        return None
    return "it reorders a list that is only joined into the legal actions (a set) or asked " \
           "what it holds"


def _cannot_refuse(spec: m.Spec, item: m.Expr) -> bool:
    """A name, a literal, or a rule called on those whose rules, called on and on, hold
    no `require`."""
    if isinstance(item, m.Name | m.IntLit | m.BoolLit | m.StrLit | m.NoneLit):
        return True
    if not (isinstance(item, m.Call) and isinstance(item.func, m.Name)
            and all(isinstance(a, m.Name | m.IntLit | m.BoolLit | m.StrLit) for a in item.args)
            and not item.kwargs):
        return False
    rules = {r.name: r for r in spec.rules}
    todo, seen = [item.func.name], set()
    while todo:
        name = todo.pop()
        if name in seen or name not in rules:
            continue
        seen.add(name)
        for node in walk_body(rules[name].body):
            if isinstance(node, m.Require):
                return False
            if isinstance(node, m.Call) and isinstance(node.func, m.Name):
                todo.append(node.func.name)
    return True


def _keys(items: tuple[m.Expr, ...]) -> list[Any]:
    return [without_pos(i) for i in items]
