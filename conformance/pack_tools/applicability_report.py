"""The console side of `baloot conform applicability`."""

from __future__ import annotations

import statistics
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..harness.clauses import clause_ids
from ..harness.pack import Case
from ..harness.variants import Register
from .applicability import (
    MIN_HOLDING_PER_CLAUSE,
    SetFigures,
    all_figures,
    clause_holding,
    profile_sets,
    random_sets,
    targets,
)


def _row(figures: SetFigures) -> list[str]:
    return [figures.reading_set.name, str(len(figures.holding)), str(figures.applied_holding),
            f"{figures.share:.1%}", str(len(figures.applied)), str(len(figures.verdict)),
            f"{figures.verdict_share:.1%}", str(len(figures.unfair))]


def _table(title: str) -> Table:
    table = Table(title=title, title_justify="left")
    for column in ("readings", "hold", "applied of hold", "share", "applied", "verdict",
                   "verdict share", "unfair"):
        table.add_column(column, justify="left" if column == "readings" else "right")
    return table


def _spread(values: list[float], fmt: str) -> str:
    return (f"median {format(statistics.median(values), fmt)}, min {format(min(values), fmt)}, "
            f"max {format(max(values), fmt)}")


def report_applicability(console: Console, cases: list[Case], register: Register, *,
                         sets: int, moves: int, seed: int, jobs: int) -> int:
    began = time.monotonic()
    chosen = [*profile_sets(register), *random_sets(register, sets, moves, seed)]
    with Progress(TextColumn("applicability"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task("sets", total=len(chosen))
        found = all_figures(cases, register, chosen, jobs=jobs,
                            on_set=lambda _: progress.advance(task))
    seconds = time.monotonic() - began
    profiles, randoms = found[: len(register.profiles)], found[len(register.profiles):]
    console.print(f"{len(cases)} case(s); hold: its own expectation passes on the reference "
                  "engine under exactly the set's readings; applied: the runner runs it by its "
                  "own pins on an engine declaring them; verdict: by its own pins or an "
                  "alternative's; unfair: given a verdict whose expectation does not hold",
                  highlight=False)
    table = _table("profiles")
    for figures in profiles:
        table.add_row(*_row(figures))
    console.print(table)
    if randoms:
        console.print(f"{len(randoms)} random set(s), {moves} variant(s) moved off a random "
                      f"profile, seed {seed}:", highlight=False)
        console.print("  hold: " + _spread([len(f.holding) for f in randoms], "g"),
                      highlight=False)
        console.print("  applied share of hold: " + _spread([f.share for f in randoms], ".1%"),
                      highlight=False)
        console.print("  cases applied by their own pins (before alternatives): "
                      + _spread([len(f.applied) / f.cases for f in randoms], ".1%"),
                      highlight=False)
        console.print("  cases given a verdict (own pins or an alternative): "
                      + _spread([f.verdict_share for f in randoms], ".1%")
                      + f" of {randoms[0].cases}", highlight=False)
        console.print("  of them by an alternative: "
                      + _spread([len(f.by_alternative) for f in randoms], "g"), highlight=False)
        worst = sorted(randoms, key=lambda f: f.share)[:3]
        for figures in worst:
            console.print(f"  lowest share {figures.share:.1%}: {figures.reading_set.describe()}",
                          highlight=False, markup=False)
    _print_clauses(console, cases, profiles)
    unfair = [(f, case_id) for f in found for case_id in f.unfair]
    for figures, case_id in unfair[:50]:
        console.print(f"unfair: {case_id} is given a verdict under "
                      f"{figures.reading_set.describe()} but does not hold: "
                      f"{figures.failures.get(case_id, '')}",
                      markup=False, highlight=False, soft_wrap=True)
    if len(unfair) > 50:
        console.print(f"... and {len(unfair) - 50} more unfair (case, set) pair(s)")
    met = True
    for target in targets(cases, profiles, randoms):
        met = met and target.met
        mark = "met" if target.met else "NOT met"
        console.print(f"target {mark}: {target.text} ({target.detail})", markup=False,
                      highlight=False, soft_wrap=True)
    console.print(f"{len(found)} reading set(s) in {seconds:.1f} s ({jobs} job(s))")
    return 0 if met else 1


def _print_clauses(console: Console, cases: list[Case], profiles: list[SetFigures]) -> None:
    per_profile = [clause_holding(cases, f) for f in profiles]
    minimum = {c: min(p[c] for p in per_profile) for c in clause_ids()}
    table = Table(title=f"clauses with fewer than {MIN_HOLDING_PER_CLAUSE} holding cases under "
                  "a profile (regression snapshots not counted)", title_justify="left")
    table.add_column("clause")
    for figures in profiles:
        table.add_column(figures.reading_set.name, justify="right")
    thin = [c for c in clause_ids() if minimum[c] < MIN_HOLDING_PER_CLAUSE]
    for clause in thin:
        table.add_row(clause, *(str(p[clause]) for p in per_profile))
    if thin:
        console.print(table)
    console.print(f"per-clause minimum of holding cases over the profiles: "
                  f"lowest {min(minimum.values())}, {len(clause_ids()) - len(thin)}/"
                  f"{len(clause_ids())} clause(s) at {MIN_HOLDING_PER_CLAUSE} or more",
                  highlight=False)
