"""Every check of `baloot verify`, and running them on two cores.

Each check is a function from the spec to its outcomes. The checks are
grouped in tasks of about equal weight, each run in a fresh worker process
(`fresh_process.py`: z3 terms cannot cross processes, and a z3 answer must
not depend on what the process asked before; the spec model and the outcomes
cross). A check the user skips (`--skip`) is reported as skipped; any other
check runs, and one that cannot (a rule it needs is missing) fails the run.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

from ..grammar import model as m
from . import bounds, invariants, liveness, playable, projects
from .fresh_process import each_in_fresh_process
from .proof_outcome import ProofOutcome

Check = Callable[[m.Spec], Iterable[ProofOutcome]]
ENGINE_CHECKS = ("bidding-ends", "legal-action")  # those that play the generated engine


class UnknownCheck(ValueError):
    """A pattern of `--only` or `--skip` that names no check."""


def all_checks(engine: bool = True, rounds: int = liveness.ROUNDS, seed: int = 1
               ) -> list[tuple[str, Check]]:
    """(id, check) in report order; without the engine checks when `engine` is False."""
    checks: list[tuple[str, Check]] = [
        *invariants.CHECKS,
        ("legal-card", playable.check_legal_card),
        ("four-aces", projects.check_four_aces),
        # one task per mode, so that the two cores share the heaviest checks
        ("projects-disjoint/sun", partial(projects.check_disjoint_projects, mode="sun")),
        ("projects-disjoint/hokum", partial(projects.check_disjoint_projects, mode="hokum")),
        ("projects-max/sun", partial(projects.check_largest_projects, mode="sun")),
        ("projects-max/hokum", partial(projects.check_largest_projects, mode="hokum")),
        ("score-bounds/sun", partial(bounds.check_score_bounds, mode="sun")),
        ("score-bounds/hokum", partial(bounds.check_score_bounds, mode="hokum")),
    ]
    if engine:
        checks += [
            ("bidding-ends", liveness.check_bidding_ends),
            ("legal-action", partial(liveness.check_legal_action, rounds=rounds, seed=seed)),
        ]
    return checks


def matches(name: str, pattern: str) -> bool:
    """Whether a check id (or its part before `/`) matches a glob."""
    return fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(name.split("/")[0], pattern)


def select(names: list[str], only: list[str], skip: list[str]) -> tuple[list[str], list[str]]:
    """The checks to run and the checks skipped; `UnknownCheck` for a pattern that
    matches no check (a typo must not skip nothing, or run nothing, silently)."""
    for pattern in [*only, *skip]:
        if not any(matches(n, pattern) for n in names):
            raise UnknownCheck(f"no check matches {pattern!r}; the checks: {', '.join(names)}")
    wanted = [n for n in names if not only or any(matches(n, g) for g in only)]
    skipped = [n for n in wanted if any(matches(n, g) for g in skip)]
    return [n for n in wanted if n not in skipped], skipped


def skipped_outcome(name: str) -> ProofOutcome:
    return ProofOutcome(name, "skipped on request", "any", "any", "skipped", "-", 0.0,
                        "not run: skipped with --skip")


# Checks that share a worker: projects-max fills the cache score-bounds reads.
TASKS = (("projects-max/sun", "score-bounds/sun"), ("projects-max/hokum", "score-bounds/hokum"))
# started first, after the groups
HEAVY = ("projects-disjoint/hokum", "projects-disjoint/sun", "legal-action")


def _run(task: tuple[m.Spec, list[tuple[str, Check]]]) -> list[list[ProofOutcome]]:
    spec, checks = task
    return [list(check(spec)) for _, check in checks]


def run_all(spec: m.Spec, only: list[str], skip: Sequence[str] = (),
            rounds: int = liveness.ROUNDS, seed: int = 1, jobs: int = 2
            ) -> Iterator[ProofOutcome]:
    """The outcomes of the selected checks in report order, skipped checks included."""
    checks = all_checks(True, rounds, seed)
    run, skipped = select([n for n, _ in checks], only, list(skip))
    chosen = [(n, c) for n, c in checks if n in run]
    tasks: list[list[tuple[str, Check]]] = []
    placed: set[str] = set()
    for group in TASKS:
        task = [(n, c) for n, c in chosen if n in group]
        if task:
            tasks.append(task)
            placed.update(n for n, _ in task)
    tasks += [[(n, c)] for n, c in chosen if n in HEAVY]
    tasks += [[(n, c)] for n, c in chosen if n not in placed and n not in HEAVY]
    results: dict[str, list[ProofOutcome]] = {n: [skipped_outcome(n)] for n in skipped}
    outs = each_in_fresh_process(_run, [(spec, task) for task in tasks], jobs)
    for task, got in zip(tasks, outs, strict=True):
        for (name, _), outcomes in zip(task, got, strict=True):
            results[name] = outcomes
    for name, _ in checks:
        yield from results.get(name, [])
