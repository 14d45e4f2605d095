"""Running the pack against every spec mutant, in this process.

For each profile, the reference engine first plays every case once while each
rule notes that it was called: a case that fails on the reference kills
nothing and is left out, and the rules each case reaches are kept. A mutant
of a rule is then run only on the cases that call that rule (a mutant of a
constant, table or order: the cases calling a rule that names it), or the
rule holding the `choose` of a variant that gates the declaration (`gates.py`:
no game reaches it under that variant's other readings), those citing the
mutated declaration's clauses first. A case that leaves open a variant whose
`choose` branch holds the change, or that gates it, is run with that reading
pinned, so that the change is reached; a case pinning another reading of it
cannot reach the change and is not run. A case that fails or errors on the
mutant kills it; a mutant's run stops at its `kills`-th kill (0: run every
case). A case where the mutant answers every call of its rules as the reference
did is passed without being run (`call_traces.py`).

`--shard K/N` runs every N-th mutant from the K-th, `--jobs` splits a run
over processes, and the JSON of shards merges into one report
(`spec_report.merge`).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ...grammar import model as m
from ...reference_impl.rule_swap import clear_caches
from ..adapters.inprocess import InProcessEngine
from ..harness.pack import Case
from ..harness.runner import ERRORED, FAILED, PASSED, Runner
from ..harness.variants import load_register
from .call_traces import Call, Screen, Switch, TraceKey
from .live import LiveSpec, recording
from .operators import SpecMutant, spec_mutants
from .run import with_pins

KILLED, SURVIVED, SAME_CODE = "killed", "survived", "same_code"


@dataclass
class SpecVerdict:
    """What the pack did to one mutant under one profile."""

    id: str
    profile: str
    status: str  # killed, survived, or same_code (the reference's own text: never run)
    killed_by: list[str] = field(default_factory=list)
    # of those, the cases whose script played through and failed at a check (the others
    # went elsewhere: an action refused, another seat asked, the engine failed)
    at_check: list[str] = field(default_factory=list)
    cases_run: int = 0
    # of those, the cases whose calls of the mutated rules all came out as on the reference
    # (`call_traces.py`): passed without being run
    screened: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Shard:
    """Part `index` of `count` of the mutants (`--shard K/N`): every N-th from the K-th."""

    index: int  # from 1
    count: int

    def take(self, mutants: list[SpecMutant]) -> list[SpecMutant]:
        return mutants[self.index - 1::self.count]


class PackOnMutants:
    """The pack, ready to run on mutants under one profile (the reference's run done)."""

    def __init__(self, live: LiveSpec, cases: list[Case], profile: str, *,
                 screening: bool = True) -> None:
        self.live = live
        self.screening = screening
        self.screen = Screen(live)
        self._kept: dict[TraceKey, dict[str, list[Call] | None]] = {}
        self.profile = profile
        self.runner = Runner(InProcessEngine(), load_register(), profile=profile)
        self.reached: dict[str, frozenset[str]] = {}
        self.reference_failures: list[str] = []
        self.cases: list[Case] = []
        noted: set[str] = set()
        with recording(live.spec, noted):
            for case in cases:
                noted.clear()
                clear_caches()  # a kept result would hide the rules it calls
                if self.runner.run_case(case).status == PASSED:
                    self.cases.append(case)
                    self.reached[case.id] = frozenset(noted)
                else:
                    self.reference_failures.append(case.id)

    def selected(self, mutant: SpecMutant) -> list[Case]:
        """The cases that can reach the change (they reach its rule, or the `choose` of a
        variant that gates it), those citing its clauses first."""
        rules = self.live.rules_reading(mutant) | self.live.gate_rules(mutant)
        pins = dict(mutant.readings)
        chosen = [
            case for case in self.cases
            if self.reached[case.id] & rules
            and all(variant not in case.pins or set(case.pins[variant]) & set(readings)
                    for variant, readings in pins.items())
        ]
        cited = set(mutant.clauses)
        return sorted(chosen, key=lambda c: 0 if cited & set(c.clauses) else 1)

    def run(self, mutant: SpecMutant, kills: int = 2) -> SpecVerdict:
        began = time.monotonic()
        verdict = SpecVerdict(mutant.id, self.profile, SURVIVED)
        if self.live.same_code(mutant):
            verdict.status = SAME_CODE
            return verdict
        pins = tuple(mutant.pins().items())
        chosen = self.selected(mutant)
        if self.screening and self.screen.screenable(mutant):
            self._run_screened(mutant, chosen, pins, verdict, kills)
        else:
            with self.live.playing(mutant):
                for case in chosen:
                    if self._run_one(case, pins, verdict, kills):
                        break
        if verdict.killed_by:
            verdict.status = KILLED
        verdict.seconds = time.monotonic() - began
        return verdict

    def _run_one(self, case: Case, pins: tuple[tuple[str, str], ...], verdict: SpecVerdict,
                 kills: int) -> bool:
        """Run one case on the mutant in place; whether the mutant has its `kills` kills."""
        outcome = self.runner.run_case(with_pins(case, pins))
        verdict.cases_run += 1
        if outcome.status in (FAILED, ERRORED):
            verdict.killed_by.append(case.id)
            if outcome.status == FAILED and not _off_script(outcome.message):
                verdict.at_check.append(case.id)
        return bool(kills) and len(verdict.killed_by) >= kills

    def _run_screened(self, mutant: SpecMutant, chosen: list[Case],
                      pins: tuple[tuple[str, str], ...], verdict: SpecVerdict,
                      kills: int) -> None:
        """Run the cases whose traces the mutant does not answer as the reference did
        (`call_traces.py`); traces are made a few cases at a time, as they are needed."""
        asked = 0  # cases whose traces were asked of the mutant
        with self.screen.switched(mutant) as switch:
            start, size = 0, FIRST_RUN
            while start < len(chosen):
                batch = chosen[start:start + size]
                # the first cases (those citing the mutant's clauses, most likely to kill it)
                # are run unless traced already; a mutant that answers few traces as the
                # reference does (it changes what the rules return, not what the engine
                # replies) has no more traces made for it
                making = start > 0 and (asked < _TRIAL or 2 * verdict.screened >= asked)
                start, size = start + size, min(2 * size, _BATCH)
                traces = [self._trace(mutant, switch, case, pins, make=making) for case in batch]
                with switch.mutant():
                    for case, calls in zip(batch, traces, strict=True):
                        asked += calls is not None
                        if calls is not None and Screen.agrees(calls, switch):
                            verdict.cases_run += 1
                            verdict.screened += 1  # plays as the reference does: passes
                        elif self._run_one(case, pins, verdict, kills):
                            return

    def _trace(self, mutant: SpecMutant, switch: Switch, case: Case,
               pins: tuple[tuple[str, str], ...], *, make: bool) -> list[Call] | None:
        """The case's trace of the mutant's rules, recorded on the reference where not yet
        kept (if `make`); None where there is none, or the reference does not pass the case
        as pinned (it is run on the mutant)."""
        added = {variant: reading for variant, reading in pins if variant not in case.requires}
        key = self.screen.key(mutant, added)
        kept = self._kept.pop(key, None)
        if kept is None:
            kept = {}
            while len(self._kept) >= _KEYS_KEPT:  # the oldest key's traces go
                del self._kept[next(iter(self._kept))]
        self._kept[key] = kept  # now the newest
        if case.id not in kept:
            if not make:
                return None
            calls = switch.trace()
            passed = self.runner.run_case(with_pins(case, pins)).status == PASSED
            kept[case.id] = calls if passed else None
        return kept[case.id]


# How many of a mutant's first cases are run without a trace made for them (a mutant killed
# by them costs no trace); at most how many cases have their traces made before the mutant is
# swapped in to run the others (after the first, twice as many each time); how many rule
# sets' traces a pack keeps; and how many traces a mutant is asked before it has no more made
# unless it answers half of them as the reference.
FIRST_RUN, _BATCH, _KEYS_KEPT, _TRIAL = 4, 32, 3, 8


# The runner's messages for a script that could not be played as written.
_SCRIPT_FAILURES = ("was refused", "but the engine asks seat", "did not accept the deal",
                    "the engine refused a start")


def _off_script(message: str) -> bool:
    first = message.splitlines()[0] if message else ""
    return any(words in first for words in _SCRIPT_FAILURES)


# ---- a whole run, in processes ---------------------------------------------------------------


@dataclass
class _Work:
    spec: m.Spec
    mutants: dict[str, SpecMutant]
    cases: list[Case]
    profiles: tuple[str, ...]
    kills: int


_WORK: _Work | None = None  # what a worker process inherits (the pool forks)
_PACKS: dict[str, PackOnMutants] = {}


def _packs() -> dict[str, PackOnMutants]:
    assert _WORK is not None
    if not _PACKS:
        live = LiveSpec(_WORK.spec)
        for profile in _WORK.profiles:
            _PACKS[profile] = PackOnMutants(live, _WORK.cases, profile)
    return _PACKS


def _run_ids(ids: list[str]) -> list[SpecVerdict]:
    assert _WORK is not None
    packs = _packs()
    return [packs[p].run(_WORK.mutants[i], _WORK.kills) for i in ids for p in _WORK.profiles]


@dataclass
class SpecRun:
    verdicts: list[SpecVerdict]
    mutants: list[SpecMutant]
    profiles: tuple[str, ...]
    cases: int
    reference_failures: dict[str, list[str]]  # profile -> ids of cases failing on the reference
    seconds: float
    shard: Shard | None = None


def run_spec_mutants(spec: m.Spec, cases: list[Case], *, profiles: Iterable[str],
                     mutants: list[SpecMutant] | None = None, shard: Shard | None = None,
                     jobs: int = 1, kills: int = 2) -> SpecRun:
    """Run the cases on every spec mutant (or the shard's part of them) under each profile."""
    global _WORK
    began = time.monotonic()
    chosen = mutants if mutants is not None else spec_mutants(spec)
    if shard is not None:
        chosen = shard.take(chosen)
    profiles = tuple(profiles)
    _WORK = _Work(spec, {mut.id: mut for mut in chosen}, cases, profiles, kills)
    _PACKS.clear()
    ids = [mut.id for mut in chosen]
    chunks = [ids[i:i + 16] for i in range(0, len(ids), 16)]
    verdicts: list[SpecVerdict] = []
    jobs = max(1, min(jobs, len(chunks)))
    try:
        if jobs == 1:
            for chunk in chunks:
                verdicts += _run_ids(chunk)
        else:
            _packs()  # the reference's runs once, before the workers fork
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(jobs, mp_context=context) as pool:
                for found in pool.map(_run_ids, chunks):
                    verdicts += found
        packs = _packs()
        failures = {p: packs[p].reference_failures for p in profiles}
        count = len(packs[profiles[0]].cases) if profiles else 0
    finally:
        _WORK = None
        _PACKS.clear()
    return SpecRun(verdicts, chosen, profiles, count, failures, time.monotonic() - began, shard)

