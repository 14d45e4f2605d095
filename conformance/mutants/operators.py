"""Every first-order mutant of the spec, derived from the rule language's model.

A spec mutant is the spec with ONE small change, made by an operator over the
model (`grammar/model.py`), never typed in by hand:

- `comparison`: a comparison into another (`<` into `<=`, `>`, `>=`, `==` or `!=`;
  `==` into `!=`; `in` into `not in`);
- `arithmetic`: `+` and `-` into each other; `*`, `//` and `%` into another of them;
- `number`: a number of a rule body, plus or minus one;
- `truth`: `true` into `false` and back;
- `connective`: `and` into `or` and back, or one of its operands dropped;
- `negation`: a condition (`if`, `elif`, `require`, a comprehension's `if`, an
  `if ... else` value) negated, or a `not` dropped;
- `condition`: a condition dropped: the branch always taken or never, a `require`
  never refusing, a comprehension's filter gone;
- `branch`: the bodies of two neighbouring branches of an `if` swapped;
- `reading`: a `choose` branch given another reading's body, or `variant is R`
  asking another reading;
- `member`: an enum member a rule names (a phase, a suit, a kind of action) into
  another member of its enum;
- `extreme`: `max` and `min` into each other, `any` and `all` into each other;
- `list`: an item of a list dropped, or two neighbouring items swapped;
- `update`: a field left out of a record update (`game with { ... }`);
- `constant`: a `const` plus or minus one;
- `table`: a table entry plus or minus one, or given a neighbouring entry's value;
- `order`: two neighbouring members of a rank order swapped.

Each mutant knows the rule (or table, constant, order) it changes, that
declaration's clauses, the readings under which the change is reached (the
`choose` branches around it, and the variants without whose readings no game
reaches the declaration at all: `gates.py`) and its place in the spec. Its id is stable:
the declaration, the operator and the place (file, line, column), with a
number where one place has several mutants of one operator.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from ...grammar import model as m
from ...grammar.boundaries import COMPARISONS
from ...grammar.walk import children
from .gates import gates_of

OPERATORS = (
    "comparison", "arithmetic", "number", "truth", "connective", "negation", "condition",
    "branch", "reading", "member", "extreme", "list", "update", "constant", "table", "order",
)

_ARITH = {"+": ("-",), "-": ("+",), "*": ("//", "%"), "//": ("*", "%"), "%": ("//", "*")}
_EXTREMES = {"max": "min", "min": "max", "any": "all", "all": "any"}


@dataclass(frozen=True)
class SpecMutant:
    id: str
    operator: str  # one of OPERATORS
    kind: str  # what it changes: rule, table, const or order
    target: str  # the name of the rule, table, const or order changed
    clauses: tuple[str, ...]  # the clauses that declaration cites
    # (variant, readings) the change sits under: the `choose` branches around it, then the
    # variants that gate its declaration (`gates.py`)
    readings: tuple[tuple[str, tuple[str, ...]], ...]
    pos: m.Pos
    description: str
    rule: m.Rule | None = None  # the rule as mutated (kind rule)
    value: Any = None  # the new const value, table entries or order (kind const, table, order)
    index: int = -1  # its place in the list of every mutant of the spec (`spec_mutants`)
    # the node changed and what stands there now (DROP when removed; kind rule): what
    # `local_equivalence` reasons about
    site: Any = dataclasses.field(default=None, compare=False, repr=False)
    replacement: Any = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def file(self) -> str:
        return self.pos.file

    def pins(self) -> dict[str, str]:
        """A reading of each variant the change sits under: run with these, a case that
        leaves the variant open reaches the change."""
        return {variant: readings[0] for variant, readings in self.readings}


# ---- rebuilding the model with one node replaced ------------------------------------------


class _Drop:
    """Stands for a node removed from the tuple that holds it."""


DROP = _Drop()


def rebuilt(node: Any, target: Any, new: Any) -> Any:
    """`node` with the object `target` (found by identity) replaced by `new`, or removed
    from its tuple when `new` is DROP; everything else shared."""
    if node is target:
        return new
    if isinstance(node, tuple):
        items = [rebuilt(item, target, new) for item in node]
        if all(a is b for a, b in zip(items, node, strict=True)):
            return node
        return tuple(item for item in items if item is not DROP)
    if is_dataclass(node) and not isinstance(node, type) and not isinstance(node, m.Pos):
        changes = {}
        for f in fields(node):
            old = getattr(node, f.name)
            if isinstance(old, tuple) or (is_dataclass(old) and not isinstance(old, m.Pos)):
                value = rebuilt(old, target, new)
                if value is not old:
                    changes[f.name] = value
        return dataclasses.replace(node, **changes) if changes else node
    return node


# ---- the sites of a rule body ---------------------------------------------------------------

Alternative = tuple[str, Any, str]  # (operator, the new node or DROP, what changes)
Readings = tuple[tuple[str, tuple[str, ...]], ...]


def _condition_alternatives(cond: m.Expr, where: str) -> list[Alternative]:
    pos = cond.pos
    out: list[Alternative] = [("negation", m.UnaryOp("not", cond, pos), f"{where} negated")]
    if not isinstance(cond, m.BoolLit):
        out += [("condition", m.BoolLit(True, pos), f"{where} always true"),
                ("condition", m.BoolLit(False, pos), f"{where} always false")]
    return out


class _Sites:
    """Walks a rule body and yields (node, readings around it, alternatives)."""

    def __init__(self, spec: m.Spec, rule: m.Rule) -> None:
        self.spec = spec
        self.rule = rule
        self.locals = {p.name for p in rule.params}
        self.members = {mem.name: e for e in spec.enums for mem in e.members}

    def body(self, body: tuple[m.Stmt, ...], readings: Readings
             ) -> Iterator[tuple[Any, Readings, list[Alternative]]]:
        for stmt in body:
            yield from self.stmt(stmt, readings)

    def stmt(self, s: m.Stmt, readings: Readings
             ) -> Iterator[tuple[Any, Readings, list[Alternative]]]:
        if isinstance(s, m.Let):
            self.locals.add(s.name)
            yield from self.expr(s.value, readings)
        elif isinstance(s, m.Return):
            yield from self.expr(s.value, readings)
        elif isinstance(s, m.Require):
            yield (s.condition, readings, [
                ("negation", m.UnaryOp("not", s.condition, s.pos), "the requirement negated"),
                ("condition", m.BoolLit(True, s.pos), "the requirement never refuses"),
            ])
            yield from self.expr(s.condition, readings)
        elif isinstance(s, m.If):
            for i, branch in enumerate(s.branches):
                word = "the if condition" if i == 0 else "an elif condition"
                yield branch.condition, readings, _condition_alternatives(branch.condition, word)
                yield from self.expr(branch.condition, readings)
                yield from self.body(branch.body, readings)
            yield s, readings, self.branch_swaps(s)
            yield from self.body(s.otherwise or (), readings)
        else:  # Choose
            swaps: list[Alternative] = []
            for i, case in enumerate(s.cases):
                for j, other in enumerate(s.cases):
                    if i != j and case.body != other.body:
                        cases = tuple(dataclasses.replace(c, body=other.body) if k == i else c
                                      for k, c in enumerate(s.cases))
                        swaps.append(("reading", dataclasses.replace(s, cases=cases),
                                      f"{s.variant} {'/'.join(case.readings)} plays the body of "
                                      f"{'/'.join(other.readings)}"))
            yield s, readings, swaps
            for case in s.cases:
                yield from self.body(case.body, (*readings, (s.variant, case.readings)))

    def branch_swaps(self, s: m.If) -> list[Alternative]:
        bodies = [b.body for b in s.branches] + ([s.otherwise] if s.otherwise is not None else [])
        out: list[Alternative] = []
        for i in range(len(bodies) - 1):
            a, b = bodies[i], bodies[i + 1]
            if a == b or a is None or b is None:
                continue
            branches = list(s.branches)
            otherwise = s.otherwise
            branches[i] = dataclasses.replace(branches[i], body=b)
            if i + 1 < len(branches):
                branches[i + 1] = dataclasses.replace(branches[i + 1], body=a)
            else:
                otherwise = a
            out.append(("branch", dataclasses.replace(s, branches=tuple(branches),
                                                      otherwise=otherwise),
                        f"branch bodies {i + 1} and {i + 2} swapped"))
        return out

    def expr(self, e: m.Expr, readings: Readings
             ) -> Iterator[tuple[Any, Readings, list[Alternative]]]:
        alternatives = self.expr_alternatives(e)
        if alternatives:
            yield e, readings, alternatives
        if isinstance(e, m.Comprehension):
            inner = set(self.locals)
            for clause in e.clauses:
                if isinstance(clause, m.CompFor):
                    yield from self.expr(clause.iterable, readings)
                    self.locals.add(clause.target)
                else:
                    yield clause.condition, readings, [
                        ("negation", m.UnaryOp("not", clause.condition, clause.pos),
                         "a comprehension's filter negated")]
                    yield clause, readings, [("condition", DROP,
                                              "a comprehension's filter dropped")]
                    yield from self.expr(clause.condition, readings)
            yield from self.expr(e.element, readings)
            self.locals = inner
            return
        for child in children(e):  # a call's name has no site; a keyword, its value
            value = child.value if isinstance(child, m.KeywordArg) else child
            assert not isinstance(value, m.Stmt | m.CompFor | m.CompIf)  # no such child here
            yield from self.expr(value, readings)

    def expr_alternatives(self, e: m.Expr) -> list[Alternative]:
        pos = e.pos
        out: list[Alternative] = []
        if isinstance(e, m.BinOp):
            if e.op in COMPARISONS:
                is_none = isinstance(e.right, m.NoneLit) or isinstance(e.left, m.NoneLit)
                ordered = e.op not in ("==", "!=") or self.numeric(e.left) or \
                    self.numeric(e.right)
                for op in COMPARISONS:
                    if op == e.op or (not ordered and op not in ("==", "!=")) or \
                            (is_none and op not in ("==", "!=")):
                        continue
                    out.append(("comparison", dataclasses.replace(e, op=op),
                                f"`{e.op}` into `{op}`"))
            elif e.op in ("in", "not in"):
                op = "not in" if e.op == "in" else "in"
                out.append(("comparison", dataclasses.replace(e, op=op), f"`{e.op}` into `{op}`"))
            elif e.op in _ARITH:
                out += [("arithmetic", dataclasses.replace(e, op=op), f"`{e.op}` into `{op}`")
                        for op in _ARITH[e.op]]
            elif e.op in ("and", "or"):
                op = "or" if e.op == "and" else "and"
                out += [("connective", dataclasses.replace(e, op=op), f"`{e.op}` into `{op}`"),
                        ("connective", e.left, f"`{e.op}` keeps its left operand only"),
                        ("connective", e.right, f"`{e.op}` keeps its right operand only")]
        elif isinstance(e, m.UnaryOp) and e.op == "not":
            out.append(("negation", e.operand, "a `not` dropped"))
        elif isinstance(e, m.IntLit):
            out += [("number", m.IntLit(e.value + 1, pos), f"{e.value} into {e.value + 1}"),
                    ("number", m.IntLit(e.value - 1, pos), f"{e.value} into {e.value - 1}")]
        elif isinstance(e, m.BoolLit):
            out.append(("truth", m.BoolLit(not e.value, pos),
                        f"{str(e.value).lower()} into {str(not e.value).lower()}"))
        elif isinstance(e, m.Reads):
            variant = self.spec.variant(e.variant)
            out += [("reading", dataclasses.replace(e, reading=r),
                     f"`{e.variant} is {e.reading}` asks `{r}`")
                    for r in variant.reading_names if r != e.reading]
        elif isinstance(e, m.IfExpr):
            out += [(op, dataclasses.replace(e, condition=cond), what)
                    for op, cond, what in _condition_alternatives(e.condition,
                                                                  "an if-else condition")]
            out.append(("branch", dataclasses.replace(e, then=e.otherwise, otherwise=e.then),
                        "the two values of an if-else swapped"))
        elif isinstance(e, m.Name) and e.name not in self.locals and e.name in self.members:
            enum = self.members[e.name]
            out += [("member", dataclasses.replace(e, name=other.name),
                     f"`{e.name}` into `{other.name}`")
                    for other in enum.members if other.name != e.name]
        elif isinstance(e, m.Call) and isinstance(e.func, m.Name) and e.func.name in _EXTREMES:
            other = _EXTREMES[e.func.name]
            out.append(("extreme", dataclasses.replace(e, func=m.Name(other, e.func.pos)),
                        f"`{e.func.name}` into `{other}`"))
        elif isinstance(e, m.ListLit):
            for i, item in enumerate(e.items):
                out.append(("list", dataclasses.replace(e, items=e.items[:i] + e.items[i + 1:]),
                            f"item {i + 1} of a list dropped"))
                if i + 1 < len(e.items) and item != e.items[i + 1]:
                    items = list(e.items)
                    items[i], items[i + 1] = items[i + 1], items[i]
                    out.append(("list", dataclasses.replace(e, items=tuple(items)),
                                f"items {i + 1} and {i + 2} of a list swapped"))
        elif isinstance(e, m.WithUpdate):
            out += [("update", dataclasses.replace(e, updates=e.updates[:i] + e.updates[i + 1:]),
                     f"field `{u.name}` left out of the update")
                    for i, u in enumerate(e.updates)]
        return out

    def numeric(self, e: m.Expr) -> bool:
        """Whether an operand of `==` is a number (then `<` and `>` are mutants too)."""
        if isinstance(e, m.IntLit):
            return True
        if isinstance(e, m.Name):
            return any(c.name == e.name for c in self.spec.consts)
        if isinstance(e, m.BinOp):
            return e.op in _ARITH
        if isinstance(e, m.Call) and isinstance(e.func, m.Name):
            return e.func.name in ("len", "sum", "abs", "max", "min")
        return False


# ---- every mutant ---------------------------------------------------------------------------


def _clauses(d: m.Rule | m.Table | m.Const | m.Order) -> tuple[str, ...]:
    return tuple(c.clause for c in d.cites)


def _place(pos: m.Pos) -> str:
    return f"{pos.file.removesuffix('.baloot')}:{pos.line}:{pos.column}"


def rule_mutants(spec: m.Spec, rule: m.Rule) -> Iterator[SpecMutant]:
    counts: dict[str, int] = {}
    for node, readings, alternatives in _Sites(spec, rule).body(rule.body, ()):
        for operator, new, what in alternatives:
            mutated = rebuilt(rule, node, new)
            if mutated == rule:
                continue
            pos = getattr(node, "pos", rule.pos)
            key = f"{rule.name}/{operator}/{_place(pos)}"
            counts[key] = counts.get(key, 0) + 1
            yield SpecMutant(f"{key}#{counts[key]}", operator, "rule", rule.name,
                             _clauses(rule), readings, pos, what, rule=mutated, site=node,
                             replacement=new)


def declaration_mutants(spec: m.Spec) -> Iterator[SpecMutant]:
    for const in spec.consts:
        for delta in (1, -1):
            yield SpecMutant(f"{const.name}/constant/{_place(const.pos)}#{1 if delta > 0 else 2}",
                             "constant", "const", const.name, _clauses(const), (), const.pos,
                             f"{const.name} {const.value} into {const.value + delta}",
                             value=const.value + delta)
    for table in spec.tables:
        entries = table.as_dict()
        keys = list(entries)
        for i, entry in enumerate(table.entries):
            choices: list[tuple[int, str]] = [(entry.value + 1, "plus one"),
                                              (entry.value - 1, "minus one")]
            for j in (i - 1, i + 1):
                if 0 <= j < len(keys) and entries[keys[j]] not in (entry.value,
                                                                   *(c for c, _ in choices)):
                    choices.append((entries[keys[j]], f"the value of {keys[j]}"))
            for k, (value, how) in enumerate(choices, 1):
                yield SpecMutant(f"{table.name}/table/{_place(entry.pos)}#{k}", "table", "table",
                                 table.name, _clauses(table), (), entry.pos,
                                 f"{table.name}[{entry.key}] {entry.value} into {value} ({how})",
                                 value={**entries, entry.key: value})
    for order in spec.orders:
        names = [mem.name for mem in order.high_to_low]
        for i in range(len(names) - 1):
            swapped = [*names[:i], names[i + 1], names[i], *names[i + 2:]]
            member = order.high_to_low[i]
            yield SpecMutant(f"{order.name}/order/{_place(member.pos)}#1", "order", "order",
                             order.name, _clauses(order), (), member.pos,
                             f"{order.name}: {names[i]} and {names[i + 1]} swapped",
                             value=tuple(swapped))


def _gated(spec: m.Spec, mutant: SpecMutant) -> SpecMutant:
    """The mutant with the variants that gate its declaration (`gates.py`) among the
    readings it sits under, after those of its own `choose` branches."""
    own = {variant for variant, _ in mutant.readings}
    extra = tuple(g for g in gates_of(spec, mutant.target) if g[0] not in own)
    return dataclasses.replace(mutant, readings=mutant.readings + extra) if extra else mutant


def spec_mutants(spec: m.Spec) -> list[SpecMutant]:
    """Every first-order mutant of the spec, in spec order (rules, then the constants,
    tables and orders), each id once."""
    found = [mut for rule in spec.rules for mut in rule_mutants(spec, rule)]
    found += declaration_mutants(spec)
    ids = [mut.id for mut in found]
    assert len(ids) == len(set(ids)), "two spec mutants share an id"
    return [dataclasses.replace(_gated(spec, mut), index=i) for i, mut in enumerate(found)]
