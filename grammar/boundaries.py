"""The numeric boundaries of the spec, found by walking the rule bodies of the model.

Every comparison in a rule body (`<`, `<=`, `>`, `>=`, `==`, `!=`) one side of which
is a number is found and classified:

- `score`: a team's figure against a number, or two teams' figures against each
  other. A team's figure is an item of a per-team list (a `list[int]` parameter,
  such as `totals`, `points`, `bunts`, or a list made `for t in teams()`)
  indexed by a team: `bidder_team`, `other_team(bidder_team)`, team 0 or 1, or
  `t` over `teams()` (each team: the bidder's team and the other team, told
  apart when the comparison runs). The number is a literal, a `const`, or a
  `let` of them (`if mode == sun then sun_success_margin else
  hokum_success_margin` gives two boundaries, 13 under `mode == sun` and 8
  otherwise). Two teams' figures compared (`bunts[bidder_team] >
  bunts[other]`) are their difference against 0. Comparisons of the same figure
  in one rule and reading (`totals[0] == totals[1]`, then `totals[0] >
  totals[1]`) make one boundary.
- `sweep`: `all([x == X for x in L])`, how many items of L equal X against
  `len(L)` (kaboot: the tricks the first trick's team won, against the tricks).
  The count cannot exceed the length: the point above is unreachable.
- `count`: a count (`len(...)`) against a number: the structure of a list
  (a queue emptied, a run's length); listed, not tracked.
- `identity`: two values tested for being the same seat, team or card
  (`t == other`): which one, not how many; listed, not tracked.
- `unclassified`: any other comparison with a number, listed with what it
  compares, never dropped.

A tracked boundary has three points, the boundary value and one either side on
the compared figure (for a difference: the bidder's team's figure less the
other's). `boundary_probe.py` says which cases reach which point.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from . import model as m
from .spec_text import ARITHMETIC, TypeScope, spec_text, type_name

COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
SCORE, SWEEP, COUNT, IDENTITY, UNCLASSIFIED = "score", "sweep", "count", "identity", "unclassified"
TRACKED = (SCORE, SWEEP)
BIDDER, OTHER, EACH = "bidder's team", "other team", "each team"
OFFSETS = (-1, 0, 1)


@dataclass(frozen=True)
class Constant:
    value: int
    name: str  # the spec's name for it (`sun_raise_gate`), or the literal
    condition: m.Expr | None = None  # when the constant is this one (`mode == sun`)


@dataclass(frozen=True)
class Comparison:
    """One comparison with a number in a rule body."""

    index: int  # its place among every comparison found, for the probes
    rule: m.Rule
    node: m.Expr  # the BinOp (or, for a sweep, the `all(...)` call)
    text: str
    kind: str
    note: str  # what is compared, in words
    variant: str | None = None  # the `choose` it stands in, if any
    readings: tuple[str, ...] = ()
    quantity: m.Expr | None = None  # the figure compared (lets resolved)
    quantity_left: bool = True  # the figure stands left of the operator
    constants: tuple[Constant, ...] = ()
    side: str = ""  # BIDDER, OTHER, EACH, "team 0", "A less B" ...
    team_key: m.Expr | None = None  # for EACH: the team the figure is read for
    count_of: tuple[m.Expr, m.Expr, str] | None = None  # sweep: (list, item, target)
    difference: bool = False  # two figures compared: the figure is left less right

    @property
    def tracked(self) -> bool:
        return self.kind in TRACKED


@dataclass(frozen=True)
class Boundary:
    """One boundary: a figure, one side, one constant value, in one rule and reading."""

    key: str
    rule: str
    clauses: tuple[str, ...]
    comparisons: tuple[int, ...]  # Comparison.index of each comparison it gathers
    texts: tuple[str, ...]
    quantity: str
    constant: str
    value: int | None  # None: known only when the comparison runs (a list's length)
    side: str
    variant: str | None
    readings: tuple[str, ...]
    condition: str | None = None
    unreachable: dict[int, str] = field(default_factory=dict)  # offset -> why

    @property
    def reading_text(self) -> str:
        return f"{self.variant}={'|'.join(self.readings)}" if self.variant else "-"

    def matches(self, comparison: int, side: str, constant: int) -> bool:
        """Whether a comparison run (its index, side, constant's value) is this boundary."""
        return (comparison in self.comparisons and side == self.side
                and (self.value is None or constant == self.value))


# ---- walking the rule bodies ------------------------------------------------------------


def comparisons(spec: m.Spec) -> list[Comparison]:
    """Every comparison with a number in every rule body, in spec order."""
    found: list[Comparison] = []
    for rule in spec.rules:
        scope = TypeScope(spec, {p.name: type_name(p.type) for p in rule.params})
        for node, where, variant, readings in _walk_body(rule.body, scope, None, ()):
            made = _classify(spec, rule, node, where, variant, readings, len(found))
            if made is not None:
                found.append(made)
    return found


Site = tuple[m.Expr, TypeScope, str | None, tuple[str, ...]]


def _walk_body(body: tuple[m.Stmt, ...], scope: TypeScope, variant: str | None,
               readings: tuple[str, ...]) -> Iterator[Site]:
    scope = TypeScope(scope.spec, scope.params, dict(scope.lets), dict(scope.targets))
    for stmt in body:
        if isinstance(stmt, m.Let | m.Return):
            yield from _walk_expr(stmt.value, scope, variant, readings)
            if isinstance(stmt, m.Let):
                scope.lets[stmt.name] = stmt.value
        elif isinstance(stmt, m.Require):
            yield from _walk_expr(stmt.condition, scope, variant, readings)
        elif isinstance(stmt, m.If):
            for branch in stmt.branches:
                yield from _walk_expr(branch.condition, scope, variant, readings)
                yield from _walk_body(branch.body, scope, variant, readings)
            yield from _walk_body(stmt.otherwise or (), scope, variant, readings)
        else:
            for case in stmt.cases:
                yield from _walk_body(case.body, scope, stmt.variant, case.readings)


def _walk_expr(e: m.Expr | m.KeywordArg, scope: TypeScope, variant: str | None,
               readings: tuple[str, ...]) -> Iterator[Site]:
    if isinstance(e, m.KeywordArg):
        yield from _walk_expr(e.value, scope, variant, readings)
        return
    if _sweep_parts(e) is not None:
        yield e, scope, variant, readings
        return
    if isinstance(e, m.BinOp) and e.op in COMPARISONS:
        yield e, scope, variant, readings
    if isinstance(e, m.Comprehension):
        inner = scope.inner(e.clauses)
        for c in e.clauses:
            part = c.iterable if isinstance(c, m.CompFor) else c.condition
            yield from _walk_expr(part, inner, variant, readings)
        yield from _walk_expr(e.element, inner, variant, readings)
        return
    for child in _children(e):
        yield from _walk_expr(child, scope, variant, readings)


def _children(e: m.Expr) -> tuple[m.Expr | m.KeywordArg, ...]:
    if isinstance(e, m.BinOp):
        return (e.left, e.right)
    if isinstance(e, m.UnaryOp):
        return (e.operand,)
    if isinstance(e, m.IfExpr):
        return (e.condition, e.then, e.otherwise)
    if isinstance(e, m.FieldOf):
        return (e.base,)
    if isinstance(e, m.Index):
        return (e.base, e.key)
    if isinstance(e, m.Call):
        return (*e.args, *e.kwargs)
    if isinstance(e, m.WithUpdate):
        return (e.base, *e.updates)
    if isinstance(e, m.ListLit):
        return e.items
    return ()


def _sweep_parts(e: m.Expr) -> tuple[m.Expr, m.Expr, str] | None:
    """`all([x == X for x in L])` -> (L, X, x)."""
    if not (isinstance(e, m.Call) and isinstance(e.func, m.Name) and e.func.name == "all"
            and len(e.args) == 1 and isinstance(e.args[0], m.Comprehension)):
        return None
    comp = e.args[0]
    if len(comp.clauses) != 1 or not isinstance(comp.clauses[0], m.CompFor):
        return None
    target = comp.clauses[0].target
    test = comp.element
    if isinstance(test, m.BinOp) and test.op == "==" and test.left == m.Name(target, test.left.pos):
        return comp.clauses[0].iterable, test.right, target
    return None


# ---- classifying one comparison -------------------------------------------------------


def _classify(spec: m.Spec, rule: m.Rule, node: m.Expr, scope: TypeScope, variant: str | None,
              readings: tuple[str, ...], index: int) -> Comparison | None:
    def made(kind: str, note: str, **more: Any) -> Comparison:
        return Comparison(index, rule, node, spec_text(node), kind, note, variant, readings,
                          **more)

    sweep = _sweep_parts(node)
    if sweep is not None:
        items, item, _ = sweep
        side = _team_side(item, scope)
        return made(kind=SWEEP, side=side or EACH, count_of=sweep,
                          note=f"how many of {spec_text(items)} equal {spec_text(item)}, "
                          f"against len({spec_text(items)})")
    assert isinstance(node, m.BinOp)
    left_type, right_type = scope.type_of(node.left), scope.type_of(node.right)
    if "none" in (left_type, right_type):
        return None  # a test for a missing value, not a comparison with a number
    if "int" not in (left_type, right_type):
        if None in (left_type, right_type):
            return made(kind=UNCLASSIFIED,
                              note="the type of a side is not known to the boundary finder")
        return None  # no number on either side: not a numeric comparison
    left_const, right_const = _constants(node.left, scope), _constants(node.right, scope)
    left_fig, right_fig = _team_figure(node.left, scope), _team_figure(node.right, scope)
    if left_fig and right_fig and not (left_const or right_const):
        if EACH in (left_fig[0], right_fig[0]):
            return made(kind=UNCLASSIFIED, note="two figures of varying teams")
        difference = m.BinOp("-", _resolve(node.left, scope), _resolve(node.right, scope),
                             node.pos)
        return made(kind=SCORE, quantity=difference, constants=(Constant(0, "0"),),
                          difference=True,
                          side=f"{left_fig[0]} less {right_fig[0]}",
                          note="two teams' figures: their difference against 0")
    figure, constants, on_left = (left_fig, right_const, True) if right_const else (
        right_fig, left_const, False)
    if constants and figure:
        quantity = _resolve(node.left if on_left else node.right, scope)
        return made(kind=SCORE, quantity=quantity, quantity_left=on_left,
                          constants=tuple(constants), side=figure[0], team_key=figure[1],
                          note=f"{spec_text(quantity)} ({figure[0]}) against "
                          + " / ".join(f"{c.name} = {c.value}" for c in constants))
    if any(isinstance(n, m.Call) and isinstance(n.func, m.Name) and n.func.name == "len"
           for n in _nodes(node)):
        return made(kind=COUNT,
                          note="a count of list items against a number: a list's structure")
    if node.op in ("==", "!=") and not (left_const or right_const):
        return made(kind=IDENTITY,
                          note="which seat, team or card: two values tested for the same one")
    return made(kind=UNCLASSIFIED, note=_unclassified_note(node, scope))


def _unclassified_note(node: m.BinOp, scope: TypeScope) -> str:
    sides = [spec_text(s) for s in (node.left, node.right)
             if scope.type_of(s) == "int" and not _constants(s, scope)]
    what = " and ".join(sides) or "numbers"
    return f"compares {what}, not a team's figure (no per-team list indexed by a team)"


def _nodes(e: m.Expr | m.KeywordArg) -> Iterator[m.Expr | m.KeywordArg]:
    yield e
    if isinstance(e, m.KeywordArg):
        yield from _nodes(e.value)
        return
    if isinstance(e, m.Comprehension):
        yield from _nodes(e.element)
        for c in e.clauses:
            yield from _nodes(c.iterable if isinstance(c, m.CompFor) else c.condition)
        return
    for child in _children(e):
        yield from _nodes(child)


def _resolve(e: m.Expr, scope: TypeScope) -> m.Expr:
    """A name bound by a let, replaced by what it is bound to (repeatedly)."""
    seen = 0
    while isinstance(e, m.Name) and e.name in scope.lets and e.name not in scope.targets:
        e = scope.lets[e.name]
        seen += 1
        if seen > 20:
            break
    return e


def _constants(e: m.Expr, scope: TypeScope) -> list[Constant]:
    """The constant values an expression can be (with the condition for each), else []."""
    e = _resolve(e, scope)
    if isinstance(e, m.IntLit):
        return [Constant(e.value, str(e.value))]
    if isinstance(e, m.Name) and e.name not in scope.params and e.name not in scope.targets:
        const = next((c for c in scope.spec.consts if c.name == e.name), None)
        return [Constant(const.value, const.name)] if const else []
    if isinstance(e, m.IfExpr):
        then, otherwise = _constants(e.then, scope), _constants(e.otherwise, scope)
        if then and otherwise:
            negated = m.UnaryOp("not", e.condition, e.pos)
            return ([Constant(c.value, c.name, _and(e.condition, c.condition)) for c in then]
                    + [Constant(c.value, c.name, _and(negated, c.condition)) for c in otherwise])
    if isinstance(e, m.BinOp) and e.op in ARITHMETIC:
        left, right = _constants(e.left, scope), _constants(e.right, scope)
        if len(left) == 1 and len(right) == 1 and not (left[0].condition or right[0].condition):
            return [Constant(_fold(e.op, left[0].value, right[0].value), spec_text(e))]
    return []


def _and(first: m.Expr, second: m.Expr | None) -> m.Expr:
    return first if second is None else m.BinOp("and", first, second, first.pos)


def _fold(op: str, a: int, b: int) -> int:
    return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0,
            "%": a % b if b else 0}[op]


def _team_figure(e: m.Expr, scope: TypeScope) -> tuple[str, m.Expr | None] | None:
    """(side, the team's expression when it varies) for a team's figure, else None."""
    e = _resolve(e, scope)
    if isinstance(e, m.BinOp) and e.op == "-":
        left, right = _team_figure(e.left, scope), _team_figure(e.right, scope)
        if left and right and EACH not in (left[0], right[0]):
            return f"{left[0]} less {right[0]}", None
        return None
    if not (isinstance(e, m.Index) and _per_team_list(e.base, scope)):
        return None
    side = _team_side(e.key, scope)
    if side is None:
        return None
    return side, (e.key if side == EACH else None)


def _per_team_list(base: m.Expr, scope: TypeScope) -> bool:
    if not isinstance(base, m.Name):
        return False
    if base.name in scope.lets:
        value = scope.lets[base.name]
        return (isinstance(value, m.Comprehension) and len(value.clauses) == 1
                and isinstance(value.clauses[0], m.CompFor)
                and _is_call(value.clauses[0].iterable, "teams"))
    return scope.params.get(base.name) == "list[int]"


def _team_side(key: m.Expr, scope: TypeScope) -> str | None:
    if isinstance(key, m.Name) and key.name in scope.targets:
        return EACH if _is_call(scope.targets[key.name], "teams") else None
    key = _resolve(key, scope)
    if isinstance(key, m.Name) and key.name == "bidder_team" and key.name in scope.params:
        return BIDDER
    if isinstance(key, m.IntLit) and key.value in (0, 1):
        return f"team {key.value}"
    if _is_call(key, "other_team") and isinstance(key, m.Call) and key.args:
        return OTHER if _team_side(key.args[0], scope) == BIDDER else None
    if _is_call(key, "team_of") or (isinstance(key, m.Index) and scope.type_of(key) == "int"):
        return EACH  # a team known only when the rule runs
    return None


def _is_call(e: m.Expr, name: str) -> bool:
    return isinstance(e, m.Call) and isinstance(e.func, m.Name) and e.func.name == name


# ---- gathering the boundaries -----------------------------------------------------------


def boundaries(spec: m.Spec, found: list[Comparison] | None = None) -> list[Boundary]:
    """The tracked boundaries: one per figure, side, constant value, rule and reading."""
    found = comparisons(spec) if found is None else found
    gathered: dict[tuple[object, ...], Boundary] = {}
    for c in found:
        if not c.tracked:
            continue
        sides = (BIDDER, OTHER) if c.side == EACH else (c.side,)
        values: list[Constant | None] = list(c.constants) or [None]
        for side in sides:
            for constant in values:
                condition = spec_text(constant.condition) if constant and constant.condition \
                    else None
                quantity = spec_text(c.quantity) if c.quantity is not None else c.note
                group = (c.rule.name, c.variant, c.readings, quantity, side,
                         constant.value if constant else None, condition)
                if group in gathered:
                    old = gathered[group]
                    gathered[group] = replace(old, comparisons=(*old.comparisons, c.index),
                                              texts=(*old.texts, c.text))
                    continue
                gathered[group] = Boundary(
                    key=_key(c, side, constant, condition),
                    rule=c.rule.name,
                    clauses=tuple(x.clause for x in c.rule.cites),
                    comparisons=(c.index,),
                    texts=(c.text,),
                    quantity=quantity,
                    constant=constant.name if constant else f"len({spec_text(c.count_of[0])})"
                    if c.count_of else "?",
                    value=constant.value if constant else None,
                    side=side,
                    variant=c.variant,
                    readings=c.readings,
                    condition=condition,
                    unreachable={1: "a count of a list's items cannot exceed its length"}
                    if c.kind == SWEEP else {},
                )
    return list(gathered.values())


def side_slug(side: str) -> str:
    """A side in a key or a name: bidder, other, bidder-other, team0-team1."""
    words = {BIDDER: "bidder", OTHER: "other", "team 0": "team0", "team 1": "team1"}
    return "-".join(words.get(part, part) for part in side.split(" less "))


def _key(c: Comparison, side: str, constant: Constant | None, condition: str | None) -> str:
    words = [c.rule.name]
    if c.readings:
        words.append(c.readings[0])
    words.append(f"{constant.name}={constant.value}" if constant and constant.name != "0"
                 else "0" if constant else "all")
    words.append(side_slug(side))
    return ":".join(words)
