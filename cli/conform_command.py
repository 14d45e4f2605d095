"""`baloot conform`: run a case pack against an engine, or lint a pack.

    baloot conform --engine "COMMAND" [--profile P] [--only ID|GLOB] [--skip ID|GLOB]
                   [--xfail FILE] [--strict] [--write-xfail FILE]
                   [--json FILE] [--junit FILE] [--summary-md FILE]
                   [-q | -v] [-x | --maxfail N] ...
    baloot conform lint [--cases DIR]

`register` returns the group of `conform`'s subcommands: the reference adapter
(`adapters/command.py`), the pack authors' tools (`pack_tools/commands.py`) and
the mutants (`mutants/commands.py`) add theirs to it.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import NamedTuple, TypeAlias

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..conformance.harness.case_selection import (
    SkipFileError,
    SkipList,
    read_skip_file,
    select_cases,
)
from ..conformance.harness.engine_process import EngineProcess
from ..conformance.harness.exit_status import USAGE, conform_verdict
from ..conformance.harness.lint import lint_pack
from ..conformance.harness.pack import Case, Pack, default_pack_folder
from ..conformance.harness.report_console import COMPACT, FULL, QUIET, print_report
from ..conformance.harness.report_files import write_json, write_junit
from ..conformance.harness.report_markdown import append_stopped_summary, append_summary
from ..conformance.harness.report_xfail import write_xfail
from ..conformance.harness.runner import CaseOutcome, Runner, RunReport
from ..conformance.harness.variants import Register, load_register
from ..conformance.harness.xfail import XfailFileError, XfailList, read_xfail_list
from .console import console as make_console
from .pack_folder import add_pack_folder

# The group of a command's subcommands, as `add_subparsers` returns it.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

PROGRESS_THRESHOLD = 20  # show a progress bar for runs with more cases than this


def register(subparsers: Subcommands) -> Subcommands:
    """Add `baloot conform` and its `lint` subcommand; return the group of `conform`'s
    subcommands, where the other rooms add theirs (adapter, pack tools, mutants)."""
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
    add_pack_folder(conform)
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
        "--skip",
        action="append",
        default=[],
        metavar="ID|GLOB",
        help="do not run the cases with this id, or id glob, or citing a clause matching "
        "this glob; they are reported as skipped by the user; repeatable",
    )
    conform.add_argument(
        "--skip-file",
        type=Path,
        metavar="FILE",
        help="cases to skip: lines of 'ID|GLOB REASON' ('#' comments), as --skip takes them",
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
        "--summary-md",
        type=Path,
        metavar="FILE",
        help="append a markdown summary of the run to FILE (e.g. \"$GITHUB_STEP_SUMMARY\")",
    )
    conform.add_argument(
        "--xfail",
        type=Path,
        metavar="FILE",
        help="expected failures: lines of 'CASE-ID REASON', or 'GLOB REASON' (globs of case ids)",
    )
    conform.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 5) when a case listed in --xfail passes",
    )
    conform.add_argument(
        "--write-xfail",
        type=Path,
        metavar="FILE",
        help="write an xfail file listing every case that failed or errored in this run",
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
    conform.add_argument(
        "--pack-version",
        metavar="X.Y[.Z]",
        help="the pack version the engine was checked against: stop (exit 2) when the pack "
        "is another, as a change of its minor version changes what cases mean",
    )
    said = conform.add_mutually_exclusive_group()
    said.add_argument(
        "-q", "--quiet", action="store_true",
        help="print only the failing cases' ids and the summary line",
    )
    said.add_argument(
        "-v", "--verbose", action="store_true",
        help="print each failure in full (its diff, the engine's stderr) even when stdout "
        "is not a terminal, where a failure takes a line or two",
    )
    stop = conform.add_mutually_exclusive_group()
    stop.add_argument(
        "-x", "--exitfirst", action="store_const", const=1, dest="maxfail",
        help="stop at the first case that fails or errors (as --maxfail 1)",
    )
    stop.add_argument(
        "--maxfail", type=int, metavar="N",
        help="stop after N cases failed or errored; the reports cover the cases that ran "
        "and say the run was cut short",
    )
    conform.set_defaults(run=run_conform)
    sub = conform.add_subparsers(dest="conform_command", metavar="SUBCOMMAND")
    conform.set_defaults(conform_subcommands=sub)  # named when no engine is given
    lint = sub.add_parser("lint", help="check a case pack without an engine")
    add_pack_folder(lint, "lint_cases")
    lint.set_defaults(run=run_lint)
    return sub


class _Prepared(NamedTuple):
    argv: list[str]
    register: Register
    xfails: XfailList
    skips: SkipList
    pack: Pack
    cases: list[Case]


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


def pack_version_matches(version: str, pinned: str) -> bool:
    """Whether a pack's version is the one pinned: `0.5` takes any 0.5.z, `0.5.0` only
    itself."""
    have, want = version.split("."), pinned.strip().split(".")
    return 1 <= len(want) <= len(have) and have[: len(want)] == want


def _subcommand_names(args: argparse.Namespace) -> list[str]:
    """The names of `conform`'s subcommands, as its parser holds them (every room's)."""
    sub: Subcommands | None = getattr(args, "conform_subcommands", None)
    return sorted(sub.choices) if sub is not None else ["lint"]


def _prepared(args: argparse.Namespace, err: Console) -> _Prepared | int:
    """What a run needs, read from the options, or the exit status of the first problem
    (printed on `err`)."""
    if not args.engine:
        err.print(f"baloot conform: give --engine COMMAND (or a subcommand: "
                  f"{', '.join(_subcommand_names(args))})", highlight=False, soft_wrap=True)
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
    if args.maxfail is not None and args.maxfail < 1:
        err.print("baloot conform: --maxfail must be 1 or more")
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
    xfails = XfailList()
    if args.xfail:
        try:
            xfails = read_xfail_list(args.xfail)
        except XfailFileError as exc:
            err.print(f"baloot conform: --xfail: {exc}", markup=False, highlight=False,
                      soft_wrap=True)
            return 2
    skips = SkipList.from_patterns(args.skip)
    if args.skip_file:
        try:
            skips += read_skip_file(args.skip_file)
        except SkipFileError as exc:
            err.print(f"baloot conform: --skip-file: {exc}", markup=False, highlight=False,
                      soft_wrap=True)
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
    if args.pack_version is not None and not pack_version_matches(pack.version,
                                                                   args.pack_version):
        err.print(
            f"baloot conform: --pack-version {args.pack_version}: the pack is {pack.name} "
            f"{pack.version}; see \"Pack versions\" in conformance/README.md for what changed, "
            "or run the pack you pinned (--cases DIR)",
            markup=False, highlight=False,
        )
        return 2
    cases = select_cases(pack, args.only)
    if not cases:
        err.print(f"baloot conform: --only {' '.join(args.only)}: no case matches")
        return 2
    mismatches = [f"--xfail {p}" for p in xfails.problems((c.id for c in pack.cases),
                                                          f"{pack.name} {pack.version}")]
    mismatches += [p if p.startswith("--skip ") else f"--skip-file {p}"
                   for p in skips.problems(pack)]
    if mismatches:
        for mismatch in mismatches:
            err.print(f"baloot conform: {mismatch}", markup=False, highlight=False,
                      soft_wrap=True)
        return USAGE
    return _Prepared(argv, register_, xfails, skips, pack, cases)


def run_conform(args: argparse.Namespace) -> int:
    err = make_console(stderr=True, record=True)  # kept for a stopped run's summary
    prepared = _prepared(args, err)
    if isinstance(prepared, int):
        if args.summary_md:  # the CI step's summary says why nothing ran
            problems = [line for line in err.export_text().splitlines() if line.strip()]
            try:
                append_stopped_summary(args.summary_md, problems, prepared)
            except OSError as exc:
                err.print(f"baloot conform: cannot write the summary: {exc}", markup=False,
                          highlight=False)
        return prepared
    argv, register_, xfails, skips, pack, cases = prepared
    console = make_console()
    form = report_form(args, console.is_terminal)
    if form != QUIET:
        console.print(f"[bold]case pack[/] {pack.name} {pack.version} "
                      f"({len(cases)} of {len(pack.cases)} cases)")
        console.print(f"[bold]engine[/]    {shlex.join(argv)}")
    engine = EngineProcess(
        argv,
        timeout=args.timeout,
        start_timeout=args.start_timeout,
        validate=args.validate_protocol,
    )
    runner = Runner(engine, register_, profile=args.profile, xfails=xfails, skips=skips,
                    strict=args.strict, maxfail=args.maxfail)
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
    print_report(console, report, extra, form)
    status, why = conform_verdict(report, args.min_checked)
    try:
        if args.json:
            write_json(report, args.json, extra)
        if args.junit:
            write_junit(report, args.junit)
        if args.summary_md:
            append_summary(report, args.summary_md, status, why)
        if args.write_xfail:
            _write_xfail(console, report, args.write_xfail)
    except OSError as exc:
        err.print(f"baloot conform: cannot write the report: {exc}", markup=False,
                  highlight=False)
        return 2
    if why:
        console.print(f"[red]FAILED[/] {escape(why)}", soft_wrap=True)
    return status


def report_form(args: argparse.Namespace, terminal: bool) -> str:
    """The console report's form: -q quiet; -v, or a terminal, in full; else compact."""
    if args.quiet:
        return QUIET
    return FULL if args.verbose or terminal else COMPACT


def _write_xfail(console: Console, report: RunReport, path: Path) -> None:
    """`--write-xfail`: not from a run that was interrupted, never completed a
    handshake or stopped launching an engine that kept dying, whose list would not be
    the engine's."""
    if (report.interrupted or report.never_started or report.declaration_error
            or report.keeps_dying is not None):
        console.print(f"--write-xfail {escape(str(path))}: not written, the run did not "
                      "complete", highlight=False)
        return
    listed = write_xfail(report, path)
    console.print(f"--write-xfail: {listed} case(s) listed in {escape(str(path))}",
                  highlight=False)
