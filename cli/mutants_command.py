"""`baloot conform mutants`: run the pack against every mutant engine, print the kill table.

    baloot conform mutants [--jobs N] [--first-failure] [--only NAME|GLOB] [--list]
    baloot conform mutants --spec ...   (every first-order mutant of the spec: spec_commands.py)

Exit status 1 when a mutant survives (a missing case), 2 on a usage or build error.

`--list` works on the base install: the catalogue's mutants need nothing more; those
made from the spec's boundaries need its parser (lark, extra `[spec]`), and without it
the list says so. Building and running mutants needs `[dev]`.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ..conformance.mutants.catalogue import MUTANTS, Mutant
from ..conformance.mutants.run import KillReport, PackError, Verdict, run_mutants
from . import extras
from . import spec_mutants_command as spec_commands
from .console import console as make_console


def register(conform_commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `mutants` to the group of `baloot conform`'s subcommands."""
    parser = conform_commands.add_parser(
        "mutants",
        help="run the pack against deliberately broken engines; print the kill table",
        description="Build every mutant of the catalogue (the reference engine with one rule "
        "bug each), run the case pack against each, and print which cases kill it. "
        "Exit 1 if a mutant survives.",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="mutants run in parallel (default: the CPU count)",
    )
    parser.add_argument(
        "--first-failure",
        action="store_true",
        help="stop each mutant's run at its first killing case",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME|GLOB",
        help="run only these mutants (repeatable)",
    )
    parser.add_argument(
        "--cases",
        action="append",
        type=Path,
        dest="mutant_cases",
        metavar="DIR",
        help="case pack folders (default: the built-in pack, mutant_kills/ included)",
    )
    parser.add_argument("--profile", action="append",
                        help="the run's profile (default literal; with --spec, repeatable, "
                        "default every profile)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per reply")
    parser.add_argument("--cache", type=Path, help="where mutant builds are kept")
    parser.add_argument("--json", type=Path, dest="mutant_json", help="write the table as JSON")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    spec_commands.add_options(parser)
    parser.set_defaults(run=run_command)


def select(only: list[str]) -> list[Mutant]:
    """The catalogue's mutants, then those made from the spec's boundaries (`boundary_*`)."""
    from ..conformance.mutants.boundary_mutants import boundary_mutants  # lark: reads the spec

    return matching([*MUTANTS, *boundary_mutants()], only)


def matching(mutants: list[Mutant], only: list[str]) -> list[Mutant]:
    if not only:
        return mutants
    return [m for m in mutants
            if any(m.name == p or fnmatch.fnmatchcase(m.name, p) for p in only)]


def list_mutants(console: Console, only: list[str]) -> int:
    """Print the mutants, one a line; the boundary mutants only where lark is installed."""
    try:
        mutants = select(only)
        left_out = None
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in extras.OPTIONAL:
            raise
        mutants = matching(list(MUTANTS), only)
        left_out = (f"(the mutants made from the spec's boundaries, boundary_*, need its "
                    f"parser: {extras.install_hint('spec')})")
    for m in mutants:
        console.print(f"{m.name:32} {m.clause:9} {m.description}", highlight=False)
    if left_out:
        console.print(left_out, markup=False, highlight=False, soft_wrap=True)
    return 0


def kill_table(report: KillReport) -> Table:
    count = sum(v.killed for v in report.verdicts)
    table = Table(title=f"mutants killed: {count} of {len(report.verdicts)} ({report.cases} cases)")
    table.add_column("mutant")
    table.add_column("clause")
    table.add_column("killed by", overflow="fold")
    for v in report.verdicts:
        if v.problem:
            killed = f"[red]NOT BUILT[/] {v.problem.splitlines()[0]}"
        elif v.killed:
            shown = v.killed_by[:4]
            more = len(v.killed_by) - len(shown)
            killed = ", ".join(shown) + (f" (+{more})" if more > 0 else "")
        elif v.mutant.equivalent:
            killed = f"[yellow]EQUIVALENT[/] ({v.mutant.equivalent})"
        else:
            killed = "[bold red]SURVIVED[/]"
        table.add_row(v.mutant.name, v.mutant.clause, killed)
    return table


def report_json(report: KillReport) -> dict[str, Any]:
    def one(v: Verdict) -> dict[str, Any]:
        return {
            "mutant": v.mutant.name,
            "clause": v.mutant.clause,
            "description": v.mutant.description,
            "killed_by": v.killed_by,
            "survived": not v.killed,
            "equivalent": v.mutant.equivalent,
            "problem": v.problem,
            "cases_run": v.cases_run,
            "seconds": round(v.seconds, 3),
        }

    return {
        "cases": report.cases,
        "kill_rate": report.kill_rate,
        "reference_failures": report.reference_failures,
        "mutants": [one(v) for v in report.verdicts],
    }


def run_command(args: argparse.Namespace) -> int:
    if args.spec or args.merge:
        return spec_commands.run_spec_command(args)
    console = make_console()
    spec_only = [name for name, value in (("--shard", args.shard),
                                          ("--write-cases", args.write_cases)) if value]
    if spec_only:
        console.print(f"baloot conform mutants: {spec_only[0]} goes with --spec")
        return 2
    if args.profile and len(args.profile) > 1:
        console.print("baloot conform mutants: one --profile without --spec")
        return 2
    profile = args.profile[0] if args.profile else "literal"
    if args.list:
        return list_mutants(console, args.only)
    mutants = select(args.only)
    if not mutants:
        console.print(f"baloot conform mutants: --only {' '.join(args.only)}: no mutant matches")
        return 2
    try:
        report = run_mutants(
            mutants,
            folders=args.mutant_cases,
            jobs=max(1, args.jobs),
            first_failure=args.first_failure,
            profile=profile,
            timeout=args.timeout,
            cache=args.cache,
        )
    except PackError as exc:
        console.print(f"baloot conform mutants: {exc}", markup=False)
        return 2
    for problem in report.pack_problems[:10]:
        console.print(f"[yellow]note[/] case left out: {problem}", highlight=False)
    if len(report.pack_problems) > 10:
        console.print(f"[yellow]note[/] ... {len(report.pack_problems) - 10} more lint problems")
    for case_id, why in report.reference_failures.items():
        console.print(
            f"[yellow]note[/] {case_id} fails on the reference engine ({why}); it kills nothing",
            highlight=False,
        )
    console.print(kill_table(report))
    console.print(f"kill rate {report.kill_rate:.0%} in {report.seconds:.1f} s")
    if args.mutant_json:
        args.mutant_json.write_text(json.dumps(report_json(report), indent=2) + "\n")
    if any(v.problem for v in report.verdicts):
        return 2
    return 1 if report.survivors else 0
