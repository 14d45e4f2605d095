"""`baloot conform mutants --spec`: every first-order mutant of the spec against the pack.

    baloot conform mutants --spec [--jobs N] [--shard K/N] [--kills N] [--games N]
                                  [--profile P ...] [--only GLOB] [--json FILE]
                                  [--write-cases DIR] [--thin] [--target PCT]
    baloot conform mutants --spec --merge FILE [FILE ...] [--json FILE]
    baloot conform mutants --spec --list

Prints the kill table by operator, rule, clause and reading, and every
survivor by rule and operator with what became of it. Exit status 1 when,
under some profile, fewer than `--target` percent of the mutants not proven
equivalent are killed by `--kills` cases or more (two when it is 0); 2 on a
bad option, pack or shard file.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..conformance.harness.pack import Case
from ..conformance.mutants.causes import GROUND, second_causes
from ..conformance.mutants.designed_deals import designed_setups
from ..conformance.mutants.differential import Setup, setups_of, turned_setup
from ..conformance.mutants.live import LiveSpec
from ..conformance.mutants.operators import SpecMutant, spec_mutants
from ..conformance.mutants.run import PackError, load_cases
from ..conformance.mutants.spec_report import (
    MergeError,
    MutantRow,
    SpecReport,
    from_json,
    merge,
    report_of,
    to_json,
)
from ..conformance.mutants.spec_run import Shard, run_spec_mutants
from ..conformance.mutants.survivors import analyse_survivors, killing_cases, thin_rows
from ..conformance.mutants.synthesis import write_cases
from ..grammar.model import Spec
from .console import console as make_console
from .options import add_shard, parse_shard


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("spec-wide mutation (--spec)")
    group.add_argument("--spec", action="store_true",
                       help="derive every first-order mutant of the spec and run the pack on "
                       "each, in this process")
    add_shard(group, "run every N-th mutant from the K-th")
    group.add_argument("--merge", nargs="+", type=Path, metavar="FILE",
                       help="merge the --json reports of shards into one")
    group.add_argument("--kills", type=int, default=2,
                       help="stop a mutant's run at this many killing cases (0: run every "
                       "case; default 2)")
    group.add_argument("--games", type=int, default=24,
                       help="seeded random games per survivor, to find a witness (default 24)")
    group.add_argument("--thin", action="store_true",
                       help="also seek a witness for each mutant killed by fewer than --kills "
                       "cases, on the profile and away from its killing cases' deals (with "
                       "--write-cases, a second case that kills it)")
    group.add_argument("--write-cases", type=Path, metavar="DIR",
                       help="write a case for each survivor's witness into DIR")
    group.add_argument("--causes", action="store_true",
                       help="one cause per case: list the cases killed by mutants of rules "
                       "they do not cite (needs --kills 0); exit 1 when there is one")
    group.add_argument("--target", type=float, default=98.0,
                       help="the share, in percent, of the mutants not proven equivalent that "
                       "each profile must see killed by --kills cases or more (default 98)")


def run_spec_command(args: argparse.Namespace) -> int:
    console = make_console()
    from ..conformance.pack_tools.spec_model import spec_model  # lark: reads the spec

    spec = spec_model()
    every = spec_mutants(spec)
    if args.only:
        every = [mt for mt in every if any(fnmatch.fnmatchcase(mt.id, p) for p in args.only)]
    if args.list:
        for mt in every:
            console.print(f"{mt.id:60} {mt.description}", highlight=False, markup=False)
        console.print(f"{len(every)} mutant(s)", highlight=False)
        return 0
    try:
        shard = Shard(*parse_shard(args.shard)) if args.shard else None
        if args.merge:
            report = merge([(str(path), _read(path)) for path in args.merge])
        else:
            report = _run(args, spec, every, shard, console)
    except (ValueError, PackError) as exc:  # MergeError is a ValueError
        console.print(f"baloot conform mutants --spec: {exc}", markup=False, highlight=False)
        return 2
    print_report(console, report)
    second = 0
    if args.causes:
        try:
            second = print_causes(console, report, load_cases(args.mutant_cases)[1])
        except ValueError as exc:
            console.print(f"baloot conform mutants --spec --causes: {exc}", markup=False,
                          highlight=False)
            return 2
    if args.mutant_json:
        args.mutant_json.write_text(json.dumps(to_json(report), indent=1) + "\n",
                                    encoding="utf-8")
    short = [p for p in report.profiles if 100 * report.target_rate(p) < args.target]
    for profile in short:
        console.print(f"target missed: profile {profile}: {100 * report.target_rate(profile):.1f}%"
                      f" of the mutants not proven equivalent killed by "
                      f"{report.enough_kills()} case(s) or more, under {args.target:g}%",
                      highlight=False)
    return 1 if short or second else 0


def print_causes(console: Console, report: SpecReport, cases: list[Case]) -> int:
    """The cases with a second cause, under each profile; how many there are."""
    table = Table(title="cases killed by mutants of rules they do not cite")
    for column in ("profile", "case", "cites", "also killed by mutants of", "their clauses"):
        table.add_column(column, overflow="fold")
    flagged: set[str] = set()
    for profile in report.profiles:
        for cause in second_causes(report, cases, profile):
            flagged.add(cause.case)
            table.add_row(profile, cause.case, ", ".join(cause.cited), cause.rule,
                          ", ".join(cause.clauses))
    if flagged:
        console.print(table)
    counted = {r for row in report.rows for v in row.verdicts.values() for r in v["killed_by"]}
    console.print(f"one cause per case: {len(counted) - len(flagged & counted)} of "
                  f"{len(counted)} case(s) that kill a mutant are killed only by mutants of "
                  f"rules they cite (or of the ground: {', '.join(sorted(GROUND))}); "
                  f"{len(flagged)} have a second cause", highlight=False)
    return len(flagged)


def _read(path: Path) -> SpecReport:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MergeError(f"{path}: cannot be read as JSON ({exc})") from None
    return from_json(data, str(path))


def _run(args: argparse.Namespace, spec: Spec, every: list[SpecMutant], shard: Shard | None,
         console: Console) -> SpecReport:
    if args.kills < 0 or args.games < 0:
        raise ValueError("--kills and --games take 0 or more")
    _, cases, problems = load_cases(args.mutant_cases)
    for problem in problems[:5]:
        console.print(f"note: case left out: {problem}", markup=False, highlight=False)
    profiles = tuple(args.profile or [p.name for p in spec.profiles])
    unknown = [p for p in profiles if p not in {q.name for q in spec.profiles}]
    if unknown:
        raise ValueError(f"--profile {unknown[0]}: no such profile "
                         f"(expected one of {', '.join(q.name for q in spec.profiles)})")
    run = run_spec_mutants(spec, cases, profiles=profiles, mutants=every, shard=shard,
                           jobs=max(1, args.jobs), kills=args.kills)
    report = report_of(spec, run, args.kills)
    for profile, failing in run.reference_failures.items():
        for case_id in failing:
            console.print(f"note: {case_id} fails on the reference under {profile}; it kills "
                          "nothing", markup=False, highlight=False)
    live = LiveSpec(spec)
    by_id = {mt.id: mt for mt in run.mutants}
    witnesses = analyse_survivors(live, report, by_id, games=args.games,
                                  jobs=max(1, args.jobs),
                                  setups=[*designed_setups(), *setups_of(cases),
                                          *(_turned_killers(report, cases) if args.thin else ())],
                                  thin=args.thin)
    if args.write_cases and witnesses:
        written = write_cases(live, witnesses, by_id, args.write_cases,
                              taken={c.id for c in cases})
        console.print(f"{len(written)} case(s) written into {args.write_cases}",
                      highlight=False)
    return report


def _turned_killers(report: SpecReport, cases: list[Case]) -> list[Setup]:
    """The cases that alone kill a thin kill, each turned a seat (`turned_setup`)."""
    killers = {c for row in thin_rows(report) for c in killing_cases(report, row)}
    return [t for c in cases if c.id in killers and (t := turned_setup(c)) is not None]


# ---- the tables ----------------------------------------------------------------------------


def _rate_cells(report: SpecReport, rows: list[MutantRow]) -> list[str]:
    counted = [r for r in rows if r.counted()]
    cells = [str(len(rows)), str(len(rows) - len(counted))]
    for profile in report.profiles:
        killed = sum(r.killed(profile) for r in counted)
        cells.append(f"{killed}/{len(counted)} {100 * killed / max(1, len(counted)):.0f}%")
    return cells


def group_table(report: SpecReport, key: str, *, worst: int | None = None) -> Table:
    title = f"spec mutants by {key}" + (f" (the {worst} with most survivors)" if worst else "")
    table = Table(title=title)
    for column in (key, "mutants", "equivalent", *(f"killed, {p}" for p in report.profiles)):
        table.add_column(column, overflow="fold")
    groups = list(report.groups(key).items())
    if worst:
        def alive(rows: list[MutantRow]) -> int:
            return sum(1 for r in rows if r.counted()
                       and not all(r.killed(p) for p in report.profiles))
        groups = sorted(groups, key=lambda kv: -alive(kv[1]))[:worst]
        groups = [kv for kv in groups if alive(kv[1])]
    for name, rows in groups:
        table.add_row(name, *_rate_cells(report, rows))
    return table


def survivor_table(report: SpecReport) -> Table:
    table = Table(title="survivors by rule and operator")
    for column in ("rule", "operator", "place", "change", "alive under", "found"):
        table.add_column(column, overflow="fold")
    for row in sorted(report.rows, key=lambda r: (r.target, r.operator, r.index)):
        alive = [p for p in report.profiles if not row.killed(p)]
        if not alive:
            continue
        if row.excused:
            found = f"equivalent ({row.excused['method']})"
        elif row.witness:
            found = f"witness: {row.witness}"
        elif row.probably_equivalent:
            found = "probably equivalent (no difference in the games played): alive"
        else:
            found = "alive"
        table.add_row(row.target, row.operator, row.place, row.description, ", ".join(alive),
                      found)
    return table


def print_report(console: Console, report: SpecReport) -> None:
    console.print(group_table(report, "operator"))
    console.print(group_table(report, "reading"))
    console.print(group_table(report, "clause"))
    console.print(group_table(report, "rule", worst=25))
    console.print(survivor_table(report))
    excused = sum(1 for r in report.rows if not r.counted())
    console.print(f"{len(report.rows)} spec mutant(s), {excused} proven equivalent, "
                  f"{report.cases} case(s), {report.seconds:.0f} s"
                  + (f", shard(s) {', '.join(report.shards)}" if report.shards else ""),
                  highlight=False)
    for profile in report.profiles:
        alive = report.survivors(profile)
        console.print(f"profile {profile}: kill rate {100 * report.kill_rate(profile):.1f}% of "
                      f"the mutants not proven equivalent, {100 * report.twice_rate(profile):.1f}%"
                      f" killed by 2 cases or more; {len(alive)} alive, "
                      f"{sum(r.probably_equivalent for r in alive)} of them probably equivalent",
                      highlight=False)
