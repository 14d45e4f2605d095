"""`baloot conform applicability`: how much of the pack reaches an engine, by the readings
it plays.

For a reading set (a reading for every variant: each profile, and random sets that move
a few variants off a random profile):
- a case HOLDS when it passes on the reference engine played under exactly those
  readings (its own pins replaced by the whole set);
- a case is APPLIED when the runner would run it on an engine declaring exactly those
  readings and every capability: each reading it pins is the set's;
- a case is given a VERDICT when it is applied, or when the runner plays one of its
  `alternatives` (CASES.md): the first whose pins the set's engine implements;
- a case given a verdict whose expectation played (its own, or the alternative's) does
  not pass under exactly those readings is an unfair failure: an engine right under its
  readings would fail it. There should be none.
The share of holding cases applied says how much of what is true under the engine's
readings the pack checks; a case that holds but is not applied pins a reading it need
not (`baloot conform pins` finds those).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ..adapters.inprocess import InProcessEngine
from ..harness.clauses import clause_ids
from ..harness.declared import CAPABILITIES, Declared, declared_from_hello
from ..harness.pack import REGRESSION_SNAPSHOT, Case
from ..harness.runner import PASSED, Runner, choose_alternative
from ..harness.variants import Register

# Targets the pack is to meet.
MIN_HOLDING = 200  # holding cases under each profile, and for the median random set
MIN_HOLDING_PER_CLAUSE = 3  # holding cases citing each clause, under each profile
MIN_APPLIED_PROFILE = 0.95  # share of holding cases applied, under each profile
MIN_APPLIED_RANDOM = 0.90  # share of holding cases applied, median random set
MIN_VERDICT_RANDOM = 0.90  # share of the cases given a verdict, median random set


@dataclass(frozen=True)
class ReadingSet:
    name: str  # the profile's name, or "#N" for a random set
    profile: str
    moved: dict[str, str]  # variant -> reading, where the set leaves the profile
    readings: dict[str, str]  # every variant's reading

    def describe(self) -> str:
        if not self.moved:
            return self.profile
        return f"{self.name} {self.profile} + " + ", ".join(
            f"{v}={r}" for v, r in self.moved.items())


def profile_sets(register: Register) -> list[ReadingSet]:
    return [ReadingSet(p, p, {}, register.readings_of(p)) for p in register.profiles]


def random_sets(register: Register, count: int, moves: int, seed: int) -> list[ReadingSet]:
    """`count` sets, each a random profile with `moves` random variants moved to another
    reading of theirs, chosen at random."""
    rng = random.Random(seed)
    found: list[ReadingSet] = []
    for index in range(count):
        profile = rng.choice(list(register.profiles))
        moved = register.moved_off(profile, moves, rng)
        found.append(ReadingSet(f"#{index + 1}", profile, moved,
                                {**register.readings_of(profile), **moved}))
    return found


def engine_declaring(reading_set: ReadingSet, register: Register) -> Declared:
    """What an engine playing exactly these readings, with every capability, declares."""
    # a hello without `capabilities` claims none (PROTOCOL.md), so every one is named
    hello = {"profile": reading_set.profile, "overrides": reading_set.moved,
             "capabilities": list(CAPABILITIES)}
    return declared_from_hello(hello, register)


def applies(case: Case, declared: Declared) -> bool:
    return not declared.missing_readings(case.pins) and not declared.missing_capabilities(
        case.capabilities)


@dataclass(frozen=True)
class SetFigures:
    reading_set: ReadingSet
    cases: int
    holding: frozenset[str]  # ids of the cases whose own expectation holds under the set
    applied: frozenset[str]  # ids of the cases whose own pins the set's engine implements
    failures: dict[str, str]  # id -> the first line of the failure, for unfair cases
    # ids of the cases the runner gives a verdict: their own pins or an alternative's apply
    verdict: frozenset[str] = frozenset()
    # ids of those whose expectation played (their own or the alternative's) holds
    verdict_holding: frozenset[str] = frozenset()
    by_alternative: frozenset[str] = frozenset()  # ids given a verdict by an alternative

    @property
    def applied_holding(self) -> int:
        return len(self.holding & self.applied)

    @property
    def share(self) -> float:
        """The share of holding cases applied (by their own pins)."""
        return self.applied_holding / len(self.holding) if self.holding else 0.0

    @property
    def verdict_share(self) -> float:
        """The share of the cases the runner gives a verdict (every capability declared)."""
        return len(self.verdict) / self.cases if self.cases else 0.0

    @property
    def unfair(self) -> list[str]:
        """Cases given a verdict whose expectation played does not hold."""
        return sorted(self.verdict - self.verdict_holding)


def set_figures(
    runner_for: Callable[[str], Runner], cases: list[Case], reading_set: ReadingSet,
    register: Register,
) -> SetFigures:
    runner = runner_for(reading_set.profile)
    declared = engine_declaring(reading_set, register)
    holding: set[str] = set()
    applied: set[str] = set()
    verdict: set[str] = set()
    verdict_holding: set[str] = set()
    by_alternative: set[str] = set()
    failures: dict[str, str] = {}
    exactly = dict(reading_set.readings)
    for case in cases:
        applied_here = applies(case, declared)
        if applied_here:
            applied.add(case.id)
        played = dataclasses.replace(case, requires=exactly, also_holds={}, alternatives=())
        outcome = runner.run_case(played)
        if outcome.status == PASSED:
            holding.add(case.id)
        chosen = None if applied_here else choose_alternative(case, declared)
        if chosen is not None and declared.missing_capabilities(
                case.alternative(chosen).capabilities):
            chosen = None
        if chosen is not None:
            by_alternative.add(case.id)
            alt = dataclasses.replace(case.alternative(chosen), requires=exactly)
            outcome = runner.run_case(alt)
        if applied_here or chosen is not None:
            verdict.add(case.id)
            if outcome.status == PASSED:
                verdict_holding.add(case.id)
            else:
                failures[case.id] = ((f"alternatives[{chosen}]: " if chosen is not None else "")
                                     + (outcome.message.splitlines()[0] if outcome.message
                                        else ""))
    return SetFigures(reading_set, len(cases), frozenset(holding), frozenset(applied), failures,
                      frozenset(verdict), frozenset(verdict_holding), frozenset(by_alternative))


# ------------------------------------------------------------ many sets ---

_worker: tuple[dict[str, Runner], list[Case], Register] | None = None


def _start_worker(cases: list[Case], register: Register) -> None:
    global _worker
    engine = InProcessEngine()
    _worker = ({p: Runner(engine, register, profile=p) for p in register.profiles}, cases,
               register)


def _figures_in_worker(reading_set: ReadingSet) -> SetFigures:
    assert _worker is not None
    runners, cases, register = _worker
    return set_figures(runners.__getitem__, cases, reading_set, register)


def all_figures(
    cases: list[Case], register: Register, sets: list[ReadingSet], *, jobs: int = 1,
    on_set: Callable[[SetFigures], None] | None = None,
) -> list[SetFigures]:
    """The figures of every set, in order."""
    found: list[SetFigures] = []
    for figures in _figures(cases, register, sets, jobs):
        found.append(figures)
        if on_set:
            on_set(figures)
    return found


def _figures(
    cases: list[Case], register: Register, sets: list[ReadingSet], jobs: int
) -> Iterator[SetFigures]:
    if jobs > 1 and len(sets) > 1:
        # as pins.map_with_checker: a worker that dies breaks the pool, never hangs it
        with ProcessPoolExecutor(min(jobs, len(sets)), initializer=_start_worker,
                                 initargs=(cases, register)) as pool:
            yield from pool.map(_figures_in_worker, sets)
        return
    _start_worker(cases, register)
    yield from map(_figures_in_worker, sets)


# ------------------------------------------------------------- summaries ---


def clause_holding(cases: list[Case], figures: SetFigures) -> dict[str, int]:
    """Clause -> holding cases citing it (regression snapshots not counted, as in coverage)."""
    counts = dict.fromkeys(clause_ids(), 0)
    for case in cases:
        if case.id in figures.holding and case.origin != REGRESSION_SNAPSHOT:
            for clause in set(case.clauses):
                if clause in counts:
                    counts[clause] += 1
    return counts


@dataclass(frozen=True)
class Target:
    text: str
    met: bool
    detail: str


def targets(cases: list[Case], profiles: list[SetFigures], randoms: list[SetFigures]
            ) -> list[Target]:
    per_clause = [clause_holding(cases, f) for f in profiles]
    thin = sorted(c for c in clause_ids() if min(p[c] for p in per_clause) < MIN_HOLDING_PER_CLAUSE)
    found = [
        Target(f"profile {f.reading_set.name}: >= {MIN_HOLDING} holding cases",
               len(f.holding) >= MIN_HOLDING, str(len(f.holding)))
        for f in profiles
    ]
    found += [
        Target(f"profile {f.reading_set.name}: >= {MIN_APPLIED_PROFILE:.0%} of holding applied",
               f.share >= MIN_APPLIED_PROFILE, f"{f.share:.1%}")
        for f in profiles
    ]
    found.append(Target(
        f"every clause: >= {MIN_HOLDING_PER_CLAUSE} holding cases under each profile",
        not thin, f"{len(thin)} clause(s) short" + (": " + ", ".join(thin) if thin else "")))
    if randoms:
        holding = statistics.median(len(f.holding) for f in randoms)
        share = statistics.median(f.share for f in randoms)
        found.append(Target(f"random sets: median >= {MIN_HOLDING} holding cases",
                            holding >= MIN_HOLDING, f"{holding:g}"))
        found.append(Target(
            f"random sets: median >= {MIN_APPLIED_RANDOM:.0%} of holding applied",
            share >= MIN_APPLIED_RANDOM, f"{share:.1%}"))
        verdict = statistics.median(f.verdict_share for f in randoms)
        found.append(Target(
            f"random sets: median >= {MIN_VERDICT_RANDOM:.0%} of the cases given a verdict "
            "(own pins or an alternative)", verdict >= MIN_VERDICT_RANDOM, f"{verdict:.1%}"))
    unfair = sum(len(f.unfair) for f in [*profiles, *randoms])
    found.append(Target("no case given a verdict whose expectation does not hold", unfair == 0,
                        f"{unfair} unfair (case, set) pair(s)"))
    return found
