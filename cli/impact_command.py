"""`baloot explore --impact`: the options, and the run that writes, checks or merges
`explorer/results/impact.json` (the measurement itself is `impact.py`).

    baloot explore --impact [--rounds N] [--seed N] [--profile NAME] [--jobs N]
                   [--shard K/N] [--impact-results FILE] [--no-write | --check]
    baloot explore --impact --merge FILE [FILE ...] [--impact-results FILE]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ..explorer import impact
from ..grammar import model as m
from ..reference_impl import interpreted_only
from .console import console as make_console
from .destinations import REFUSED, refuse
from .options import add_shard, parse_shard
from .stored_files import report_stale, write_text


def add_arguments(explore: argparse.ArgumentParser) -> None:
    group = explore.add_argument_group(
        "how often each ambiguity matters (--impact)",
        "For each pair of readings, the share of seeded random rounds in which they give "
        "a different legal set or result, and in which the round's winner changes, with "
        "95% Wilson intervals; stored in explorer/results/impact.json.")
    group.add_argument("--impact", action="store_true",
                       help="measure how often each ambiguity matters in play")
    group.add_argument("--rounds", type=int, default=None, metavar="N",
                       help=f"rounds to play (default {impact.ROUNDS}); every pair of readings "
                       "is measured on each")
    group.add_argument("--profile", default=None, metavar="NAME",
                       help="the profile every other variant is held at (default: the first, "
                       "literal)")
    add_shard(group, "play only shard K of N of the rounds (rounds i with i %% N == K - 1) "
              "and write a partial file; --merge adds the shards up")
    group.add_argument("--merge", nargs="+", type=Path, default=None, metavar="FILE",
                       help="add shard files of one run into one table (exact: counts are "
                       "stored)")
    group.add_argument("--impact-results", type=Path, default=None, metavar="FILE",
                       help="the results file (default: explorer/results/impact.json)")


def _fail(message: str) -> int:
    print(f"baloot explore --impact: {message}", file=sys.stderr)
    return 2


def run_impact(args: argparse.Namespace, spec: m.Spec) -> int:
    refused = interpreted_only("explore --impact")  # its probes watch the readings
    if refused is not None:
        print(refused, file=sys.stderr)
        return 2
    console = make_console()
    path: Path = args.impact_results or impact.default_path()
    if not (args.no_write or args.check) and refuse(  # an installed package is read-only
            "explore --impact", [args.impact_results],
            "pass --impact-results FILE to write elsewhere, or --no-write"):
        return REFUSED
    if args.variant:
        return _fail("--variant does not apply: every variant is measured on the same rounds")
    if args.merge:
        if args.check or args.shard or args.rounds is not None:
            return _fail("--merge takes only the files and --impact-results (or --no-write)")
        try:
            data = impact.merge(spec, args.merge)
        except impact.ImpactFileError as err:
            return _fail(str(err))
        return _finish(console, data, path, args.no_write, time.perf_counter())
    try:
        shard = None if args.shard is None else parse_shard(args.shard)
    except ValueError as err:
        return _fail(str(err))
    if shard is not None and args.impact_results is None and not (args.no_write or args.check):
        return _fail("a shard is part of a run: name its file with --impact-results FILE")
    profile, seed, rounds = args.profile, args.seed, args.rounds
    if args.check:
        if not path.is_file():
            console.print(f"[bold red]stale[/] {path}: missing; run `{impact.COMMAND}`")
            return 1
        try:  # rerun what the stored file says it was made with
            profile, seed, rounds, shard = impact.parameters(impact.load(path))
        except impact.ImpactFileError as err:
            return _fail(str(err))
    if profile is not None and profile not in {p.name for p in spec.profiles}:
        return _fail(f"unknown profile {profile!r}: expected one of "
                     f"{', '.join(p.name for p in spec.profiles)}")
    rounds = impact.ROUNDS if rounds is None else rounds
    if rounds < 1:
        return _fail("--rounds must be at least 1")
    plan = impact.make_plan(spec, profile, seed, rounds)
    start = time.perf_counter()
    counts = impact.measure(plan, shard, jobs=args.jobs)
    data = impact.impact_data(plan, counts, shard)
    if args.check:
        stored = path.read_text(encoding="utf-8")
        return report_stale(console, impact.stale_lines(stored, impact.dumps(data), path),
                            f"{path} is stale", impact.COMMAND,
                            f"{path} is as a fresh run of {rounds} rounds writes it "
                            f"({time.perf_counter() - start:.1f} s)")
    return _finish(console, data, path, args.no_write, start)


def _finish(console: Console, data: dict[str, Any], path: Path, no_write: bool,
            start: float) -> int:
    print_table(console, data)
    console.print(f"{time.perf_counter() - start:.1f} s", highlight=False)
    if not no_write:
        write_text(console, path, impact.dumps(data))
    return 0


def print_table(console: Console, data: dict[str, Any]) -> None:
    split = data.get("shard")
    title = (f"How often each ambiguity matters: profile {data['profile']}, seed "
             f"{data['seed']}, {data['rounds']} rounds" +
             (f", shard(s) {split}" if split else ""))
    table = Table(title=title, expand=True)
    for col in ("variant", "readings", "rounds", "differ [95%]", "winner changes [95%]"):
        table.add_column(col, justify="left" if col in ("variant", "readings") else "right")
    for row in impact.table_rows(data):
        table.add_row(*row)
    console.print(table)
