"""What each rule of a spec uses, and the type of every expression in it.

`analyse(spec)` makes one pass over a checked spec: it resolves every name of
every rule body (a parameter, a `let`, a comprehension's variable, or a
declaration) and gives every expression its type. The `Analysis` it returns
answers every "what does this rule use" question the tools ask:

- the variants a rule consults itself (`variants_consulted`), or through the
  rules it calls (`variants_reached`), and the rules that consult a variant;
- the rules a rule calls, directly or transitively;
- whether a rule needs the readings in force (it consults a variant, or calls
  a rule that does);
- the spec files (so the generated modules) a rule's callees live in;
- the rules a tool hooks into (`hooks verify { ... }`), by the part each plays;
- the type of every expression, so the generator knows where an optional
  value (`T?`) stands where the rules need a `T`.

Types are `Simple("int")`, `Simple("Card")`, `Maybe(...)` (`T?`), `ListOf(...)`;
`none` is `NONE` and the item of an empty list literal is `UNKNOWN`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

from . import model as m
from .walk import called_rules, walk_body

# ------------------------------------------------------------------ types --


@dataclass(frozen=True)
class Simple:
    """int, bool, text, an enum or a record, by name; `none` and `?` (unknown) too."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Maybe:
    """`T?`: a T, or none."""

    inner: Type

    def __str__(self) -> str:
        return f"{self.inner}?"


@dataclass(frozen=True)
class ListOf:
    item: Type

    def __str__(self) -> str:
        return f"list[{self.item}]"


Type: TypeAlias = Simple | Maybe | ListOf

INT = Simple("int")
BOOL = Simple("bool")
TEXT = Simple("text")
NONE = Simple("none")
UNKNOWN = Simple("?")


def type_of_declared(t: m.Type) -> Type:
    """A type as the spec writes it (`Suit?`, `list[Card]`)."""
    if isinstance(t, m.PlainType):
        return Simple(t.name)
    if isinstance(t, m.OptionalType):
        return optional(type_of_declared(t.inner))
    return ListOf(type_of_declared(t.item))


def optional(t: Type) -> Type:
    return t if isinstance(t, Maybe) or t == NONE else Maybe(t)


def present(t: Type) -> Type:
    """The type of a `T?` taken as present: T."""
    return t.inner if isinstance(t, Maybe) else t


def join(a: Type, b: Type) -> Type:
    """The type of a value that is an `a` or a `b` (two branches, two list items)."""
    if a == b or b == UNKNOWN:
        return a
    if a == UNKNOWN:
        return b
    if a == NONE:
        return optional(b)
    if b == NONE:
        return optional(a)
    if isinstance(a, Maybe) or isinstance(b, Maybe):
        return optional(join(present(a), present(b)))
    if isinstance(a, ListOf) and isinstance(b, ListOf):
        return ListOf(join(a.item, b.item))
    return a


# ---------------------------------------------------------------- queries --


def variants_used(body: tuple[m.Stmt, ...]) -> list[str]:
    """The variants a rule body consults itself (`choose`, `is`), in order of first use."""
    found: list[str] = []
    for node in walk_body(body):
        name = node.variant if isinstance(node, m.Choose | m.Reads) else None
        if name is not None and name not in found:
            found.append(name)
    return found


@dataclass
class Analysis:
    """The answers for one spec (see the module's docstring). Build it with `analyse`."""

    spec: m.Spec
    types: dict[int, Type] = field(default_factory=dict)  # id(expression) -> its type
    local_types: dict[str, dict[str, Type]] = field(default_factory=dict)  # rule -> name -> type
    # what the type pass found wrong: (where, what, what was expected)
    problems: list[tuple[m.Pos, str, str]] = field(default_factory=list)
    _consulted: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _calls: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _reached: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)

    # -- rules and variants ------------------------------------------------------------

    def variant_name(self, name: str) -> str:
        """A variant's name, from its name or its ambiguity ID."""
        return self.spec.variant(name).name

    def variants_consulted(self, rule: str) -> tuple[str, ...]:
        """The variants the rule itself consults, in order of first use."""
        return self._consulted.get(rule, ())

    def rules_called(self, rule: str) -> tuple[str, ...]:
        """The rules the rule calls itself, in order of first call."""
        return self._calls.get(rule, ())

    def rules_reached(self, rules: Iterable[str]) -> tuple[str, ...]:
        """The rules, and every rule they call directly or not, each once, callers first."""
        seen: dict[str, None] = {}
        todo = [r for r in rules if r in self._calls]
        while todo:
            name = todo.pop(0)
            if name not in seen:
                seen[name] = None
                todo.extend(c for c in self._calls[name] if c not in seen)
        return tuple(seen)

    def variants_reached(self, rules: Iterable[str]) -> tuple[str, ...]:
        """The variants the rules consult, themselves or through the rules they call, in
        the order the spec declares the variants."""
        key = tuple(rules)
        if key not in self._reached:
            found = {v for r in self.rules_reached(key) for v in self._consulted[r]}
            self._reached[key] = tuple(v.name for v in self.spec.variants if v.name in found)
        return self._reached[key]

    def needs_readings(self, rule: str) -> bool:
        """Whether the rule consults a variant, itself or through a rule it calls."""
        return bool(self.variants_reached([rule]))

    def consulting_rules(self, variant: str) -> tuple[m.Rule, ...]:
        """The rules that consult the variant themselves, in spec order."""
        name = self.variant_name(variant)
        return tuple(r for r in self.spec.rules if name in self._consulted[r.name])

    def files_called(self, rule: str) -> tuple[str, ...]:
        """The spec files of the rules the rule calls, other than its own, sorted."""
        own = self.spec.rule(rule).pos.file
        return tuple(sorted({self.spec.rule(c).pos.file for c in self.rules_called(rule)}
                            - {own}))

    # -- hooks --------------------------------------------------------------------------

    def hooked(self, tool: str) -> dict[str, str]:
        """The rules a tool hooks into: part -> rule (empty when the spec declares none)."""
        return {b.part: b.rule for h in self.spec.hooks if h.tool == tool for b in h.bindings}

    # -- types --------------------------------------------------------------------------

    def type_of(self, e: m.Expr) -> Type:
        """The type of an expression of a rule body."""
        return self.types.get(id(e), UNKNOWN)


def hooked_rules(spec: m.Spec, tool: str) -> list[str]:
    """Every rule a tool hooks into, in the spec's order (`hooks engine { ... }`)."""
    return [b.rule for h in spec.hooks if h.tool == tool for b in h.bindings]


def hook_rule(spec: m.Spec, tool: str, part: str) -> str | None:
    """The rule the spec names for one part a tool plays (`hooks verify { card_value = ... }`)."""
    for h in spec.hooks:
        if h.tool == tool:
            for b in h.bindings:
                if b.part == part:
                    return b.rule
    return None


# ------------------------------------------------------------ the pass ----


BUILTIN_RESULTS: dict[str, Type] = {"len": INT, "sum": INT, "abs": INT, "any": BOOL, "all": BOOL,
                   "index_of": INT, "range": ListOf(INT)}


class _Typer:
    """Gives every expression of every rule body its type."""

    def __init__(self, spec: m.Spec, out: Analysis) -> None:
        self.spec = spec
        self.out = out
        self.member_enum = {mem.name: e.name for e in spec.enums for mem in e.members}
        self.enums = {e.name for e in spec.enums}
        self.records = {r.name: r for r in spec.records}
        self.rules = {r.name: r for r in spec.rules}
        self.tables = {t.name: t for t in spec.tables}
        self.orders = {o.name for o in spec.orders}
        self.consts = {c.name for c in spec.consts}

    def rule(self, rule: m.Rule) -> None:
        scope = {p.name: type_of_declared(p.type) for p in rule.params}
        self.locals = self.out.local_types.setdefault(rule.name, {})
        self.locals.update(scope)
        self.block(rule.body, scope)

    def block(self, body: tuple[m.Stmt, ...], scope: dict[str, Type]) -> None:
        scope = dict(scope)
        for s in body:
            if isinstance(s, m.Let):
                scope[s.name] = self.expr(s.value, scope)
                self.locals[s.name] = scope[s.name]
            elif isinstance(s, m.Return):
                self.expr(s.value, scope)
            elif isinstance(s, m.Require):
                self.expr(s.condition, scope)
            elif isinstance(s, m.If):
                for branch in s.branches:
                    self.expr(branch.condition, scope)
                    self.block(branch.body, scope)
                self.block(s.otherwise or (), scope)
            else:
                for case in s.cases:
                    self.block(case.body, scope)

    def expr(self, e: m.Expr, scope: dict[str, Type]) -> Type:
        t = self._expr(e, scope)
        self.out.types[id(e)] = t
        return t

    def _expr(self, e: m.Expr, scope: dict[str, Type]) -> Type:
        if isinstance(e, m.IntLit):
            return INT
        if isinstance(e, m.StrLit):
            return TEXT
        if isinstance(e, m.BoolLit | m.Reads):
            return BOOL
        if isinstance(e, m.NoneLit):
            return NONE
        if isinstance(e, m.Name):
            return self.name(e.name, scope)
        if isinstance(e, m.ListLit):
            item: Type = UNKNOWN
            for x in e.items:
                item = join(item, self.expr(x, scope))
            return ListOf(item)
        if isinstance(e, m.Comprehension):
            inner = dict(scope)
            for clause in e.clauses:
                if isinstance(clause, m.CompFor):
                    iterable = present(self.expr(clause.iterable, inner))
                    inner[clause.target] = iterable.item if isinstance(iterable, ListOf) \
                        else UNKNOWN
                    self.locals[clause.target] = inner[clause.target]
                else:
                    self.expr(clause.condition, inner)
            return ListOf(self.expr(e.element, inner))
        if isinstance(e, m.BinOp):
            left, right = self.expr(e.left, scope), self.expr(e.right, scope)
            if e.op in ("or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "not in"):
                return BOOL
            if e.op == "+" and isinstance(present(left), ListOf):
                return join(present(left), present(right))
            return INT
        if isinstance(e, m.UnaryOp):
            self.expr(e.operand, scope)
            return BOOL if e.op == "not" else INT
        if isinstance(e, m.IfExpr):
            self.expr(e.condition, scope)
            return join(self.expr(e.then, scope), self.expr(e.otherwise, scope))
        if isinstance(e, m.FieldOf):
            return self.field(present(self.expr(e.base, scope)), e.field, e.pos)
        if isinstance(e, m.Index):
            return self.index(e, scope)
        if isinstance(e, m.Call):
            return self.call(e, scope)
        # m.WithUpdate
        base = present(self.expr(e.base, scope))
        for u in e.updates:
            self.field(base, u.name, u.pos)
            self.expr(u.value, scope)
        return base

    def name(self, name: str, scope: dict[str, Type]) -> Type:
        if name in scope:
            return scope[name]
        if name in self.member_enum:
            return Simple(self.member_enum[name])
        if name in self.enums:
            return ListOf(Simple(name))
        if name in self.consts:
            return INT
        return UNKNOWN

    def field(self, base: Type, name: str, pos: m.Pos) -> Type:
        """The type of a record's field; a field the record does not have is a problem."""
        if isinstance(base, Simple) and base.name in self.records:
            fields = self.records[base.name].fields
            for f in fields:
                if f.name == name:
                    return type_of_declared(f.type)
            self.out.problems.append((pos, f"{base.name} has no field '{name}'",
                                      f"one of {', '.join(f.name for f in fields)}"))
        elif base not in (UNKNOWN, NONE):
            self.out.problems.append((pos, f"field '{name}' of a {base}, not a record",
                                      "a record value before the '.'"))
        return UNKNOWN

    def index(self, e: m.Index, scope: dict[str, Type]) -> Type:
        self.expr(e.key, scope)
        if isinstance(e.base, m.Name) and e.base.name not in scope:
            if e.base.name in self.tables:
                return type_of_declared(self.tables[e.base.name].value_type)
            if e.base.name in self.orders:
                return INT
        base = present(self.expr(e.base, scope))
        return base.item if isinstance(base, ListOf) else UNKNOWN

    def call(self, e: m.Call, scope: dict[str, Type]) -> Type:
        args = [self.expr(a, scope) for a in e.args]
        for kw in e.kwargs:
            self.expr(kw.value, scope)
        name = e.func.name if isinstance(e.func, m.Name) else ""
        if name in self.rules:
            return type_of_declared(self.rules[name].returns)
        if name in self.records:
            return Simple(name)
        if name in BUILTIN_RESULTS:
            return BUILTIN_RESULTS[name]
        if name in ("max", "min") and args:
            items = present(args[0])
            return items.item if isinstance(items, ListOf) else INT
        if name == "remove" and args:
            return present(args[0])
        return UNKNOWN


# The analyses made last, by the identity of their spec (a spec hashes by value, which
# walks every rule body): a tool asks for the analysis of one spec many times.
_MADE: list[Analysis] = []
_KEPT = 8


def analyse(spec: m.Spec) -> Analysis:
    """Resolve and type every rule body of a checked spec, and index what each rule uses."""
    for made in _MADE:
        if made.spec is spec:
            return made
    out = Analysis(spec)
    typer = _Typer(spec, out)
    rules = {r.name for r in spec.rules}
    for rule in spec.rules:
        typer.rule(rule)
        out._consulted[rule.name] = tuple(dict.fromkeys(
            spec.variant(v).name for v in variants_used(rule.body)))
        out._calls[rule.name] = tuple(c for c in called_rules(rule.body) if c in rules)
    _MADE.insert(0, out)
    del _MADE[_KEPT:]
    return out
