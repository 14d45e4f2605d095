"""The invariants `baloot verify` proves with z3, from the spec model.

Every figure a check compares with is stated in the check's title, in our
words; every value the proof uses (card values, orders, constants, the
conversion and scoring rules) is read from the model through the symbolic
translator, so a change to a table or an order changes what is proven.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import z3

from ..backends.symbolic import (
    FALSE,
    NONE,
    TRUE,
    SEnum,
    SList,
    SOpt,
    SRecord,
    Translator,
    Universe,
    Value,
)
from ..grammar import model as m
from .proof_outcome import (
    Missing,
    ProofOutcome,
    format_example,
    guarded,
    hooked_rule,
    need_const,
    need_rule,
    prove,
    timed,
    variants_reached,
)


@dataclass(frozen=True)
class Contract:
    """A contract as the checks see it: sun, or hokum with a trump suit."""

    label: str
    trump: str | None  # a member of the suit enum

    @property
    def hokum(self) -> bool:
        return self.trump is not None

    def of_mode(self, mode: str | None) -> bool:
        """Whether the contract is of `mode` ("sun" or "hokum"); every contract is of None
        (the checks that run one task per mode take it)."""
        return mode is None or self.hokum == (mode == "hokum")


def suit_enum(spec: m.Spec) -> m.Enum:
    """The enum of the Card record's `suit` field."""
    try:
        card = spec.record("Card")
    except StopIteration:
        raise Missing("the spec has no record 'Card' (yet)") from None
    field = next((f for f in card.fields if f.name == "suit"), None)
    if field is None or not isinstance(field.type, m.PlainType):
        raise Missing("the record Card has no field 'suit' of an enum type")
    return spec.enum(field.type.name)


def contracts(spec: m.Spec) -> list[Contract]:
    """Sun, and hokum in each suit of the spec."""
    try:
        suits = suit_enum(spec).members
    except (Missing, StopIteration):
        return [Contract("sun", None)]
    return [Contract("sun", None)] + [
        Contract(f"hokum {s.notation or s.name}", s.name) for s in suits]


def trump_value(u: Universe, c: Contract) -> Value:
    return NONE if c.trump is None else SOpt(FALSE, u.member(c.trump))


def _card(u: Universe, name: str, constraints: list[z3.BoolRef]) -> SRecord:
    v = u.fresh("Card", name, constraints=constraints)
    assert isinstance(v, SRecord)
    return v


def _field(r: Value, name: str) -> Value:
    assert isinstance(r, SRecord)
    v = r.get(name)
    if v is None:
        raise Missing(f"the record {r.record} has no field {name!r}")
    return v


# ------------------------------------------------------------- deck bunts --

Check = Callable[[m.Spec], Iterator[ProofOutcome]]


def _deck_total(t: Translator, spec: m.Spec, c: Contract) -> z3.ArithRef:
    trump = trump_value(t.u, c)
    deck_bunts = hooked_rule(spec, "deck_bunts")
    if deck_bunts is not None:
        value = t.call(deck_bunts, [trump]).value
    else:
        value_rule = need_rule(spec, "card_value")
        deck = t.call(need_rule(spec, "full_deck"), []).value
        assert isinstance(deck, SList)
        value = z3.Sum(*[z3.If(g, t.call(value_rule, [card, trump]).value, 0)
                         for g, card in deck.items])
    assert isinstance(value, z3.ArithRef)
    return value


def check_deck_bunts(spec: m.Spec) -> Iterator[ProofOutcome]:
    """The card bunts of the 32 cards, and with the last trick's bonus."""
    for c in contracts(spec):
        for with_bonus in (False, True):
            if with_bonus:
                expected = 162 if c.hokum else 130
                cid = "deck-bunts+last"
                title = ("the round's bunts, the last-trick bonus included, total 130 in sun "
                         "and 162 in hokum (SCORE.2-4; the design brief's '162 plus the bonus' "
                         "counts the bonus twice)")
            else:
                expected = 152 if c.hokum else 120
                cid = "deck-bunts"
                title = ("the card bunts of the deck total 120 in sun and 152 in hokum "
                         "(SCORE.3, SCORE.4)")

            def body(c: Contract = c, with_bonus: bool = with_bonus,
                     expected: int = expected, cid: str = cid, title: str = title) -> ProofOutcome:
                u = Universe(spec)
                t = Translator(spec, universe=u)
                total = _deck_total(t, spec, c)
                if with_bonus:
                    bonus = need_const(spec, "last_trick_bonus", "last_trick_bunts",
                                       citing="SCORE.2")
                    total = total + bonus.value
                proof = prove(u, total == expected, [], {"total": total})
                return _outcome(cid, title, c.label, "any", proof,
                                f"total {expected}", "z3 (unrolled over the deck)",
                                refuted=f"the total is {proof.counterexample.get('total')}, "
                                        f"not {expected}")

            yield guarded(cid, title, c.label, "any", body)


def _outcome(cid: str, title: str, contract: str, readings: str, proof: object,
             proven_detail: str, method: str = "z3", refuted: str | None = None,
             expected_refuted: bool = False) -> ProofOutcome:
    from .proof_outcome import Proof

    assert isinstance(proof, Proof)
    if proof.unknown:
        return ProofOutcome(cid, title, contract, readings, "error", method, proof.seconds,
                       f"z3 gave up: {proof.counterexample.get('z3')}")
    if proof.proven:
        return ProofOutcome(cid, title, contract, readings, "proven", method, proof.seconds,
                       proven_detail)
    detail = refuted or f"counterexample: {format_example(proof.counterexample)}"
    if refuted:
        detail += f" ({format_example(proof.counterexample)})"
    return ProofOutcome(cid, title, contract, readings,
                   "expected-refuted" if expected_refuted else "refuted", method,
                   proof.seconds, detail, dict(proof.counterexample))


# ------------------------------------------------------------------ orders --


def check_rank_orders(spec: m.Spec) -> Iterator[ProofOutcome]:
    """Each order is a strict total order of its enum (irreflexive, transitive, total)."""
    for order in spec.orders:
        cid = f"rank-order:{order.name}"
        title = (f"{order.name} is a strict total order of {order.over} "
                 "(irreflexive, transitive, total)")

        def body(order: m.Order = order, cid: str = cid, title: str = title) -> ProofOutcome:
            u = Universe(spec)
            members = spec.enum(order.over).member_names
            listed = [x.name for x in order.high_to_low]
            with timed() as elapsed:
                # `order[x]` is the strength: the number of members listed below x.
                # A member the order does not list has no strength: it is below nothing
                # and above nothing, and totality fails for it.
                sort = u.enum_sort(order.over)
                rank = z3.Function(f"{order.name}.position", sort, z3.IntSort())
                axioms = [rank(u.member(n).term) == (len(listed) - 1 - listed.index(n)
                                                     if n in listed else -1)
                          for n in members]
                x, y, z = (z3.Const(f"{v}", sort) for v in "xyz")

                def beats(a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
                    return z3.And(rank(a) >= 0, rank(b) >= 0, rank(a) > rank(b))

                claim = z3.And(
                    z3.Not(beats(x, x)),
                    z3.Implies(z3.And(beats(x, y), beats(y, z)), beats(x, z)),
                    z3.Implies(x != y, z3.Or(beats(x, y), beats(y, x))),
                )
                shown = {"x": SEnum(order.over, x), "y": SEnum(order.over, y),
                         "z": SEnum(order.over, z)}
                proof = prove(u, claim, axioms, shown)
                proof.seconds = elapsed()
            return _outcome(cid, title, "any", "any", proof,
                            f"{len(members)} members, strengths 0..{len(members) - 1}",
                            refuted=f"not a strict total order of {order.over}"
                                    + _order_problem(listed, members))

        yield guarded(cid, title, "any", "any", body)


def _order_problem(listed: list[str], members: tuple[str, ...]) -> str:
    dup = sorted({n for n in listed if listed.count(n) > 1})
    missing = [n for n in members if n not in listed]
    parts = ([f"listed twice: {', '.join(dup)}"] if dup else []) + \
            ([f"not listed: {', '.join(missing)}"] if missing else [])
    return f": {'; '.join(parts)}" if parts else ""


def check_order_values_agree(spec: m.Spec) -> Iterator[ProofOutcome]:
    """Within one suit, a card that ranks higher in a trick is never worth fewer bunts."""
    cid = "rank-vs-value"
    title = ("within a suit, a card ranking higher in tricks is never worth fewer bunts "
             "(SETUP.6-7 against SCORE.3-4)")
    for c in contracts(spec):
        def body(c: Contract = c) -> ProofOutcome:
            u = Universe(spec)
            t = Translator(spec, universe=u)
            strength_rule = need_rule(spec, "trick_strength")
            value_rule = need_rule(spec, "card_value")
            cons: list[z3.BoolRef] = []
            a, b = _card(u, "a", cons), _card(u, "b", cons)
            trump = trump_value(u, c)
            sa, sb = (t.call(strength_rule, [x, trump]).value for x in (a, b))
            va, vb = (t.call(value_rule, [x, trump]).value for x in (a, b))
            assert isinstance(sa, z3.ArithRef) and isinstance(sb, z3.ArithRef)
            assert isinstance(va, z3.ArithRef) and isinstance(vb, z3.ArithRef)
            from ..backends.symbolic import equal
            same_suit = equal(_field(a, "suit"), _field(b, "suit"))
            claim = z3.Implies(z3.And(same_suit, sa > sb), va >= vb)
            proof = prove(u, claim, cons, {"higher": a, "lower": b, "its value": va,
                                           "lower's value": vb})
            return _outcome(cid, title, c.label, "any", proof, "every pair of cards")

        yield guarded(cid, title, c.label, "any", body)


# ------------------------------------------------------------------ tricks --


def check_trick_winner(spec: m.Spec) -> Iterator[ProofOutcome]:
    """Every trick of four distinct cards has exactly one winner, the one the spec names."""
    cid = "trick-winner"
    title = ("every trick of four distinct cards has exactly one winner (PLAY.3), and the "
             "spec's trick_winner names it")
    for c in contracts(spec):
        def body(c: Contract = c) -> ProofOutcome:
            u = Universe(spec)
            t = Translator(spec, universe=u)
            winner_rule = need_rule(spec, "trick_winner")
            strength_rule = need_rule(spec, "trick_strength")
            trump_rule = need_rule(spec, "is_trump")
            cons: list[z3.BoolRef] = []
            cards = [_card(u, f"card{i}", cons) for i in range(4)]
            from ..backends.symbolic import equal
            cons += [z3.Not(equal(x, y)) for x, y in itertools.combinations(cards, 2)]
            trump = trump_value(u, c)
            led = _field(cards[0], "suit")
            # The reference model of PLAY.3, from the spec's own is_trump and
            # trick_strength: a trump beats any non-trump, a card of the led suit
            # beats a card of a third suit, and within a class the stronger wins.
            klass = []
            strength = []
            for card in cards:
                is_t = t.call(trump_rule, [card, trump]).value
                assert isinstance(is_t, z3.BoolRef)
                klass.append(z3.If(is_t, 2, z3.If(equal(_field(card, "suit"), led), 1, 0)))
                s = t.call(strength_rule, [card, trump]).value
                assert isinstance(s, z3.ArithRef)
                strength.append(s)

            def beats(i: int, j: int) -> z3.BoolRef:
                return z3.Or(klass[i] > klass[j],
                             z3.And(klass[i] == klass[j], klass[i] > 0,
                                    strength[i] > strength[j]))

            tops = [z3.And(*[beats(i, j) for j in range(4) if j != i]) for i in range(4)]
            exactly_one = z3.Sum(*[z3.If(x, 1, 0) for x in tops]) == 1
            plays = _plays(spec, u, cards)
            got = t.call(winner_rule, [plays, trump]).value
            assert isinstance(got, z3.ArithRef)
            names_it = z3.And(*[z3.Implies(tops[i], got == i) for i in range(4)])
            proof = prove(u, z3.And(exactly_one, names_it), cons,
                          {"cards (seats 0-3, seat 0 leads)": SList(tuple((TRUE, x)
                                                                           for x in cards)),
                           "spec's winner": got})
            return _outcome(cid, title, c.label, "any", proof,
                            "all 32*31*30*29 tricks",
                            method="z3 (winner model: class then trick_strength)")

        yield guarded(cid, title, c.label, "any", body)


def _plays(spec: m.Spec, u: Universe, cards: list[SRecord]) -> SList:
    """Four plays by seats 0..3 in order, as the `plays` argument of trick_winner."""
    rule = spec.rule(need_rule(spec, "trick_winner"))
    param = rule.params[0].type
    if isinstance(param, m.ListType) and isinstance(param.item, m.PlainType) \
            and param.item.name != "Card":
        rec = spec.record(param.item.name)
        items = []
        for seat, card in enumerate(cards):
            fields: list[tuple[str, Value]] = []
            for f in rec.fields:
                if f.name == "card":
                    fields.append((f.name, card))
                elif f.name == "seat":
                    fields.append((f.name, z3.IntVal(seat)))
                else:
                    raise Missing(f"trick_winner's {rec.name} has a field {f.name!r} the "
                                  "check does not know")
            items.append((TRUE, SRecord(rec.name, tuple(fields))))
        return SList(tuple(items))
    return SList(tuple((TRUE, x) for x in cards))


CHECKS: list[tuple[str, Check]] = [
    ("deck-bunts", check_deck_bunts),
    ("rank-order", check_rank_orders),
    ("rank-vs-value", check_order_values_agree),
    ("trick-winner", check_trick_winner),
]


# ------------------------------------------------------------ readings ----


@dataclass(frozen=True)
class ReadingChoice:
    """A choice of readings for the variants a check consults, and its label."""

    label: str
    readings: dict[str, str]


def reading_choices(spec: m.Spec, rules: list[str], focus: str | None = None,
                    sweep: bool = False) -> list[ReadingChoice]:
    """The distinct choices, over the variants `rules` consult, that matter.

    Every profile's choice; plus every reading of `focus` (or, with `sweep`, of
    every consulted variant), the other variants as in the first profile. Each
    label names the readings that differ and the profiles that make that choice.
    """
    consulted = variants_reached(spec, rules)
    if not consulted:
        return [ReadingChoice("any (no variant consulted)", {})]
    if not spec.profiles:
        return [ReadingChoice("(no profile)", {})]
    base = spec.profiles[0].readings()
    choices: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for p in spec.profiles:
        picks = p.readings()
        key = tuple((v, picks[v]) for v in consulted)
        choices.setdefault(key, []).append(p.name)
    varied = consulted if sweep else [v for v in consulted if v == focus]
    for name in varied:
        for r in spec.variant(name).reading_names:
            key = tuple((v, r if v == name else base[v]) for v in consulted)
            choices.setdefault(key, [])
    out = []
    for key, profiles in choices.items():
        # The whole choice: a profile's readings (or the first profile's), with
        # the readings of the key; rules the check calls besides `rules` see them.
        picks = {**(spec.profile(profiles[0]).readings() if profiles else base), **dict(key)}
        if profiles:
            differ = [f"{v}={r}" for v, r in key
                      if v == focus or any(p.readings()[v] != r for p in spec.profiles)]
            label = ", ".join(profiles) + (f": {', '.join(differ)}" if differ else "")
        else:
            differ = [f"{v}={r}" for v, r in key if base[v] != r]
            label = f"{', '.join(differ)} (else {spec.profiles[0].name})"
        out.append(ReadingChoice(label, picks))
    return out


def mode_enum(spec: m.Spec) -> m.Enum:
    """The enum of the two kinds of contract: the one with members `sun` and `hokum`."""
    for e in spec.enums:
        if {"sun", "hokum"} <= set(e.member_names):
            return e
    raise Missing("the spec has no enum with members 'sun' and 'hokum' (yet)")


def mode_member(spec: m.Spec, c: Contract) -> Value:
    """The member of the contract-kind enum for a contract: `sun` or `hokum`."""
    mode_enum(spec)
    return Universe(spec).member("hokum" if c.hokum else "sun")


def round_total(t: Translator, spec: m.Spec, c: Contract) -> z3.ArithRef:
    """All the bunts of a round (cards and last trick), from the spec."""
    trump = trump_value(t.u, c)
    round_bunts = hooked_rule(spec, "round_bunts")
    if round_bunts is not None:
        v = t.call(round_bunts, [trump]).value
        assert isinstance(v, z3.ArithRef)
        return v
    bonus = need_const(spec, "last_trick_bonus", citing="SCORE.2")
    return _deck_total(t, spec, c) + bonus.value


def _pair(v: Value) -> tuple[z3.ArithRef, z3.ArithRef]:
    assert isinstance(v, SList) and len(v.items) == 2, "expected a per-team pair"
    a, b = v.items[0][1], v.items[1][1]
    assert isinstance(a, z3.ArithRef) and isinstance(b, z3.ArithRef)
    return a, b


def check_points_sum(spec: m.Spec) -> Iterator[ProofOutcome]:
    """Converted points of the two teams total 26 (sun) / 16 (hokum), under each rounding."""
    cid = "points-sum"
    title = ("the two teams' converted points total 26 in sun and 16 in hokum, before "
             "projects and raises, for every split of the round's bunts (SCORE.7-8, SCORE.10)")
    try:
        rule = need_rule(spec, "convert_pair")
    except Missing as err:
        yield ProofOutcome(cid, title, "any", "any", "not-checked", "-", 0.0, str(err))
        return
    choices = reading_choices(spec, [rule], focus="rounding")
    # Which readings make the sum hold, per mode: to say what repairs a refutation.
    holds: dict[tuple[bool, str], bool] = {}
    pending: list[tuple[Contract, ReadingChoice, ProofOutcome]] = []
    for c in contracts(spec):
        for choice in choices:
            def body(c: Contract = c, choice: ReadingChoice = choice) -> ProofOutcome:
                u = Universe(spec)
                t = Translator(spec, choice.readings, universe=u)
                expected = 16 if c.hokum else 26
                total = round_total(t, spec, c)
                b0, b1 = z3.Int("bunts_team0"), z3.Int("bunts_team1")
                bidder = z3.Int("bidder_team")
                got = t.call(rule, [mode_member(spec, c), SList(((TRUE, b0), (TRUE, b1))),
                                    bidder]).value
                p0, p1 = _pair(got)
                cons = [b0 >= 0, b1 >= 0, b0 + b1 == total, z3.Or(bidder == 0, bidder == 1)]
                proof = prove(u, p0 + p1 == expected, cons, {})
                if not proof.proven and not proof.unknown:
                    # The clearest witness: the most even split, team 0 the lower.
                    from .proof_outcome import find
                    found = find(u, p0 + p1 != expected, [*cons, b0 <= b1],
                                 {"bunts": SList(((TRUE, b0), (TRUE, b1))),
                                  "bidder team": bidder,
                                  "points": got},
                                 minimize=b1 - b0)
                    proof.counterexample = found or proof.counterexample
                return _outcome(cid, title, c.label, choice.label, proof,
                                f"always {expected}", method="z3 (all splits)")

            outcome = guarded(cid, title, c.label, choice.label, body)
            holds[(c.hokum, choice.label)] = holds.get((c.hokum, choice.label), True) and \
                outcome.status == "proven"
            pending.append((c, choice, outcome))
    for c, choice, outcome in pending:
        if outcome.status == "refuted":
            repairs = [ch.label for ch in choices if holds.get((c.hokum, ch.label))]
            outcome.status = "expected-refuted"
            points = outcome.counterexample.get("points")
            outcome.detail = (
                f"known defect of the page (A5): {format_example(outcome.counterexample)}"
                + (f", {sum(points)} points" if isinstance(points, list) else "")
                + f"; repaired by: {'; '.join(repairs) if repairs else 'no reading'}")
            if choice.readings.get("rounding") != "each_team":
                outcome.status = "refuted"  # only the literal reading is a known defect
        yield outcome


CHECKS += [("points-sum", check_points_sum)]
