"""Liveness, checked on the generated engine (reference_impl), not by z3.

A z3 proof would need the whole state machine (hands, tricks, the bidding
queue) unrolled; instead:

- bidding ends: for each choice of the bidding readings and a set of seeded
  deals, every bidding sequence is walked exhaustively (depth-first over
  `legal_actions()`); refuted if a sequence passes the bound or a state in the
  bidding offers no action;
- a legal action: for each choice of the play readings (every combination of
  the variants the spec's `play_actions` consults), seeded random rounds are
  played to the end, raises taken often so that locked rounds occur; refuted
  if any player to act, in any phase, has no action, or a player to act in the
  play has no `play` action. That the play always offers a card is proven for
  every hand and trick by `legal-card` (`playable.py`); this walk adds the
  states the engine reaches, every phase, and the whole `play_actions`.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from typing import Any

from ..grammar import model as m
from ..reference_impl import runtime as rt
from .proof_outcome import ProofOutcome, variants_reached

BIDDING_BOUND = 40  # calls; the spec's own comment says at most 4 + 3 + 1 + 3 a session
ROUNDS = 900  # the seeded rounds the legal-action walk plays, shared by the reading choices


def _citing(spec: m.Spec, *prefixes: str) -> list[str]:
    """The variants that cite a clause starting with one of `prefixes`."""
    return [v.name for v in spec.variants
            if any(c.clause.startswith(p) for c in v.cites for p in prefixes)]


def _combos(spec: m.Spec, names: list[str], variants: bool = False,
            limit: int = 40) -> list[dict[str, str]]:
    """Every combination of the readings of some variants (`names` are variants, or
    with `variants=False` rules whose consulted variants count), the first
    profile's readings elsewhere; capped at `limit` combinations."""
    consulted = names if variants else variants_reached(
        spec, [r for r in names if any(x.name == r for x in spec.rules)])
    base = spec.profiles[0].readings() if spec.profiles else {}
    out = []
    for picks in itertools.product(*[spec.variant(v).reading_names for v in consulted]):
        out.append({**base, **dict(zip(consulted, picks, strict=True))})
        if len(out) >= limit:
            break
    return out or [base]


def _label(spec: m.Spec, readings: dict[str, str], variants: list[str]) -> str:
    return ", ".join(f"{v}={readings[v]}" for v in variants) or "any"


def check_bidding_ends(spec: m.Spec, deals: int = 3) -> Iterator[ProofOutcome]:
    cid = "bidding-ends"
    title = (f"every bidding sequence ends (a contract or a redeal) within {BIDDING_BOUND} "
             "calls, and every bidding state offers an action (BID.2-9)")
    rules = _citing(spec, "BID.")
    for readings in _combos(spec, rules, variants=True):
        start = time.perf_counter()
        label = _label(spec, readings, rules)
        longest = 0
        states = 0
        problem = ""
        for seed in range(deals):
            dealer = seed % 4
            game = rt.new_game("literal", readings, dealer=dealer, seed=seed)
            stack: list[tuple[Any, list[str]]] = [(game, [])]
            while stack and not problem:
                g, calls = stack.pop()
                states += 1
                if g.phase != "bidding":
                    longest = max(longest, len(calls))
                    continue
                if len(calls) >= BIDDING_BOUND:
                    problem = f"seed {seed}: still bidding after {' / '.join(calls)}"
                    break
                actions = g.legal_actions()
                if not actions:
                    problem = f"seed {seed}: no action after {' / '.join(calls) or 'the deal'}"
                    break
                for a in actions:
                    h = rt.Game(g.readings, g.state)
                    h.apply(a)
                    stack.append((h, [*calls, a]))
        seconds = time.perf_counter() - start
        if problem:
            yield ProofOutcome(cid, title, "any", label, "refuted", "exhaustive engine", seconds,
                          problem)
        else:
            yield ProofOutcome(cid, title, "any", label, "proven",
                          f"exhaustive engine ({deals} deals)", seconds,
                          f"{states} states; longest bidding {longest} calls")


def check_legal_action(spec: m.Spec, rounds: int = ROUNDS, seed: int = 1
                       ) -> Iterator[ProofOutcome]:
    cid = "legal-action"
    title = ("in the rounds the engine plays, the player to act always has a legal action in "
             "every phase, and in the play a card, under every legality reading, locked "
             "rounds included (PLAY.2, RAISE.2; the card is proven for every state by "
             "legal-card)")
    rules = _citing(spec, "PLAY.2", "RAISE.2")
    combos = _combos(spec, rules, variants=True)
    per = max(1, rounds // max(1, len(combos)))  # rounds, not seconds: the same on every run
    for readings in combos:
        start = time.perf_counter()
        label = _label(spec, readings, rules)
        rng = random.Random(seed)
        rounds_played = locked = plays = 0
        problem = ""
        while rounds_played < per and not problem:
            game = rt.new_game("literal", readings, dealer=rng.randrange(4),
                               seed=rng.randrange(1 << 30))
            steps: list[str] = []
            while game.phase not in ("round_over", "game_over", "deal"):
                actions = game.legal_actions()
                if not actions:
                    problem = f"no action in phase {game.phase} after {' / '.join(steps)}"
                    break
                if game.phase == "playing":
                    plays += 1
                    if not any(a.startswith("play ") for a in actions):
                        problem = (f"no card to play; actions {actions} after "
                                   f"{' / '.join(steps)}")
                        break
                    if game.observation().get("locked"):
                        locked += 1
                action = _pick(rng, game.phase, actions)
                steps.append(action)
                game.apply(action)
                if len(steps) > 200:
                    problem = "a round longer than 200 actions"
                    break
            rounds_played += 1
        seconds = time.perf_counter() - start
        if problem:
            yield ProofOutcome(cid, title, "any", label, "refuted", "random engine", seconds,
                          problem)
        else:
            yield ProofOutcome(cid, title, "any", label, "explored",
                          "random engine (bounded, not a proof)", seconds,
                          f"{rounds_played} rounds, {plays} turns in the play, {locked} in locked "
                          "rounds: a card every time")


def _pick(rng: random.Random, phase: str, actions: list[str]) -> str:
    """A random action, biased to reach hokum contracts and raised (locked) rounds."""
    if phase == "bidding":
        bids = [a for a in actions if a.startswith("hokum")]
        if bids and rng.random() < 0.6:
            return rng.choice(bids)
        if "pass" in actions and rng.random() < 0.7:
            return "pass"
    if phase == "raising":
        raises = [a for a in actions if a != "pass"]
        if raises and rng.random() < 0.7:
            return rng.choice(raises)
    return rng.choice(actions)
