"""What a proof reports, and the small z3 driver every check uses."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

import z3

from ..backends.symbolic import TranslationError, Universe, Value
from ..grammar import model as m
from ..grammar.analysis import analyse, hook_rule

# proven: z3 (or an exhaustive walk) covers every case; explored: no counterexample in
# a bounded random exploration (not a proof); expected-refuted: a known defect of the
# page, or a reading that contradicts the invariant by design; not-checked: the check
# cannot run (a failure); skipped: left out on request (`verify --skip`).
Status = Literal["proven", "explored", "refuted", "expected-refuted", "not-checked", "error",
                 "skipped"]

# The most work one z3 query may do, in z3's resource count (deterministic, unlike a
# time limit): a query that needs more is an error of the check, on every machine.
Z3_RLIMIT = 400_000_000  # about 20 times the heaviest query of `baloot verify`


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
    example: str = ""  # one instance of the figure, shown but not stored (runs may differ)

    @property
    def shown_detail(self) -> str:
        """The detail with the example of this run, for the console."""
        return f"{self.detail}: {self.example}" if self.example else self.detail

    @property
    def failed(self) -> bool:
        """A refutation nobody expected, a crash, or a check that could not run (a rule
        it needs is missing): makes `verify` exit non-zero. Only `--skip` leaves a check
        out without failing (status `skipped`)."""
        return self.status in ("refuted", "error", "not-checked")


@dataclass
class Proof:
    """The answer of one z3 query: proven, or a counterexample."""

    proven: bool
    unknown: bool
    counterexample: dict[str, object]
    seconds: float


def proving_solver() -> z3.Solver:
    """The solver a proof asks: the claims are large terms over a few booleans (a hand,
    the choices of a declaration), most of them equalities that fold once the terms are
    simplified and solved for, so they are before the search starts (a third of the
    time z3's default solver takes on the project checks)."""
    solver: z3.Solver = z3.Then("simplify", "solve-eqs", "smt").solver()
    return solver


def prove(universe: Universe, claim: z3.BoolRef, assumptions: list[z3.BoolRef],
          show: Mapping[str, Value], rlimit: int = Z3_RLIMIT) -> Proof:
    """Prove `claim` under `assumptions`; on failure, decode `show` from the model."""
    start = time.perf_counter()
    solver = proving_solver()
    solver.set("rlimit", rlimit)
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
         rlimit: int = Z3_RLIMIT) -> dict[str, object] | None:
    """A model of `goal` (decoded), or None when there is none."""
    solver: z3.Solver | z3.Optimize
    if minimize is not None:
        solver = z3.Optimize()
        solver.minimize(minimize)
    else:
        solver = z3.Solver()
    solver.set("rlimit", rlimit)
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


class GaveUp(Exception):
    """z3 answered neither way within its resource bound (`Z3_RLIMIT`)."""


VERIFY_HOOKS = "verify"  # the spec's `hooks verify { ... }`: the rules the proofs read


def need_rule(spec: m.Spec, part: str) -> str:
    """The rule the spec hooks into verify for `part` (`hooks verify { part = rule }`),
    or `Missing`."""
    rule = hook_rule(spec, VERIFY_HOOKS, part)
    if rule is None:
        raise Missing(f"the spec hooks no rule into {VERIFY_HOOKS} as {part!r} "
                      f"(add it to `hooks {VERIFY_HOOKS}`)")
    if not any(r.name == rule for r in spec.rules):
        raise Missing(f"the spec hooks {rule!r} into {VERIFY_HOOKS} as {part!r}, but has "
                      f"no rule {rule!r} (renamed or removed?)")
    return rule


def hooked_rule(spec: m.Spec, part: str) -> str | None:
    """The rule hooked into verify for `part`, or None when the spec names none; a hooked
    rule the spec does not have is `Missing`."""
    return need_rule(spec, part) if hook_rule(spec, VERIFY_HOOKS, part) else None


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
    """The variants the rules consult, directly or through the rules they call
    (`Analysis.variants_reached`), in the order the spec declares them."""
    return list(analyse(spec).variants_reached(rules))


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
    except GaveUp as err:
        return ProofOutcome(check, title, contract, readings, "error", "z3",
                       time.perf_counter() - start, f"z3 gave up: {err}")
    except (z3.Z3Exception, KeyError, ValueError, AssertionError, StopIteration) as err:
        return ProofOutcome(check, title, contract, readings, "error", "z3",
                       time.perf_counter() - start,
                       f"internal error of the check: {type(err).__name__}: {err}")
