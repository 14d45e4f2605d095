"""A fuzzing campaign: many random games, every disagreement grouped, one case per group.

The handshake comes first: the engine's hello is read with
`declared.declared_from_hello` (its profile, readings and capabilities), and
the engine must accept a `start` with the readings it declared; either
failing is a `HandshakeFailed` or a `StartRefused`, with a one-line message.

Game `i` of seed `S` is `random_trial(S, i)`, the same on every machine;
shard `K/N` plays the games whose index is `K-1` modulo `N`, so N shards
split the seed space without overlap. Every game is played (the whole
budget): each disagreement is filed under its signature (kind, phase, what
differs, clause), with a count and the game of lowest index as its example.
Then each group's example is shrunk (each within the shrinking budget), but
for the groups the known-differences file lists. With several jobs, worker
processes (each with its own engine process) play the games and shrink the
groups; results are read in game order, so the example of a group is the
same whatever the number of jobs.

Ctrl-C or SIGTERM (a `KeyboardInterrupt` in this process, as `baloot conform`
reads it) stops the campaign at once, at any moment: every engine is killed
(the workers' with them: each kills its own on SIGTERM, and ignores Ctrl-C,
which its parent acts on), and the report holds the games played and the
groups shrunk so far, `interrupted` set.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import util
from typing import Any

from ..harness.collector import collect_less, fewer_collections
from ..harness.declared import DeclarationError, Declared, declared_from_hello
from ..harness.engine_process import (
    HANDSHAKE,
    LAUNCH,
    EngineError,
    EngineProcess,
    deferred_interrupts,
    stop_all,
)
from ..harness.protocol_notation import ALL_CARDS
from ..harness.variants import load_register
from .driver import (
    ReferenceEndpoint,
    Replay,
    Trial,
    random_trial,
    replay,
    replays,
    start_engine,
)
from .shrink import ShrinkStats, shrink


class HandshakeFailed(Exception):
    """The engine did not start, did not answer `hello`, or sent a hello that cannot be read."""


class StartRefused(Exception):
    """The engine refused (or failed) a `start` with the readings it declared."""


class ProfileNotImplemented(Exception):
    """`--profile` names a profile whose readings the engine does not all implement."""


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
    start_timeout: float = 30.0
    shard: tuple[int, int] = (1, 1)  # K of N, 1-based

    def indices(self) -> Iterator[int]:
        k, n = self.shard
        return (i for i in itertools.count() if i % n == k - 1)


@dataclass
class Group:
    """The disagreements of one signature."""

    signature: str
    count: int
    first_index: int  # the game of the example
    example: Replay
    known: str | None = None  # the reason, when the known-differences file lists it
    shrunk: Replay | None = None
    shrink_stats: ShrinkStats | None = None


@dataclass
class FuzzReport:
    games: int = 0
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    groups: dict[str, Group] = field(default_factory=dict)
    ended: Counter[str] = field(default_factory=Counter)  # games ended by a missing capability
    hello: dict[str, Any] = field(default_factory=dict)
    declared: Declared | None = None
    known: dict[str, str] = field(default_factory=dict)
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM: what is here is what was done
    shrinking: bool = False  # the games were all played and the groups being shrunk

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def new_groups(self) -> list[Group]:
        return [g for g in self.groups.values() if g.known is None]

    @property
    def unseen_known(self) -> list[str]:
        return sorted(s for s in self.known if s not in self.groups)


def _start_failure(exc: EngineError) -> str:
    """A failed start in conform's words: what happened, then its likely cause."""
    what = ("the engine could not be launched" if exc.reason == LAUNCH
            else "the engine failed the handshake")
    return f"{what}: {exc.detail}" + (f"; likely cause: {exc.hint}" if exc.hint else "")


def handshake(settings: Settings) -> tuple[dict[str, Any], Declared]:
    """Start the engine, read its hello, and check it starts a game as declared."""
    engine = EngineProcess(settings.argv, timeout=settings.timeout)
    try:
        try:
            hello = start_engine(engine, settings.start_timeout)
        except EngineError as exc:
            raise HandshakeFailed(_start_failure(exc)) from None
        register = load_register()
        try:
            declared = declared_from_hello(hello, register, settings.profile)
        except DeclarationError as exc:
            raise HandshakeFailed(f"the engine's hello cannot be read: {exc}") from None
        missing = declared.missing_readings({})
        if missing:
            raise ProfileNotImplemented(
                f"--profile {declared.profile}: the engine does not implement " + ", ".join(missing)
            )
        overrides = declared.off_profile_readings()
        setup = {
            "profile": declared.profile,
            "overrides": overrides,
            "dealer": 0,
            "deck": list(ALL_CARDS),
        }
        played = f"the {declared.profile} profile" + (
            " with " + ", ".join(f"{v}={r}" for v, r in sorted(overrides.items()))
            if overrides
            else ""
        )
        try:
            reply = engine.request(
                {"type": "start", "setup": setup}, timeout=settings.start_timeout
            )
        except EngineError as exc:
            if exc.reason == HANDSHAKE:  # a second hello reply, read now
                raise HandshakeFailed(f"the engine failed the handshake: {exc.detail}") from None
            raise StartRefused(
                f"the engine failed to start a game under {played}: {exc.reason}: {exc.detail}"
            ) from None
        if not reply.get("ok"):
            reason = (reply.get("refused") or {}).get("reason") or reply
            raise StartRefused(
                f"the engine refused to start a game under {played}, "
                f"the readings it declared: {reason}"
            )
        return hello, declared
    finally:
        engine.close()


def trial_for(settings: Settings, declared: Declared, index: int) -> Trial:
    varied = {v: sorted(r) for v, r in declared.implemented.items() if len(r) > 1}
    return random_trial(
        settings.seed,
        index,
        profile=declared.profile,
        base=declared.off_profile_readings(),
        readings=varied if settings.vary_readings else None,
        game_rounds=settings.game_rounds,
        totals=settings.totals,
        probes=settings.probes,
        capabilities=declared.capabilities,
    )


# ---- the workers ---------------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init_worker(settings: Settings, declared: Declared) -> None:
    engine = EngineProcess(settings.argv, timeout=settings.timeout)
    _worker.update(settings=settings, declared=declared, engine=engine, reference=None)
    util.Finalize(None, engine.close, exitpriority=10)


@contextlib.contextmanager
def _worker_here(settings: Settings, declared: Declared) -> Iterator[None]:
    """This process as the only worker, its engine closed after."""
    _init_worker(settings, declared)
    try:
        yield
    finally:
        _worker["engine"].close()


def _init_pool_worker(settings: Settings, declared: Declared) -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent acts on it and
    # ends the workers with SIGTERM, on which each kills its engine and ends at once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_stopped)
    _init_worker(settings, declared)
    collect_less()  # for the worker's life: it only replays


def _worker_stopped(signum: int, frame: object) -> None:
    stop_all()
    os._exit(128 + signum)


def _stop_workers() -> None:
    """End the worker processes at once (SIGTERM: each kills its engine first)."""
    for worker in multiprocessing.active_children():
        with contextlib.suppress(OSError):
            if worker.pid is not None:
                os.kill(worker.pid, signal.SIGTERM)


def _reference() -> ReferenceEndpoint:
    if _worker.get("reference") is None:
        _worker["reference"] = ReferenceEndpoint()
    reference: ReferenceEndpoint = _worker["reference"]
    return reference


def _games(indices: Iterable[int]) -> Generator[Replay, None, None]:
    """The worker's replays of these games, each sent while the engine answers the last
    (`replays`)."""
    settings: Settings = _worker["settings"]
    trials = (trial_for(settings, _worker["declared"], i) for i in indices)
    return replays(trials, _worker["engine"], _reference(), start_timeout=settings.start_timeout)


def _play(indices: list[int]) -> list[tuple[int, Replay]]:
    """A block of games, in a worker process."""
    return list(zip(indices, _games(indices), strict=True))


def _played(
    settings: Settings, declared: Declared, jobs: int, indices: list[int]
) -> Generator[tuple[int, Replay], None, None]:
    """Every game's replay, in game order: in this process one by one as each is played,
    or in blocks of `BLOCK` games from the workers."""
    if jobs <= 1 or len(indices) <= 1:
        with _worker_here(settings, declared):
            found = _games(indices)
            try:
                for index in indices:
                    with fewer_collections():  # not while the caller has the results
                        result = next(found)
                    yield index, result
            finally:
                found.close()  # replies still due are read before the engine closes
        return
    blocks = [indices[at : at + BLOCK] for at in range(0, len(indices), BLOCK)]
    for block in _pooled(settings, declared, jobs, _play, blocks):
        yield from block


BLOCK = 8  # games a worker plays in one go (each sent as the one before is answered)


def _shrink_one(job: tuple[Replay, int, float]) -> tuple[Replay, ShrinkStats]:
    failing, attempts, seconds = job
    settings: Settings = _worker["settings"]
    engine: EngineProcess = _worker["engine"]
    reference = _reference()
    with contextlib.suppress(EngineError):
        if not engine.running:
            start_engine(engine, settings.start_timeout)
    return shrink(
        failing,
        lambda trial: replay(trial, engine, reference, start_timeout=settings.start_timeout),
        max_attempts=attempts,
        max_seconds=seconds,
    )


def _pooled(
    settings: Settings, declared: Declared, jobs: int, work: Callable[[Any], Any], items: list[Any]
) -> Generator[Any, None, None]:
    if jobs <= 1 or len(items) <= 1:
        with _worker_here(settings, declared):
            for item in items:
                with fewer_collections():  # not while the caller has the results
                    done = work(item)
                yield done
        return
    workers = min(jobs, len(items))
    with ProcessPoolExecutor(
        workers, initializer=_init_pool_worker, initargs=(settings, declared)
    ) as pool:
        try:
            # the workers are forked as the work is handed out: Ctrl-C or SIGTERM in
            # a fork would be raised in its hooks, printed there and lost
            with deferred_interrupts():
                results = pool.map(work, items)
            yield from results
        except KeyboardInterrupt:
            _stop_workers()  # not to wait for their work in hand
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def run_campaign(
    settings: Settings,
    *,
    jobs: int = 1,
    do_shrink: bool = True,
    shrink_attempts: int = 600,
    shrink_seconds: float = 60.0,
    known: dict[str, str] | None = None,
    on_game: Callable[[int, Replay], None] | None = None,
    on_shrunk: Callable[[Group], None] | None = None,
    report: FuzzReport | None = None,
) -> FuzzReport:
    """Play every game of the settings; group the disagreements; shrink the new groups
    (`on_shrunk` is told of each as it is done).

    Raises HandshakeFailed or StartRefused before any game when the engine cannot play.
    Ctrl-C or SIGTERM (KeyboardInterrupt) stops it with every engine killed; the report
    (`report`, filled as the campaign goes, so a caller holds it should the interrupt
    come as this returns) is what was done, `interrupted` set."""
    report = report if report is not None else FuzzReport()
    report.known = dict(known or report.known)
    began = time.monotonic()
    running: list[Generator[Any, None, None]] = []
    try:
        report.hello, report.declared = handshake(settings)
        began = time.monotonic()
        indices = list(itertools.islice(settings.indices(), settings.games))
        running.append(_played(settings, report.declared, jobs, indices))
        for index, result in running[-1]:
            _tally(report, index, result)
            if on_game:
                on_game(index, result)
        report.seconds = time.monotonic() - began
        if do_shrink:
            report.shrinking = True
            pending = report.new_groups
            running.append(_pooled(
                settings,
                report.declared,
                jobs,
                _shrink_one,
                [(g.example, shrink_attempts, shrink_seconds) for g in pending],
            ))
            for group, (best, stats) in zip(pending, running[-1], strict=True):
                group.shrunk, group.shrink_stats = best, stats
                if on_shrunk:
                    on_shrunk(group)
    except KeyboardInterrupt:
        report.interrupted = True
        stop_all()  # first: the games' replies due are not waited for
        _stop_workers()
    finally:
        for work in reversed(running):
            work.close()
        if not report.shrinking:
            report.seconds = time.monotonic() - began
    return report


def _tally(report: FuzzReport, index: int, result: Replay) -> None:
    report.games += 1
    report.rounds += len(result.rounds)
    report.actions += result.actions
    if result.ended:
        report.ended[result.ended] += 1
    signature = result.signature
    if signature is None:
        return
    group = report.groups.get(signature)
    if group is None:
        group = Group(signature, 0, index, result, report.known.get(signature))
        report.groups[signature] = group
    group.count += 1
