"""`baloot conform`: run a case pack against an engine, lint a pack, or serve
the reference engine as an adapter.

    baloot conform --engine "COMMAND" [--profile P] [--only ID|GLOB] ...
    baloot conform lint [--cases DIR]
    baloot conform coverage [--cases DIR]
    baloot conform golden [--check]
    baloot conform pins [--cases DIR] [--only ID|GLOB] [--fix] [--jobs J]
    baloot conform applicability [--sets N] [--moves M] [--seed S] [--jobs J]
    baloot conform adapter
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from baloot.conformance.harness.clauses import matches_clause_glob
from baloot.conformance.harness.engine_process import EngineProcess
from baloot.conformance.harness.exit_status import conform_verdict
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case, Pack, default_pack_folder
from baloot.conformance.harness.report_console import print_report
from baloot.conformance.harness.report_files import write_json, write_junit
from baloot.conformance.harness.runner import CaseOutcome, Runner
from baloot.conformance.harness.terminal import console as make_console
from baloot.conformance.harness.variants import Register, load_register
from baloot.conformance.harness.xfail import XfailFileError, read_xfail_file
from baloot.conformance.pack_tools.needs_command import register_needs

PROGRESS_THRESHOLD = 20  # show a progress bar for runs with more cases than this


def register(subparsers: Any) -> None:
    conform = subparsers.add_parser(
        "conform",
        help="check a Baloot engine against the conformance case pack",
        description="Run the conformance case pack against an engine speaking the protocol "
        "of conformance/PROTOCOL.md, or lint a pack, or serve the reference engine.",
    )
    conform.add_argument(
        "--engine",
        metavar="COMMAND",
        help="the engine command line (split like a shell would, but run without one)",
    )
    conform.add_argument(
        "--cases", metavar="DIR", type=Path, help="a case pack folder (default: the built-in pack)"
    )
    conform.add_argument(
        "--profile", help="the base profile for the run (default: the engine's own)"
    )
    conform.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="ID|GLOB",
        help="run only cases with this id, or id glob, or citing a clause matching this glob "
        "(e.g. 'SCORE.*'); repeatable",
    )
    conform.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="how long to wait for each reply (default 5)",
    )
    conform.add_argument(
        "--start-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to wait for the engine's hello after starting it (default 30)",
    )
    conform.add_argument("--json", type=Path, metavar="FILE", help="write a JSON report")
    conform.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report")
    conform.add_argument(
        "--xfail", type=Path, metavar="FILE", help="expected failures: lines of 'CASE-ID REASON'"
    )
    conform.add_argument(
        "--validate-protocol",
        action="store_true",
        help="check every message, both ways, against the protocol's JSON Schemas",
    )
    conform.add_argument(
        "--min-checked",
        type=int,
        default=1,
        metavar="N",
        help="fail (exit 4) when fewer than N cases ran to a verdict (default 1)",
    )
    conform.set_defaults(run=run_conform)
    sub = conform.add_subparsers(dest="conform_command", metavar="SUBCOMMAND")
    lint = sub.add_parser("lint", help="check a case pack without an engine")
    lint.add_argument(
        "--cases",
        metavar="DIR",
        type=Path,
        dest="lint_cases",
        help="a case pack folder (default: the built-in pack)",
    )
    lint.set_defaults(run=run_lint)
    cover = sub.add_parser(
        "coverage",
        help="the clause-by-case, reading-by-case and boundary tables; exit 1 on gaps",
        description="Which cases cite each clause of the spec and require each variant "
        "reading, and which cases reach each numeric boundary of the spec (the value and "
        "one point either side, for each side). Exits 1 when a clause has fewer than 3 "
        "cases, a reading none, or a boundary point no case (regression snapshots do not "
        "count).",
    )
    cover.add_argument(
        "--cases",
        metavar="DIR",
        type=Path,
        dest="coverage_cases",
        help="a case pack folder (default: the built-in pack)",
    )
    cover.add_argument(
        "--ids", type=int, default=6, metavar="N", help="case ids shown per row (default 6; 0: all)"
    )
    cover.set_defaults(run=run_coverage)
    golden = sub.add_parser(
        "golden",
        help="regenerate the golden playthroughs (regression snapshots) from the reference engine",
    )
    golden.add_argument(
        "--cases",
        metavar="DIR",
        type=Path,
        dest="golden_cases",
        help="the pack folder to write golden/ into (default: the built-in pack)",
    )
    golden.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a golden file differs from what the engine gives now",
    )
    golden.set_defaults(run=run_golden)
    pins = sub.add_parser(
        "pins",
        help="check that every case pins exactly the readings its expectation depends on",
        description="Run each case against the reference engine under every reading of every "
        "variant, one variant at a time, from each profile, its other pins kept. A case that "
        "fails under another reading of a variant it leaves out is under-pinned; one that "
        "passes under every reading of a variant it pins is over-pinned. Exit 1 when a case "
        "is under-pinned or `--fix` would change a hand-worked case.",
    )
    pins.add_argument(
        "--fix",
        action="store_true",
        help="rewrite the hand-worked cases' `requires` to minimal pins",
    )
    pins.add_argument(
        "--jobs",
        type=int,
        default=0,
        metavar="J",
        dest="pins_jobs",
        help="worker processes (default: one per CPU)",
    )
    pins.add_argument(
        "--cases",
        metavar="DIR",
        type=Path,
        dest="pins_cases",
        help="a case pack folder (default: the built-in pack)",
    )
    pins.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="ID|GLOB",
        dest="pins_only",
        help="only these cases (repeatable)",
    )
    pins.set_defaults(run=run_pins)
    applicability = sub.add_parser(
        "applicability",
        help="how many cases hold, and are applied, under each profile and random readings",
        description="For each profile and for random reading sets (a random profile with "
        "--moves variants moved to another reading): the cases that hold on the reference "
        "engine under exactly those readings, the share of them the runner applies to an "
        "engine declaring those readings, and the cases applied that do not hold. Exit 1 "
        "when a target is not met.",
    )
    applicability.add_argument(
        "--cases",
        metavar="DIR",
        type=Path,
        dest="applicability_cases",
        help="a case pack folder (default: the built-in pack)",
    )
    applicability.add_argument(
        "--sets", type=int, default=200, metavar="N", help="random reading sets (default 200)"
    )
    applicability.add_argument(
        "--moves",
        type=int,
        default=5,
        metavar="M",
        help="variants each random set moves off its profile (default 5)",
    )
    applicability.add_argument(
        "--seed", type=int, default=0, metavar="S", help="seed of the random sets (default 0)"
    )
    applicability.add_argument(
        "--jobs",
        type=int,
        default=0,
        metavar="J",
        dest="applicability_jobs",
        help="worker processes (default: one per CPU)",
    )
    applicability.set_defaults(run=run_applicability)
    adapter = sub.add_parser(
        "adapter", help="serve the reference engine over the protocol (stdin/stdout)"
    )
    adapter.set_defaults(run=run_adapter)
    register_needs(sub)


def _stderr() -> Console:
    return make_console(stderr=True)


def run_lint(args: argparse.Namespace) -> int:
    folder = args.lint_cases or args.cases or default_pack_folder()
    pack, problems = lint_pack(folder)
    console = make_console()
    for problem in problems:
        console.print(f"[red]error[/] {escape(str(problem))}", highlight=False)
    count = len(pack.cases)
    if problems:
        console.print(f"{len(problems)} problem(s) in pack {pack.name} {pack.version} ({folder})")
        return 1
    console.print(f"pack {pack.name} {pack.version}: {count} case(s), no problems")
    return 0


def _clean_pack(folder: Path | None, console: Console) -> tuple[Pack, Register] | None:
    """The pack in `folder` (default: the built-in one) and the register, or None after
    printing its lint problems: commands that read a pack need one that lints clean."""
    register_ = load_register()
    pack, problems = lint_pack(folder or default_pack_folder(), register_)
    if not problems:
        return pack, register_
    for problem in problems:
        console.print(f"error {problem}", markup=False, highlight=False)
    console.print(f"{len(problems)} problem(s): run `baloot conform lint` and fix them first")
    return None


def run_coverage(args: argparse.Namespace) -> int:
    from rich.table import Table

    from baloot.conformance.pack_tools.coverage import coverage

    console = make_console()
    linted = _clean_pack(args.coverage_cases or args.cases, console)
    if linted is None:
        return 2
    pack, register_ = linted
    found = coverage(pack, register_)

    def ids(row_cases: tuple[str, ...]) -> str:
        shown = row_cases if args.ids <= 0 else row_cases[: args.ids]
        more = len(row_cases) - len(shown)
        return ", ".join(shown) + (f", ... (+{more})" if more else "")

    for title, key, rows in (
        ("clauses by case", "clause", found.clauses),
        ("variant readings by case", "reading", found.readings),
    ):
        table = Table(title=title, title_justify="left")
        table.add_column(key)
        table.add_column("cases", justify="right")
        table.add_column("case ids", overflow="fold")
        for row in rows:
            style = "red" if row.gap else None
            table.add_row(row.key, str(len(row.cases)), ids(row.cases), style=style)
        console.print(table)
    clauses_ok = sum(1 for r in found.clauses if not r.gap)
    readings_ok = sum(1 for r in found.readings if not r.gap)
    console.print(
        f"pack {pack.name} {pack.version}: {found.counted} case(s) counted, "
        f"{found.snapshots} regression snapshot(s) not counted; "
        f"clauses with >= 3 cases: {clauses_ok}/{len(found.clauses)}; "
        f"readings with a case: {readings_ok}/{len(found.readings)}"
    )
    from baloot.conformance.pack_tools.boundary_report import print_boundaries
    from baloot.conformance.pack_tools.coverage import boundary_coverage

    bounds = boundary_coverage(pack)
    print_boundaries(console, bounds, args.ids)
    gaps = [row.key for row in found.gaps] + bounds.gaps
    if gaps:
        console.print("[red]gaps:[/] " + ", ".join(gaps), highlight=False)
        return 1
    return 0


def run_pins(args: argparse.Namespace) -> int:
    from baloot.conformance.pack_tools.pins_report import report_pins

    console = make_console()
    folder = args.pins_cases or args.cases or default_pack_folder()
    linted = _clean_pack(folder, console)
    if linted is None:
        return 2
    pack, register_ = linted
    if args.pins_jobs < 0:
        console.print("baloot conform pins: --jobs must be 0 (one per CPU) or more")
        return 2
    cases = select_cases(pack, args.pins_only) if args.pins_only else list(pack.cases)
    return report_pins(console, folder, cases, register_, fix=args.fix,
                       jobs=args.pins_jobs or os.cpu_count() or 1)


def run_applicability(args: argparse.Namespace) -> int:
    from baloot.conformance.pack_tools.applicability_report import report_applicability

    console = make_console()
    linted = _clean_pack(args.applicability_cases or args.cases, console)
    if linted is None:
        return 2
    pack, register_ = linted
    if args.sets < 0 or args.moves < 1 or args.applicability_jobs < 0:
        console.print("baloot conform applicability: --sets must be 0 or more, --moves 1 or "
                      "more, --jobs 0 (one per CPU) or more")
        return 2
    return report_applicability(console, list(pack.cases), register_, sets=args.sets,
                                moves=args.moves, seed=args.seed,
                                jobs=args.applicability_jobs or os.cpu_count() or 1)


def run_golden(args: argparse.Namespace) -> int:
    from baloot.conformance.pack_tools.golden import write_golden

    folder = args.golden_cases or args.cases or default_pack_folder()
    return write_golden(folder, check=args.check, console=make_console())


def run_adapter(args: argparse.Namespace) -> int:
    from baloot.conformance.adapters.reference_adapter import main as adapter_main

    return adapter_main()


def select_cases(pack: Pack, only: list[str]) -> list[Case]:
    if not only:
        return list(pack.cases)
    return [
        case
        for case in pack.cases
        if any(
            case.id == p or fnmatch.fnmatchcase(case.id, p) or matches_clause_glob(case.clauses, p)
            for p in only
        )
    ]


def _extra_args(args: argparse.Namespace) -> list[str]:
    """The options a rerun command must repeat."""
    extra: list[str] = []
    if args.cases:
        extra += ["--cases", str(args.cases)]
    if args.timeout != 5.0:
        extra += ["--timeout", f"{args.timeout:g}"]
    if args.validate_protocol:
        extra.append("--validate-protocol")
    return extra


def run_conform(args: argparse.Namespace) -> int:
    err = _stderr()
    if not args.engine:
        err.print("baloot conform: give --engine COMMAND (or a subcommand: lint, adapter)")
        return 2
    try:
        argv = shlex.split(args.engine)
    except ValueError as exc:
        err.print(f"baloot conform: --engine: cannot split {args.engine!r}: {exc}")
        return 2
    if not argv:
        err.print("baloot conform: --engine is empty")
        return 2
    for option in ("timeout", "start_timeout"):
        value = getattr(args, option)
        if not 0 < value < float("inf"):
            err.print(f"baloot conform: --{option.replace('_', '-')} must be a positive number "
                      f"of seconds, not {value!r}")
            return 2
    if args.min_checked < 0:
        err.print("baloot conform: --min-checked must be 0 or more")
        return 2
    register_ = load_register()
    if args.profile and args.profile not in register_.profiles:
        err.print(
            f"baloot conform: --profile: no profile {args.profile!r}; expected one of "
            + ", ".join(register_.profiles)
        )
        return 2
    xfails: dict[str, str] = {}
    if args.xfail:
        try:
            xfails = read_xfail_file(args.xfail)
        except XfailFileError as exc:
            err.print(f"baloot conform: --xfail: {exc}")
            return 2
    folder = args.cases or default_pack_folder()
    pack, problems = lint_pack(folder, register_)
    if problems:
        for problem in problems:
            err.print(f"error {problem}", markup=False, highlight=False)
        err.print(
            f"baloot conform: the pack has {len(problems)} problem(s); "
            "run `baloot conform lint` and fix them first"
        )
        return 2
    cases = select_cases(pack, args.only)
    if not cases:
        err.print(f"baloot conform: --only {' '.join(args.only)}: no case matches")
        return 2

    console = make_console()
    console.print(
        f"[bold]case pack[/] {pack.name} {pack.version} ({len(cases)} of {len(pack.cases)} cases)"
    )
    console.print(f"[bold]engine[/]    {shlex.join(argv)}")
    engine = EngineProcess(
        argv,
        timeout=args.timeout,
        start_timeout=args.start_timeout,
        validate=args.validate_protocol,
    )
    runner = Runner(engine, register_, profile=args.profile, xfails=xfails)
    if len(cases) > PROGRESS_THRESHOLD and console.is_terminal:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task("cases", total=len(cases))

            def advance(outcome: CaseOutcome) -> None:
                progress.update(task, advance=1, description=outcome.case.id)

            report = runner.run(pack, cases, advance)
    else:
        report = runner.run(pack, cases)
    extra = _extra_args(args)
    print_report(console, report, extra)
    try:
        if args.json:
            write_json(report, args.json, extra)
        if args.junit:
            write_junit(report, args.junit)
    except OSError as exc:
        err.print(f"baloot conform: cannot write the report: {exc}")
        return 2
    status, why = conform_verdict(report, args.min_checked)
    if why:
        console.print(f"[red]FAILED[/] {escape(why)}")
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run as: baloot conform ...")
