"""`baloot explore --impact`: how often each ambiguity matters in play.

For every variant and every pair of its readings, the share of random rounds in
which the two readings give a different legal set at some decision point, or a
different round result, and the share in which the winner changes. Every
other variant is held at a base profile (`literal` unless `--profile` names
another).

**A round.** Round `i` of seed `s` is drawn from `random.Random("baloot-impact:
s:i")` alone: the dealer (uniform over the seats), the deck (uniformly
shuffled), the running totals it starts from (each team uniform in 0 to
`game_target - 1`, so rounds near the end of a game are as likely as early
ones), then the choice draws. It is played from its deal to its result; when
everyone passes twice the next deal comes from `Random("baloot-impact:s:i:
deal:j")` for the `j`-th redeal, up to `REDEALS` of them, and a round is cut
after `ROUND_STEPS` decisions (a cut round has no result).

**The choice policy.** At the `n`-th decision of the round, with `legal` the
legal actions sorted by their text and `u_n` the round's `n`-th draw: when a
declaration is legal, the declaration `floor(u_n * k)` of the `k` legal ones
(a player declares every project it may); otherwise each action has a weight
(`pass` 8, a hokum call 4, any other action 1, by the action's first word) and
the action taken is the one whose share of the total weight holds `u_n`. It
is a stable rule of the legal set, not a model of good play; it passes often
enough that about a third of the rounds are played in hokum, a fifth of those
raised (2,000 rounds counted), where a uniform choice bids sun in nearly every
round. The same draws serve every reading: while two readings list the same
legal actions they take the same action, so they play the same round. Once
their legal sets differ (a player who may declare under one and not the
other, a card one forbids) the round counts as differing from that point; each
reading then plays on by the same rule, with the same draws, to its own
result, which decides whether the winner changes.

**What is compared.** A decision is the player to act and the sorted legal
actions; a reading's trace is its decisions in order. Two readings differ in a
round when their traces differ (`legal`: a different legal set at the first
point where they part) or, with the same trace, their results (`RoundResult`,
every field) differ. The winner is the team that wins the game when the
round ends it, else the round's winner (the bidding team when it succeeds,
the other team when it fails); a cut round has none.

**How it is measured cheaply.** Playing every reading of every variant
through every round costs 44 games a round. Instead each round is played once
under the base readings with every reading made a *probe*: a text that, when a
rule compares it, raises `Consulted` naming its variant. A step (the player to
act, the legal actions, the chosen action applied, or a redeal) that raises is
played again with that variant at its base reading, until the step passes; the
variants that raised are those the step consults. Only for them is the step
played under their other readings, and a reading leaves the shared course when
its decision or its next state differs; it then plays on alone. A step that
consults no variant is the same under every choice of readings, so the shared
course is exact; `measure_round_plain` plays every reading separately and the
tests check that both give the same counts.

Rounds, not seconds, bound the work: the counts are the same on every machine,
for any `--jobs` and any split into shards (`--shard K/N` plays the rounds `i`
with `i % N == K - 1`), and shards add up exactly (`merge`).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..grammar import model as m
from ..reference_impl import definitions, runtime
from ..reference_impl.readings import VARIANTS, Readings, readings_of
from ..reference_impl.runtime import Game

FORMAT = 1
COMMAND = "baloot explore --impact"
MEASURE = 1  # the version of the definitions above: files of other versions do not merge
ROUNDS = 20_000  # the default number of rounds
WEIGHTS = {"pass": 8, "hokum": 4}  # the policy's weights by first word; any other action 1
WEIGHED = {"pass": "pass", "hokum": "a hokum call"}  # how the file names them
ROUND_STEPS = 200  # the most decisions a round is played for
REDEALS = 3  # the most redeals (everyone passed twice) in a round
CHUNK = 200  # rounds per task of a worker process
Z95 = 1.959963984540054  # the standard normal quantile of 0.975
PLAYING = ("bidding", "raising", "playing")
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")


def default_path() -> Path:
    """`explorer/results/impact.json`, beside this module."""
    return Path(__file__).resolve().parent / "results" / "impact.json"


# ------------------------------------------------------------- statistics --


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share: (low, high); (0, 1) for no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


# ------------------------------------------------------------------ plan --


@dataclass(frozen=True)
class VariantPlan:
    name: str
    id: str
    readings: tuple[str, ...]  # in the spec's order
    base: str  # the base profile's reading

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(itertools.combinations(self.readings, 2))


@dataclass(frozen=True)
class Plan:
    """What a measurement reads: the base profile, the variants, the seed and the rounds."""

    profile: str
    variants: tuple[VariantPlan, ...]
    target: int  # the game target: starting totals are drawn below it
    seed: int
    rounds: int

    @property
    def pairs(self) -> list[tuple[VariantPlan, str, str]]:
        return [(v, a, b) for v in self.variants for a, b in v.pairs]


def make_plan(spec: m.Spec, profile: str | None = None, seed: int = 1,
              rounds: int = ROUNDS, variants: Sequence[str] | None = None) -> Plan:
    """Every variant of the spec (or those named), at the base profile (default: the first)."""
    name = profile or spec.profiles[0].name
    base = spec.profile(name).readings()
    chosen = tuple(VariantPlan(v.name, v.id, v.reading_names, base[v.name])
                   for v in spec.variants if not variants or v.name in variants)
    return Plan(name, chosen, spec.const("game_target").value, seed, rounds)


# ---------------------------------------------------------------- rounds --


class RoundSetup:
    """The deal, the starting totals and the draws of one round, fixed by seed and index."""

    def __init__(self, plan: Plan, index: int) -> None:
        self.key = f"baloot-impact:{plan.seed}:{index}"
        self.rng = random.Random(self.key)
        self.dealer = self.rng.randrange(4)
        self.deck = _shuffled(self.rng)
        self.totals = [self.rng.randrange(plan.target), self.rng.randrange(plan.target)]
        self.draws: list[float] = []

    def draw(self, n: int) -> float:
        """The round's `n`-th choice draw (drawn in order, whoever asks first)."""
        while len(self.draws) <= n:
            self.draws.append(self.rng.random())
        return self.draws[n]

    def redeal(self, j: int) -> list[str]:
        """The deck of the round's `j`-th redeal."""
        return _shuffled(random.Random(f"{self.key}:deal:{j}"))


def _shuffled(rng: random.Random) -> list[str]:
    cards = [r + s for s in "SHDC" for r in RANKS]
    rng.shuffle(cards)
    return cards


Decision = tuple[int | None, tuple[str, ...]]  # the player to act, the sorted legal actions


@dataclass(frozen=True)
class Move:
    """One step of a course: the decision taken (None for a redeal) and the state after."""

    decision: Decision | None
    state: definitions.Game

    def same(self, other: Move) -> bool:
        return self.decision == other.decision and self.state == other.state


@dataclass
class Course:
    """A round as some readings play it: the state, the decisions so far, the redeals."""

    state: definitions.Game
    trace: list[Decision] = field(default_factory=list)
    redeals: int = 0
    over: bool = False

    def copy(self) -> Course:
        return Course(self.state, list(self.trace), self.redeals, self.over)

    def take(self, move: Move, phase: str) -> None:
        self.state = move.state
        if move.decision is None:
            self.redeals += 1
        else:
            self.trace.append(move.decision)
        after = phase
        self.over = (after not in PLAYING and after != "deal") or \
            (after == "deal" and self.redeals >= REDEALS) or \
            len(self.trace) >= ROUND_STEPS or (move.decision is not None and not move.decision[1])

    def result(self) -> definitions.RoundResult | None:
        """The round's result; None for a round cut short."""
        if self.state.phase.value in PLAYING or self.state.phase.value == "deal":
            return None
        result: definitions.RoundResult | None = self.state.last_result
        return result


def advance(readings: Readings, course: Course, setup: RoundSetup) -> tuple[Move, str]:
    """The course's next step under `readings` by the policy, and the phase after it."""
    return step(Game(readings, course.state), course,
                lambda legal: choose(legal, setup.draw(len(course.trace))), setup.redeal)


def step(g: Game, course: Course, pick: Callable[[tuple[str, ...]], str],
         redeal: Callable[[int], list[str]]) -> tuple[Move, str]:
    """One step of `g` (which stands where `course` does): a redeal (the `j`-th deck
    `redeal(j)`), or the decision (the player to act, the sorted legal actions) and the
    action `pick(legal)` applied; and the phase after it."""
    if g.phase == "deal":
        g.deal(redeal(course.redeals))
        return Move(None, g.state), g.phase
    player = g.current_player
    legal = tuple(sorted(g.legal_actions()))
    if legal:
        g.apply(pick(legal))
    return Move((player, legal), g.state), g.phase


def replay(profile: str, overrides: dict[str, str], dealer: int, deck: list[str],
           totals: list[int] | None, actions: Sequence[str],
           redeal: list[str] | None = None) -> Course:
    """The course of a scripted play (an explorer witness) under the profile with
    `overrides`: its actions in order, then its second deal, then the decision it stands
    at, as `compare` reads courses."""
    g = runtime.new_game(profile, overrides, dealer=dealer, deck=deck, totals=totals)
    course = Course(g.state)

    def second_deal(j: int) -> list[str]:
        if redeal is None:
            raise ValueError("the script deals again but names no second deck")
        return redeal

    script = iter(actions)

    def scripted(legal: tuple[str, ...]) -> str:
        return next(script)

    for _ in actions:
        course.take(*step(g, course, scripted, second_deal))
    if g.phase == "deal" and redeal is not None:
        course.take(*step(g, course, lambda legal: legal[0], second_deal))
    if g.phase in PLAYING:  # the decision the script stops at
        course.trace.append((g.current_player, tuple(sorted(g.legal_actions()))))
    return course


def choose(legal: Sequence[str], u: float) -> str:
    """The policy's action among the sorted legal actions, for the draw `u` in [0, 1)."""
    declarations = [a for a in legal if a.startswith("declare ")]
    if declarations:
        return declarations[int(u * len(declarations))]
    weights = [WEIGHTS.get(a.split(" ", 1)[0], 1) for a in legal]
    mark = int(u * sum(weights))  # a whole number below the total weight
    for action, weight in zip(legal, weights, strict=True):
        mark -= weight
        if mark < 0:
            return action
    return legal[-1]


def winner(result: definitions.RoundResult | None) -> int | None:
    """The team that wins the game when the round ends it, else the round's winner."""
    if result is None:
        return None
    if result.game_over:
        return result.winner
    return result.round_winner


# ---------------------------------------------------------------- probes --


class Consulted(Exception):
    """A rule compared a probe reading: the variant is consulted at this step."""

    def __init__(self, variant: str) -> None:
        super().__init__(variant)
        self.variant = variant


class Probe(str):
    """A reading that is none of the variant's: comparing it raises `Consulted`."""

    variant: str

    def __new__(cls, variant: str) -> Probe:
        probe = super().__new__(cls, f"\x00probe:{variant}")
        probe.variant = variant
        return probe

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        raise Consulted(self.variant)

    def __ne__(self, other: object) -> bool:
        if other is self:
            return False
        raise Consulted(self.variant)

    __hash__ = str.__hash__


# One probe per variant and one readings object per choice of probes, in the whole
# process: the engine keeps readings objects (equal readings are one object), and two
# probes of one variant compared there would raise.
_PROBES: dict[str, Probe] = {}
_PROBE_READINGS: dict[tuple[Readings, frozenset[str]], Readings] = {}


def probe_readings(base: Readings, poisoned: frozenset[str]) -> Readings:
    """The readings `base` with the variants `poisoned` made probes."""
    key = (base, poisoned)
    found = _PROBE_READINGS.get(key)
    if found is None:
        values = tuple(_PROBES.setdefault(f, Probe(f)) if f in poisoned else getattr(base, f)
                       for f in VARIANTS)  # in field order; a probe is no reading: unchecked
        found = _PROBE_READINGS[key] = readings_of(values)
    return found


class Engine:
    """The readings objects of one plan: each variant at each reading, and probes."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.base = runtime.choose_readings(plan.profile)
        self._single: dict[tuple[str, str], Readings] = {}
        self._probes: dict[frozenset[str], Readings] = {}

    def single(self, variant: str, reading: str) -> Readings:
        """The base readings with one variant at `reading`."""
        key = (variant, reading)
        found = self._single.get(key)
        if found is None:
            found = self._single[key] = runtime.choose_readings(self.plan.profile,
                                                                {variant: reading})
        return found

    def probe(self, poisoned: Iterable[str]) -> Readings:
        """The base readings with the variants `poisoned` made probes."""
        key = frozenset(poisoned)
        found = self._probes.get(key)
        if found is None:
            found = self._probes[key] = probe_readings(self.base, key)
        return found

    def start(self, setup: RoundSetup, readings: dict[str, str] | None = None) -> Course:
        g = runtime.new_game(self.plan.profile, readings, dealer=setup.dealer,
                             deck=setup.deck, totals=setup.totals)
        return Course(g.state, over=g.phase not in PLAYING)


# --------------------------------------------------------------- a round --

PairOutcome = tuple[bool, bool, bool]  # differ, a different legal set, the winner changes


def compare(a: Course, b: Course) -> PairOutcome:
    legal = a.trace != b.trace
    ra, rb = a.result(), b.result()
    return legal or ra != rb, legal, winner(ra) != winner(rb)


def measure_round(engine: Engine, index: int) -> list[PairOutcome]:
    """Each pair's outcome in round `index`, the shared course played once (see above)."""
    plan = engine.plan
    setup = RoundSetup(plan, index)
    main = engine.start(setup)
    everything = set(VARIANTS)
    sides: dict[str, list[tuple[tuple[str, ...], Course]]] = {v.name: [] for v in plan.variants}
    apart: dict[str, set[str]] = {v.name: set() for v in plan.variants}
    by_name = {v.name: v for v in plan.variants}
    while not main.over:
        consulted: list[str] = []
        while True:
            try:
                move, phase = advance(engine.probe(everything - set(consulted)), main, setup)
                break
            except Consulted as c:
                if c.variant in consulted:  # a base reading cannot raise: a probe leaked
                    raise
                consulted.append(c.variant)
        for name in consulted:
            v = by_name.get(name)
            if v is None:
                continue
            others = [r for r in v.readings if r != v.base and r not in apart[name]]
            groups: list[tuple[list[str], Move, str]] = []
            for r in others:
                alt, alt_phase = advance(engine.single(name, r), main, setup)
                if alt.same(move):
                    continue
                group = next((g for g in groups if g[1].same(alt)), None)
                if group is None:
                    groups.append(([r], alt, alt_phase))
                else:
                    group[0].append(r)
            for readings, alt, alt_phase in groups:
                course = main.copy()
                course.take(alt, alt_phase)
                sides[name].append((tuple(readings), course))
                apart[name].update(readings)
        main.take(move, phase)
    outcomes: list[PairOutcome] = []
    for v in plan.variants:
        courses = {r: main for r in v.readings}
        for apart_readings, course in _play_sides(engine, v.name, sides[v.name], setup):
            courses.update({r: course for r in apart_readings})
        outcomes.extend(compare(courses[a], courses[b]) for a, b in v.pairs)
    return outcomes


def _play_sides(engine: Engine, variant: str, sides: list[tuple[tuple[str, ...], Course]],
                setup: RoundSetup) -> Iterator[tuple[tuple[str, ...], Course]]:
    """Each side course played to its end, split where its readings part."""
    todo = list(sides)
    while todo:
        readings, course = todo.pop(0)
        while not course.over:
            if len(readings) == 1:
                course.take(*advance(engine.single(variant, readings[0]), course, setup))
                continue
            try:
                course.take(*advance(engine.probe([variant]), course, setup))
                continue
            except Consulted:
                pass
            moves = [(r, *advance(engine.single(variant, r), course, setup)) for r in readings]
            groups: list[tuple[list[str], Move, str]] = []
            for r, move, phase in moves:
                group = next((g for g in groups if g[1].same(move)), None)
                if group is None:
                    groups.append(([r], move, phase))
                else:
                    group[0].append(r)
            for rest, move, phase in groups[1:]:
                split = course.copy()
                split.take(move, phase)
                todo.append((tuple(rest), split))
            readings = tuple(groups[0][0])
            course.take(groups[0][1], groups[0][2])
        yield readings, course


def measure_round_plain(engine: Engine, index: int) -> list[PairOutcome]:
    """The same outcomes, every reading of every variant played through on its own."""
    plan = engine.plan
    setup = RoundSetup(plan, index)
    outcomes: list[PairOutcome] = []
    for v in plan.variants:
        courses: dict[str, Course] = {}
        for r in v.readings:
            readings = engine.single(v.name, r)
            course = engine.start(setup, {v.name: r})
            while not course.over:
                course.take(*advance(readings, course, setup))
            courses[r] = course
        outcomes.extend(compare(courses[a], courses[b]) for a, b in v.pairs)
    return outcomes


# ---------------------------------------------------------------- counts --


@dataclass
class Counts:
    """Per pair of readings (in plan order): rounds played, rounds that differ, rounds
    whose legal sets differ, rounds whose winner changes."""

    rounds: list[int]
    differ: list[int]
    legal: list[int]
    winner: list[int]

    @classmethod
    def zero(cls, pairs: int) -> Counts:
        return cls([0] * pairs, [0] * pairs, [0] * pairs, [0] * pairs)

    def add_round(self, outcomes: list[PairOutcome]) -> None:
        for i, (differ, legal, changed) in enumerate(outcomes):
            self.rounds[i] += 1
            self.differ[i] += differ
            self.legal[i] += legal
            self.winner[i] += changed

    def add(self, other: Counts) -> None:
        for mine, theirs in ((self.rounds, other.rounds), (self.differ, other.differ),
                             (self.legal, other.legal), (self.winner, other.winner)):
            for i, n in enumerate(theirs):
                mine[i] += n


def shard_indices(rounds: int, shard: tuple[int, int] | None) -> range:
    """The round indices of shard K of N (1-based), or all of them."""
    if shard is None:
        return range(rounds)
    k, n = shard
    return range(k - 1, rounds, n)


def count_rounds(plan: Plan, indices: Iterable[int], plain: bool = False) -> Counts:
    """The counts over the rounds `indices`, in this process."""
    engine = Engine(plan)
    measure = measure_round_plain if plain else measure_round
    counts = Counts.zero(len(plan.pairs))
    for index in indices:
        counts.add_round(measure(engine, index))
    return counts


def _count_chunk(task: tuple[Plan, range]) -> Counts:
    plan, indices = task
    return count_rounds(plan, indices)


def measure(plan: Plan, shard: tuple[int, int] | None = None, jobs: int = 2,
            chunk: int = CHUNK) -> Counts:
    """The counts over the plan's rounds (of one shard), on `jobs` worker processes. The
    rounds go in chunks and the counts are sums: any `jobs` and `chunk` give the same."""
    indices = shard_indices(plan.rounds, shard)
    chunks = [indices[i:i + chunk] for i in range(0, len(indices), chunk)]
    total = Counts.zero(len(plan.pairs))
    if jobs <= 1 or len(chunks) <= 1:
        for part in chunks:
            total.add(count_rounds(plan, part))
        return total
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
        for counts in pool.map(_count_chunk, [(plan, c) for c in chunks]):
            total.add(counts)
    return total


# ----------------------------------------------------------------- files --


class ImpactFileError(ValueError):
    """A results file that cannot be read, or files that cannot be merged."""


def _share(count: int, rounds: int) -> list[float]:
    low, high = wilson(count, rounds)
    return [round(count / rounds if rounds else 0.0, 6), round(low, 6), round(high, 6)]


def impact_data(plan: Plan, counts: Counts, shard: tuple[int, int] | None = None,
                parts: Sequence[int] | None = None) -> dict[str, Any]:
    """The file's data: the plan, and per pair its counts and shares (share, low, high of
    the 95% Wilson interval), recomputed from the counts."""
    pairs = iter(range(len(plan.pairs)))
    variants = []
    for v in plan.variants:
        rows = []
        for a, b in v.pairs:
            i = next(pairs)
            n = counts.rounds[i]
            rows.append({"readings": [a, b], "rounds": n, "differ": counts.differ[i],
                         "legal": counts.legal[i], "winner": counts.winner[i],
                         "shares": {"differ": _share(counts.differ[i], n),
                                    "winner": _share(counts.winner[i], n)}})
        variants.append({"id": v.id, "name": v.name, "base": v.base, "pairs": rows})
    if shard is not None:
        parts = [shard[0]]
    split = None if shard is None and parts is None else \
        {"of": shard[1] if shard is not None else 0, "parts": sorted(parts or [])}
    return {"format": FORMAT, "command": COMMAND, "measure": MEASURE, "profile": plan.profile,
            "seed": plan.seed, "rounds": plan.rounds, "shard": split,
            "method": {"round_steps": ROUND_STEPS, "redeals": REDEALS,
                       "totals": f"drawn for each team uniformly from 0 to {plan.target - 1}",
                       "policy": "a declaration whenever one is legal, else an action drawn "
                                 "by weight: " + ", ".join(f"{WEIGHED[k]} {w}"
                                                           for k, w in WEIGHTS.items())
                                 + ", any other 1"},
            "variants": variants}


def dumps(data: dict[str, Any]) -> str:
    """The stored form: UTF-8 JSON, indent 1, sorted keys, a trailing newline."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise ImpactFileError(f"{path}: cannot read it ({err})") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or data.get("command") != COMMAND:
        raise ImpactFileError(f"{path}: not a results file of `{COMMAND}`, format {FORMAT}")
    return data


def _plan_of(spec: m.Spec, data: dict[str, Any], where: str) -> Plan:
    try:
        plan = make_plan(spec, data["profile"], data["seed"], data["rounds"],
                         [v["name"] for v in data["variants"]])
    except (KeyError, TypeError, StopIteration) as err:
        raise ImpactFileError(f"{where}: {err!r} does not match the spec") from err
    return plan


def _counts_of(plan: Plan, data: dict[str, Any], where: str) -> Counts:
    stored = [(v["name"], tuple(p["readings"]), p) for v in data["variants"] for p in v["pairs"]]
    wanted = [(v.name, (a, b)) for v, a, b in plan.pairs]
    if [(n, r) for n, r, _ in stored] != wanted:
        raise ImpactFileError(f"{where}: its variants and readings are not the spec's; "
                              f"run `{COMMAND}` again")
    return Counts([p["rounds"] for *_, p in stored], [p["differ"] for *_, p in stored],
                  [p["legal"] for *_, p in stored], [p["winner"] for *_, p in stored])


def parameters(data: dict[str, Any]) -> tuple[str, int, int, tuple[int, int] | None]:
    """The profile, seed, rounds and shard a stored file was made with."""
    split = data.get("shard")
    shard = None
    if split is not None:
        if split.get("of", 0) <= 0 or len(split.get("parts", [])) != 1:
            raise ImpactFileError("a merged partial file has no single shard to rerun")
        shard = (split["parts"][0], split["of"])
    return data["profile"], data["seed"], data["rounds"], shard


def merge(spec: m.Spec, files: Sequence[Path]) -> dict[str, Any]:
    """Shard files of one run (one profile, seed, rounds and N) added up exactly; the whole
    table when every shard 1..N is there, else a partial file naming its parts."""
    if not files:
        raise ImpactFileError("nothing to merge")
    first: dict[str, Any] | None = None
    plan: Plan | None = None
    total: Counts | None = None
    parts: list[int] = []
    of = 0
    for path in files:
        data = load(path)
        where = str(path)
        split = data.get("shard")
        if split is None:
            raise ImpactFileError(f"{where}: a whole run, not a shard")
        key = (data.get("measure"), data.get("profile"), data.get("seed"), data.get("rounds"),
               split.get("of"))
        if first is None:
            first = data
            of = split["of"]
            plan = _plan_of(spec, data, where)
            total = Counts.zero(len(plan.pairs))
        elif key != (first.get("measure"), first.get("profile"), first.get("seed"),
                     first.get("rounds"), first["shard"].get("of")):
            raise ImpactFileError(f"{where}: another run (measure, profile, seed, rounds or "
                                  f"number of shards) than {files[0]}")
        overlap = sorted(set(parts) & set(split["parts"]))
        if overlap:
            raise ImpactFileError(f"{where}: shard(s) {overlap} are in another file already")
        parts.extend(split["parts"])
        assert plan is not None and total is not None
        total.add(_counts_of(plan, data, where))
    assert plan is not None and total is not None
    if sorted(parts) == list(range(1, of + 1)):
        return impact_data(plan, total)
    data = impact_data(plan, total, parts=parts)
    data["shard"]["of"] = of
    return data


def stale_lines(stored_text: str | None, fresh_text: str, path: Path) -> list[str]:
    """How the stored file differs from a fresh run's text (empty when it does not)."""
    if stored_text is None:
        return [f"{path}: missing"]
    if stored_text == fresh_text:
        return []
    fresh, found = fresh_text.splitlines(), stored_text.splitlines()
    for number, (want, have) in enumerate(zip(fresh, found, strict=False), start=1):
        if want != have:
            return [f"{path}:{number}: expected {want.strip()!r}, found {have.strip()!r}"]
    return [f"{path}: {len(found)} line(s), a fresh run writes {len(fresh)}"]


# ----------------------------------------------------------------- table --


def table_rows(data: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """(variant, readings, rounds, differ share with interval, winner share) as text."""
    rows = []
    for v in data["variants"]:
        for p in v["pairs"]:
            d, w = p["shares"]["differ"], p["shares"]["winner"]
            rows.append((f"{v['id']} {v['name']}", " / ".join(p["readings"]), str(p["rounds"]),
                         f"{percent(d[0])} [{percent(d[1])}, {percent(d[2])}]",
                         f"{percent(w[0])} [{percent(w[1])}, {percent(w[2])}]"))
    return rows


def percent(share: float) -> str:
    return f"{100 * share:.2f}%"
