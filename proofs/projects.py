"""Project invariants, proven on the spec's own project rules.

A hand is the full deck (from the spec's `full_deck`) with one z3 boolean per
card, "held", eight of them true: every hand at once. The projects a player
may declare are the spec's `project_candidates` of a round holding that hand;
the declarations follow the spec's `declare` (the declared project joins
`round.projects`, and the second declaration is a candidate of the round that
holds the first). The round is a partial state record (`Game` or `Round`,
whichever the rules take) with only the fields these rules read (hands,
projects, contract, dealer), found by type; a rule that reads any other field
fails with a message naming it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import z3

from ..backends.symbolic import (
    FALSE,
    TRUE,
    SList,
    SOpt,
    SRecord,
    Translator,
    Universe,
    Value,
    and_,
    count,
    equal,
    or_,
)
from ..grammar import model as m
from .invariants import (
    Contract,
    ReadingChoice,
    _outcome,
    contracts,
    mode_enum,
    mode_member,
    reading_choices,
    trump_value,
)
from .proof_outcome import (
    Z3_RLIMIT,
    Missing,
    Proof,
    ProofOutcome,
    format_example,
    guarded,
    need_rule,
    prove,
    proving_solver,
)

HAND_SIZE = 8


def _contract_record(spec: m.Spec, u: Universe, c: Contract) -> SRecord:
    """A Contract of the mode and trump of `c`, bid by seat 0 (team 0)."""
    rec = spec.record("Contract")
    fields: list[tuple[str, Value]] = []
    for f in rec.fields:
        if isinstance(f.type, m.PlainType) and f.type.name == mode_enum(spec).name:
            fields.append((f.name, mode_member(spec, c)))
        elif f.name == "trump":
            fields.append((f.name, trump_value(u, c)))
        elif f.name in ("bidder", "caller", "taker"):
            fields.append((f.name, z3.IntVal(0)))
        elif isinstance(f.type, m.PlainType) and f.type.name == "bool":
            fields.append((f.name, FALSE))
        else:
            raise Missing(f"Contract has a field {f.name!r} the project checks do not know")
    return SRecord("Contract", tuple(fields))


class Hand:
    """Every hand of eight cards: the deck with a 'held' boolean per card."""

    def __init__(self, t: Translator, name: str = "held") -> None:
        deck = t.call(need_rule(t.spec, "full_deck"), []).value
        assert isinstance(deck, SList)
        self.cards = [x for _, x in deck.items]
        self.held = [z3.Bool(f"{name}[{i}]") for i in range(len(self.cards))]
        self.list = SList(tuple(zip(self.held, self.cards, strict=True)))
        self.constraints = [z3.Sum(*[z3.If(h, 1, 0) for h in self.held]) == HAND_SIZE]


def _type_text(t: m.Type) -> str:
    if isinstance(t, m.OptionalType):
        return _type_text(t.inner) + "?"
    if isinstance(t, m.ListType):
        return f"list[{_type_text(t.item)}]"
    return str(t.name)


def _round(spec: m.Spec, u: Universe, c: Contract, hand: SList,
           projects: list[tuple[z3.BoolRef, Value]]) -> SRecord:
    """A partial state (the record project_candidates reads): seat 0 holds `hand`, before
    the first card, with `projects` declared; its fields are found by their type."""
    by_type: dict[str, Value] = {
        "list[list[Card]]": SList(((TRUE, hand), (TRUE, SList(())), (TRUE, SList(())),
                                   (TRUE, SList(())))),
        "list[Project]": SList(tuple(projects)),
        "Contract?": SOpt(FALSE, _contract_record(spec, u, c)),
        "Contract": _contract_record(spec, u, c),
        "list[Play]": SList(()),
        "list[Trick]": SList(()),
    }
    state = spec.rule(need_rule(spec, "project_candidates")).params[0].type
    if not isinstance(state, m.PlainType):
        raise Missing("project_candidates does not take a state record first")
    fields: list[tuple[str, Value]] = []
    for f in spec.record(state.name).fields:
        value = by_type.get(_type_text(f.type))
        if value is None and f.name == "dealer":
            value = z3.IntVal(3)
        if value is not None:
            fields.append((f.name, value))
    return SRecord(state.name, tuple(fields))


def member_like(spec: m.Spec, enum: str, *names: str) -> str:
    """The first of `names` that is a member of `enum` (spec names drift; say which)."""
    members = spec.enum(enum).member_names
    for n in names:
        if n in members:
            return n
    raise Missing(f"the enum {enum} has none of the members {', '.join(names)}")


def _pick(items: SList, k: z3.ArithRef) -> tuple[z3.BoolRef, Value]:
    """The item at position k of a guarded list (k counts present items only)."""
    if not items.items:
        return FALSE, SList(())
    position: z3.ArithRef = z3.IntVal(0)
    chosen: Value | None = None
    found = FALSE
    for g, x in items.items:
        here = and_(g, position == k)
        chosen = x if chosen is None else _ite(here, x, chosen)
        found = or_(found, here)
        position = position + z3.If(g, 1, 0)
    assert chosen is not None
    return found, chosen


def _ite(c: z3.BoolRef, a: Value, b: Value) -> Value:
    from ..backends.symbolic import ite

    return ite(c, a, b)


def _field(r: Value, name: str) -> Value:
    assert isinstance(r, SRecord)
    v = r.get(name)
    assert v is not None, f"{r.record} has no field {name}"
    return v


class Declarations:
    """A hand, and up to two declared projects, as the spec's `declare` makes them."""

    def __init__(self, spec: m.Spec, t: Translator, c: Contract) -> None:
        u = t.u
        self.hand = Hand(t)
        candidates = need_rule(spec, "project_candidates")
        round0 = _round(spec, u, c, self.hand.list, [])
        first = t.call(candidates, [round0, z3.IntVal(0)]).value
        assert isinstance(first, SList)
        self.k1, self.k2 = z3.Int("first_choice"), z3.Int("second_choice")
        self.d1, self.d2 = z3.Bool("declares_first"), z3.Bool("declares_second")
        ok1, self.p1 = _pick(first, self.k1)
        round1 = _round(spec, u, c, self.hand.list, [(self.d1, self.p1)])
        second = t.call(candidates, [round1, z3.IntVal(0)]).value
        assert isinstance(second, SList)
        ok2, self.p2 = _pick(second, self.k2)
        self.round2 = _round(spec, u, c, self.hand.list, [(self.d1, self.p1), (self.d2, self.p2)])
        self.constraints = [*self.hand.constraints, self.k1 >= 0, self.k2 >= 0,
                            z3.Implies(self.d1, ok1), z3.Implies(self.d2, z3.And(self.d1, ok2))]
        self.first, self.second = first, second

    def cards_of(self, p: Value) -> SList:
        cards = _field(p, "cards")
        assert isinstance(cards, SList)
        return cards


def check_disjoint_projects(spec: m.Spec, mode: str | None = None) -> Iterator[ProofOutcome]:
    """No card counts in two projects (PROJ.8), and a project is made of held cards;
    `mode` ("sun" or "hokum") keeps the contracts of one mode."""
    cid = "projects-disjoint"
    title = ("no card counts in two declared projects of a player, and every project is "
             "made of cards the player holds (PROJ.2, PROJ.8)")
    rules = [r for r in ("project_candidates",) if any(x.name == r for x in spec.rules)]
    all_contracts = contracts(spec)
    for c in all_contracts:
        if not c.of_mode(mode):
            continue
        # Every profile in every contract; every reading of every variant the
        # rules consult in one hokum contract (the trump suits are symmetric).
        sweep = c is all_contracts[-1]
        choices = reading_choices(spec, rules or ["?"], sweep=sweep)
        shared = _Shared(spec, c, choices)
        for choice in choices:
            def body(c: Contract = c, choice: ReadingChoice = choice,
                     shared: _Shared = shared) -> ProofOutcome:
                u, d, _ = shared.get()
                c1, c2 = d.cards_of(d.p1), d.cards_of(d.p2)
                overlap = []
                foreign = []
                for held, card in zip(d.hand.held, d.hand.cards, strict=True):
                    in1 = or_(*[and_(g, equal(x, card)) for g, x in c1.items])
                    in2 = or_(*[and_(g, equal(x, card)) for g, x in c2.items])
                    overlap.append(z3.And(d.d1, d.d2, in1, in2))
                    foreign.append(z3.And(z3.Or(z3.And(d.d1, in1), z3.And(d.d2, in2)),
                                          z3.Not(held)))
                claim = z3.Not(z3.Or(*overlap, *foreign))
                proof = prove(u, claim, d.constraints + shared.pick(choice),
                              {"hand": d.hand.list, "first": d.p1, "second": d.p2})
                return _outcome(cid, title, c.label, choice.label, proof,
                                "every hand, every pair of declarations", method="z3")

            yield guarded(cid, title, c.label, choice.label, body)


def _value(spec: m.Spec, t: Translator, c: Contract, p: Value) -> z3.ArithRef:
    v = t.call(need_rule(spec, "project_value"), [_field(p, "kind"), mode_member(spec, c)]).value
    assert isinstance(v, z3.ArithRef)
    return v


def check_largest_projects(spec: m.Spec, mode: str | None = None) -> Iterator[ProofOutcome]:
    """The largest project total one hand can hold (two declarations, and baloot)."""
    cid = "projects-max"
    title = ("the largest project value one hand of eight can hold: two declared projects "
             "and baloot, in the values of SCORE.5/SCORE.6")
    rules = [r for r in ("project_candidates", "baloot_counts") if any(x.name == r
                                                                       for x in spec.rules)]
    for c in contracts(spec):
        if c.hokum and c.trump != contracts(spec)[1].trump:
            continue  # the four suits are symmetric here: one trump suit stands for all
        if not c.of_mode(mode):
            continue
        label = c.label if not c.hokum else "hokum (any trump)"
        choices = reading_choices(spec, rules or ["?"], sweep=True)
        shared = _Shared(spec, c, choices)
        found: list[int] = []  # the largest values of the choices proven so far
        for choice in choices:
            def body(c: Contract = c, choice: ReadingChoice = choice,
                     label: str = label, shared: _Shared = shared,
                     found: list[int] = found) -> ProofOutcome:
                start = time.perf_counter()
                u, d, total = shared.get()
                best = largest(total, d.constraints + shared.pick(choice),
                               found[-1] if found else None)
                seconds = time.perf_counter() - start
                if best is None:
                    return ProofOutcome(cid, title, label, choice.label, "error", LARGEST_METHOD,
                                        seconds, "z3 found no largest value within its "
                                        "resource bound")
                value, model = best
                found.append(value)
                _PER_HAND_CACHE[(c.hokum, tuple(sorted(choice.readings.items())))] = value
                # The hand z3 shows is one of several that reach the maximum, and which one
                # depends on the queries its solver answered before: it goes with the
                # outcome (the console, --json), not into the stored detail.
                shown = {"hand": u.decode(model, d.hand.list)}
                return ProofOutcome(cid, title, label, choice.label, "proven", LARGEST_METHOD,
                                    seconds, f"largest {value}",
                                    example=format_example(shown))

            yield guarded(cid, title, label, choice.label, body)


# (hokum?, readings) -> the largest project value of one hand, for score-bounds.
_PER_HAND_CACHE: dict[tuple[bool, tuple[tuple[str, str], ...]], int] = {}


class _Shared:
    """One translation for all the reading choices of a contract: the variants on
    which the choices differ stay symbolic (a z3 If over the reading in force),
    and each choice adds `reading == r` for them."""

    def __init__(self, spec: m.Spec, c: Contract, choices: list[ReadingChoice]) -> None:
        self.spec, self.c = spec, c
        self.varied = sorted({v for ch in choices for v in ch.readings
                              if len({x.readings.get(v) for x in choices}) > 1})
        self.fixed = {v: r for v, r in (choices[0].readings if choices else {}).items()
                      if v not in self.varied}
        self._built: tuple[Universe, Declarations, z3.ArithRef] | None = None

    def get(self) -> tuple[Universe, Declarations, z3.ArithRef]:
        if self._built is None:
            spec, c = self.spec, self.c
            u = Universe(spec)
            t = Translator(spec, self.fixed, universe=u)
            d = Declarations(spec, t, c)
            total = z3.If(d.d1, _value(spec, t, c, d.p1), 0) + \
                z3.If(d.d2, _value(spec, t, c, d.p2), 0)
            if c.hokum and any(r.name == "baloot_counts" for r in spec.rules):
                total = total + _baloot_value(spec, t, c, d)
            self._built = (u, d, total)
        return self._built

    def pick(self, choice: ReadingChoice) -> list[z3.BoolRef]:
        u = self.get()[0]
        return [u.reading_is(v, choice.readings[v]) for v in self.varied]


def _baloot_value(spec: m.Spec, t: Translator, c: Contract, d: Declarations) -> z3.ArithRef:
    """Baloot's value when the hand holds the trump king and queen and baloot counts."""
    assert c.trump is not None
    u = t.u
    pair_cards = [SRecord("Card", (("rank", u.member(r)), ("suit", u.member(c.trump))))
                  for r in ("king", "queen")]
    order = [f.name for f in spec.record("Card").fields]
    pair_cards = [SRecord("Card", tuple(sorted(x.fields, key=lambda f: order.index(f[0]))))
                  for x in pair_cards]
    pair = SList(tuple((TRUE, x) for x in pair_cards))
    holds = and_(*[or_(*[and_(h, equal(x, card)) for h, x in d.hand.list.items])
                   for card in pair_cards])
    counts = t.call("baloot_counts", [d.round2, z3.IntVal(0), pair]).value
    assert isinstance(counts, z3.BoolRef)
    kind = u.member("baloot")
    value = t.call("project_value", [kind, mode_member(spec, c)]).value
    assert isinstance(value, z3.ArithRef)
    return z3.If(z3.And(holds, counts), value, 0)


LARGEST_METHOD = "z3 (a hand at the largest value, and none above it)"


def largest(total: z3.ArithRef, constraints: list[z3.BoolRef], guess: int | None
            ) -> tuple[int, z3.ModelRef] | None:
    """The largest value of `total` under `constraints`, and a model reaching it; None
    when z3 gives up. The value is proven by two answers: a model reaching it, and no
    model above it. `guess` (the largest value under the previous choice of readings,
    which most choices share) is tried first; without one, or when no model reaches it,
    z3's optimizer finds the value. From there each model above the value found raises
    it, until none is left."""
    solver = proving_solver()
    solver.set("rlimit", Z3_RLIMIT)
    solver.add(*constraints)
    best: tuple[int, z3.ModelRef] | None = None
    if guess is not None:
        answer, best = _at_least(solver, total, guess)
        if answer == z3.unknown:
            return None
    if best is None:
        best = _maximize(total, constraints)
        if best is None:
            return None
    while True:
        answer, above = _at_least(solver, total, best[0] + 1)
        if answer == z3.unsat:
            return best
        if above is None:
            return None
        best = above


def _at_least(solver: z3.Solver, total: z3.ArithRef, bound: int
              ) -> tuple[z3.CheckSatResult, tuple[int, z3.ModelRef] | None]:
    """z3's answer to `total >= bound`, with a model and its value when there is one."""
    solver.push()
    try:
        solver.add(total >= bound)
        answer = solver.check()
        if answer != z3.sat:
            return answer, None
        model = solver.model()
        return answer, (int(model.eval(total, model_completion=True).as_long()), model)
    finally:
        solver.pop()


def _maximize(total: z3.ArithRef, constraints: list[z3.BoolRef]
              ) -> tuple[int, z3.ModelRef] | None:
    """z3's optimizer: the largest value of `total`, and a model reaching it."""
    opt = z3.Optimize()
    opt.set("rlimit", Z3_RLIMIT)
    opt.add(*constraints)
    handle = opt.maximize(total)
    if opt.check() != z3.sat:
        return None
    value = opt.upper(handle)
    model = opt.model()
    return int(model.eval(total, model_completion=True).as_long()) if value is not None \
        else 0, model


def check_four_aces(spec: m.Spec) -> Iterator[ProofOutcome]:
    """Four aces are a four hundred in sun, and only in sun."""
    cid = "four-aces"
    title = ("four aces are a four hundred in sun, and four of any rank is a four hundred "
             "only as four aces in sun (PROJ.5, PROJ.6)")
    try:
        rule = need_rule(spec, "four_of_a_kind_project")
    except Missing as err:
        yield ProofOutcome(cid, title, "any", "any", "not-checked", "-", 0.0, str(err))
        return
    for c in contracts(spec):
        for choice in reading_choices(spec, [rule], focus="aces_in_hokum"):
            def body(c: Contract = c, choice: ReadingChoice = choice) -> ProofOutcome:
                u = Universe(spec)
                t = Translator(spec, choice.readings, universe=u)
                rank = u.fresh("Rank", "rank")
                got = t.call(rule, [rank, mode_member(spec, c)]).value
                four_hundred = equal(got, u.member(member_like(
                    spec, "ProjectKind", "four_hundred", "four_hundred_project")))
                is_ace = equal(rank, u.member("ace"))
                claim = four_hundred == and_(is_ace, z3.BoolVal(not c.hokum))
                proof: Proof = prove(u, claim, [], {"rank": rank, "project": got})
                expected = choice.readings.get("aces_in_hokum") == "four_hundred" and c.hokum
                out = _outcome(cid, title, c.label, choice.label, proof,
                               "four hundred exactly for four aces in sun" if not c.hokum
                               else "never a four hundred in hokum",
                               expected_refuted=expected)
                if expected and out.status == "expected-refuted":
                    out.detail = ("by design of the A22 reading four_hundred (400 in hokum too): "
                                  + out.detail)
                return out

            yield guarded(cid, title, c.label, choice.label, body)


_ = count  # re-exported helpers used by callers
