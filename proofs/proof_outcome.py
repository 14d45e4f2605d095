"""What a proof reports, and the small z3 driver every check uses."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

import z3

from baloot.grammar import model as m
from baloot.grammar.walk import called_rules, walk_body
from baloot.proofs.symbolic import TranslationError, Universe, Value

# proven: z3 (or an exhaustive walk) covers every case; explored: no counterexample in
# a bounded random exploration (not a proof); expected-refuted: a known defect of the
# page, or a reading that contradicts the invariant by design.
Status = Literal["proven", "explored", "refuted", "expected-refuted", "not-checked", "error"]

Z3_TIMEOUT_MS = 20_000


@dataclass
class ProofOutcome:
    """One invariant under one contract and one choice of readings."""

    check: str  # short id, e.g. "deck-bunts"
    title: str  # the invariant in our words, with the figure expected
    contract: str  # "sun", "hokum S", or "any"
    readings: str  # a profile, a reading, or "any" when no variant is consulted
    status: Status
    method: str  # "z3", "z3 (unrolled over the deck)", "exhaustive engine", ...
    seconds: float
    detail: str = ""  # the figure proven, the counterexample, or why not checked
    counterexample: dict[str, object] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """A refutation nobody expected, or a crash: makes `verify` exit non-zero."""
        return self.status in ("refuted", "error")


@dataclass
class Proof:
    """The answer of one z3 query: proven, or a counterexample."""

    proven: bool
    unknown: bool
    counterexample: dict[str, object]
    seconds: float


def prove(universe: Universe, claim: z3.BoolRef, assumptions: list[z3.BoolRef],
          show: Mapping[str, Value], timeout_ms: int = Z3_TIMEOUT_MS) -> Proof:
    """Prove `claim` under `assumptions`; on failure, decode `show` from the model."""
    start = time.perf_counter()
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*assumptions)
    solver.add(z3.Not(claim))
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return Proof(True, False, {}, seconds)
    if answer == z3.unknown:
        return Proof(False, True, {"z3": str(solver.reason_unknown())}, seconds)
    model = solver.model()
    return Proof(False, False, {k: universe.decode(model, v) for k, v in show.items()}, seconds)


def find(universe: Universe, goal: z3.BoolRef, assumptions: list[z3.BoolRef],
         show: Mapping[str, Value], minimize: z3.ArithRef | None = None,
         timeout_ms: int = Z3_TIMEOUT_MS) -> dict[str, object] | None:
    """A model of `goal` (decoded), or None when there is none."""
    solver: z3.Solver | z3.Optimize
    if minimize is not None:
        solver = z3.Optimize()
        solver.minimize(minimize)
    else:
        solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*assumptions, goal)
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    return {k: universe.decode(model, v) for k, v in show.items()}


def format_example(example: Mapping[str, object]) -> str:
    return ", ".join(f"{k} = {_plain(v)}" for k, v in example.items())


def _plain(v: object) -> str:
    if isinstance(v, dict):
        if set(v) == {"rank", "suit"}:
            return f"{v['rank']} of {v['suit']}"
        return "{" + ", ".join(f"{k}: {_plain(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_plain(x) for x in v) + "]"
    return str(v)


# ---------------------------------------------------------- spec lookups --


class Missing(Exception):
    """Something a check needs is not (yet) in the spec."""


def need_rule(spec: m.Spec, *names: str) -> str:
    """The first of `names` the spec has as a rule, or `Missing`."""
    have = {r.name for r in spec.rules}
    for name in names:
        if name in have:
            return name
    raise Missing(f"the spec has no rule {' or '.join(repr(n) for n in names)} (yet)")


def need_const(spec: m.Spec, *names: str, citing: str | None = None) -> m.Const:
    for c in spec.consts:
        if c.name in names:
            return c
    if citing:
        found = [c for c in spec.consts if any(x.clause == citing for x in c.cites)]
        if len(found) == 1:
            return found[0]
    raise Missing(f"the spec has no const {' or '.join(repr(n) for n in names)}"
                  + (f" citing {citing}" if citing else "") + " (yet)")


def variants_reached(spec: m.Spec, rules: list[str]) -> list[str]:
    """The variants a rule consults, directly or through the rules it calls."""
    by_name = {r.name: r for r in spec.rules}
    seen: set[str] = set()
    found: list[str] = []
    todo = list(rules)
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        body = by_name[name].body
        for node in walk_body(body):
            v = node.variant if isinstance(node, m.Choose | m.Reads) else None
            if v is not None:
                v = spec.variant(v).name
                if v not in found:
                    found.append(v)
        todo.extend(called_rules(body))
    order = [v.name for v in spec.variants]
    return sorted(found, key=order.index)


@contextmanager
def timed() -> Iterator[Callable[[], float]]:
    start = time.perf_counter()
    yield lambda: time.perf_counter() - start


def guarded(check: str, title: str, contract: str, readings: str,
            body: Callable[[], ProofOutcome]) -> ProofOutcome:
    """Run one check; a missing rule or an untranslatable construct is reported, not raised."""
    start = time.perf_counter()
    try:
        outcome = body()
        outcome.seconds = time.perf_counter() - start
        return outcome
    except Missing as err:
        return ProofOutcome(check, title, contract, readings, "not-checked", "-",
                       time.perf_counter() - start, str(err))
    except TranslationError as err:
        return ProofOutcome(check, title, contract, readings, "error", "z3",
                       time.perf_counter() - start, str(err))
    except (z3.Z3Exception, KeyError, ValueError, AssertionError, StopIteration) as err:
        return ProofOutcome(check, title, contract, readings, "error", "z3",
                       time.perf_counter() - start,
                       f"internal error of the check: {type(err).__name__}: {err}")
