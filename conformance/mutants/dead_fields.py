"""Proving a spec mutant equivalent because the field it changes is never read: the game
it changes is handed on, through lets, record updates and other rules, into the states
the engine keeps, and no rule and no reply ever reads that field of it (the bidding's
`stage` once the contract is made, say).

The mutant changes one field `f` of one record update (`_changed_update`): the field
left out, or an enum member or truth value inside its value, which cannot fail where
the original succeeds. Call the game that update makes a *carrier*: it equals the reference's
game but perhaps in `f`. A walk follows every carrier, knowing the phases it can be in:

- `c.g` reads field `g` of it: the same value as the reference's unless `g` is `f`,
  which is a read of `f` (the proof fails);
- `c with { ... }` is a carrier again, unless the update sets `f` (then it equals the
  reference's); a `phase = ...` of named phases says its phases;
- a `let` keeps a carrier under a name; `return` hands it to the rule's callers;
- a carrier passed to a rule's `Game` parameter is walked in that rule the same way; the
  call is a carrier where that rule may return one;
- a condition on a carrier's phase that its phases decide takes only its branch;
- any other use (a carrier in a list, a record built with it, compared, passed to a
  parameter of another type) is not followed: the proof fails.

Every rule whose walk returns a carrier is itself a source for its callers, up to the
rules the runtime calls (`hooks engine`), whose returned game becomes the engine's state.
A carrier state is then walked through every rule the runtime calls, phase by phase,
until no new phase comes: a state built afresh (the next deal's) is no carrier. The
protocol's `state` and `result` replies show their fields (`reported_fields`); if `f` is
not among them and no walk reads it, the mutant's replies are the reference's.
"""

from __future__ import annotations

from typing import Any

from ...grammar import model as m
from ...grammar.analysis import hooked_rules
from ...grammar.walk import children, located, parents, rule_calls, walk_body
from ..protocol.fields import protocol_fields
from .operators import SpecMutant

Phases = frozenset[str]


def _phase_members(spec: m.Spec) -> set[str]:
    return {mem.name for e in spec.enums if e.name == "Phase" for mem in e.members}


def _game_params(rule: m.Rule) -> list[int]:
    return [i for i, p in enumerate(rule.params)
            if isinstance(p.type, m.PlainType) and p.type.name == "Game"]


def reported_fields(spec: m.Spec) -> frozenset[str]:
    """The fields of a game the protocol shows: the `state` reply's and the last result."""
    shown = set(protocol_fields().state.names) | {"last_result"}
    game = next(r for r in spec.records if r.name == "Game")
    return frozenset(f.name for f in game.fields if f.name in shown)


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


def _named(e: Any, members: frozenset[str]) -> frozenset[str] | None:
    """The members an expression names, one or a list of them; None when it is another."""
    items = e.items if isinstance(e, m.ListLit) else (e,)
    if all(isinstance(i, m.Name) and i.name in members for i in items):
        return frozenset(i.name for i in items if isinstance(i, m.Name))
    return None


class _Unknown(Exception):
    """A use of a carrier the walk does not follow."""


class _Carriers:
    def __init__(self, spec: m.Spec, field: str, site: m.WithUpdate) -> None:
        self.field = field
        self.site = site
        self.rules = {r.name: r for r in spec.rules}
        self.members: Phases = frozenset(_phase_members(spec))
        self.sources: dict[str, Phases] = {}  # rule -> phases of the carriers it returns
        self.memo: dict[tuple[str, int, Phases], Phases] = {}
        self.open: set[tuple[str, int, Phases]] = set()
        self.reads = False

    # -- rules ----------------------------------------------------------------------------

    def rule_flow(self, name: str, index: int, phases: Phases) -> Phases:
        """Walk a rule with its parameter `index` a carrier; the phases of the carriers it
        returns (empty: none)."""
        key = (name, index, phases)
        if key in self.memo:
            return self.memo[key]
        if key in self.open:
            raise _Unknown(f"{name} calls itself with the carrier")
        self.open.add(key)
        try:
            rule = self.rules[name]
            returned: set[str] = set()
            self.block(rule.body, {rule.params[index].name: phases}, returned)
            self.memo[key] = frozenset(returned)
            return self.memo[key]
        finally:
            self.open.discard(key)

    def whole_rule(self, name: str) -> Phases:
        """Walk a rule whose parameters are the reference's: carriers come only from the
        mutated update or from calls of sources."""
        returned: set[str] = set()
        self.block(self.rules[name].body, {}, returned)
        return frozenset(returned)

    # -- statements -----------------------------------------------------------------------

    def block(self, body: tuple[m.Stmt, ...], carriers: dict[str, Phases],
              returned: set[str]) -> bool:
        """Walk statements; True when every path through them returns or refuses."""
        carriers = dict(carriers)
        for stmt in body:
            if isinstance(stmt, m.Let):
                found = self.value(stmt.value, carriers)
                carriers.pop(stmt.name, None)
                if found is not None:
                    carriers[stmt.name] = found
            elif isinstance(stmt, m.Return):
                found = self.value(stmt.value, carriers)
                if found is not None:
                    returned |= found
                return True
            elif isinstance(stmt, m.Require):
                self.plain(stmt.condition, carriers)
                if self.truth(stmt.condition, carriers) is False:
                    return True
            elif isinstance(stmt, m.If):
                if self.if_(stmt, carriers, returned):
                    return True
            elif isinstance(stmt, m.Choose):
                if all([self.block(case.body, carriers, returned) for case in stmt.cases]):
                    return True
            else:
                raise _Unknown(f"a statement the walk does not know: {type(stmt).__name__}")
        return False

    def if_(self, stmt: m.If, carriers: dict[str, Phases], returned: set[str]) -> bool:
        ends = True
        for branch in stmt.branches:
            self.plain(branch.condition, carriers)
            truth = self.truth(branch.condition, carriers)
            if truth is False:
                continue
            ends = self.block(branch.body, self.narrowed(branch.condition, carriers),
                              returned) and ends
            if truth is True:
                return ends
        if stmt.otherwise is None:
            return False
        return self.block(stmt.otherwise, carriers, returned) and ends

    # -- expressions ----------------------------------------------------------------------

    def plain(self, e: Any, carriers: dict[str, Phases]) -> None:
        """Walk an expression whose value must not be a carrier."""
        if self.value(e, carriers) is not None:
            raise _Unknown("a carrier used where the walk does not follow it")

    def value(self, e: Any, carriers: dict[str, Phases]) -> Phases | None:
        """Walk an expression: the phases of the carrier it is, or None when it is none."""
        if isinstance(e, m.Name):
            return carriers.get(e.name)
        if isinstance(e, m.FieldOf):
            base = self.value(e.base, carriers)
            if base is not None and e.field == self.field:
                self.reads = True
            return None
        if isinstance(e, m.WithUpdate):
            return self.update(e, carriers)
        if isinstance(e, m.Call) and isinstance(e.func, m.Name) and e.func.name in self.rules:
            return self.call(e, carriers)
        if isinstance(e, m.IfExpr):
            self.plain(e.condition, carriers)
            then, otherwise = self.value(e.then, carriers), self.value(e.otherwise, carriers)
            if then is None and otherwise is None:
                return None
            return (then or frozenset()) | (otherwise or frozenset())
        if isinstance(e, m.Comprehension):
            for clause in e.clauses:
                if isinstance(clause, m.CompFor) and clause.target in carriers:
                    raise _Unknown("a comprehension's name shadows a carrier")
        for child in children(e):
            self.plain(child, carriers)
        return None

    def update(self, e: m.WithUpdate, carriers: dict[str, Phases]) -> Phases | None:
        base = self.value(e.base, carriers)
        for kw in e.updates:
            self.plain(kw.value, carriers)
        if e is self.site:
            base = self.members  # the mutated update makes the first carrier
        if base is None:
            return None
        names = {kw.name for kw in e.updates}
        if self.field in names and e is not self.site:
            return None  # the field is set anew: the reference's game again
        phase = next((kw.value for kw in e.updates if kw.name == "phase"), None)
        if phase is None:
            return base
        return self.named(phase) or self.members

    def call(self, e: m.Call, carriers: dict[str, Phases]) -> Phases | None:
        assert isinstance(e.func, m.Name)
        rule = self.rules[e.func.name]
        for kw in e.kwargs:
            self.plain(kw.value, carriers)
        found: set[str] = set()
        carried = False
        for index, arg in enumerate(e.args):
            phases = self.value(arg, carriers)
            if phases is None:
                continue
            if index not in _game_params(rule):
                raise _Unknown(f"a carrier passed to {rule.name}'s {rule.params[index].name}")
            out = self.rule_flow(rule.name, index, phases)
            found |= out
            carried = carried or bool(out)
        if rule.name in self.sources:
            found |= self.sources[rule.name]
            carried = True
        return frozenset(found) if carried else None

    # -- the phase ------------------------------------------------------------------------

    def named(self, e: Any) -> Phases | None:
        """The phases an expression names: a member, a list of them, or an if-else of two."""
        if isinstance(e, m.IfExpr):
            then, otherwise = self.named(e.then), self.named(e.otherwise)
            return None if then is None or otherwise is None else then | otherwise
        return _named(e, self.members)

    def _phase_test(self, e: Any, carriers: dict[str, Phases]
                    ) -> tuple[str, Phases, bool] | None:
        """(carrier name, the phases named, True for `==`/`in`) of `c.phase == ...`."""
        if not (isinstance(e, m.BinOp) and e.op in ("==", "in", "!=", "not in")):
            return None
        left = e.left
        if not (isinstance(left, m.FieldOf) and left.field == "phase"
                and isinstance(left.base, m.Name) and left.base.name in carriers):
            return None
        named = self.named(e.right)
        if named is None:
            return None
        return left.base.name, named, e.op in ("==", "in")

    def truth(self, e: Any, carriers: dict[str, Phases]) -> bool | None:
        """The condition's value when the carriers' phases decide it, else None."""
        if isinstance(e, m.UnaryOp) and e.op == "not":
            inner = self.truth(e.operand, carriers)
            return None if inner is None else not inner
        if isinstance(e, m.BinOp) and e.op in ("and", "or"):
            left, right = self.truth(e.left, carriers), self.truth(e.right, carriers)
            if e.op == "and":
                return False if False in (left, right) else (True if left and right else None)
            return True if True in (left, right) else (False if left is right is False else None)
        test = self._phase_test(e, carriers)
        if test is None:
            return None
        name, named, inside = test
        if carriers[name] <= named:
            return inside
        if not carriers[name] & named:
            return not inside
        return None

    def narrowed(self, e: Any, carriers: dict[str, Phases]) -> dict[str, Phases]:
        """The carriers' phases where the condition holds (a phase test, or an `and` of
        them)."""
        if isinstance(e, m.BinOp) and e.op == "and":
            return self.narrowed(e.right, self.narrowed(e.left, carriers))
        test = self._phase_test(e, carriers)
        if test is None:
            return carriers
        name, named, inside = test
        kept = carriers[name] & named if inside else carriers[name] - named
        return {**carriers, name: kept}


def by_dead_field(spec: m.Spec, mutant: SpecMutant) -> str | None:
    """What shows the mutant changes only a field no rule and no reply reads, or None."""
    if mutant.kind != "rule" or mutant.site is None:
        return None
    rule = spec.rule(mutant.target)
    changed = _changed_update(rule, mutant)
    if changed is None:
        return None
    update, field = changed
    if field in reported_fields(spec):
        return None
    walk = _Carriers(spec, field, update)
    roots = set(hooked_rules(spec, "engine"))
    try:
        states = _states_reached(spec, walk, rule.name, roots)
        seen: set[str] = set()
        todo = set(states)
        while todo:
            phase = todo.pop()
            seen.add(phase)
            for name in sorted(roots):
                for index in _game_params(walk.rules[name]):
                    out = walk.rule_flow(name, index, frozenset({phase}))
                    todo |= set(out) - seen
    except _Unknown:
        return None
    if walk.reads:
        return None
    if not seen:
        return f"the game it changes `{field}` of is never handed back: nothing reads it"
    return (f"it changes only `{field}`, carried into states {' or '.join(sorted(seen))} "
            "where no rule of the engine and no reply reads it")


def _states_reached(spec: m.Spec, walk: _Carriers, start: str, roots: set[str]) -> set[str]:
    """The phases of the states the runtime keeps that are carriers: the mutated rule's
    carriers handed up through every caller to the rules the runtime calls."""
    callers = {callee: {caller for caller, _ in calls}
               for callee, calls in rule_calls(spec).items()}
    states: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        out = walk.whole_rule(name)
        if name == start and not out:
            continue
        if out and not out <= walk.sources.get(name, frozenset()):
            walk.sources[name] = walk.sources.get(name, frozenset()) | out
            walk.memo.clear()  # a new source changes what calls of it return
            if name in roots:
                states |= out
            todo.extend(sorted(callers.get(name, ())))
    return states


# ---- a member no read tells apart ---------------------------------------------------------


def members_read(spec: m.Spec, field: str) -> set[str] | None:
    """The enum members the reads of a field compare it with, when every read of it in
    every rule is such a comparison (`==`, `!=`, `in`, `not in` with named members); None
    when some read uses its value otherwise (kept, passed on, looked up, ordered)."""
    members = frozenset(mem.name for en in spec.enums for mem in en.members)
    named: set[str] = set()
    for rule in spec.rules:
        holders = parents(rule.body)
        for node in walk_body(rule.body):
            if not (isinstance(node, m.FieldOf) and node.field == field):
                continue
            parent = holders.get(id(node))
            if not (isinstance(parent, m.BinOp) and parent.op in ("==", "!=", "in", "not in")):
                return None
            other = parent.right if parent.left is node else parent.left
            if parent.op in ("in", "not in") and parent.left is not node:
                return None
            found = _named(other, members)
            if found is None:
                return None
            named |= found
    return named


def by_unseen_member(spec: m.Spec, mutant: SpecMutant) -> str | None:
    """A field set to another enum member where every read of the field compares it with
    members that are neither: no rule and no reply tells the two apart."""
    if mutant.kind != "rule" or mutant.operator != "member" or mutant.site is None:
        return None
    rule = spec.rule(mutant.target)
    changed = _changed_update(rule, mutant)
    if changed is None:
        return None
    update, field = changed
    value = next((kw.value for kw in update.updates if kw.name == field), None)
    if value is not mutant.site and value != mutant.site:
        return None  # the member is inside a larger value of the field
    if field in reported_fields(spec) or not isinstance(mutant.replacement, m.Name):
        return None
    read = members_read(spec, field)
    old, new = mutant.site.name, mutant.replacement.name
    if read is None or old in read or new in read:
        return None
    return (f"`{field}` is read only by comparing it with {', '.join(sorted(read))}: "
            f"{old} and {new} are alike to every read")
