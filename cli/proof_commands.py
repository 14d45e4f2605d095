"""`baloot verify` and `baloot explore`.

    baloot verify [--spec DIR] [--only GLOB] [--skip GLOB] [--no-engine] [--json FILE]
                  [--write | --check] [--results FILE] [--rounds N] [--seed N] [--jobs N]
    baloot explore [--spec DIR] [--variant NAME|ID ...] [--no-write | --check]
                   [--cases DIR] [--notes FILE] [--results FILE] [--deals N] [--seed N]
                   [--jobs N]
    baloot explore --impact [--rounds N] [--profile NAME] [--shard K/N | --merge FILE ...]
                   [--impact-results FILE] [--no-write | --check] [--seed N] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from ..explorer.explore_engine import SearchBound
from . import impact_command
from .console import console as make_console
from .destinations import REFUSED, refuse
from .options import add_jobs, add_seed, add_spec_folder, load_spec
from .stored_files import report_stale, write_text

# The spec's parser (lark) and the prover (z3) are loaded when a command runs, not
# when the `baloot` command is put together: `baloot conform` needs neither.
if TYPE_CHECKING:
    from ..proofs.proof_outcome import ProofOutcome

STYLE = {
    "proven": "green", "explored": "cyan", "refuted": "bold red", "expected-refuted": "yellow",
    "not-checked": "bold red", "error": "bold red", "skipped": "dim",
}


def register(subparsers: Any) -> None:
    verify = subparsers.add_parser(
        "verify", help="prove the spec's invariants (z3, and exploration of the engine)",
        description="Prove the invariants of the spec for every contract and profile: z3 "
        "on the rules translated from the spec model, and bounded exploration of the "
        "generated engine where a proof would need the whole state machine. Exits 1 if an "
        "invariant expected to hold is refuted, or a check cannot run (a rule it needs is "
        "missing, z3 gives up, an error); only --skip leaves a check out.")
    add_spec_folder(verify)
    verify.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="run only checks whose id matches (e.g. 'points-*'); repeatable")
    verify.add_argument("--skip", action="append", default=[], metavar="GLOB",
                        help="leave out the checks whose id matches, reported as skipped; "
                        "repeatable")
    verify.add_argument("--no-engine", action="store_true",
                        help="skip the checks that play the generated engine (as --skip)")
    verify.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the outcomes, timings included, as a JSON list")
    stored = verify.add_mutually_exclusive_group()
    stored.add_argument("--write", action="store_true",
                        help="store the outcomes in proofs/results/invariants.json (a whole "
                        "run only)")
    stored.add_argument("--check", action="store_true",
                        help="fail when the stored outcomes differ from this run's")
    verify.add_argument("--results", type=Path, default=None, metavar="FILE",
                        help="the stored outcomes (default: proofs/results/invariants.json)")
    verify.add_argument("--rounds", type=int, default=None, metavar="N",
                        help="seeded rounds of the legal-action walk (default: "
                        "liveness.ROUNDS, 300)")
    add_seed(verify, default=1, of="the random explorations")
    add_jobs(verify, default=2)
    verify.set_defaults(run=run_verify)

    bound = SearchBound()
    explore = subparsers.add_parser(
        "explore", help="find situations that separate the readings of each variant",
        description="For each variant and each pair of its readings, find a concrete situation "
        "where the readings give different legal moves or results (z3 where the rule is "
        "symbolic, the generated engine otherwise), or prove that none exists. Writes the "
        "findings to explorer/results/witnesses.json, each engine witness as a conformance "
        "case, and conformance/ambiguities.md. The searches are bounded by seeds, deals and "
        "z3's resource count, never by time: a rerun writes the same files.")
    add_spec_folder(explore)
    explore.add_argument("--variant", action="append", default=[], metavar="NAME|ID",
                         help="explore only this variant (repeatable); the stored findings "
                         "of the others are kept")
    mode = explore.add_mutually_exclusive_group()
    mode.add_argument("--no-write", action="store_true", help="print the table only")
    mode.add_argument("--check", action="store_true",
                      help="write nothing; fail when a stored file differs from this run's")
    explore.add_argument("--cases", type=Path, default=None, metavar="DIR",
                         help="where witness cases go (default: conformance/cases/variants/)")
    explore.add_argument("--notes", type=Path, default=None, metavar="FILE",
                         help="where the ambiguity notes go (default: conformance/ambiguities.md)")
    explore.add_argument("--results", type=Path, default=None, metavar="FILE",
                         help="the stored findings (default: explorer/results/witnesses.json)")
    explore.add_argument("--deals", type=int, default=bound.deals, metavar="N",
                         help=f"most seeded deals of the engine search per pair of readings "
                         f"(default {bound.deals})")
    add_seed(explore, default=1, of="the random deals")
    add_jobs(explore, default=2)
    impact_command.add_arguments(explore)
    explore.set_defaults(run=run_explore_or_impact)


# ------------------------------------------------------------------- verify --


def run_verify(args: argparse.Namespace) -> int:
    if args.write and refuse("verify --write", [args.results],
                             "pass --results FILE to store the outcomes there"):
        return REFUSED  # an installed package is read-only (destinations.py)
    spec = load_spec(args)
    if spec is None:
        return 2
    from ..proofs import invariants_file, liveness  # z3
    from ..proofs.verify import ENGINE_CHECKS, UnknownCheck, run_all  # z3

    rounds = liveness.ROUNDS if args.rounds is None else args.rounds
    skip = list(args.skip) + (list(ENGINE_CHECKS) if args.no_engine else [])
    partial = bool(args.only or skip)
    if args.write and partial:
        print("baloot verify --write stores a whole run: drop --only, --skip and --no-engine",
              file=sys.stderr)
        return 2
    console = make_console()
    start = time.perf_counter()
    try:
        outcomes = list(run_all(spec, args.only, skip, rounds=rounds, seed=args.seed,
                                jobs=args.jobs))
    except UnknownCheck as err:
        print(f"baloot verify: {err}", file=sys.stderr)
        return 2
    print_outcomes(console, outcomes)
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in STYLE}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    console.print(f"{len(outcomes)} outcome(s): {summary}; "
                  f"{time.perf_counter() - start:.1f} s", highlight=False)
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=2,
                                        default=str) + "\n", encoding="utf-8")
    status = 0
    results = args.results or invariants_file.default_path()
    if args.write:
        write_text(console, results, invariants_file.dumps(outcomes))
    if args.check:
        status = report_stale(console, invariants_file.stale_rows(results, outcomes,
                                                                  whole=not partial),
                              f"{results} is stale", "baloot verify --write")
    failed = [o for o in outcomes if o.failed]
    for o in failed:
        if o.status in ("not-checked", "error"):
            console.print(f"[bold red]{o.check} ({o.contract}; {o.readings}) could not "
                          f"run[/]: {o.detail}", highlight=False)
    if failed:
        console.print(f"[bold red]{len(failed)} invariant(s) refuted or not checkable[/]")
        status = 1
    return status


def print_outcomes(console: Console, outcomes: list[ProofOutcome]) -> None:
    groups: dict[str, list[ProofOutcome]] = {}
    for o in outcomes:
        groups.setdefault(o.check, []).append(o)
    for check, group in groups.items():
        table = Table(title=f"[bold]{check}[/]: {group[0].title}", title_justify="left",
                      show_lines=False, expand=True)
        table.add_column("contract", no_wrap=True)
        table.add_column("readings")
        table.add_column("result", no_wrap=True)
        table.add_column("method")
        table.add_column("time", justify="right", no_wrap=True)
        table.add_column("detail", ratio=3)
        for o in group:
            table.add_row(o.contract, o.readings, f"[{STYLE[o.status]}]{o.status}[/]",
                          o.method, f"{o.seconds:.2f}s", o.shown_detail)
        console.print(table)


# ------------------------------------------------------------------ explore --


def run_explore_or_impact(args: argparse.Namespace) -> int:
    """`baloot explore`, or with --impact (or --merge) how often each ambiguity matters."""
    if not (args.impact or args.merge):
        return run_explore(args)
    spec = load_spec(args)
    if spec is None:
        return 2
    return impact_command.run_impact(args, spec)


def run_explore(args: argparse.Namespace) -> int:
    if not (args.no_write or args.check) and refuse(  # an installed package is read-only
            "explore", [args.results, args.cases, args.notes],
            "pass --results FILE, --cases DIR and --notes FILE to write elsewhere, or "
            "--no-write"):
        return REFUSED
    spec = load_spec(args)
    if spec is None:
        return 2
    console = make_console()
    wanted = [spec.variant(v).name for v in args.variant] if args.variant else None
    from ..explorer import explore as explorer  # z3

    bound = SearchBound(deals=args.deals)
    findings = explorer.explore(spec, wanted, seed=args.seed, bound=bound, jobs=args.jobs,
                                console=console)
    if args.no_write:
        explorer.print_findings(console, findings)
        return 0
    defaults = explorer.StoredPaths()
    paths = explorer.StoredPaths(args.results or defaults.witnesses,
                                 args.cases or defaults.cases, args.notes or defaults.notes)
    texts = explorer.stored_texts(spec, findings, paths)
    if args.check:
        return report_stale(console, explorer.stale_files(texts),
                            "the stored findings are stale", "baloot explore",
                            f"{len(texts)} file(s) as a fresh run writes them")
    explorer.print_findings(console, findings)
    for path in explorer.write_texts(texts):
        console.print(f"wrote {path}", highlight=False)
    return 0
