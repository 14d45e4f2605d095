"""Every check of `baloot verify`, and running them on two cores.

Each check is a function from the spec to its outcomes. The checks are
grouped in tasks of about equal weight, run in worker processes (z3 terms
cannot cross processes; the spec model and the outcomes can).
"""

from __future__ import annotations

import fnmatch
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from baloot.grammar import model as m
from baloot.proofs import bounds, invariants, liveness, playable, projects
from baloot.proofs.proof_outcome import ProofOutcome

Check = Callable[[m.Spec], Iterable[ProofOutcome]]


def all_checks(engine: bool = True, budget: float = 20.0, seed: int = 1
               ) -> list[tuple[str, Check]]:
    """(id, check) in report order."""
    checks: list[tuple[str, Check]] = [
        *invariants.CHECKS,
        ("legal-card", playable.check_legal_card),
        ("four-aces", projects.check_four_aces),
        ("projects-disjoint", projects.check_disjoint_projects),
        # one task per mode, so that the two cores share the heaviest checks
        ("projects-max/sun", partial(projects.check_largest_projects, mode="sun")),
        ("projects-max/hokum", partial(projects.check_largest_projects, mode="hokum")),
        ("score-bounds/sun", partial(bounds.check_score_bounds, mode="sun")),
        ("score-bounds/hokum", partial(bounds.check_score_bounds, mode="hokum")),
    ]
    if engine:
        checks += [
            ("bidding-ends", liveness.check_bidding_ends),
            ("legal-action", partial(liveness.check_legal_action, budget=budget * 0.5,
                                     seed=seed)),
        ]
    return checks


# Checks that share a worker: projects-max fills the cache score-bounds reads.
TASKS = (("projects-max/sun", "score-bounds/sun"), ("projects-max/hokum", "score-bounds/hokum"))


def _run(spec: m.Spec, checks: list[tuple[str, Check]]) -> list[list[ProofOutcome]]:
    return [list(check(spec)) for _, check in checks]


def run_all(spec: m.Spec, only: list[str], engine: bool = True, budget: float = 20.0,
            seed: int = 1, jobs: int = 2) -> Iterator[ProofOutcome]:
    checks = [(n, c) for n, c in all_checks(engine, budget, seed)
              if not only or any(fnmatch.fnmatch(n, g) or fnmatch.fnmatch(n.split("/")[0], g)
                                 for g in only)]
    tasks: list[list[tuple[str, Check]]] = []
    placed: set[str] = set()
    for group in TASKS:
        task = [(n, c) for n, c in checks if n in group]
        if task:
            tasks.append(task)
            placed.update(n for n, _ in task)
    heavy = ("projects-disjoint", "legal-action")  # started first, after the groups
    tasks += [[(n, c)] for n, c in checks if n in heavy]
    tasks += [[(n, c)] for n, c in checks if n not in placed and n not in heavy]
    results: dict[str, list[ProofOutcome]] = {}
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            for (name, _), outs in zip(task, _run(spec, task), strict=True):
                results[name] = outs
    else:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures = [(task, pool.submit(_run, spec, task)) for task in tasks]
            for task, future in futures:
                for (name, _), outs in zip(task, future.result(), strict=True):
                    results[name] = outs
    for name, _ in checks:
        yield from results.get(name, [])
