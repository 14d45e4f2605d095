"""Score bounds: the most and fewest points a team can add in one round.

The spec's `score_round` is translated as it stands, with the parts that
need a whole play abstracted to free values that z3 ranges over:

- `team_card_bunts`: any split of the deck's bunts (from the spec's tables)
  between the two teams; `last_trick_team`: either team; `kaboot_team`: none,
  or a team that then holds every card bunt and the last trick;
  `bid_winner_held_an_ace` and `bid_winner_at_dealer_right` (the reverse kaboot,
  A27): either;
- `scoring_projects_of` / `team_project_value` / `team_baloot_value`: each team's
  project value is anything from 0 to twice the largest one hand can hold
  (the `projects-max` result for the same readings: an over-approximation,
  since two partners cannot both hold, say, four aces); baloot is 0 or its
  value for at most one team, in hokum only;
- the raise level: any level the spec's `next_raise_allowed` lets the raising
  reach for the contract, with its `raise_multiplier`; the face-up card: any.

So the bounds are sound (no round scores beyond them) and the lower bound is
exact; the upper bound is exact where the projects are not the limit.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import z3

from ..backends.symbolic import FALSE, TRUE, SList, SOpt, SRecord, Translator, Universe, Value
from ..grammar import model as m
from .invariants import (
    Contract,
    ReadingChoice,
    _pair,
    contracts,
    mode_member,
    reading_choices,
    round_total,
    trump_value,
)
from .projects import Declarations, _baloot_value, _maximize, _value, member_like
from .proof_outcome import Z3_RLIMIT, GaveUp, Missing, ProofOutcome, guarded, need_rule

_PER_HAND: dict[tuple[bool, tuple[tuple[str, str], ...]], int] = {}


def largest_per_hand(spec: m.Spec, c: Contract, readings: dict[str, str]) -> int:
    """The largest project value one hand can hold (cached per mode and readings)."""
    key = (c.hokum, tuple(sorted(readings.items())))
    from .projects import _PER_HAND_CACHE

    if key in _PER_HAND_CACHE:
        return _PER_HAND_CACHE[key]
    if key not in _PER_HAND:
        u = Universe(spec)
        t = Translator(spec, readings, universe=u)
        d = Declarations(spec, t, c)
        total = z3.If(d.d1, _value(spec, t, c, d.p1), 0) + z3.If(d.d2, _value(spec, t, c, d.p2), 0)
        if c.hokum and any(r.name == "baloot_counts" for r in spec.rules):
            total = total + _baloot_value(spec, t, c, d)
        best = _maximize(total, d.constraints)
        if best is None:
            raise GaveUp("no largest project value within the resource bound")
        _PER_HAND[key] = best[0]
    return _PER_HAND[key]


def reachable_levels(spec: m.Spec, t: Translator, contract: SRecord) -> list[Value]:
    """The raise levels the spec's raising can reach for a contract (the first: no raise)."""
    allowed = need_rule(spec, "next_raise_allowed")
    nxt = need_rule(spec, "next_level")
    level: Value = t.u.members(_level_enum(spec))[0]
    levels = [level]
    for _ in range(len(spec.enum(_level_enum(spec)).members)):
        ok = t.call(allowed, [contract, level]).value
        if ok is not TRUE:
            break
        level = t.call(nxt, [level]).value
        levels.append(level)
    return levels


def _level_enum(spec: m.Spec) -> str:
    return str(next(t.key_enum for t in spec.tables if t.name == "raise_multiplier"))


def check_score_bounds(spec: m.Spec, mode: str | None = None) -> Iterator[ProofOutcome]:
    cid = "score-bounds"
    title = ("the most and fewest points a team can add in one round, raises included: "
             "score_round with the play abstracted to any split of the bunts, a team's "
             "projects up to twice the largest one hand holds (so the most is an upper bound)")
    for c in contracts(spec)[:2]:
        if not c.of_mode(mode):
            continue
        label = c.label if not c.hokum else "hokum (any trump)"
        try:
            rule = need_rule(spec, "score_round")
        except Missing as err:
            yield ProofOutcome(cid, title, label, "any", "not-checked", "-", 0.0, str(err))
            return
        for choice in reading_choices(spec, [rule]):
            if not any(choice.label.startswith(p.name) for p in spec.profiles):
                continue

            def body(c: Contract = c, choice: ReadingChoice = choice,
                     label: str = label) -> ProofOutcome:
                return _bounds(spec, c, choice, label, cid, title)

            yield guarded(cid, title, label, choice.label.split(":")[0], body)


def _bounds(spec: m.Spec, c: Contract, choice: ReadingChoice, label: str, cid: str,
            title: str) -> ProofOutcome:
    start = time.perf_counter()
    per_hand = largest_per_hand(spec, c, choice.readings)
    u = Universe(spec)
    cb = [z3.Int(f"card_bunts{t}") for t in (0, 1)]
    pv = [z3.Int(f"projects{t}") for t in (0, 1)]
    bv = [z3.Int(f"baloot{t}") for t in (0, 1)]
    last = z3.Int("last_trick_team")
    swept = z3.Bool("kaboot")
    sweeper = z3.Int("kaboot_team")
    held_ace = z3.Bool("bid_winner_held_an_ace")
    at_dealer_right = z3.Bool("bid_winner_at_dealer_right")

    def team_arg(args: list[Value], i: int) -> int:
        v = args[i]
        assert isinstance(v, z3.IntNumRef), "a team that is not a constant"
        return int(v.as_long())

    abstract = {
        "team_card_bunts": lambda a: cb[team_arg(a, 1)],
        "last_trick_team": lambda a: last,
        "scoring_projects_of": lambda a: SList(()),
        "team_project_value": lambda a: pv[team_arg(a, 1)],
        "team_baloot_value": lambda a: bv[team_arg(a, 1)],
        "kaboot_team": lambda a: SOpt(z3.Not(swept), sweeper),
        "bid_winner_held_an_ace": lambda a: held_ace,
        "bid_winner_at_dealer_right": lambda a: at_dealer_right,
    }
    t = Translator(spec, choice.readings, universe=u, abstract=abstract)
    from .projects import _contract_record

    contract = _contract_record(spec, u, c)
    levels = reachable_levels(spec, t, contract)
    level_var = u.fresh(_level_enum(spec), "level")
    from ..backends.symbolic import equal, or_

    level_ok = or_(*[equal(level_var, lv) for lv in levels])
    multiplier = t.call("raise_multiplier_of", [level_var]).value if any(
        r.name == "raise_multiplier_of" for r in spec.rules) else _multiplier(spec, u, level_var)
    totals = [z3.Int("total0"), z3.Int("total1")]
    face_up = u.fresh("Card", "face_up")
    state_fields: dict[str, Value] = {
        "contract": SOpt(FALSE, contract), "multiplier": multiplier, "level": level_var,
        "totals": SList(((TRUE, totals[0]), (TRUE, totals[1]))), "face_up": face_up,
    }
    state_type = spec.rule("score_round").params[0].type
    assert isinstance(state_type, m.PlainType)
    rec = spec.record(state_type.name)
    state = SRecord(rec.name, tuple((f.name, state_fields[f.name]) for f in rec.fields
                                    if f.name in state_fields))
    result = t.call("score_round", [state]).value
    assert isinstance(result, SRecord)
    added = result.get("added") or result.get("points")
    assert added is not None, "RoundResult has neither 'added' nor 'points'"
    a0, a1 = _pair(added)
    deck = round_total(t, spec, c) - need_last_bonus(spec)
    baloot_value = 0
    if c.hokum:
        kind = u.member(member_like(spec, "ProjectKind", "baloot"))
        bval = t.call("project_value", [kind, mode_member(spec, c)]).value
        assert isinstance(bval, z3.IntNumRef)
        baloot_value = int(bval.as_long())
    cons = [
        cb[0] >= 0, cb[1] >= 0, cb[0] + cb[1] == deck, z3.Or(last == 0, last == 1),
        z3.Implies(swept, z3.And(z3.Or(sweeper == 0, sweeper == 1), last == sweeper,
                                 z3.If(sweeper == 0, cb[0], cb[1]) == deck)),
        level_ok, totals[0] >= 0, totals[1] >= 0, totals[0] < 152, totals[1] < 152,
        *[z3.And(x >= 0, x <= 2 * per_hand) for x in pv],
        *[z3.Or(b == 0, b == baloot_value) for b in bv], bv[0] + bv[1] <= baloot_value,
        *[bv[i] <= pv[i] for i in (0, 1)],
    ]
    figures = []
    for team_name, value in (("bidding team", a0), ("other team", a1)):
        hi = _optimum(value, cons, maximize=True)
        lo = _optimum(value, cons, maximize=False)
        figures.append(f"{team_name}: {lo}..{hi}")
    levels_text = "/".join(str(x.member) if hasattr(x, "member") else "?" for x in levels)
    return ProofOutcome(cid, title, label, choice.label.split(":")[0], "proven",
                   "z3 (optimize; play abstracted)", time.perf_counter() - start,
                   f"{'; '.join(figures)} (levels {levels_text}; projects up to "
                   f"{2 * per_hand} a team)")


def need_last_bonus(spec: m.Spec) -> int:
    from .proof_outcome import need_const

    return int(need_const(spec, "last_trick_bonus", citing="SCORE.2").value)


def _multiplier(spec: m.Spec, u: Universe, level: Value) -> z3.ArithRef:
    table = next(t for t in spec.tables if t.name == "raise_multiplier")
    from ..backends.symbolic import SEnum, int_if

    assert isinstance(level, SEnum)
    entries = table.as_dict()
    out: z3.ArithRef = z3.IntVal(0)
    for name, value in entries.items():
        out = int_if(level.term == u.member(name).term, z3.IntVal(value), out)
    return out


def _optimum(value: z3.ArithRef, cons: list[z3.BoolRef], maximize: bool) -> str:
    opt = z3.Optimize()
    opt.set("rlimit", Z3_RLIMIT)
    opt.add(*cons)
    h = opt.maximize(value) if maximize else opt.minimize(value)
    answer = opt.check()
    if answer != z3.sat:
        raise GaveUp(f"no {'maximum' if maximize else 'minimum'} ({answer}: "
                     f"{opt.reason_unknown()})")
    got = opt.upper(h) if maximize else opt.lower(h)
    return str(got)


_ = trump_value
