"""Fuzzing speed beside the engine's own: actions per second of `baloot fuzz`'s replays
and of the reference engine playing alone, in the same run.

    python benchmarks/fuzz_throughput.py [--seconds 2] [--repeats 3] [--seed 1] [--cprofile]

Interleaved (fuzz, fuzz, engine, fuzz, fuzz, engine, ...), so a busy machine
slows each alike; each figure is the best of the repeats, with the median.

- `fuzz, engine process`: the fuzzer's replays (`driver.replay`, the games
  `baloot fuzz --seed S` plays: two rounds, interesting totals, 5% illegal
  probes) against the reference adapter as an engine process, the way
  `baloot fuzz --engine "python -m baloot.conformance.adapters.reference_adapter"`
  runs: the reference in-process, the engine over the protocol's pipe, each
  game planned and sent in batches as it is planned. The trials are drawn
  inside the clock, and the garbage collector runs as in a campaign
  (`fewer_collections`).
- `fuzz, in-process engine`: the same replays against the reference adapter
  served in this process (`InProcessEngine`, JSON text both ways): the
  fuzzer's own cost, without the pipe and the other process.
- `engine alone, text`: the reference engine in this process, random legal
  actions through `legal_actions()` and `apply(text)`, a round dealt after
  each, a new game after each game: the speed the fuzzer is measured against.

Then the ratio, fuzz (engine process) over the engine alone; the target is
at least 0.15 (15%). Each row also gives this process's CPU time an action.
`--cprofile` then profiles the engine-process replays.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import baloot.reference_impl as api
from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.fuzz.driver import ReferenceEndpoint, Trial, random_trial, replays
from baloot.conformance.harness.collector import fewer_collections
from baloot.conformance.harness.engine_process import REFERENCE_ARGV, EngineProcess

ACTING = ("bidding", "raising", "playing")
TARGET = 0.15


@dataclass
class Tally:
    actions: int = 0
    games: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # this process's CPU seconds (not the engine process's)
    disagreements: int = 0

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def fuzz(engine: EngineProcess, seconds: float, seed: int, games: Iterator[int]) -> Tally:
    """Replays of the seed's games, in order, for `seconds` (whole games), as a campaign
    plays them (`replays`: the next game sent while the engine answers the last), with
    the garbage collector as a campaign runs it (`fewer_collections`)."""
    reference = ReferenceEndpoint()
    tally = Tally()
    start, cpu = time.perf_counter(), time.process_time()

    def trials() -> Iterator[Trial]:
        while time.perf_counter() - start < seconds:
            yield random_trial(seed, next(games), profile="literal")

    with fewer_collections():
        for found in replays(trials(), engine, reference):
            tally.actions += found.actions
            tally.games += 1
            tally.disagreements += found.disagreement is not None
    tally.seconds, tally.cpu = time.perf_counter() - start, time.process_time() - cpu
    return tally


def engine_alone(seconds: float, rng: random.Random) -> Tally:
    """Random legal actions on the reference engine, text API, for `seconds`."""
    decks = itertools.cycle([api.shuffled_deck(rng.randrange(10**6)) for _ in range(256)])
    tally = Tally()
    start, cpu = time.perf_counter(), time.process_time()
    game = api.new_game("literal", dealer=rng.randrange(4), deck=next(decks))
    while time.perf_counter() - start < seconds:
        phase = game.phase
        if phase in ACTING:
            game.apply(rng.choice(game.legal_actions()))
            tally.actions += 1
        elif phase == "game_over":
            game = api.new_game("literal", dealer=rng.randrange(4), deck=next(decks))
            tally.games += 1
        else:
            game.deal(next(decks))
    tally.seconds, tally.cpu = time.perf_counter() - start, time.process_time() - cpu
    return tally


def line(name: str, runs: list[Tally]) -> str:
    top = max(runs, key=lambda t: t.rate)
    median = statistics.median(t.rate for t in runs)
    cpu = 1e6 * top.cpu / top.actions if top.actions else 0.0
    return f"| {name:<26} | {top.rate:>10.0f} | {median:>10.0f} | {top.actions:>8} | {cpu:>8.1f} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per row and repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cprofile", action="store_true", help="then profile the engine-process replays"
    )
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    games = itertools.count()  # every row plays the seed's next games
    process = EngineProcess(REFERENCE_ARGV)
    inprocess = InProcessEngine()
    process.start()  # before the clock: a campaign starts its engine once
    inprocess.start()
    rows: list[tuple[str, Callable[[], Tally]]] = [
        ("fuzz, engine process", lambda: fuzz(process, args.seconds, args.seed, games)),
        ("fuzz, in-process engine", lambda: fuzz(inprocess, args.seconds, args.seed, games)),
        ("engine alone, text", lambda: engine_alone(args.seconds, rng)),
    ]
    results: dict[str, list[Tally]] = {name: [] for name, _ in rows}
    try:
        for _ in range(max(1, args.repeats)):
            for name, run in rows:
                results[name].append(run())
        print(
            f"Actions per second, best and median of {args.repeats} runs of {args.seconds:g} s "
            f"each (Python {sys.version.split()[0]}, profile literal)\n"
        )
        print("| what                       |  actions/s |     median |  actions | CPU µs/a |")
        print("|----------------------------|------------|------------|----------|----------|")
        for name, runs in results.items():
            print(line(name, runs))
        found = sum(t.disagreements for runs in results.values() for t in runs)
        alone = max(t.rate for t in results["engine alone, text"])
        piped = max(t.rate for t in results["fuzz, engine process"])
        local = max(t.rate for t in results["fuzz, in-process engine"])
        print(
            f"\nratio fuzz/engine alone: engine process {piped / alone:.3f}, "
            f"in-process engine {local / alone:.3f} (target: at least {TARGET:g})"
        )
        print(
            "CPU µs/a: this process's CPU time an action in the best run (the engine "
            "process's own is not counted); on a busy machine a steadier figure than the rates"
        )
        if found:
            print(f"\n{found} replay(s) found a disagreement: the reference disagrees with itself!")
        if args.cprofile:
            profiler = cProfile.Profile()
            profiler.runcall(fuzz, process, args.seconds, args.seed, games)
            print("\nWhere the fuzzer's time goes (engine process, cProfile, by own time)\n")
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    finally:
        process.close()
        inprocess.close()
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
