"""Random complete rounds per second: the reference Baloot engine beside jass-kit's Schieber.

    python benchmarks/engine_rounds.py [--seconds 2] [--repeats 3] [--profile literal]
                                       [--compiled DIR] [--cprofile]

Both engines play rounds with random legal actions, in the same run and
interleaved (ours, jass-kit, ours, jass-kit, ...), so a busy machine slows
both alike; each figure is the best of the repeats.

The reference engine (a round: the deal, the bidding in one or two sessions,
the raises, the projects of the first trick, the 32 cards, the scoring):

- `records`: `legal_action_records()` and `apply(record)`, no text at all;
- `text`:    `legal_actions()` and `apply(text)`, the conformance protocol's way;

a hand with no bid is dealt again and counts toward the round that follows;
when a game ends a new one starts (its setup counts too). The decks come from
a pool shuffled before the clock starts, as do the hands of jass-kit's lean
loop; jass-kit's arena deals inside its own loop.

jass-kit 2 (pure Python on numpy; a Schieber round: the trump choice, which
the forehand may push to the partner, then 36 cards scored trick by trick):

- `lean`:  `GameSim` driven directly, `RuleSchieber.get_valid_cards_from_state`
           for the legal cards, a random choice among them;
- `arena`: jass-kit's own loop, `Arena.play_game` with four
           `AgentRandomSchieber` (observations, validity checks).

The ratio is ours (`records`) over jass-kit's faster loop (`lean`).

With `--compiled DIR`, also the same engine compiled with mypyc (`baloot gen
--compiled DIR`, built first when DIR holds no build of the engine as it stands):

- `compiled`: the `records` loop on that build, in a child process with DIR first
  on `PYTHONPATH` (one child a repeat, interleaved with the others; the child's
  start and imports are not timed);

and its ratio over jass-kit's `lean` as well.

Then rounds per second over sessions of 1, 10 and 100 rounds on one `Game`
(records API): a session starts a new game and deals round after round; a
Baloot game ends at 152 points, after about 8 random rounds, so a session
that outlasts its game goes on in a new game (`new_game`, its cost counted).
Also the mean time of a round by its place in its game (1st, 2nd to 5th,
6th and later), from the 100-round sessions: flat figures mean a round costs
the same however long the game has run.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from baloot.reference_impl import Game, new_game
from baloot.reference_impl.readings import PROFILES

DECK = [f"{rank}{suit}" for suit in "SHDC" for rank in ["7", "8", "9", "10", "J", "Q", "K", "A"]]
ACTING = ("bidding", "raising", "playing")
POOL = 512  # decks (hands for jass-kit) shuffled before the clock starts


@dataclass
class Tally:
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    by_place: dict[str, list[float]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0


# -- the reference engine ------------------------------------------------------------------


def deck(rng: random.Random) -> list[str]:
    cards = list(DECK)
    rng.shuffle(cards)
    return cards


def deck_pool(rng: random.Random) -> Iterator[list[str]]:
    """Decks shuffled before the clock starts, handed out in turn (jass-kit's lean loop
    gets its hands the same way): the time measured is the engine's, not the shuffle's."""
    return itertools.cycle([deck(rng) for _ in range(POOL)])


def play_round(game: Game, rng: random.Random, as_text: bool, decks: Iterator[list[str]]) -> int:
    """Play the dealt round to its end (dealing again after a hand with no bid); the actions."""
    actions = 0
    while True:
        phase = game.phase
        if phase in ACTING:
            if as_text:
                game.apply(rng.choice(game.legal_actions()))
            else:
                game.apply(rng.choice(game.legal_action_records()))
            actions += 1
        elif phase == "deal":  # everyone passed twice: the same round is dealt again
            game.deal(next(decks))
        else:
            return actions


def ready_round(game: Game, rng: random.Random, profile: str, decks: Iterator[list[str]]
                ) -> tuple[Game, bool]:
    """The game with a round dealt and ready to play: a new game after one ended (True),
    else the next round dealt if the last one is over (False)."""
    if game.phase == "game_over":
        return new_game(profile, dealer=rng.randrange(4), deck=next(decks)), True
    if game.phase == "round_over":
        game.deal(next(decks))
    return game, False


def ours(seconds: float, rng: random.Random, profile: str, as_text: bool) -> Tally:
    tally = Tally()
    decks = deck_pool(rng)
    start = time.perf_counter()
    game = new_game(profile, dealer=rng.randrange(4), deck=next(decks))
    while time.perf_counter() - start < seconds:
        game, _ = ready_round(game, rng, profile, decks)
        tally.actions += play_round(game, rng, as_text, decks)
        tally.rounds += 1
    tally.seconds = time.perf_counter() - start
    return tally


def sessions(session_rounds: int, seconds: float, rng: random.Random, profile: str) -> Tally:
    """Sessions of a fixed number of rounds on one Game, a new game whenever one ends."""
    tally = Tally()
    places: dict[str, list[float]] = {"1st": [], "2nd-5th": [], "6th+": []}
    spent = 0.0
    decks = deck_pool(rng)
    while spent < seconds or tally.rounds < session_rounds:
        begin = time.perf_counter()
        game = new_game(profile, dealer=rng.randrange(4), deck=next(decks))
        place = 1
        for _ in range(session_rounds):
            game, new = ready_round(game, rng, profile, decks)
            if new:
                place = 1
            round_start = time.perf_counter()
            tally.actions += play_round(game, rng, False, decks)
            took = time.perf_counter() - round_start
            places["1st" if place == 1 else "2nd-5th" if place <= 5 else "6th+"].append(took)
            place += 1
            tally.rounds += 1
        spent += time.perf_counter() - begin
    tally.seconds = spent
    tally.by_place = places
    return tally


# -- the reference engine compiled -----------------------------------------------------------

COMPILED_ROW = "baloot reference, compiled"


def compiled_build(folder: Path) -> Path:
    """The engine compiled with mypyc in `folder`, built first unless already there."""
    from baloot.backends.python.compiled_engine import build
    from baloot.grammar.parser import load_spec

    made = build(load_spec(), folder)
    return made.folder


def compiled_child(folder: Path, seconds: float, seed: int, profile: str) -> Tally:
    """The records loop run on the compiled build, in a child process (the child checks
    that it runs the compiled rules)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(folder), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, __file__, "--child", str(seconds), str(seed), profile],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the compiled engine's run failed:\n{done.stderr.strip()}")
    return Tally(**json.loads(done.stdout))


def child(seconds: float, seed: int, profile: str) -> int:
    """`--child`: the records loop, its tally printed as JSON, on the compiled rules only."""
    from baloot.reference_impl import is_compiled

    if not is_compiled():
        print("the child found the interpreted engine, not the compiled build", file=sys.stderr)
        return 1
    print(json.dumps(asdict(ours(seconds, random.Random(seed), profile, False))))
    return 0


# -- jass-kit --------------------------------------------------------------------------------


def jass_lean(seconds: float, rng: random.Random) -> Tally:
    import numpy as np
    from jass.game.const import MAX_TRUMP, PUSH
    from jass.game.game_sim import GameSim
    from jass.game.game_util import deal_random_hand
    from jass.game.rule_schieber import RuleSchieber

    np.random.seed(rng.randrange(2**32))
    rule = RuleSchieber()
    sim = GameSim(rule=rule)
    tally = Tally()
    hands = itertools.cycle([deal_random_hand() for _ in range(POOL)])
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        sim.init_from_cards(hands=next(hands), dealer=rng.randrange(4))
        trump = rng.choice([PUSH, *range(MAX_TRUMP + 1)])
        sim.action_trump(trump)
        tally.actions += 1
        if trump == PUSH:
            sim.action_trump(rng.randrange(MAX_TRUMP + 1))
            tally.actions += 1
        while not sim.is_done():
            valid = np.flatnonzero(rule.get_valid_cards_from_state(sim.state))
            sim.action_play_card(int(valid[rng.randrange(len(valid))]))
            tally.actions += 1
        tally.rounds += 1
    tally.seconds = time.perf_counter() - start
    return tally


def jass_arena(seconds: float, rng: random.Random) -> Tally:
    import numpy as np
    from jass.agents.agent_random_schieber import AgentRandomSchieber
    from jass.arena.arena import Arena

    np.random.seed(rng.randrange(2**32))
    chunk = 50
    tally = Tally()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        arena = Arena(nr_games_to_play=chunk, print_every_x_games=10**9)
        arena.set_players(*[AgentRandomSchieber() for _ in range(4)])
        for i in range(chunk):
            arena.play_game(dealer=i % 4)
        tally.rounds += chunk
        tally.actions += chunk * 37  # 36 cards and at least one trump action
    tally.seconds = time.perf_counter() - start
    return tally


# -- the run ---------------------------------------------------------------------------------


def best(runs: list[Tally]) -> Tally:
    return max(runs, key=lambda t: t.rate)


def line(name: str, runs: list[Tally]) -> str:
    top = best(runs)
    rates = [t.rate for t in runs]
    per_action = top.actions / top.seconds if top.seconds else 0.0
    return (f"| {name:<28} | {top.rate:>9.0f} | {statistics.median(rates):>9.0f} | "
            f"{top.actions / max(top.rounds, 1):>8.1f} | {per_action:>10.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per engine and repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", default="literal", choices=sorted(PROFILES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-jass", action="store_true", help="skip jass-kit")
    parser.add_argument("--cprofile", action="store_true",
                        help="then profile the reference engine and print where the time goes")
    parser.add_argument("--compiled", type=Path, metavar="DIR",
                        help="also time the engine compiled with mypyc in DIR (built if need be)")
    parser.add_argument("--child", nargs=3, metavar=("SECONDS", "SEED", "PROFILE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(float(args.child[0]), int(args.child[1]), args.child[2])
    rng = random.Random(args.seed)

    try:
        import jass.game.game_sim  # noqa: F401
        have_jass = not args.no_jass
    except ImportError:
        have_jass = False
        print("jass-kit is not installed: pip install -e '.[bench]' (or pip install jass-kit)\n")

    results: dict[str, list[Tally]] = {}
    runners: list[tuple[str, Callable[[], Tally]]] = [
        ("baloot reference, records", lambda: ours(args.seconds, rng, args.profile, False)),
        ("baloot reference, text", lambda: ours(args.seconds, rng, args.profile, True)),
    ]
    if args.compiled is not None:
        folder = compiled_build(args.compiled)
        runners.append((COMPILED_ROW, lambda: compiled_child(
            folder, args.seconds, rng.randrange(2**32), args.profile)))
    if have_jass:
        runners += [("jass-kit Schieber, lean", lambda: jass_lean(args.seconds, rng)),
                    ("jass-kit Schieber, arena", lambda: jass_arena(args.seconds, rng))]
    for _ in range(args.repeats):
        for name, run in runners:
            results.setdefault(name, []).append(run())

    print(f"Random complete rounds, best and median of {args.repeats} runs of "
          f"{args.seconds:g} s each (Python {sys.version.split()[0]}, profile {args.profile})\n")
    print("| engine                       |  rounds/s |    median | act/round |  actions/s |")
    print("|------------------------------|-----------|-----------|-----------|------------|")
    for name in results:
        print(line(name, results[name]))
    if have_jass:
        ours_rate = best(results["baloot reference, records"]).rate
        text_rate = best(results["baloot reference, text"]).rate
        lean = best(results["jass-kit Schieber, lean"]).rate
        arena = best(results["jass-kit Schieber, arena"]).rate
        print(f"\nratio ours/jass-kit: records/lean {ours_rate / lean:.2f}x, "
              f"text/lean {text_rate / lean:.2f}x, records/arena {ours_rate / arena:.2f}x "
              "(target: records/lean 1.5x)")
        if COMPILED_ROW in results:
            compiled_rate = best(results[COMPILED_ROW]).rate
            print(f"compiled with mypyc: compiled/lean {compiled_rate / lean:.2f}x, "
                  f"compiled/records {compiled_rate / ours_rate:.2f}x")

    print("\nRounds per second over sessions of N rounds on one Game (records; a new game "
          "starts whenever one ends, its setup counted)\n")
    print("| rounds a session |  rounds/s | ms/round |")
    print("|------------------|-----------|----------|")
    long_run: Tally | None = None
    for n in (1, 10, 100):
        runs = [sessions(n, args.seconds, rng, args.profile) for _ in range(args.repeats)]
        top = best(runs)
        print(f"| {n:>16} | {top.rate:>9.0f} | {1000 / top.rate:>8.2f} |")
        if n == 100:
            long_run = top
    if long_run is not None:
        print("\nMean time of a round by its place in its game (100-round sessions)\n")
        print("| place in game | rounds |  ms/round |")
        print("|---------------|--------|-----------|")
        for place, times in long_run.by_place.items():
            if times:
                print(f"| {place:<13} | {len(times):>6} | {1000 * statistics.mean(times):>9.2f} |")

    if args.cprofile:
        profiler = cProfile.Profile()
        profiler.runcall(ours, args.seconds, rng, args.profile, False)
        print("\nWhere the reference engine's time goes (records API, cProfile, by own time)\n")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
