"""The explorer's z3 search: arguments on which a rule that consults a variant
gives two values under two readings, or a proof that it never does.

Every rule that consults the variant (`choose` or `is`) and whose parameters
are numbers, enums and records of those (lists of numbers taken as per-team
pairs) is translated under each reading; z3 looks for arguments on which the
two translations differ, the smallest it can (numbers bounded by what they
stand for, from the parameter's name). When no such arguments exist for any
rule, and the spec gives the readings the same branch everywhere it consults
the variant, the readings are equal. Each query is bounded by z3's resource
count (`SEARCH_RLIMIT`), never by time, so the answer is the same on every
machine.
"""

from __future__ import annotations

import z3

from ..backends.symbolic import (
    LIST_BOUND,
    SList,
    TranslationError,
    Translator,
    Universe,
    Value,
    equal,
)
from ..grammar import model as m
from ..grammar.walk import walk_body
from ..proofs.invariants import Contract, mode_enum, round_total, suit_enum
from ..proofs.proof_outcome import Missing
from .explore_findings import SymbolicWitness

HAND_BOUND = 8  # the most items a list argument may have
SEARCH_RLIMIT = 40_000_000  # z3's resource count for one rule's search (not a time)


def consulting_rules(spec: m.Spec, variant: str) -> list[m.Rule]:
    """The rules whose own body consults the variant (`choose` or `is`)."""
    return [r for r in spec.rules if any(
        isinstance(n, m.Choose | m.Reads) and spec.variant(n.variant).name == variant
        for n in walk_body(r.body))]


def same_branch(spec: m.Spec, variant: str, a: str, b: str) -> bool:
    """Whether every `choose` on the variant puts a and b in one case and no `is`
    names either: then no rule can tell the two readings apart."""
    for r in consulting_rules(spec, variant):
        for n in walk_body(r.body):
            if isinstance(n, m.Reads) and spec.variant(n.variant).name == variant \
                    and n.reading in (a, b):
                return False
            if isinstance(n, m.Choose) and spec.variant(n.variant).name == variant:
                case_a = next(i for i, c in enumerate(n.cases) if a in c.readings)
                case_b = next(i for i, c in enumerate(n.cases) if b in c.readings)
                if case_a != case_b:
                    return False
    return True


def _int_domain(name: str) -> tuple[int, int]:
    n = name.lower()
    if "team" in n or n in ("round_winner", "winner"):
        return 0, 1
    if any(w in n for w in ("seat", "bidder", "dealer", "player", "leader")):
        return 0, 3
    if "multiplier" in n:
        return 1, 4
    if "bunts" in n:
        return 0, 162
    if "length" in n:
        return 0, 8
    return 0, 200


def _fresh_arg(u: Universe, p: m.Param, constraints: list[z3.BoolRef],
               ints: list[z3.ArithRef]) -> Value:
    t = p.type
    if isinstance(t, m.ListType) and isinstance(t.item, m.PlainType) and t.item.name == "int":
        lo, hi = _int_domain(p.name)
        items = [z3.Int(f"{p.name}[{i}]") for i in range(2)]  # per-team pairs
        for x in items:
            constraints += [x >= lo, x <= hi]
            ints.append(x)
        return SList(tuple((z3.BoolVal(True), x) for x in items))
    # records (a whole game state) are made lazily: only the fields the rule reads,
    # lists inside them of at most a few items; a list argument of up to a hand
    bound = HAND_BOUND if isinstance(t, m.ListType) else LIST_BOUND
    v = u.fresh(t, p.name, constraints=constraints, list_len=bound, lazy=True)
    if isinstance(v, z3.ArithRef):
        lo, hi = _int_domain(p.name)
        constraints += [v >= lo, v <= hi]
        ints.append(v)
    return v


def _round_totals(spec: m.Spec) -> tuple[z3.ArithRef, z3.ArithRef] | None:
    """All the bunts of a sun round and of a hokum round, or None when the spec
    cannot say (no such rules yet)."""
    try:
        t = Translator(spec)
        sun = round_total(t, spec, Contract("sun", None))
        hokum = round_total(t, spec, Contract("hokum", suit_enum(spec).members[0].name))
    except (Missing, TranslationError):
        return None
    return sun, hokum


def _realistic(spec: m.Spec, rule: m.Rule, args: list[Value], opt: z3.Optimize,
               ints: list[z3.ArithRef]) -> z3.ArithRef | None:
    """What to minimize for a readable witness; a per-team pair of bunts is made a
    split of the whole round (from the spec's deck and last-trick totals), as even
    as it can be, the lower first."""
    pairs: list[tuple[z3.ArithRef, z3.ArithRef]] = []
    mode: Value | None = None
    try:
        mode_name = mode_enum(spec).name
    except Missing:
        mode_name = ""
    for p, x in zip(rule.params, args, strict=True):
        if isinstance(p.type, m.PlainType) and p.type.name == mode_name:
            mode = x
    for p, x in zip(rule.params, args, strict=True):
        if "bunts" in p.name and isinstance(x, SList) and len(x.items) == 2 and mode is not None:
            b0, b1 = x.items[0][1], x.items[1][1]
            assert isinstance(b0, z3.ArithRef) and isinstance(b1, z3.ArithRef)
            totals = _round_totals(spec)
            if totals is None:
                continue
            sun, hokum = totals
            is_sun = equal(mode, Universe(spec).member("sun"))
            opt.add(b0 + b1 == z3.If(is_sun, sun, hokum), b0 <= b1)
            pairs.append((b0, b1))
    rest = [x for x in ints if not any(x is b for pair in pairs for b in pair)]
    terms = rest + [b1 - b0 for b0, b1 in pairs]
    return z3.Sum(*terms) if terms else None


def symbolic_search(spec: m.Spec, variant: str, a: str, b: str, base: dict[str, str]
                    ) -> tuple[list[SymbolicWitness], str]:
    """Witnesses, one per consulting rule that tells a from b; a note on the rest."""
    found: list[SymbolicWitness] = []
    skipped: list[str] = []
    undecided: list[str] = []
    equal_rules: list[str] = []
    for rule in consulting_rules(spec, variant):
        u = Universe(spec)
        u.int_domain = _int_domain
        cons: list[z3.BoolRef] = []
        ints: list[z3.ArithRef] = []
        try:
            args = [_fresh_arg(u, p, cons, ints) for p in rule.params]
            ta = Translator(spec, {**base, variant: a}, universe=u)
            tb = Translator(spec, {**base, variant: b}, universe=u)
            ra, rb = ta.call(rule.name, args), tb.call(rule.name, args)
            differs = z3.Or(ra.legal() != rb.legal(),
                            z3.And(ra.legal(), z3.Not(equal(ra.value, rb.value))))
        except TranslationError as err:
            skipped.append(f"{rule.name} ({err.reason})")
            continue
        except z3.Z3Exception as err:
            skipped.append(f"{rule.name} (z3: {err})")
            continue
        opt = z3.Optimize()
        opt.set("rlimit", SEARCH_RLIMIT)
        opt.add(*cons, differs)
        objective = _realistic(spec, rule, args, opt, ints)
        if u.guards:  # the fewest list items
            items = z3.Sum(*[z3.If(g, 1, 0) for g in u.guards])
            objective = items if objective is None else objective + items
        if objective is not None:
            opt.minimize(objective)
        answer = opt.check()
        if answer == z3.unsat:
            equal_rules.append(rule.name)
            continue
        if answer != z3.sat:
            undecided.append(f"{rule.name} ({opt.reason_unknown()})")
            continue
        model = opt.model()
        shown = {p.name: u.decode(model, x) for p, x in zip(rule.params, args, strict=True)}
        va = u.decode(model, ra.value) if z3.is_true(model.eval(ra.legal(), True)) \
            else "illegal"
        vb = u.decode(model, rb.value) if z3.is_true(model.eval(rb.legal(), True)) \
            else "illegal"
        found.append(SymbolicWitness(rule.name, shown, va, vb))
    notes = []
    if equal_rules:
        notes.append("equal on " + ", ".join(equal_rules) + f" (lists of at most {HAND_BOUND} "
                     f"items, lists inside records of at most {LIST_BOUND})")
    if skipped:
        notes.append("not translated: " + "; ".join(skipped))
    if undecided:
        notes.append("z3 gave up within its resource bound on: " + "; ".join(undecided))
    return found, "; ".join(notes)
