"""Proving a spec mutant equivalent because what it changes is never read.

Some fields of a `Game` are bookkeeping for one phase: the bidding's `stage` and
`asking`, say. Once a round waits for its next deal, nothing reads them again:
the next deal builds a new game from the dealer, the deck and the totals. A
mutant that changes only such a field, in a game it hands back in such a phase,
changes nothing an engine shows. The proof has two parts, both over the spec's
model:

- **What a phase reads** (`live_fields`): the rules the engine's runtime calls
  (`hooks engine`) are walked with the game's phase known to lie in a set. A
  condition on the phase (`==`, `!=`, `in`, `not in`, `and`, `or`, `not`) that
  the set decides takes only its branch; a `require` it decides false refuses
  there. Every field read of the game (`game.f`) is noted; the game passed
  whole to another rule walks that rule the same way; any other use of the
  whole game counts as reading every field. The fields the protocol's `state`
  reply shows, and the last round's result, are read too.
- **What the mutant changes** (`_changed_update`): the change is one field of one
  record update (`game with { f = ... }`): the field left out, or an enum
  member or truth value inside its value, which cannot fail where the original
  succeeds. That update is handed back by its rule as is (returned, or kept in a
  `let` used only as the base of returned updates), with its phase set to
  members of the set, and the rule is called only in the tail of its callers
  (`return rule(...)`), up to a rule the runtime calls.

When the field is not among those the phase reads, the mutant's game differs
from the reference's only where no rule and no reply looks.
"""

from __future__ import annotations

from typing import Any

from ...grammar import model as m
from ...grammar.analysis import hooked_rules
from ...grammar.walk import children, located, parents, walk_body
from ..protocol.fields import protocol_fields
from .operators import SpecMutant


class _Whole(Exception):
    """The game is used whole, in a way the walk does not follow."""


def _phase_members(spec: m.Spec) -> set[str]:
    return {mem.name for e in spec.enums if e.name == "Phase" for mem in e.members}


def _game_params(rule: m.Rule) -> list[int]:
    return [i for i, p in enumerate(rule.params)
            if isinstance(p.type, m.PlainType) and p.type.name == "Game"]


class _Reads:
    """The fields a walk with the phase in `phases` reads of the tracked games."""

    def __init__(self, spec: m.Spec, phases: frozenset[str]) -> None:
        self.phases = phases
        self.rules = {r.name: r for r in spec.rules}
        self.members = _phase_members(spec)
        self.fields: set[str] = set()
        self.walked: set[tuple[str, int]] = set()

    def rule(self, name: str, index: int) -> None:
        if (name, index) in self.walked:
            return
        self.walked.add((name, index))
        rule = self.rules[name]
        self.block(rule.body, {rule.params[index].name})

    # -- statements: True when every path through them returns or refuses --------------

    def block(self, body: tuple[m.Stmt, ...], games: set[str]) -> bool:
        games = set(games)
        for stmt in body:
            if isinstance(stmt, m.Let):
                self.expr(stmt.value, games)
                games.discard(stmt.name)
            elif isinstance(stmt, m.Return):
                self.expr(stmt.value, games)
                return True
            elif isinstance(stmt, m.Require):
                self.expr(stmt.condition, games)
                if self.truth(stmt.condition, games) is False:
                    return True
            elif isinstance(stmt, m.If):
                if self.if_(stmt, games):
                    return True
            elif isinstance(stmt, m.Choose):
                ends = [self.block(case.body, games) for case in stmt.cases]
                if all(ends):
                    return True
            else:
                raise _Whole
        return False

    def if_(self, stmt: m.If, games: set[str]) -> bool:
        ends = True
        for branch in stmt.branches:
            self.expr(branch.condition, games)
            truth = self.truth(branch.condition, games)
            if truth is False:
                continue
            ends = self.block(branch.body, games) and ends
            if truth is True:
                return ends
        if stmt.otherwise is None:
            return False
        return self.block(stmt.otherwise, games) and ends

    # -- conditions on the phase -----------------------------------------------------------

    def truth(self, e: m.Expr, games: set[str]) -> bool | None:
        """The condition's value when the phase set decides it, else None."""
        if isinstance(e, m.UnaryOp) and e.op == "not":
            inner = self.truth(e.operand, games)
            return None if inner is None else not inner
        if not isinstance(e, m.BinOp):
            return None
        if e.op in ("and", "or"):
            left, right = self.truth(e.left, games), self.truth(e.right, games)
            if e.op == "and":
                return False if False in (left, right) else (True if left and right else None)
            return True if True in (left, right) else (False if left is right is False else None)
        if not self.is_phase(e.left, games):
            return None
        named = self.named_phases(e.right)
        if named is None:
            return None
        if e.op in ("==", "in"):
            inside = True
        elif e.op in ("!=", "not in"):
            inside = False
        else:
            return None
        if self.phases <= named:
            return inside
        if not self.phases & named:
            return not inside
        return None

    def is_phase(self, e: m.Expr, games: set[str]) -> bool:
        return isinstance(e, m.FieldOf) and e.field == "phase" \
            and isinstance(e.base, m.Name) and e.base.name in games

    def named_phases(self, e: m.Expr) -> frozenset[str] | None:
        items = e.items if isinstance(e, m.ListLit) else (e,)
        if all(isinstance(i, m.Name) and i.name in self.members for i in items):
            return frozenset(i.name for i in items if isinstance(i, m.Name))
        return None

    # -- reads ---------------------------------------------------------------------------

    def expr(self, e: Any, games: set[str]) -> None:
        if isinstance(e, m.FieldOf) and isinstance(e.base, m.Name) and e.base.name in games:
            self.fields.add(e.field)
            return
        if isinstance(e, m.Name) and e.name in games:
            raise _Whole
        if isinstance(e, m.Call) and isinstance(e.func, m.Name) and e.func.name in self.rules:
            for index, arg in enumerate(e.args):
                if isinstance(arg, m.Name) and arg.name in games:
                    if index not in _game_params(self.rules[e.func.name]):
                        raise _Whole
                    self.rule(e.func.name, index)
                else:
                    self.expr(arg, games)
            for kw in e.kwargs:
                self.expr(kw.value, games)
            return
        if isinstance(e, m.CompFor) and e.target in games:
            raise _Whole  # a loop variable named as a game: not followed
        for child in children(e):
            self.expr(child, games)


def reported_fields(spec: m.Spec) -> frozenset[str]:
    """The fields of a game the protocol shows: the `state` reply's and the last result."""
    shown = set(protocol_fields().state.names) | {"last_result"}
    game = next(r for r in spec.records if r.name == "Game")
    return frozenset(f.name for f in game.fields if f.name in shown)


def live_fields(spec: m.Spec, phases: frozenset[str]) -> frozenset[str] | None:
    """The fields of a game whose phase is in `phases` that a rule of the engine or a
    reply reads; None when the walk cannot tell (the game used whole)."""
    reads = _Reads(spec, phases)
    try:
        for name in hooked_rules(spec, "engine"):
            for index in _game_params(reads.rules[name]):
                reads.rule(name, index)
    except _Whole:
        return None
    return frozenset(reads.fields) | reported_fields(spec)


# ---- the mutant's side --------------------------------------------------------------------


def _changed_update(rule: m.Rule, mutant: SpecMutant) -> tuple[m.WithUpdate, str] | None:
    """The record update the change is confined to, and the field it changes."""
    site = located(rule.body, mutant.site)
    if site is None:
        return None
    if mutant.operator == "update" and isinstance(site, m.WithUpdate) \
            and isinstance(mutant.replacement, m.WithUpdate):
        kept = {u.name for u in mutant.replacement.updates}
        dropped = [u.name for u in site.updates if u.name not in kept]
        return (site, dropped[0]) if len(dropped) == 1 else None
    if mutant.operator not in ("member", "truth") or not isinstance(site, m.Name | m.BoolLit):
        return None
    holders = parents(rule.body)
    node: Any = site
    parent = holders.get(id(site))
    while isinstance(parent, m.ListLit):  # an item of a list literal: it cannot fail either
        node, parent = parent, holders.get(id(parent))
    if not isinstance(parent, m.KeywordArg) or parent.value is not node:
        return None
    update = holders.get(id(parent))
    return (update, parent.name) if isinstance(update, m.WithUpdate) else None


def _phase_set(update: m.WithUpdate, members: set[str]) -> frozenset[str] | None:
    for u in update.updates:
        if u.name == "phase":
            values = [u.value.then, u.value.otherwise] if isinstance(u.value, m.IfExpr) \
                else [u.value]
            if all(isinstance(v, m.Name) and v.name in members for v in values):
                return frozenset(v.name for v in values if isinstance(v, m.Name))
            return None
    return None


def _handed_back(rule: m.Rule, update: m.WithUpdate, members: set[str]
                 ) -> frozenset[str] | None:
    """The phases the update's record is returned in, when the rule returns it as is (or
    as the base of returned updates that leave the field's value alone); else None."""
    holders = parents(rule.body)
    parent = holders.get(id(update))
    if isinstance(parent, m.Return):
        return _phase_set(update, members)
    if not isinstance(parent, m.Let):
        return None
    name = parent.name
    uses = [n for n in walk_body(rule.body) if isinstance(n, m.Name) and n.name == name]
    phases: set[str] = set()
    for use in uses:
        outer = holders.get(id(use))
        if not (isinstance(outer, m.WithUpdate) and outer.base is use
                and isinstance(holders.get(id(outer)), m.Return)):
            return None
        own = _phase_set(outer, members) or _phase_set(update, members)
        if own is None:
            return None
        phases |= own
    return frozenset(phases) if uses else None


def _tail_called(spec: m.Spec, name: str) -> bool:
    """Whether every call of the rule, and of each rule calling it, is `return rule(...)`,
    up to the rules the runtime calls (which hands their game back as it is)."""
    roots = set(hooked_rules(spec, "engine"))
    calls: dict[str, list[tuple[str, bool]]] = {}  # callee -> (caller, in a tail?) per call
    for rule in spec.rules:
        holders = parents(rule.body)
        for node in walk_body(rule.body):
            if isinstance(node, m.Call) and isinstance(node.func, m.Name):
                calls.setdefault(node.func.name, []).append(
                    (rule.name, isinstance(holders.get(id(node)), m.Return)))
    todo, seen = [name], set()
    while todo:
        callee = todo.pop()
        if callee in seen:
            continue
        seen.add(callee)
        if callee not in roots and callee not in calls:
            return False  # called by no rule and not by the runtime
        for caller, tail in calls.get(callee, []):
            if not tail:
                return False
            todo.append(caller)
    return True


def by_dead_field(spec: m.Spec, mutant: SpecMutant) -> str | None:
    """What shows the mutant changes only a field no one reads, or None."""
    if mutant.kind != "rule" or mutant.site is None:
        return None
    rule = spec.rule(mutant.target)
    changed = _changed_update(rule, mutant)
    if changed is None:
        return None
    update, field = changed
    phases = _handed_back(rule, update, _phase_members(spec))
    if not phases or not _tail_called(spec, rule.name):
        return None
    live = live_fields(spec, phases)
    if live is None or field in live:
        return None
    shown = " or ".join(sorted(phases))
    return (f"it changes only `{field}` of a game handed back {shown}, where no rule of the "
            "engine and no reply reads it")
