"""The pack authors' subcommands of `baloot conform`: what a pack covers, whether
its cases pin the right readings and say the right seats, and its golden files.

    baloot conform coverage [--cases DIR]
    baloot conform golden [--check]
    baloot conform pins [--cases DIR] [--only ID|GLOB] [--fix] [--jobs J]
    baloot conform applicability [--sets N] [--moves M] [--seed N] [--jobs J]
    baloot conform needs [--fix]
    baloot conform examples [--check]
    baloot conform refusals [--check] [--synthesise]
    baloot conform derive [--check] [--cases DIR] [--files GLOB] [--jobs J]
"""

from __future__ import annotations

import argparse
import sys

from rich.table import Table

from ..conformance.harness.case_selection import select_cases
from ..conformance.harness.pack import default_pack_folder
from ..conformance.pack_tools.applicability_report import report_applicability
from ..conformance.pack_tools.boundary_probe import boundary_coverage
from ..conformance.pack_tools.boundary_report import print_boundaries
from ..conformance.pack_tools.coverage import coverage
from ..conformance.pack_tools.golden import write_golden
from ..conformance.pack_tools.pins_report import report_pins
from ..reference_impl import interpreted_only
from .console import console as make_console
from .derive_command import register_derive
from .destinations import REFUSED, refuse
from .examples_command import register_examples
from .needs_command import register_needs
from .options import add_jobs, add_seed, negative_jobs, workers
from .pack_folder import ON_A_COPY, add_pack_folder, linted_pack
from .refusals_command import register_refusals


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the pack tools to the group of `baloot conform`'s subcommands."""
    cover = sub.add_parser(
        "coverage",
        help="the clause-by-case, reading-by-case and boundary tables; exit 1 on gaps",
        description="Which cases cite each clause of the spec and require each variant "
        "reading, and which cases reach each numeric boundary of the spec (the value and "
        "one point either side, for each side). Exits 1 when a clause has fewer than 3 "
        "cases, a reading none, or a boundary point no case (regression snapshots do not "
        "count).",
    )
    add_pack_folder(cover, "coverage_cases")
    cover.add_argument(
        "--ids", type=int, default=6, metavar="N", help="case ids shown per row (default 6; 0: all)"
    )
    cover.set_defaults(run=run_coverage)
    golden = sub.add_parser(
        "golden",
        help="regenerate the golden playthroughs (regression snapshots) from the reference engine",
    )
    add_pack_folder(golden, "golden_cases",
                    "the pack folder to write golden/ into (default: the built-in pack)")
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
    add_jobs(pins, dest="pins_jobs", metavar="J")
    add_pack_folder(pins, "pins_cases")
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
    add_pack_folder(applicability, "applicability_cases")
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
    add_seed(applicability, default=0, of="the random sets")
    add_jobs(applicability, dest="applicability_jobs", metavar="J")
    applicability.set_defaults(run=run_applicability)
    register_needs(sub)
    register_examples(sub)
    register_refusals(sub)
    register_derive(sub)


def run_coverage(args: argparse.Namespace) -> int:
    console = make_console()
    linted = linted_pack(args.coverage_cases or args.cases, console)
    if linted is None:
        return 2
    pack, register_ = linted
    found = coverage(pack, register_)
    bounds = boundary_coverage(pack)  # reads the spec (lark): before any table is printed

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
    print_boundaries(console, bounds, args.ids)
    gaps = [row.key for row in found.gaps] + bounds.gaps
    if gaps:
        console.print("[red]gaps:[/] " + ", ".join(gaps), highlight=False)
        return 1
    return 0


def run_pins(args: argparse.Namespace) -> int:
    console = make_console()
    given = args.pins_cases or args.cases
    if args.fix and refuse("conform pins --fix", [given], ON_A_COPY):
        return REFUSED
    folder = given or default_pack_folder()
    linted = linted_pack(folder, console)
    if linted is None:
        return 2
    pack, register_ = linted
    if negative_jobs("conform pins", args.pins_jobs):
        return 2
    refused = interpreted_only("conform pins")
    if refused is not None:
        print(refused, file=sys.stderr)
        return 2
    cases = select_cases(pack, args.pins_only) if args.pins_only else list(pack.cases)
    return report_pins(console, folder, cases, register_, fix=args.fix,
                       jobs=workers(args.pins_jobs))


def run_applicability(args: argparse.Namespace) -> int:
    console = make_console()
    linted = linted_pack(args.applicability_cases or args.cases, console)
    if linted is None:
        return 2
    pack, register_ = linted
    if args.sets < 0 or args.moves < 1 or args.applicability_jobs < 0:
        console.print("baloot conform applicability: --sets must be 0 or more, --moves 1 or "
                      "more, --jobs 0 (one per CPU) or more")
        return 2
    return report_applicability(console, list(pack.cases), register_, sets=args.sets,
                                moves=args.moves, seed=args.seed,
                                jobs=workers(args.applicability_jobs))


def run_golden(args: argparse.Namespace) -> int:
    given = args.golden_cases or args.cases
    if not args.check and refuse("conform golden", [given], ON_A_COPY):
        return REFUSED
    folder = given or default_pack_folder()
    return write_golden(folder, check=args.check, console=make_console())
