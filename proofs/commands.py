"""`baloot verify` and `baloot explore`.

    baloot verify [--spec DIR] [--only GLOB] [--json FILE] [--no-engine] [--budget S]
    baloot explore [--spec DIR] [--variant NAME|ID ...] [--no-write] [--cases DIR] [--notes FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from baloot.conformance.harness.terminal import console as make_console
from baloot.grammar import model as m
from baloot.grammar.errors import SpecError
from baloot.grammar.parser import load_spec
from baloot.proofs.proof_outcome import ProofOutcome

STYLE = {
    "proven": "green", "explored": "cyan", "refuted": "bold red", "expected-refuted": "yellow",
    "not-checked": "dim", "error": "bold red",
}


def register(subparsers: Any) -> None:
    verify = subparsers.add_parser(
        "verify", help="prove the spec's invariants (z3, and exploration of the engine)",
        description="Prove the invariants of the spec for every contract and profile: z3 "
        "on the rules translated from the spec model, and bounded exploration of the "
        "generated engine where a proof would need the whole state machine. Exits 1 if an "
        "invariant expected to hold is refuted, or a check fails to run.")
    _spec_arg(verify)
    verify.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="run only checks whose id matches (e.g. 'points-*'); repeatable")
    verify.add_argument("--json", type=Path, metavar="FILE", help="also write the outcomes as JSON")
    verify.add_argument("--no-engine", action="store_true",
                        help="skip the checks that explore the generated engine")
    verify.add_argument("--budget", type=float, default=12.0, metavar="SECONDS",
                        help="time for the engine explorations, shared among them (default 12)")
    verify.add_argument("--seed", type=int, default=1, help="seed of the random explorations")
    verify.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    verify.set_defaults(run=run_verify)

    explore = subparsers.add_parser(
        "explore", help="find situations that separate the readings of each variant",
        description="For each variant and each pair of its readings, find a concrete situation "
        "where the readings give different legal moves or results (z3 where the rule is "
        "symbolic, the generated engine otherwise), or prove that none exists. Writes each "
        "witness as a conformance case and conformance/ambiguities.md.")
    _spec_arg(explore)
    explore.add_argument("--variant", action="append", default=[], metavar="NAME|ID",
                         help="explore only this variant (repeatable)")
    explore.add_argument("--no-write", action="store_true", help="print the table only")
    explore.add_argument("--cases", type=Path, default=None, metavar="DIR",
                         help="where witness cases go (default: conformance/cases/variants/)")
    explore.add_argument("--notes", type=Path, default=None, metavar="FILE",
                         help="where the ambiguity notes go (default: conformance/ambiguities.md)")
    explore.add_argument("--budget", type=float, default=30.0, metavar="SECONDS",
                         help="time for engine searches, per variant (default 30)")
    explore.add_argument("--seed", type=int, default=1, help="seed of the random deals")
    explore.set_defaults(run=run_explore)


def _spec_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spec", type=Path, default=None,
                        help="the spec folder (default: the project's spec/)")


def _load(args: argparse.Namespace) -> m.Spec | None:
    try:
        return load_spec(args.spec)
    except SpecError as err:
        print(err.render(), file=sys.stderr)
        return None


# ------------------------------------------------------------------- verify --


def run_verify(args: argparse.Namespace) -> int:
    spec = _load(args)
    if spec is None:
        return 2
    from baloot.proofs.verify import run_all

    console = make_console()
    start = time.perf_counter()
    outcomes = list(run_all(spec, args.only, engine=not args.no_engine, budget=args.budget,
                            seed=args.seed, jobs=args.jobs))
    print_outcomes(console, outcomes)
    failed = [o for o in outcomes if o.failed]
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in STYLE}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    console.print(f"{len(outcomes)} outcome(s): {summary}; "
                  f"{time.perf_counter() - start:.1f} s", highlight=False)
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=2,
                                        default=str) + "\n", encoding="utf-8")
    if failed:
        console.print(f"[bold red]{len(failed)} invariant(s) refuted or not checkable[/]")
        return 1
    return 0


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
                          o.method, f"{o.seconds:.2f}s", o.detail)
        console.print(table)


# ------------------------------------------------------------------ explore --


def run_explore(args: argparse.Namespace) -> int:
    spec = _load(args)
    if spec is None:
        return 2
    from baloot.proofs.explore import explore, print_findings, write_findings

    console = make_console()
    wanted = [spec.variant(v).name for v in args.variant] if args.variant else None
    findings = explore(spec, wanted, budget=args.budget, seed=args.seed, console=console)
    print_findings(console, findings)
    if not args.no_write:
        written = write_findings(spec, findings, args.cases, args.notes)
        for path in written:
            console.print(f"wrote {path}", highlight=False)
    return 0
