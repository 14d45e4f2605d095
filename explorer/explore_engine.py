"""The explorer's engine search: a deal and an action sequence after which the
generated engine, under two readings of a variant, differs.

Seeded deals (half of them stacked so that one hand holds a four of a kind, a
long run or the king and queen of a suit, which the project readings need) are
played under both readings side by side, with the same actions, until the
legal actions, the visible state or the round result differ; the shortest such
action sequence is kept. The search is bounded by a number of deals, never by
time: the same seed finds the same witness on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..conformance.harness.deal_layout import deck_for_hands
from ..conformance.protocol.reference_view import compare, outcome_of
from ..grammar import model as m
from ..reference_impl import runtime
from ..reference_impl.runtime import Game, SetupError
from ..reference_impl.runtime_support import IllegalAction
from .explore_findings import EngineWitness

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
ACTION_BOUND = 80  # the most actions one deal is played for


@dataclass(frozen=True)
class SearchBound:
    """How long the engine search for one pair of readings goes on, in deals:
    at most `deals`; once a witness is found, until `patience` times the deals
    it took (and at least `least` deals), for a shorter one."""

    deals: int = 2000
    patience: int = 2
    least: int = 100


DEFAULT_BOUND = SearchBound()


def all_cards() -> list[str]:
    return [r + s for s in "SHDC" for r in RANKS]


def _deal(rng: random.Random) -> tuple[int, list[str], int]:
    """A dealer, a deck, and the first bidder; half the decks stacked."""
    dealer = rng.randrange(4)
    first = (dealer + 1) % 4
    cards = all_cards()
    rng.shuffle(cards)
    if rng.random() < 0.5:
        return dealer, cards, first
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
    return dealer, deck_for_hands(hands, dealer, first), first


def _totals(rng: random.Random) -> list[int] | None:
    """Starting totals for some deals: near the sun gate (A11), or near the target
    (A13, A19)."""
    if rng.random() >= 0.4:
        return None
    shape = rng.randrange(3)
    if shape == 0:
        return [rng.randrange(90, 111), rng.randrange(90, 111)]
    if shape == 1:
        return [rng.randrange(144, 152), rng.randrange(144, 152)]
    totals = [rng.randrange(146, 152), rng.randrange(115, 146)]  # the bidder may pass it
    rng.shuffle(totals)
    return totals


def _pick(rng: random.Random, g: Game, actions: list[str], favoured: int,
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


def engine_search(variant: str, a: str, b: str, base_profile: str, seed: int,
                  bound: SearchBound = DEFAULT_BOUND) -> tuple[EngineWitness | None, str]:
    """The shortest witness found in the bounded seeded search, and a note on it."""
    rng = random.Random(f"{seed}:{variant}:{a}:{b}")
    best: EngineWitness | None = None
    found_at = 0
    dealt = 0
    while dealt < bound.deals:
        if best is not None and dealt >= max(bound.patience * found_at, bound.least):
            break
        dealt += 1
        dealer, deck, favoured = _deal(rng)
        totals = _totals(rng)
        ga = runtime.new_game(base_profile, {variant: a}, dealer=dealer, deck=deck, totals=totals)
        gb = runtime.new_game(base_profile, {variant: b}, dealer=dealer, deck=deck, totals=totals)
        actions: list[str] = []
        limit = len(best.actions) if best is not None else ACTION_BOUND
        all_pass = rng.random() < 0.1  # some deals where everyone passes twice
        while len(actions) <= limit:
            diff = compare(ga, gb)
            if diff is not None:
                kind, oa, ob = diff
                shorter = best is None or len(actions) < len(best.actions) or (
                    len(actions) == len(best.actions) and best.totals and not totals)
                if shorter:
                    best = EngineWitness(kind, dealer, deck, totals, list(actions), oa, ob)
                    found_at = found_at or dealt
                break
            if ga.phase == "deal" and gb.phase == "deal" and len(actions) < limit:
                # everyone passed twice: deal the same cards again under both readings
                redeal = all_cards()
                rng.shuffle(redeal)
                ga.deal(redeal)
                gb.deal(redeal)
                diff = compare(ga, gb)
                if diff is not None and (best is None or len(actions) < len(best.actions)):
                    best = EngineWitness("redeal", dealer, deck, totals, list(actions),
                                         diff[1], diff[2], redeal=redeal)
                    found_at = found_at or dealt
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
    if best is None:
        return None, f"none in {dealt} seeded deals"
    return best, f"found in deal {found_at} of {dealt} seeded deals"


def replay(profile: str, readings: dict[str, str], w: EngineWitness) -> Game:
    """The witness's deal and actions (and second deal) played again under `readings`;
    `IllegalAction` when an action is not legal under them."""
    g = runtime.new_game(profile, readings, dealer=w.dealer, deck=w.deck, totals=w.totals)
    for action in w.actions:
        g.apply(action)
    if w.redeal is not None:
        g.deal(w.redeal)
    return g


def _replays_alike(profile: str, readings: dict[str, str], w: EngineWitness,
                   outcome: dict[str, Any]) -> bool:
    """Whether the witness gives `outcome` again under other readings."""
    try:
        g = replay(profile, readings, w)
    except (IllegalAction, SetupError):
        return False  # an action the other readings refuse: the witness depends on them
    return outcome_of(g, w.kind, outcome) == outcome


def relevant_requires(spec: m.Spec, variant: str, reading: str, base_profile: str,
                      w: EngineWitness, outcome: dict[str, Any]) -> dict[str, str]:
    """The readings the witness depends on: the variant's, and those of every other
    variant whose change alters the replayed outcome (checked by replaying)."""
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
            if not _replays_alike(base_profile, {variant: reading, v.name: r}, w, outcome):
                needed[v.name] = base[v.name]
                break
    # Under another profile, variants can interact: pin every variant on which a
    # profile differs from the base until the witness replays the same under it.
    for p in spec.profiles:
        picks = {**p.readings(), **needed}
        if not _replays_alike(p.name, needed, w, outcome):
            needed.update({v: base[v] for v, r in picks.items()
                           if r != base[v] and v != variant})
    return dict(sorted(needed.items()))
