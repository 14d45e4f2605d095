"""Shrinking a failing trial to a minimal one: fewest rounds, then fewest actions,
then the simplest deck.

A candidate is kept when it still disagrees the same way (the same
signature: kind, phase, what differs, clause) and is smaller by the order
`size`: rounds dealt, then actions played, then the choices (their count and
sum), then how far the decks are
from the canonical card order. The passes, repeated until none helps or the
budget is spent:

1. start the game at the round of the disagreement (that round's dealer,
   totals and deck), dropping the rounds before it, and drop the decks after it;
2. delete runs of choices (halves, quarters, ... single ones);
3. lower each choice: to 0, to half, by one; probes become plain choices;
4. lower the starting totals (none, 0, half, one less);
5. move the decks towards the canonical order, one card at a time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..harness.protocol_notation import ALL_CARDS
from .driver import PROBE, Replay, Trial

_CANON = {card: i for i, card in enumerate(ALL_CARDS)}


def deck_distance(deck: list[str]) -> int:
    """Inversions against the canonical order: 0 for the sorted deck."""
    ranks = [_CANON[c] for c in deck]
    return sum(
        1 for i in range(len(ranks)) for j in range(i + 1, len(ranks)) if ranks[i] > ranks[j]
    )


def size(r: Replay) -> tuple[int, int, int, int, int, int]:
    used = r.trial.choices[: r.steps]
    return (
        len(r.rounds),
        r.actions,
        len(used),
        sum(used),
        sum(r.trial.totals or [0, 0]),
        sum(deck_distance(d) for d in r.trial.decks),
    )


@dataclass
class ShrinkStats:
    attempts: int = 0
    accepted: int = 0
    seconds: float = 0.0
    before: tuple[int, ...] = ()
    after: tuple[int, ...] = ()


def shrink(
    failing: Replay,
    run: Callable[[Trial], Replay],
    *,
    max_attempts: int = 600,
    max_seconds: float = 60.0,
) -> tuple[Replay, ShrinkStats]:
    """The smallest failing replay found from `failing`, and what it took."""
    assert failing.disagreement is not None
    signature = failing.disagreement.signature
    began = time.monotonic()
    stats = ShrinkStats(before=size(failing))
    best = _trimmed(failing)

    def budget_left() -> bool:
        return stats.attempts < max_attempts and time.monotonic() - began < max_seconds

    def attempt(trial: Trial) -> bool:
        nonlocal best
        if not budget_left():
            return False
        stats.attempts += 1
        result = run(trial)
        if result.signature != signature:
            return False
        result = _trimmed(result)
        if size(result) < size(best):
            best = result
            stats.accepted += 1
            return True
        return False

    # The first pass needs the failing replay's own record of the rounds.
    attempt(best.trial)  # re-check: a flaky engine shrinks nothing
    changed = True
    while changed and budget_left():
        changed = False
        changed |= _later_start(best, attempt)
        changed |= _delete_choices(best, attempt, lambda: best)
        changed |= _lower_choices(lambda: best, attempt)
        changed |= _simplify_totals(lambda: best, attempt)
        changed |= _simplify_decks(lambda: best, attempt)
    stats.seconds = time.monotonic() - began
    stats.after = size(best)
    return best, stats


def _trimmed(r: Replay) -> Replay:
    """The replay with its trial cut to what was used: the decks dealt, the choices made."""
    trial = r.trial.with_(decks=r.trial.decks[: len(r.rounds)], choices=r.trial.choices[: r.steps])
    return Replay(trial, r.rounds, r.steps, r.disagreement, r.legal, r.state)


def _later_start(best: Replay, attempt: Callable[[Trial], bool]) -> bool:
    if len(best.rounds) <= 1:
        return False
    last = best.rounds[-1]
    trial = best.trial.with_(
        dealer=last.dealer,
        totals=list(last.totals) if any(last.totals) else None,
        decks=[last.deck],
        choices=best.trial.choices[last.first_step :],
    )
    return attempt(trial)


def _delete_choices(
    best: Replay, attempt: Callable[[Trial], bool], current: Callable[[], Replay]
) -> bool:
    changed = False
    chunk = max(1, len(best.trial.choices) // 2)
    while chunk >= 1:
        start = 0
        while start < len(current().trial.choices):
            choices = current().trial.choices
            candidate = choices[:start] + choices[start + chunk :]
            if attempt(current().trial.with_(choices=candidate)):
                changed = True
            else:
                start += chunk
        chunk //= 2
    return changed


def _lower_choices(current: Callable[[], Replay], attempt: Callable[[Trial], bool]) -> bool:
    changed = False
    index = 0
    while index < len(current().trial.choices):
        value = current().trial.choices[index]
        lower = [0, value % PROBE] if value >= PROBE else [0, value // 2, value - 1]
        for v in dict.fromkeys(x for x in lower if 0 <= x < value):
            choices = list(current().trial.choices)
            if index >= len(choices):
                break
            choices[index] = v
            if attempt(current().trial.with_(choices=choices)):
                changed = True
                break
        index += 1
    return changed


def _simplify_totals(current: Callable[[], Replay], attempt: Callable[[Trial], bool]) -> bool:
    totals = current().trial.totals
    if totals is None:
        return False
    if attempt(current().trial.with_(totals=None)):
        return True
    changed = False
    for team in (0, 1):
        for lower in (0, totals[team] // 2, totals[team] - 1):
            now = list(current().trial.totals or [0, 0])
            if 0 <= lower < now[team]:
                now[team] = lower
                if attempt(current().trial.with_(totals=now)):
                    changed = True
                    break
    return changed


def _simplify_decks(current: Callable[[], Replay], attempt: Callable[[Trial], bool]) -> bool:
    changed = False
    for which in range(len(current().trial.decks)):
        for position in range(len(ALL_CARDS)):
            decks = [list(d) for d in current().trial.decks]
            if which >= len(decks):
                break
            deck = decks[which]
            rest = deck[position:]
            smallest = min(rest, key=lambda c: _CANON[c])
            if deck[position] == smallest:
                continue
            other = deck.index(smallest)
            deck[position], deck[other] = deck[other], deck[position]
            if attempt(current().trial.with_(decks=decks)):
                changed = True
    return changed
