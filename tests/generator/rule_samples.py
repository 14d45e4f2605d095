"""Inputs for every rule of the spec, and the generated engine's answers on them.

The oracle tests judge the generated Python and the z3 translation against the
evaluator (`baloot.grammar.evaluate`) on these inputs, for every rule:

- the arguments the rules are really called with: seeded random games played
  through the generated rule modules, each under its own random choice of
  readings, with a wrapper around every rule that keeps a seeded sample of the
  arguments it was called with (some actions are illegal on purpose, so the
  `require`s fail too);
- every rule whose parameters have small domains (enums, truth values, cards,
  some numbers, or none of these) is also run on a seeded sample of all their
  combinations, under every choice of the readings it consults.

Values are kept as the evaluator's plain values (`Member`, `RecordValue`,
lists); `generated_value` and `plain_value` convert to and from the engine's.
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, is_dataclass
from functools import cache
from types import ModuleType
from typing import Any

from baloot import reference_impl
from baloot.backends.python.generate import is_value_record, module_of
from baloot.backends.python.pyemit import member_name
from baloot.grammar import model as m
from baloot.grammar.analysis import analyse
from baloot.grammar.evaluate import (
    EvaluationError,
    Illegal,
    Member,
    RecordValue,
    Value,
    evaluate,
)
from baloot.grammar.parser import load_spec
from baloot.reference_impl import definitions, entry_points, readings
from baloot.reference_impl.runtime_support import IllegalAction, NoValue, UnknownReading

SPEC = load_spec()
ANALYSIS = analyse(SPEC)
PLAYED_PER_RULE = 6  # arguments kept per rule from the games
ENUMERATED_PER_RULE = 60  # combinations of small domains kept per rule
GAMES = 8  # games played at least, then more until every rule reached is called
MAX_GAMES = 60
NUMBERS = (-1, 0, 1, 2, 3, 4, 5, 9, 10, 15, 16, 25, 26, 35, 65, 81, 100, 152, 162)

del entry_points  # imported so that every generated rule module is loaded


@dataclass(frozen=True)
class Sample:
    """One call of a rule: the readings in force and its arguments, as plain values."""

    rule: str
    readings: tuple[tuple[str, str], ...]
    args: tuple[Value, ...]
    source: str  # "played" or "enumerated"

    @property
    def reading_map(self) -> dict[str, str]:
        return dict(self.readings)


# ------------------------------------------------------------ conversion --


def module_for(rule: str) -> ModuleType:
    module: ModuleType = getattr(reference_impl, module_of(SPEC.rule(rule).pos.file))
    return module


@cache
def _member_names(enum_name: str) -> dict[str, str]:
    """Generated member name (SPADES) -> spec member name (spades)."""
    return {member_name(mem.name): mem.name for mem in SPEC.enum(enum_name).members}


def plain_value(x: object) -> Value:
    """An engine value as the evaluator's plain value."""
    if isinstance(x, bool | int | str) or x is None:
        return x
    if isinstance(x, enum.Enum):
        name = type(x).__name__
        return Member(name, _member_names(name)[x.name])
    if isinstance(x, list | tuple):
        return [plain_value(v) for v in x]
    if is_dataclass(x) and not isinstance(x, type):
        record = type(x).__name__
        return RecordValue(record, {f.name: plain_value(getattr(x, f.name))
                                    for f in SPEC.record(record).fields})
    raise TypeError(f"no plain value for {x!r}")


def generated_value(v: Value) -> Any:
    """A plain value as the engine's."""
    if isinstance(v, Member):
        return getattr(getattr(definitions, v.enum), member_name(v.name))
    if isinstance(v, RecordValue):
        return getattr(definitions, v.record)(**{k: generated_value(x)
                                                 for k, x in v.fields.items()})
    if isinstance(v, list):
        return [generated_value(x) for x in v]
    return v


def same(a: Value, b: Value) -> bool:
    """Equal values of the same types all the way down (a bool is not the number 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, RecordValue) and isinstance(b, RecordValue):
        return a.record == b.record and a.fields.keys() == b.fields.keys() and all(
            same(a.fields[k], b.fields[k]) for k in a.fields)
    return a == b


# -------------------------------------------------------------- outcomes --

Outcome = tuple[Any, ...]  # ("value", v) | ("illegal", message, rule) | ("error",)

# What the generated code raises where the evaluator raises EvaluationError.
ENGINE_ERRORS = (NoValue, UnknownReading, IndexError, ValueError, ZeroDivisionError)


def evaluated(sample: Sample) -> Outcome:
    try:
        return ("value", evaluate(SPEC, sample.rule, sample.args, sample.reading_map))
    except Illegal as err:
        return ("illegal", err.message, err.rule)
    except EvaluationError:
        return ("error",)


def generated(sample: Sample) -> Outcome:
    function = getattr(module_for(sample.rule), sample.rule)
    args = [generated_value(a) for a in sample.args]
    if ANALYSIS.needs_readings(sample.rule):
        # unchecked: a sample may name a reading the variant lacks on purpose
        plain = tuple(sample.reading_map[v] for v in readings.VARIANTS)
        args.insert(0, readings.readings_of(plain))
    try:
        return ("value", plain_value(function(*args)))
    except IllegalAction as err:
        return ("illegal", err.message, err.rule)
    except ENGINE_ERRORS:
        return ("error",)


def agree(a: Outcome, b: Outcome) -> bool:
    return a[0] == b[0] and (same(a[1], b[1]) if a[0] == "value" else a == b)


# --------------------------------------------------------- played games --


def _random_readings(rng: random.Random) -> dict[str, str]:
    return {v.name: rng.choice(v.reading_names) for v in SPEC.variants}


class _Recorder:
    """Wraps every generated rule function; keeps a seeded sample of each one's calls."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.kept: dict[str, list[tuple[object, ...]]] = {r.name: [] for r in SPEC.rules}
        self.seen: dict[str, int] = {r.name: 0 for r in SPEC.rules}
        self.saved: list[tuple[ModuleType, str, Callable[..., Any]]] = []

    def wrap(self, rule: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def recorded(*args: object) -> Any:
            self.seen[rule] += 1
            kept = self.kept[rule]
            if len(kept) < PLAYED_PER_RULE:
                kept.append(args)
            else:  # reservoir sampling: every call equally likely to be kept
                slot = self.rng.randrange(self.seen[rule])
                if slot < PLAYED_PER_RULE:
                    kept[slot] = args
            return function(*args)

        return recorded

    def __enter__(self) -> _Recorder:
        for r in SPEC.rules:
            module = module_for(r.name)
            function = getattr(module, r.name)
            # A cached rule answers a call it has seen without calling the rules below
            # it: empty caches make the calls recorded the same whatever ran before.
            clear = getattr(function, "cache_clear", None)
            if clear is not None:
                clear()
            self.saved.append((module, r.name, function))
            setattr(module, r.name, self.wrap(r.name, function))
        return self

    def __exit__(self, *exc: object) -> None:
        for module, name, function in self.saved:
            setattr(module, name, function)


def _entry(part: str) -> Callable[..., Any]:
    """An entry rule (`hooks engine`) as the module holds it now (wrapped while recording)."""
    rule = ANALYSIS.hooked("engine")[part]
    function: Callable[..., Any] = getattr(module_for(rule), rule)
    return function


KAWESH = definitions.Action(kind=definitions.ActionKind.CALL_KAWESH, suit=None, lock=None,
                            project=None, cards=[])


def _play(rng: random.Random, chosen: readings.Readings) -> None:
    """One game of random actions; one action in ten is picked from earlier states, so
    often illegal."""
    def call(part: str, *args: object) -> Any:
        rule = ANALYSIS.hooked("engine")[part]
        if ANALYSIS.needs_readings(rule):
            return _entry(part)(chosen, *args)
        return _entry(part)(*args)

    deck = [definitions.Card(suit=s, rank=r) for s in definitions.Suit for r in definitions.Rank]
    rng.shuffle(deck)
    state = call("start_game", rng.randrange(4), deck)
    seen_actions: list[Any] = []
    for _ in range(400):
        phase = state.phase.name.lower()
        if phase == "game_over":
            return
        if phase in ("waiting_deal", "round_over"):
            rng.shuffle(deck)
            state = call("deal_next", state, list(deck))
            continue
        call("current_player", state)
        actions = call("legal_actions", state)
        seen_actions += actions
        if rng.random() < 0.1 and seen_actions:
            with contextlib.suppress(IllegalAction):  # an illegal one leaves the state
                state = call("apply_action", state, rng.choice(seen_actions))
            continue
        if phase == "bidding" and rng.random() < 0.05:
            # a kawesh hand is rare (1.6% of deals): the call is tried, and mostly refused
            with contextlib.suppress(IllegalAction):
                state = call("apply_action", state, KAWESH)
            continue
        passes = [a for a in actions if a.kind.name == "PASS_TURN"]
        action = rng.choice(passes if passes and rng.random() < 0.5 else actions)
        state = call("apply_legal_action" if rng.random() < 0.5 else "apply_action", state,
                     action)


def _played(seed: int) -> Iterator[Sample]:
    rng = random.Random(seed)
    kept: dict[str, list[tuple[tuple[tuple[str, str], ...], tuple[object, ...]]]] = {}
    with _Recorder(random.Random(seed + 1)) as recorder:
        for played in range(MAX_GAMES):
            if played >= GAMES and all(kept.get(r.name) or _enumerable(r) for r in SPEC.rules):
                break
            choice = _random_readings(rng)
            _play(rng, readings.readings_from(choice))
            for rule, calls in recorder.kept.items():
                kept.setdefault(rule, []).extend(
                    (tuple(sorted(choice.items())), args) for args in calls)
                calls.clear()
                recorder.seen[rule] = 0
    for rule, recorded in kept.items():
        needs = ANALYSIS.needs_readings(rule)
        for chosen, args in random.Random(seed + 2).sample(recorded, min(len(recorded),
                                                                         PLAYED_PER_RULE)):
            values = args[1:] if needs else args
            yield Sample(rule, chosen, tuple(plain_value(a) for a in values), "played")


# ------------------------------------------------------ small domains --


def _domain(t: m.Type, rng: random.Random) -> list[Value] | None:
    """Values of a type worth trying, or None when the type has no small domain."""
    if isinstance(t, m.OptionalType):
        inner = _domain(t.inner, rng)
        return None if inner is None else [None, *inner]
    if isinstance(t, m.ListType):
        item = _domain(t.item, rng)
        if item is None:
            return None
        lists: list[Value] = [[]]
        for size in (1, 2, 3, 5, 8):
            lists += [rng.sample(item, min(size, len(item))) for _ in range(3)]
        return lists
    if t.name == "bool":
        return [False, True]
    if t.name == "int":
        return list(NUMBERS)
    if t.name == "text":
        return ["", "x"]
    if any(e.name == t.name for e in SPEC.enums):
        return [Member(t.name, n) for n in SPEC.enum(t.name).member_names]
    record = SPEC.record(t.name)
    if is_value_record(SPEC, record):
        parts = [_domain(f.type, rng) or [] for f in record.fields]
        return [RecordValue(record.name, {f.name: v for f, v in zip(record.fields, combo,
                                                                     strict=True)})
                for combo in itertools.product(*parts)]
    return None


def _enumerable(rule: m.Rule) -> bool:
    return all(_domain(p.type, random.Random(0)) is not None for p in rule.params)


def _enumerated(seed: int) -> Iterator[Sample]:
    rng = random.Random(seed)
    for rule in SPEC.rules:
        domains = [_domain(p.type, rng) for p in rule.params]
        if any(d is None for d in domains):
            continue
        known = [d for d in domains if d is not None]
        variants = ANALYSIS.variants_reached([rule.name])
        choices = list(itertools.product(*[SPEC.variant(v).reading_names for v in variants]))
        base = SPEC.profiles[0].readings()
        size = len(choices) * len(list(itertools.islice(itertools.product(*known), 5001)))
        if size <= 5000:  # few enough to list: a sample without repeats
            pairs = list(itertools.product(itertools.product(*known), choices))
            picked = rng.sample(pairs, min(len(pairs), ENUMERATED_PER_RULE))
        else:
            picked = [(tuple(rng.choice(d) for d in known), rng.choice(choices))
                      for _ in range(ENUMERATED_PER_RULE)]
        for args, reading in picked:
            chosen = {**base, **dict(zip(variants, reading, strict=True))}
            yield Sample(rule.name, tuple(sorted(chosen.items())), tuple(args), "enumerated")


@cache
def samples(seed: int = 14) -> dict[str, tuple[Sample, ...]]:
    """Rule -> its samples, the same on every run for one seed."""
    out: dict[str, list[Sample]] = {r.name: [] for r in SPEC.rules}
    for sample in itertools.chain(_played(seed), _enumerated(seed)):
        out[sample.rule].append(sample)
    return {rule: tuple(found) for rule, found in out.items()}
