"""`baloot explore`: for each variant and each pair of its readings, a concrete
situation where the two readings part, or a proof that none exists.

Two searches, both from the spec:

- symbolic (z3): every rule that consults the variant (`choose` or `is`) and
  whose parameters are numbers, enums and records of those (lists of numbers
  taken as per-team pairs) is translated under each reading; z3 looks for
  arguments on which the two translations differ, the smallest it can
  (numbers bounded by what they stand for, from the parameter's name). When
  no such arguments exist for any rule, and the spec gives the readings the
  same branch everywhere it consults the variant, the readings are equal.
- the generated engine: seeded deals (half of them stacked so that one hand
  holds a four of a kind, a long run or the king and queen of a suit, which
  the project readings need) are played under both readings side by side,
  with the same actions, until the legal actions, the visible state or the
  round result differ; the shortest such action sequence is kept and becomes
  a pair of conformance cases, one per reading.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3
from rich.console import Console
from rich.table import Table

from baloot.conformance.harness.pack import case_from_json
from baloot.conformance.harness.schemas import state_fields
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools.case_needs import annotated, case_needs
from baloot.conformance.pack_tools.pins_fix import with_minimal_requires
from baloot.grammar import model as m
from baloot.grammar.walk import walk_body
from baloot.proofs.proof_outcome import format_example
from baloot.proofs.symbolic import SList, TranslationError, Translator, Universe, Value, equal, lit

# ------------------------------------------------------------------ findings --


@dataclass
class SymbolicWitness:
    rule: str
    args: dict[str, object]
    value_a: object
    value_b: object


@dataclass
class EngineWitness:
    kind: str  # legal | state | round
    dealer: int
    deck: list[str]
    totals: list[int] | None
    actions: list[str]
    outcome_a: dict[str, Any]
    outcome_b: dict[str, Any]
    requires_a: dict[str, str] = field(default_factory=dict)
    requires_b: dict[str, str] = field(default_factory=dict)
    redeal: list[str] | None = None  # the second deal, when the witness follows a redeal


@dataclass
class Finding:
    variant: str
    variant_id: str
    a: str
    b: str
    symbolic: list[SymbolicWitness] = field(default_factory=list)
    symbolic_note: str = ""  # "equal", or why some rules were not translated
    same_branch: bool = False  # every choose/is of the variant treats a and b alike
    engine: EngineWitness | None = None
    engine_note: str = ""
    seconds: float = 0.0

    @property
    def verdict(self) -> str:
        if self.engine is not None or self.symbolic:
            return "witness found"
        if self.same_branch:
            return "proven equal"
        return "no witness found"


# ---------------------------------------------------------------- symbolic --


def consulting_rules(spec: m.Spec, variant: str) -> list[m.Rule]:
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


LIST_BOUND = 4  # the most items a list inside a symbolic record may have
HAND_BOUND = 8  # the most items a list argument may have


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
    name = f"{p.name}"
    t = p.type
    if isinstance(t, m.ListType) and isinstance(t.item, m.PlainType) and t.item.name == "int":
        lo, hi = _int_domain(p.name)
        items = [z3.Int(f"{name}[{i}]") for i in range(2)]  # per-team pairs
        for x in items:
            constraints += [x >= lo, x <= hi]
            ints.append(x)
        return SList(tuple((z3.BoolVal(True), x) for x in items))
    # records (a whole game state) are made lazily: only the fields the rule reads,
    # lists inside them of at most a few items; a list argument of up to a hand
    bound = HAND_BOUND if isinstance(t, m.ListType) else LIST_BOUND
    v = u.fresh(t, name, constraints=constraints, list_len=bound, lazy=True)
    if isinstance(v, z3.ArithRef):
        lo, hi = _int_domain(p.name)
        constraints += [v >= lo, v <= hi]
        ints.append(v)
    return v


def _realistic(spec: m.Spec, rule: m.Rule, args: list[Value], opt: z3.Optimize,
               ints: list[z3.ArithRef]) -> z3.ArithRef | None:
    """What to minimize for a readable witness; a per-team pair of bunts is made a
    split of the whole round (from the spec's deck and last-trick totals), as even
    as it can be, the lower first."""
    from baloot.proofs.invariants import Contract, mode_enum, round_total, suit_enum

    pairs: list[tuple[z3.ArithRef, z3.ArithRef]] = []
    mode: Value | None = None
    try:
        mode_name = mode_enum(spec).name
    except Exception:
        mode_name = ""
    for p, x in zip(rule.params, args, strict=True):
        if isinstance(p.type, m.PlainType) and p.type.name == mode_name:
            mode = x
    for p, x in zip(rule.params, args, strict=True):
        if "bunts" in p.name and isinstance(x, SList) and len(x.items) == 2 and mode is not None:
            b0, b1 = x.items[0][1], x.items[1][1]
            assert isinstance(b0, z3.ArithRef) and isinstance(b1, z3.ArithRef)
            try:
                t = Translator(spec)
                sun = round_total(t, spec, Contract("sun", None))
                hokum = round_total(t, spec, Contract("hokum", suit_enum(spec).members[0].name))
            except Exception:
                continue
            u = Universe(spec)
            is_sun = equal(mode, u.member("sun"))
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
        except (AssertionError, z3.Z3Exception) as err:
            skipped.append(f"{rule.name} ({type(err).__name__})")
            continue
        opt = z3.Optimize()
        opt.set("timeout", 5_000)
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
        notes.append("z3 gave up in time on: " + "; ".join(undecided))
    return found, "; ".join(notes)


# ------------------------------------------------------------------ engine --

# The state fields every engine must send (PROTOCOL.md): a witness seen only in an optional
# field (`locked`, `declarations`...) would check nothing on an engine that leaves it out.
VISIBLE: tuple[str, ...] = state_fields()[0]
RESULT_KEYS = ("contract", "multiplier", "card_bunts", "last_trick_bunts", "projects", "points",
               "success", "kaboot", "added", "totals", "game_over", "winner")


def _rt() -> Any:
    from baloot.reference_impl import runtime

    return runtime


def _all_cards() -> list[str]:
    ranks = ["7", "8", "9", "10", "J", "Q", "K", "A"]
    return [r + s for s in "SHDC" for r in ranks]


def _deal(rng: random.Random) -> tuple[int, list[str], int]:
    """A dealer, a deck, and the first bidder; half the decks stacked."""
    dealer = rng.randrange(4)
    first = (dealer + 1) % 4
    cards = _all_cards()
    rng.shuffle(cards)
    if rng.random() < 0.5:
        return dealer, cards, first
    ranks = ["7", "8", "9", "10", "J", "Q", "K", "A"]
    suit = rng.choice("SHDC")
    kind = rng.choice(["four", "run", "run", "kq"])
    if kind == "four":
        rank = rng.choice(["9", "A", "A", "J", "10", "K", "Q", "8"])
        pattern = [rank + s for s in "SHDC"]
    elif kind == "run":
        natural = ["A", "K", "Q", "J", "10", "9", "8", "7"]
        order = natural if rng.random() < 0.6 else ["J", "9", "A", "10", "K", "Q", "8", "7"]
        length = rng.choice([3, 5, 6, 6, 7, 8])
        start = rng.randrange(0, 9 - length)
        pattern = [r + suit for r in order[start:start + length]]
    else:
        pattern = ["K" + suit, "Q" + suit, "J" + suit]
    rest = [c for c in cards if c not in pattern]
    hand = pattern + rest[:8 - len(pattern)]
    rest = rest[8 - len(pattern):]
    # the face-up card (the taker's sixth) of the pattern's suit where possible
    same = [c for c in hand[5:] + hand[:5] if c.endswith(suit)]
    if same:
        hand.remove(same[0])
        hand.insert(5, same[0])
    others = [rest[8 * k: 8 * k + 8] for k in range(3)]
    hands: list[list[str]] = [[] for _ in range(4)]
    hands[first] = hand
    for seat, h in zip([s for s in range(4) if s != first], others, strict=True):
        hands[seat] = h
    from baloot.conformance.harness.deal_layout import deck_for_hands

    _ = ranks
    return dealer, deck_for_hands(hands, dealer, first), first


def _pick(rng: random.Random, g: Any, actions: list[str], favoured: int,
          all_pass: bool = False) -> str:
    phase = g.phase
    if phase == "bidding" and all_pass and "pass" in actions:
        return "pass"
    if phase == "bidding":
        if g.current_player == favoured:
            calls = [a for a in actions if a != "pass"]
            if calls and rng.random() < 0.85:
                return rng.choice(calls)
        elif "pass" in actions and rng.random() < 0.6:
            return "pass"
    if phase == "raising":
        raises = [a for a in actions if a != "pass"]
        if raises and rng.random() < 0.6:
            return rng.choice(raises)
    if phase == "playing":
        declares = [a for a in actions if a.startswith("declare")]
        if declares and rng.random() < 0.8:
            return rng.choice(declares)
    return rng.choice(actions)


def _visible(g: Any) -> dict[str, Any]:
    """The state as the protocol shows it (the reference adapter's conversion)."""
    from baloot.conformance.adapters.reference_adapter import state_fields

    shown: dict[str, Any] = state_fields(g.observation())
    return {k: shown.get(k) for k in VISIBLE}


def _result(g: Any) -> dict[str, Any] | None:
    from baloot.conformance.adapters.reference_adapter import result_fields

    r: dict[str, Any] | None = result_fields(g.round_result())
    return None if r is None else {k: r.get(k) for k in RESULT_KEYS if k in r}


def _compare(ga: Any, gb: Any) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
    la, lb = sorted(ga.legal_actions()), sorted(gb.legal_actions())
    if la != lb or ga.current_player != gb.current_player:
        return ("legal", {"actions": la, "player": ga.current_player},
                {"actions": lb, "player": gb.current_player})
    ra, rb = _result(ga), _result(gb)
    if ra != rb and ra is not None and rb is not None:
        return ("round", ra, rb)
    va, vb = _visible(ga), _visible(gb)
    if va != vb:
        keys = [k for k in VISIBLE if va[k] != vb[k]]
        return ("state", {k: va[k] for k in keys}, {k: vb[k] for k in keys})
    return None


def engine_search(spec: m.Spec, variant: str, a: str, b: str, base_profile: str,
                  budget: float, seed: int) -> tuple[EngineWitness | None, str]:
    rt = _rt()
    rng = random.Random(f"{seed}:{variant}:{a}:{b}")
    start = time.perf_counter()
    best: EngineWitness | None = None
    first_found = 0.0
    trials = 0
    while True:
        elapsed = time.perf_counter() - start
        if elapsed > budget or (best is not None and elapsed > max(3 * first_found, 0.5)):
            break
        trials += 1
        dealer, deck, favoured = _deal(rng)
        totals: list[int] | None = None
        if rng.random() < 0.4:  # near the sun gate (A11), or near the target (A13, A19)
            shape = rng.randrange(3)
            if shape == 0:
                totals = [rng.randrange(90, 111), rng.randrange(90, 111)]
            elif shape == 1:
                totals = [rng.randrange(144, 152), rng.randrange(144, 152)]
            else:  # one team close, the other further: the bidder may pass it
                totals = [rng.randrange(146, 152), rng.randrange(115, 146)]
                rng.shuffle(totals)
        try:
            ga = rt.new_game(base_profile, {variant: a}, dealer=dealer, deck=deck, totals=totals)
            gb = rt.new_game(base_profile, {variant: b}, dealer=dealer, deck=deck, totals=totals)
        except Exception as err:  # a setup the engine refuses: report, stop
            return None, f"engine refused the setup: {err}"
        actions: list[str] = []
        limit = len(best.actions) if best is not None else 80
        all_pass = rng.random() < 0.1  # some deals where everyone passes twice
        while len(actions) <= limit:
            diff = _compare(ga, gb)
            if diff is not None:
                kind, oa, ob = diff
                shorter = best is None or len(actions) < len(best.actions) or (
                    len(actions) == len(best.actions) and best.totals and not totals)
                if shorter:
                    best = EngineWitness(kind, dealer, deck, totals, list(actions), oa, ob)
                    first_found = first_found or time.perf_counter() - start
                break
            if ga.phase == "deal" and gb.phase == "deal" and len(actions) < limit:
                # everyone passed twice: deal the same cards again under both readings
                redeal = _all_cards()
                rng.shuffle(redeal)
                ga.deal(redeal)
                gb.deal(redeal)
                diff = _compare(ga, gb)
                if diff is not None and (best is None or len(actions) < len(best.actions)):
                    best = EngineWitness("redeal", dealer, deck, totals, list(actions),
                                         diff[1], diff[2], redeal=redeal)
                    first_found = first_found or time.perf_counter() - start
                break
            if ga.phase not in ("bidding", "raising", "playing"):
                break
            legal = ga.legal_actions()
            if not legal:
                break
            action = _pick(rng, ga, legal, favoured, all_pass)
            ga.apply(action)
            gb.apply(action)
            actions.append(action)
    note = f"{trials} deals in {time.perf_counter() - start:.1f} s"
    return best, note


def _relevant_requires(spec: m.Spec, variant: str, reading: str, base_profile: str,
                       w: EngineWitness, outcome: dict[str, Any]) -> dict[str, str]:
    """The readings the witness depends on: the variant's, and those of every other
    variant whose change alters the replayed outcome (checked by replaying)."""
    rt = _rt()
    base = spec.profile(base_profile).readings()
    needed = {variant: reading}
    if w.kind == "redeal":
        # the case plays the whole redealt round: every variant can matter
        return dict(sorted({**base, variant: reading}.items()))
    for v in spec.variants:
        if v.name == variant:
            continue
        for r in v.reading_names:
            if r == base[v.name]:
                continue
            try:
                g = rt.new_game(base_profile, {variant: reading, v.name: r}, dealer=w.dealer,
                                deck=w.deck, totals=w.totals)
                for action in w.actions:
                    g.apply(action)
                if w.redeal is not None:
                    g.deal(w.redeal)
                got = _outcome_of(g, w.kind, outcome)
            except Exception:
                got = None
            if got != outcome:
                needed[v.name] = base[v.name]
                break
    # Under another profile, variants can interact: pin every variant on which a
    # profile differs from the base until the witness replays the same under it.
    for p in spec.profiles:
        picks = {**p.readings(), **needed}
        try:
            g = rt.new_game(p.name, needed, dealer=w.dealer, deck=w.deck, totals=w.totals)
            for action in w.actions:
                g.apply(action)
            if w.redeal is not None:
                g.deal(w.redeal)
            same = _outcome_of(g, w.kind, outcome) == outcome
        except Exception:
            same = False
        if not same:
            needed.update({v: base[v] for v, r in picks.items()
                           if r != base[v] and v != variant})
    return dict(sorted(needed.items()))


def _outcome_of(g: Any, kind: str, like: dict[str, Any]) -> dict[str, Any] | None:
    if kind == "redeal":
        vis = _visible(g)
        return {k: vis[k] for k in like} if like else vis
    if kind == "legal":
        return {"actions": sorted(g.legal_actions()), "player": g.current_player}
    if kind == "state":
        vis = _visible(g)
        return {k: vis[k] for k in like}
    return _result(g)


# ----------------------------------------------------------------- explore --


def explore(spec: m.Spec, variants: list[str] | None = None, budget: float = 30.0,
            seed: int = 1, console: Console | None = None,
            base_profile: str | None = None) -> list[Finding]:
    base_profile = base_profile or spec.profiles[0].name
    base = spec.profile(base_profile).readings()
    findings: list[Finding] = []
    for v in spec.variants:
        if variants and v.name not in variants:
            continue
        pairs = list(itertools.combinations(v.reading_names, 2))
        for a, b in pairs:
            start = time.perf_counter()
            f = Finding(v.name, v.id, a, b)
            f.same_branch = same_branch(spec, v.name, a, b)
            f.symbolic, f.symbolic_note = symbolic_search(spec, v.name, a, b, base)
            if not f.same_branch:
                try:
                    f.engine, f.engine_note = engine_search(
                        spec, v.name, a, b, base_profile, budget / max(1, len(pairs)), seed)
                except ImportError as err:
                    f.engine_note = f"the generated engine is not importable: {err}"
                if f.engine is not None:
                    f.engine.requires_a = _relevant_requires(spec, v.name, a, base_profile,
                                                             f.engine, f.engine.outcome_a)
                    f.engine.requires_b = _relevant_requires(spec, v.name, b, base_profile,
                                                             f.engine, f.engine.outcome_b)
            else:
                f.engine_note = "not searched: the spec never tells the two readings apart"
            f.seconds = time.perf_counter() - start
            if console is not None:
                console.print(f"  {v.id} {v.name}: {a} / {b}: {f.verdict} "
                              f"({f.seconds:.1f} s)", highlight=False)
            findings.append(f)
    return findings


def _short(value: object, width: int = 70) -> str:
    text = json.dumps(value, separators=(",", ":")) if not isinstance(value, str) else value
    return text if len(text) <= width else text[:width - 1] + "…"


def describe_outcome(w: EngineWitness, which: str) -> str:
    out = w.outcome_a if which == "a" else w.outcome_b
    if w.kind == "legal":
        return f"player {out.get('player')}: {_short(out.get('actions'), 60)}"
    if w.kind == "state":
        return _short(out)
    other = w.outcome_b if which == "a" else w.outcome_a
    keys = [k for k in out if out.get(k) != other.get(k)]
    return ", ".join(f"{k}={_short(out.get(k), 30)}" for k in keys)


def print_findings(console: Console, findings: list[Finding]) -> None:
    table = Table(title="Variants: where two readings part", expand=True, show_lines=True)
    for col in ("variant", "readings", "verdict", "symbolic witness (z3)", "engine witness",
                "outcome under the first", "outcome under the second"):
        table.add_column(col, ratio=2 if "outcome" in col or "witness" in col else 1)
    for f in findings:
        sym = "; ".join(f"{s.rule}({format_example(s.args)}): {_short(s.value_a, 30)} vs "
                        f"{_short(s.value_b, 30)}" for s in f.symbolic[:2]) or \
            (f.symbolic_note or "-")
        if f.engine is not None:
            w = f.engine
            eng = f"{w.kind} after {len(w.actions)} action(s), dealer {w.dealer}" + \
                (f", totals {w.totals}" if w.totals else "")
            oa, ob = describe_outcome(w, "a"), describe_outcome(w, "b")
        else:
            eng, oa, ob = f.engine_note or "-", "", ""
        style = {"witness found": "green", "proven equal": "cyan"}.get(f.verdict, "yellow")
        table.add_row(f"{f.variant_id} {f.variant}", f"{f.a}\n{f.b}",
                      f"[{style}]{f.verdict}[/]", sym, eng, oa, ob)
    console.print(table)


# ------------------------------------------------------------------ output --


def _case_id(variant: str, a: str, b: str, reading: str) -> str:
    return f"explore.{variant}.{a}-vs-{b}.{reading}".replace("_", "-").lower()


def witness_cases(spec: m.Spec, f: Finding) -> list[dict[str, Any]]:
    """Two conformance cases (one per reading) for an engine witness."""
    w = f.engine
    if w is None:
        return []
    clauses = [c.clause for c in spec.variant(f.variant).cites]
    cases = []
    for reading, outcome, requires in ((f.a, w.outcome_a, w.requires_a),
                                       (f.b, w.outcome_b, w.requires_b)):
        other = f.b if reading == f.a else f.a
        then: list[dict[str, Any]] | None = None
        if w.kind == "redeal":
            # A redeal needs a second deal, which only a game case holds: play the
            # redealt round to its end (first legal action each time) and expect
            # its result, which the changed dealer changes.
            kind = "game"
            g = _replay(spec, f.variant, reading, w, requires)
            played: list[str] = []
            while g.phase in ("bidding", "raising", "playing") and len(played) < 200:
                action = sorted(g.legal_actions())[0]
                g.apply(action)
                played.append(action)
            result = _result(g)
            if result is None:
                return []
            then = [{"deck": w.redeal, "actions": played}]
            expect: dict[str, Any] = {"result": result, "state": {}}
            expect.pop("state")
        elif w.kind == "round":
            kind = "round"
            expect = {"result": outcome}
        else:
            kind = "legal"
            legal = _outcome_of(_replay(spec, f.variant, reading, w, requires), "legal", {})
            assert legal is not None
            expect = {"actions": legal["actions"]}
            if legal.get("player") is not None:
                expect["player"] = legal["player"]
            if w.kind == "state":
                expect["state"] = outcome
        setup: dict[str, Any] = {"dealer": w.dealer, "deck": w.deck}
        if w.totals is not None:
            setup["totals"] = w.totals
        case: dict[str, Any] = {
            "id": _case_id(f.variant, f.a, f.b, reading),
            "kind": kind,
            "title": f"{f.variant_id} {f.variant}: {reading} against {other} "
                     f"(found by baloot explore)",
            "clauses": clauses,
            "origin": "witness",
            "requires": requires,
            "working": [
                f"Found by `baloot explore` (seeded search of the generated engine): the "
                f"shortest action sequence found after which the readings {f.a} and {f.b} "
                f"of {f.variant} ({f.variant_id}) differ in the {w.kind}.",
                f"Under {reading}: {describe_outcome(w, 'a' if reading == f.a else 'b')}.",
                f"Under {other}: {describe_outcome(w, 'b' if reading == f.a else 'a')}.",
            ],
            "setup": setup,
            "actions": list(w.actions),
            "expect": expect,
        }
        if then is not None:
            case["then"] = then
        cases.append(case)
    return cases


def _replay(spec: m.Spec, variant: str, reading: str, w: EngineWitness,
            requires: dict[str, str]) -> Any:
    rt = _rt()
    g = rt.new_game(spec.profiles[0].name, {**requires, variant: reading}, dealer=w.dealer,
                    deck=w.deck, totals=w.totals)
    for action in w.actions:
        g.apply(action)
    if w.redeal is not None:
        g.deal(w.redeal)
    return g


def default_cases_folder() -> Path:
    from importlib import resources

    return Path(str(resources.files("baloot.conformance"))) / "cases" / "variants"


def default_notes_file() -> Path:
    from importlib import resources

    return Path(str(resources.files("baloot.conformance"))) / "ambiguities.md"


CASE_FILE = "explored.json"


def write_findings(spec: m.Spec, findings: list[Finding], cases_folder: Path | None,
                   notes_file: Path | None) -> list[Path]:
    from baloot.conformance.harness.schemas import schema_errors

    cases_folder = cases_folder or default_cases_folder()
    notes_file = notes_file or default_notes_file()
    written: list[Path] = []
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for f in findings:
        by_variant.setdefault(f.variant, []).extend(witness_cases(spec, f))
    register = load_register()
    for variant, found in by_variant.items():
        path = cases_folder / variant / CASE_FILE
        # minimal pins (pins_fix.py), the seat of each action and the capabilities each case
        # needs (case_needs.py)
        label = f"variants/{variant}/{CASE_FILE}"
        pinned = [with_minimal_requires(c, label, register) for c in found]
        cases = [annotated(c, case_needs(case_from_json(c, label), register)) for c in pinned]
        if not cases:
            if path.exists():
                path.unlink()
            continue
        data = {"description": f"Witnesses that separate the readings of {variant}, found "
                               "by `baloot explore` (regenerate with it; do not edit).",
                "cases": cases}
        errors = schema_errors("case-file", data)
        if errors:
            raise ValueError(f"explore made cases the schema rejects: {errors[:3]}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    # The notes cover every variant: a run over some of them leaves the file alone.
    if {f.variant for f in findings} >= {v.name for v in spec.variants}:
        notes_file.write_text(ambiguities_markdown(spec, findings), encoding="utf-8")
        written.append(notes_file)
    return written


def ambiguities_markdown(spec: m.Spec, findings: list[Finding]) -> str:
    lines = [
        "# Ambiguities of the rules page, and what each reading changes",
        "",
        "Generated by `baloot explore` from the spec (`spec/variants.baloot` and the rules",
        "that consult each variant); do not edit by hand. For each ambiguity: the clauses",
        "it concerns, its readings, and for each pair of readings a minimal witness.",
        "A *symbolic* witness is the smallest input z3 finds on which a rule that",
        "consults the variant gives different values; an *engine* witness is the shortest",
        "action sequence found, from a seeded deal, after which the generated engine's",
        "legal actions, visible state or round result differ. Engine witnesses are also",
        "conformance cases in `conformance/cases/variants/<variant>/explored.json`.",
        "",
    ]
    for v in spec.variants:
        lines += [f"## {v.id} {v.name}: {v.doc}", ""]
        for c in v.cites:
            lines.append(f"- **{c.clause}**: {spec.clause(c.clause).text}")
        lines.append("")
        lines.append("Readings:")
        lines.append("")
        for r in v.readings:
            default = " (default)" if r.name == v.default else ""
            lines.append(f"- `{r.name}`{default}: {r.text} *Source: {r.source}.*")
        lines.append("")
        mine = [f for f in findings if f.variant == v.name]
        if not mine:
            lines += ["Not explored in this run.", ""]
            continue
        for f in mine:
            lines.append(f"### `{f.a}` / `{f.b}`: {f.verdict}")
            lines.append("")
            for s in f.symbolic:
                lines.append(f"- symbolic: `{s.rule}({format_example(s.args)})` gives "
                             f"`{_short(s.value_a, 200)}` under `{f.a}` and "
                             f"`{_short(s.value_b, 200)}` under `{f.b}`.")
            if f.symbolic_note:
                lines.append(f"- z3: {f.symbolic_note}.")
            if f.same_branch:
                lines.append("- every `choose` on this variant gives the two readings the "
                             "same branch and no rule tests either by name: no situation "
                             "can tell them apart (proven from the spec's text).")
            if f.engine is not None:
                w = f.engine
                totals = f", starting totals {w.totals}" if w.totals else ""
                lines.append(f"- engine: dealer {w.dealer}{totals}, deck "
                             f"`{' '.join(w.deck)}`, after {len(w.actions)} action(s)"
                             + (f" (`{' / '.join(w.actions)}`)" if w.actions else "")
                             + f", the {w.kind} differs:")
                lines.append(f"  - under `{f.a}`: {describe_outcome(w, 'a')}")
                lines.append(f"  - under `{f.b}`: {describe_outcome(w, 'b')}")
                lines.append(f"  - cases `{_case_id(f.variant, f.a, f.b, f.a)}` and "
                             f"`{_case_id(f.variant, f.a, f.b, f.b)}`.")
            elif f.engine_note:
                lines.append(f"- engine: {f.engine_note}.")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


_ = lit
