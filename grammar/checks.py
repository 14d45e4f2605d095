"""Semantic checks of a parsed spec.

`check_spec` gathers every problem it finds and raises one `SpecError` that
lists them all, each with its file, line, column and what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import model as m
from .analysis import analyse
from .errors import SpecError, SpecProblem
from .walk import children, walk_body

BUILTINS = {
    "len": 1, "sum": 1, "max": 1, "min": 1, "any": 1, "all": 1, "range": 2, "abs": 1,
    "remove": 2, "index_of": 2,
}
EXPRESSION_TYPES = (
    m.IntLit, m.StrLit, m.BoolLit, m.NoneLit, m.Name, m.ListLit, m.Comprehension, m.BinOp,
    m.UnaryOp, m.IfExpr, m.FieldOf, m.Index, m.Call, m.WithUpdate, m.Reads,
)
CLAUSE_ID = re.compile(r"^[A-Z]+\.[0-9]+$")
VARIANT_ID = re.compile(r"^A[0-9]+$")


class _Checker:
    def __init__(self, spec: m.Spec) -> None:
        self.spec = spec
        self.problems: list[SpecProblem] = []
        self.globals: dict[str, str] = {}  # name -> what it is ("rule", "table", ...)
        self.fields = {f.name for r in spec.records for f in r.fields}
        self.variants = {v.name: v for v in spec.variants}

    def problem(self, pos: m.Pos, message: str, expected: str) -> None:
        self.problems.append(SpecProblem(pos, message, expected, self.spec.source_line(pos)))

    # -- names ----------------------------------------------------------------------

    def declare_globals(self) -> None:
        seen: dict[str, m.Pos] = {}

        def declare(name: str, kind: str, pos: m.Pos) -> None:
            if name in seen:
                self.problem(pos, f"duplicate name '{name}' (first declared at {seen[name]})",
                             "a name used by no other declaration or enum member")
                return
            seen[name] = pos
            self.globals[name] = kind

        for e in self.spec.enums:
            declare(e.name, "enum", e.pos)
            for member in e.members:
                declare(member.name, "enum member", member.pos)
        for r in self.spec.records:
            declare(r.name, "record", r.pos)
        for kind, decls in (("order", self.spec.orders), ("table", self.spec.tables),
                            ("const", self.spec.consts), ("rule", self.spec.rules)):
            for d in decls:
                declare(d.name, kind, d.pos)
        for name in BUILTINS:
            if name in self.globals:
                self.problem(next(p for n, p in seen.items() if n == name),
                             f"'{name}' is a built-in function", "another name")
        self.check_unique(((v.name, v.pos) for v in self.spec.variants), "variant")
        self.check_unique(((v.id, v.pos) for v in self.spec.variants), "variant ID")
        self.check_unique(((p.name, p.pos) for p in self.spec.profiles), "profile")
        self.check_unique(((c.id, c.pos) for c in self.spec.clauses), "clause ID")

    def check_unique(self, items: Iterable[tuple[str, m.Pos]], what: str) -> None:
        seen: dict[str, m.Pos] = {}
        for name, pos in items:
            if name in seen:
                self.problem(pos, f"duplicate {what} '{name}' (first at {seen[name]})",
                             f"a {what} given once")
            else:
                seen[name] = pos

    def check_reserved(self) -> None:
        """A word that may begin an expression lexes as a name where only a name may
        stand, but can never be referred to: `enum E { none }` declares a member no
        expression can reach, and a parameter `none` reads as the literal."""
        from .lark_grammar import expression_words  # lark

        words = expression_words()
        named: list[tuple[str, m.Pos]] = []
        for e in self.spec.enums:
            named += [(e.name, e.pos), *((mem.name, mem.pos) for mem in e.members)]
        for r in self.spec.records:
            named += [(r.name, r.pos), *((f.name, f.pos) for f in r.fields)]
        valued: tuple[m.Order | m.Table | m.Const, ...] = (
            *self.spec.orders, *self.spec.tables, *self.spec.consts)
        named += [(d.name, d.pos) for d in valued]
        for rule in self.spec.rules:
            named += [(rule.name, rule.pos), *((p.name, p.pos) for p in rule.params)]
            for node in walk_body(rule.body):
                if isinstance(node, m.Let | m.CompFor):
                    named.append((node.name if isinstance(node, m.Let) else node.target,
                                  node.pos))
        for v in self.spec.variants:
            named += [(v.name, v.pos), *((r.name, r.pos) for r in v.readings)]
        named += [(p.name, p.pos) for p in self.spec.profiles]
        named += [(h.tool, h.pos) for h in self.spec.hooks]
        for name, pos in named:
            if name in words:
                self.problem(pos, f"'{name}' is a word of the language, not a name",
                             f"a name other than {', '.join(sorted(words))}")

    # -- clauses --------------------------------------------------------------------

    def check_clauses(self, coverage: bool = True) -> None:
        known = {c.id for c in self.spec.clauses}
        for c in self.spec.clauses:
            if not CLAUSE_ID.match(c.id):
                self.problem(c.pos, f"malformed clause ID '{c.id}'", "an ID such as SCORE.7")
        transition_cites = [c for mc in self.spec.machines for t in mc.transitions for c in t.cites]
        for cite in [c for d in self.spec.cited() for c in d.cites] + transition_cites:
            if cite.clause not in known:
                self.problem(cite.pos, f"clause '{cite.clause}' does not exist",
                             "a clause ID declared with `clause` (see spec/clauses.baloot)")
        if not coverage:
            return
        covered = {cite.clause for d in self.spec.cited() if not isinstance(d, m.Variant)
                   for cite in d.cites} | {c.clause for c in transition_cites}
        for c in self.spec.clauses:
            if c.id not in covered:
                self.problem(c.pos, f"no rule covers clause {c.id}",
                             f"a rule, table, order, const, enum or record citing [{c.id}]")

    # -- types ----------------------------------------------------------------------

    def check_type(self, t: m.Type) -> None:
        if isinstance(t, m.PlainType):
            if t.name not in m.BUILTIN_TYPES and self.globals.get(t.name) not in ("enum", "record"):
                self.problem(t.pos, f"unknown type '{t.name}'",
                             "int, bool, text, an enum or a record")
        elif isinstance(t, m.OptionalType):
            self.check_type(t.inner)
        else:
            self.check_type(t.item)

    # -- data declarations -------------------------------------------------------------

    def check_data(self) -> None:
        for e in self.spec.enums:
            notations = [(mem.notation, mem.pos) for mem in e.members if mem.notation is not None]
            self.check_unique(notations, f"notation of {e.name}")
        for r in self.spec.records:
            self.check_unique(((f.name, f.pos) for f in r.fields), f"field of {r.name}")
            for f in r.fields:
                self.check_type(f.type)
        for machine in self.spec.machines:
            self.check_machine(machine)
        for o in self.spec.orders:
            self.check_order(o)
        for t in self.spec.tables:
            self.check_table(t)

    def check_machine(self, machine: m.Machine) -> None:
        states = [s.name for s in machine.states]
        expected = f"a state of {machine.name}: {', '.join(states)}"
        seen: set[tuple[str, str]] = set()
        for t in machine.transitions:
            if t.source not in states:
                self.problem(t.pos, f"'{t.source}' is not a state of {machine.name}", expected)
            if t.target not in states:
                self.problem(t.target_pos, f"'{t.target}' is not a state of {machine.name}",
                             expected)
            if (t.source, t.target) in seen:
                self.problem(t.pos, f"transition {t.source} -> {t.target} is declared twice",
                             "each transition once, with all its causes")
            seen.add((t.source, t.target))
        reached = {states[0]} if states else set()
        changed = True
        while changed:
            changed = False
            for t in machine.transitions:
                if t.source in reached and t.target not in reached:
                    reached.add(t.target)
                    changed = True
        for s in machine.states[1:]:
            if s.name not in reached:
                self.problem(s.pos, f"state '{s.name}' cannot be reached from {states[0]}",
                             f"a chain of transitions from {states[0]}, the first state")

    def enum_named(self, name: str, pos: m.Pos) -> m.Enum | None:
        if self.globals.get(name) != "enum":
            self.problem(pos, f"'{name}' is not an enum", "the name of an enum, such as Rank")
            return None
        return self.spec.enum(name)

    def check_order(self, o: m.Order) -> None:
        enum = self.enum_named(o.over, o.over_pos)
        if enum is None:
            return
        listed = [mem.name for mem in o.high_to_low]
        for mem in o.high_to_low:
            if mem.name not in enum.member_names:
                self.problem(mem.pos, f"'{mem.name}' is not a member of {enum.name}",
                             f"one of {', '.join(enum.member_names)}")
        self.check_unique(((mem.name, mem.pos) for mem in o.high_to_low), f"member of {o.name}")
        missing = [name for name in enum.member_names if name not in listed]
        if missing:
            self.problem(o.pos, f"order '{o.name}' is not a permutation of {enum.name}: "
                         f"missing {', '.join(missing)}",
                         f"each of the {len(enum.members)} members of {enum.name} exactly once")

    def check_table(self, t: m.Table) -> None:
        self.check_type(t.value_type)
        enum = self.enum_named(t.key_enum, t.key_pos)
        if enum is None:
            return
        for entry in t.entries:
            if entry.key not in enum.member_names:
                self.problem(entry.pos, f"'{entry.key}' is not a member of {enum.name}",
                             f"one of {', '.join(enum.member_names)}")
        self.check_unique(((e.key, e.pos) for e in t.entries), f"key of table {t.name}")
        keys = {e.key for e in t.entries}
        missing = [name for name in enum.member_names if name not in keys]
        if missing:
            self.problem(t.pos, f"table '{t.name}' misses {', '.join(missing)}",
                         f"a value for every member of {enum.name}")

    # -- variants and profiles ------------------------------------------------------------

    def check_variants(self) -> None:
        for v in self.spec.variants:
            if not VARIANT_ID.match(v.id):
                self.problem(v.pos, f"malformed variant ID '{v.id}'",
                             "the ambiguity ID of the rules notes, such as A5")
            self.check_unique(((r.name, r.pos) for r in v.readings), f"reading of {v.name}")
            if v.default is None:
                self.problem(v.pos, f"variant '{v.name}' has no default reading",
                             "a line `default READING` after its readings")
            elif v.default not in v.reading_names:
                assert v.default_pos is not None
                self.problem(v.default_pos, f"default '{v.default}' is not a reading of {v.name}",
                             f"one of {', '.join(v.reading_names)}")
        for p in self.spec.profiles:
            self.check_unique(((pick.variant, pick.pos) for pick in p.picks),
                              f"choice in profile {p.name}")
            for pick in p.picks:
                variant = self.variants.get(pick.variant)
                if variant is None:
                    self.problem(pick.pos, f"unknown variant '{pick.variant}'",
                                 "the name of a variant, such as rounding")
                elif pick.reading not in variant.reading_names:
                    self.problem(pick.reading_pos,
                                 f"'{pick.reading}' is not a reading of {variant.name}",
                                 f"one of {', '.join(variant.reading_names)}")
            picked = {pick.variant for pick in p.picks}
            unset = [v.name for v in self.spec.variants if v.name not in picked]
            if unset:
                self.problem(p.pos, f"profile '{p.name}' leaves unset: {', '.join(unset)}",
                             "one reading chosen for every variant")
            self.check_evidence(p)

    def check_evidence(self, p: m.Profile) -> None:
        """A profile that gives one choice its evidence gives it to them all: each choice
        is `confirmed` by its sources (none against), `contested` (sources on each side,
        and where they disagree), or `unsourced` (no source decides; the default kept)."""
        if not p.sourced:
            return
        for pick in p.picks:
            variant = self.variants.get(pick.variant)
            said = f"{pick.variant} = {pick.reading}"
            if pick.status is None:
                self.problem(pick.reading_pos, f"profile '{p.name}' gives its other choices "
                             f"an evidence status but not {said}",
                             "`confirmed` or `contested` with its `source` lines, or "
                             '`unsourced "..."` with the default reading')
                continue
            if pick.unsourced is not None and (pick.status != "unsourced" or pick.sources
                                               or pick.against or pick.settled is not None):
                self.problem(pick.reading_pos, f"{said} says it has no source and names "
                             "sources or a status", "`unsourced` alone, or a status with "
                             "its sources")
                continue
            if pick.status == "unsourced":
                if variant is not None and pick.reading != variant.default:
                    self.problem(pick.reading_pos, f"{said} has no source but moves off the "
                                 f"default {variant.default}",
                                 f"a source, or the default reading {variant.default}")
                continue
            if not pick.sources:
                self.problem(pick.reading_pos, f"{said} is {pick.status} but names no source "
                             "for it", 'a line `source "..."` for each source of the reading')
            if pick.status == "confirmed":
                if pick.against:
                    self.problem(pick.against[0].pos, f"{said} is confirmed but names a "
                                 "source against it", "`contested`, or no `against` line")
                if pick.settled is not None:
                    self.problem(pick.reading_pos, f"{said} is confirmed but says where its "
                                 "sources disagree", "`contested`, or no `settled` line")
            else:
                if not pick.against:
                    self.problem(pick.reading_pos, f"{said} is contested but names no source "
                                 "against it", 'a line `against READING "..."` for each '
                                 "source of another reading")
                if pick.settled is None:
                    self.problem(pick.reading_pos, f"{said} is contested but does not say "
                                 "where its sources disagree", 'a line `settled "..."`: '
                                 "which side is taken, and why")
            for against in pick.against:
                if variant is None or against.reading is None:
                    continue
                if against.reading not in variant.reading_names:
                    self.problem(against.pos, f"'{against.reading}' is not a reading of "
                                 f"{variant.name}", f"one of {', '.join(variant.reading_names)}"
                                 ", or no name when the register lacks the reading")
                elif against.reading == pick.reading:
                    self.problem(against.pos, f"a source against {said} supports "
                                 f"{pick.reading} itself", "another reading's name, or a "
                                 "`source` line")

    # -- scope --------------------------------------------------------------------------

    def check_scope(self) -> None:
        """One stated scope at most; each part named once; each part left to the table or
        the app says whether the protocol could check it (`protocol "..."`)."""
        for extra in self.spec.scopes[1:]:
            self.problem(extra.pos, f"a second scope (the first at {self.spec.scopes[0].pos})",
                         "one scope block for the whole spec")
        for scope in self.spec.scopes:
            self.check_unique(((i.name, i.pos) for i in scope.items), "part of the scope")
            for item in scope.of_kind("leaves"):
                if item.protocol is None:
                    self.problem(item.pos, f"the scope leaves '{item.name}' out but does not "
                                 "say whether the protocol could check it",
                                 'a line `protocol "..."`: could it become a capability, '
                                 "or why not")

    # -- hooks --------------------------------------------------------------------------

    def check_hooks(self) -> None:
        """Each tool hooked once, each part once, and every rule named a rule of the spec."""
        self.check_unique(((h.tool, h.pos) for h in self.spec.hooks), "hooks of a tool")
        rules = {r.name for r in self.spec.rules}
        for h in self.spec.hooks:
            self.check_unique(((b.part, b.pos) for b in h.bindings), f"part of {h.tool}")
            for b in h.bindings:
                if b.rule not in rules:
                    self.problem(b.rule_pos, f"{h.tool} hooks into '{b.rule}', which is not a "
                                 "rule of the spec",
                                 f"the name of a declared rule (the rule playing {b.part} "
                                 "renamed or removed?)")

    # -- rules --------------------------------------------------------------------------

    def check_rules(self) -> None:
        for r in self.spec.rules:
            self.check_unique(((p.name, p.pos) for p in r.params), f"parameter of {r.name}")
            for p in r.params:
                self.check_type(p.type)
            self.check_type(r.returns)
            scope = {p.name for p in r.params}
            self.check_block(r.body, scope)
            if not always_returns(r.body):
                self.problem(r.pos, f"rule '{r.name}' can end without returning a value",
                             "a `return` at the end of every path through the rule")

    def check_block(self, body: tuple[m.Stmt, ...], scope: set[str]) -> None:
        scope = set(scope)
        for stmt in body:
            if isinstance(stmt, m.Let):
                self.check_expr(stmt.value, scope)
                if stmt.name in scope or stmt.name in self.globals:
                    self.problem(stmt.pos, f"'{stmt.name}' is already a name here",
                                 "a new name (names are never reassigned)")
                scope.add(stmt.name)
            elif isinstance(stmt, m.Return):
                self.check_expr(stmt.value, scope)
            elif isinstance(stmt, m.Require):
                self.check_expr(stmt.condition, scope)
            elif isinstance(stmt, m.If):
                for branch in stmt.branches:
                    self.check_expr(branch.condition, scope)
                    self.check_block(branch.body, scope)
                if stmt.otherwise is not None:
                    self.check_block(stmt.otherwise, scope)
            else:
                self.check_choose(stmt, scope)

    def check_choose(self, stmt: m.Choose, scope: set[str]) -> None:
        variant = self.variants.get(stmt.variant)
        if variant is None:
            self.problem(stmt.pos, f"unknown variant '{stmt.variant}'",
                         "the name of a variant, such as rounding")
        named: list[str] = []
        for case in stmt.cases:
            for reading in case.readings:
                if variant is not None and reading not in variant.reading_names:
                    self.problem(case.pos, f"'{reading}' is not a reading of {variant.name}",
                                 f"one of {', '.join(variant.reading_names)}")
                if reading in named:
                    self.problem(case.pos, f"reading '{reading}' is chosen twice",
                                 "each reading in one case")
                named.append(reading)
            self.check_block(case.body, scope)
        if variant is not None:
            missing = [r for r in variant.reading_names if r not in named]
            if missing:
                self.problem(stmt.pos, f"choose {variant.name} misses {', '.join(missing)}",
                             f"a case for every reading of {variant.name}")

    def check_expr(self, e: m.Expr, scope: set[str]) -> None:
        if isinstance(e, m.Name):
            if e.name not in scope and e.name not in self.globals:
                self.problem(e.pos, f"unknown name '{e.name}'",
                             "a parameter, a `let` name, or a declared rule, table, order, "
                             "const, enum, enum member or record")
            elif self.globals.get(e.name) == "rule" and e.name not in scope:
                self.problem(e.pos, f"rule '{e.name}' used as a value", f"a call: {e.name}(...)")
        elif isinstance(e, m.Reads):
            variant = self.variants.get(e.variant)
            if variant is None:
                self.problem(e.pos, f"unknown variant '{e.variant}'",
                             "the name of a variant, such as rounding")
            elif e.reading not in variant.reading_names:
                self.problem(e.reading_pos, f"'{e.reading}' is not a reading of {variant.name}",
                             f"one of {', '.join(variant.reading_names)}")
        elif isinstance(e, m.Call):
            self.check_call(e, scope)
        elif isinstance(e, m.Comprehension):
            inner = set(scope)
            for clause in e.clauses:
                if isinstance(clause, m.CompFor):
                    self.check_expr(clause.iterable, inner)
                    inner.add(clause.target)
                else:
                    self.check_expr(clause.condition, inner)
            self.check_expr(e.element, inner)
        elif isinstance(e, m.FieldOf):
            self.check_expr(e.base, scope)
            if e.field not in self.fields:
                self.problem(e.pos, f"no record has a field '{e.field}'",
                             "the name of a field of a declared record")
        elif isinstance(e, m.WithUpdate):
            self.check_expr(e.base, scope)
            for update in e.updates:
                if update.name not in self.fields:
                    self.problem(update.pos, f"no record has a field '{update.name}'",
                                 "the name of a field of a declared record")
                self.check_expr(update.value, scope)
        else:
            for child in children(e):
                assert isinstance(child, EXPRESSION_TYPES)  # the other cases are handled above
                self.check_expr(child, scope)

    def check_call(self, e: m.Call, scope: set[str]) -> None:
        for arg in e.args:
            self.check_expr(arg, scope)
        for kw in e.kwargs:
            self.check_expr(kw.value, scope)
        if not isinstance(e.func, m.Name):
            self.problem(e.pos, "only rules, records and built-ins can be called",
                         "a name before '('")
            return
        name = e.func.name
        kind = self.globals.get(name)
        if kind == "rule":
            rule = self.spec.rule(name)
            if e.kwargs or len(e.args) != len(rule.params):
                self.problem(e.pos, f"{name} takes {len(rule.params)} argument(s), "
                             f"given {len(e.args) + len(e.kwargs)}",
                             f"{name}({', '.join(p.name for p in rule.params)})")
        elif kind == "record":
            record = self.spec.record(name)
            fields = [f.name for f in record.fields]
            given = [kw.name for kw in e.kwargs]
            if e.args:
                self.problem(e.pos, f"record {name} is built with named fields",
                             f"{name}({', '.join(f + '=...' for f in fields)})")
            for kw in e.kwargs:
                if kw.name not in fields:
                    self.problem(kw.pos, f"{name} has no field '{kw.name}'",
                                 f"one of {', '.join(fields)}")
            missing = [f for f in fields if f not in given]
            if missing:
                self.problem(e.pos, f"{name} misses field(s) {', '.join(missing)}",
                             f"a value for every field of {name}")
        elif name in BUILTINS:
            if e.kwargs or len(e.args) != BUILTINS[name]:
                self.problem(e.pos, f"built-in {name} takes {BUILTINS[name]} argument(s)",
                             f"{name} with {BUILTINS[name]} argument(s)")
        else:
            self.problem(e.func.pos, f"unknown rule '{name}'",
                         "a declared rule, a record, or a built-in function")


def always_returns(body: tuple[m.Stmt, ...]) -> bool:
    """Whether every path through a block returns (its last statement returns, or is an
    `if` with an `else`, or a `choose`, every part of which does)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, m.Return):
        return True
    if isinstance(last, m.If):
        return (last.otherwise is not None and always_returns(last.otherwise)
                and all(always_returns(b.body) for b in last.branches))
    if isinstance(last, m.Choose):
        return all(always_returns(c.body) for c in last.cases)
    return False


def check_spec(spec: m.Spec, *, coverage: bool = True) -> None:
    """Raise `SpecError` listing every semantic problem of the spec.

    With `coverage=False` a declared clause that no rule cites is not an error
    (`baloot spec trace` reports those itself).
    """
    checker = _Checker(spec)
    checker.declare_globals()
    checker.check_reserved()
    checker.check_clauses(coverage)
    checker.check_data()
    checker.check_variants()
    checker.check_rules()
    checker.check_hooks()
    checker.check_scope()
    if not checker.problems:  # names resolve: the types can be worked out
        for pos, message, expected in analyse(spec).problems:
            checker.problem(pos, message, expected)
    if checker.problems:
        raise SpecError(checker.problems)
