"""A fuzzing campaign: many random games, the first disagreement shrunk to a case.

Game `i` of seed `S` is `random_trial(S, i)`, the same on every machine;
shard `K/N` plays the games whose index is `K-1` modulo `N`, so N shards
split the seed space without overlap. With several jobs, worker processes
(each with its own engine process) play the games; results are read in game
order, so the disagreement reported is the one of the lowest game index
whatever the number of jobs.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..engine_process import EngineError, EngineProcess
from .driver import ReferenceEndpoint, Replay, Trial, random_trial, replay
from .shrink import ShrinkStats, shrink


@dataclass
class Settings:
    argv: list[str]
    seed: int | str
    games: int
    profile: str | None = None  # None: the engine's own
    vary_readings: bool = False
    game_rounds: int = 2
    totals: bool = True
    probes: float = 0.05
    timeout: float = 5.0
    shard: tuple[int, int] = (1, 1)  # K of N, 1-based

    def indices(self) -> Iterator[int]:
        k, n = self.shard
        return (i for i in itertools.count() if i % n == k - 1)


@dataclass
class FuzzReport:
    games: int = 0
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    failing: Replay | None = None
    failing_index: int | None = None
    shrunk: Replay | None = None
    shrink_stats: ShrinkStats | None = None
    hello: dict[str, Any] = field(default_factory=dict)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def handshake(settings: Settings) -> dict[str, Any]:
    engine = EngineProcess(settings.argv, timeout=settings.timeout)
    try:
        return engine.start()
    finally:
        engine.close()


def _readings_of(hello: dict[str, Any]) -> dict[str, list[str]] | None:
    readings = hello.get("readings")
    if not isinstance(readings, dict):
        return None
    return {str(k): [str(r) for r in v] for k, v in readings.items() if isinstance(v, list)}


def trial_for(settings: Settings, hello: dict[str, Any], index: int) -> Trial:
    profile = settings.profile or str(hello.get("profile") or "literal")
    return random_trial(
        settings.seed,
        index,
        profile=profile,
        readings=_readings_of(hello) if settings.vary_readings else None,
        game_rounds=settings.game_rounds,
        totals=settings.totals,
        probes=settings.probes,
    )


# ---- the workers ---------------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init_worker(settings: Settings, hello: dict[str, Any]) -> None:
    from multiprocessing import util

    engine = EngineProcess(settings.argv, timeout=settings.timeout)
    _worker.update(settings=settings, hello=hello, engine=engine, reference=ReferenceEndpoint())
    util.Finalize(None, engine.close, exitpriority=10)


def _play(index: int) -> tuple[int, Replay]:
    settings: Settings = _worker["settings"]
    trial = trial_for(settings, _worker["hello"], index)
    return index, replay(trial, _worker["engine"], _worker["reference"])


def _games(settings: Settings, hello: dict[str, Any], jobs: int) -> Iterator[tuple[int, Replay]]:
    indices = list(itertools.islice(settings.indices(), settings.games))
    if jobs <= 1:
        _init_worker(settings, hello)
        try:
            for index in indices:
                yield _play(index)
        finally:
            _worker["engine"].close()
        return
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(settings, hello)) as pool:
        results = pool.map(_play, indices, chunksize=4)
        try:
            yield from results
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def run_campaign(
    settings: Settings,
    *,
    jobs: int = 1,
    do_shrink: bool = True,
    shrink_attempts: int = 600,
    shrink_seconds: float = 60.0,
    on_game: Callable[[int, Replay], None] | None = None,
) -> FuzzReport:
    report = FuzzReport()
    report.hello = handshake(settings)
    began = time.monotonic()
    for index, result in _games(settings, report.hello, jobs):
        report.games += 1
        report.rounds += len(result.rounds)
        report.actions += result.actions
        if on_game:
            on_game(index, result)
        if result.disagreement is not None:
            report.failing, report.failing_index = result, index
            break
    report.seconds = time.monotonic() - began
    if report.failing is not None and do_shrink:
        report.shrunk, report.shrink_stats = shrink_replay(
            settings, report.failing, attempts=shrink_attempts, seconds=shrink_seconds
        )
    return report


def shrink_replay(
    settings: Settings, failing: Replay, *, attempts: int = 600, seconds: float = 60.0
) -> tuple[Replay, ShrinkStats]:
    engine = EngineProcess(settings.argv, timeout=settings.timeout)
    reference = ReferenceEndpoint()
    try:
        with contextlib.suppress(EngineError):
            engine.start()
        return shrink(
            failing,
            lambda trial: replay(trial, engine, reference),
            max_attempts=attempts,
            max_seconds=seconds,
        )
    finally:
        engine.close()
