"""`baloot conform derive [--check] [--cases DIR] [--files GLOB] [--jobs J]`: write (or
check) each hand-worked case's `alternatives`, its expectation under the other readings
of the variants it pins, recorded from the reference engine (`derive.py`).

Without `--check` it rewrites the case files whose alternatives differ from a fresh
derivation, in each file's own JSON style; with `--check` it writes nothing and exits 1
when a file differs. `--files` limits both to the case files (paths inside the pack,
forward slashes) matching a glob.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..conformance.harness.pack import default_pack_folder
from ..conformance.pack_tools.derive import MAX_COMBINATIONS, Derivation, plan_files
from ..reference_impl import interpreted_only
from .console import console as make_console
from .destinations import REFUSED, refuse
from .options import add_jobs, negative_jobs, workers
from .pack_folder import ON_A_COPY, add_pack_folder, linted_pack


def register_derive(sub: Any) -> None:
    derive = sub.add_parser(
        "derive",
        help="record each case's expectation under the other readings of its pinned "
        "variants (its `alternatives`) from the reference engine",
        description="For each hand-worked case with pins, play its script on the reference "
        "engine under each combination of readings of its pinned variants that its pins "
        f"leave out (nearest a profile first, at most {MAX_COMBINATIONS} per case), record "
        "the value at each of its checks, merge equal ones, check each alternative as "
        "`conform pins` checks a case, and write them as the case's `alternatives`. "
        "Witnesses and golden playthroughs are their generators' and are left alone.",
    )
    add_pack_folder(derive, "derive_cases")
    derive.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a file differs from a fresh derivation")
    derive.add_argument("--files", dest="derive_files", action="append", default=[],
                        metavar="GLOB", help="only the case files matching (a path inside "
                        "the pack, part by part: 'variants/*/*.json', '*.json' for the files "
                        "at its top; repeatable)")
    add_jobs(derive, dest="derive_jobs", metavar="J")
    derive.set_defaults(run=run_derive)


def run_derive(args: argparse.Namespace) -> int:
    console = make_console()
    given = args.derive_cases or args.cases
    if not args.check and refuse("conform derive", [given], ON_A_COPY):
        return REFUSED
    if negative_jobs("conform derive", args.derive_jobs):
        return 2
    refused = interpreted_only("conform derive")
    if refused is not None:
        print(refused, file=sys.stderr)
        return 2
    folder = given or default_pack_folder()
    linted = linted_pack(folder, console)
    if linted is None:
        return 2
    register = linted[1]
    globs: list[str] = args.derive_files
    matched = dict.fromkeys(globs, False)

    def select(label: str) -> bool:
        hits = [g for g in globs if path_matches(label, g)]
        for g in hits:
            matched[g] = True
        return not globs or bool(hits)

    began = time.monotonic()
    with Progress(TextColumn("derive"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("cases", total=None)
        plans, read_problems = plan_files(
            folder, register, select=select, jobs=workers(args.derive_jobs),
            on_case=lambda _: progress.advance(task))
    unmatched = [g for g, hit in matched.items() if not hit]
    if unmatched:
        console.print("--files matches no case file: " + ", ".join(unmatched), markup=False)
        return 2
    for problem in read_problems:
        console.print(f"error {problem}", markup=False, highlight=False)
    derivations = [d for plan in plans for d in plan.derivations]
    _summary(console, derivations, time.monotonic() - began)
    stale = [plan for plan in plans if plan.new_text != plan.text]
    if args.check:
        for plan in stale:
            console.print(f"stale: {plan.label}", markup=False, highlight=False)
        if stale:
            console.print("run `baloot conform derive` to write them again")
            return 1
        console.print(f"{len(plans)} case file(s) up to date")
        return 1 if read_problems else 0
    for plan in stale:
        plan.path.write_text(plan.new_text, encoding="utf-8")
    console.print(f"rewrote {len(stale)} of {len(plans)} case file(s)"
                  + (": " + ", ".join(p.label for p in stale) if stale else ""),
                  markup=False, highlight=False)
    return 1 if read_problems else 0


def path_matches(label: str, glob: str) -> bool:
    """Whether a case file's path inside the pack matches a glob, part by part (`*` does
    not cross a `/`: `*.json` is a file at the top of the pack)."""
    parts, wanted = label.split("/"), glob.split("/")
    return len(parts) == len(wanted) and all(
        fnmatch.fnmatchcase(part, want) for part, want in zip(parts, wanted, strict=True))


def _summary(console: Console, found: list[Derivation], seconds: float) -> None:
    pinned = [d for d in found if d.combinations]
    capped = [d for d in pinned if d.capped]
    dropped = [(d, r) for d in found for r in d.dropped]
    console.print(
        f"{len(found)} hand-worked case(s), {len(pinned)} with readings left out by their pins: "
        f"{sum(d.combinations for d in pinned)} combination(s), "
        f"{sum(d.played for d in pinned)} played, "
        f"{sum(d.parted for d in pinned)} where the readings part ways with the script "
        "(a script-only alternative), "
        f"{sum(d.illegal for d in pinned)} where it does not play through, "
        f"{sum(d.capped for d in pinned)} past the cap of {MAX_COMBINATIONS} per case "
        f"({len(capped)} case(s)); {sum(len(d.alternatives) for d in found)} alternative(s) "
        f"in {seconds:.1f} s", highlight=False)
    for derivation, requires in dropped:
        console.print(f"dropped: {derivation.case_id}: the alternative for {requires} fails "
                      "under a reading of a variant it leaves out", markup=False,
                      highlight=False)
