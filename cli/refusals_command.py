"""`baloot conform refusals [--check] [--synthesise]`: which `illegal` cases hit which reason
an action can be refused for, under each reading (`refusals.py`).

Without options it prints the spec's refusal points (every `require`), the ways of each,
the table of ways by reading with the cases hitting each, and the requires no action
reaches; `--check` prints only the gaps. Either exits 1 when a way that can arise under a
reading has fewer than two cases there, when a require of the spec has no way and is not
listed as unreachable, or when a case is refused in a way the table does not know.
`--synthesise` writes cases for the gaps into `cases/refusals/` first (`refusals_synth.py`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..conformance.harness.lint import lint_pack
from ..conformance.harness.pack import case_from_json, default_pack_folder
from ..conformance.harness.variants import Register, load_register
from .console import console as make_console
from .destinations import REFUSED, refuse
from .pack_folder import ON_A_COPY, add_pack_folder

REFUSALS_FOLDER = "refusals"
# The case file of each group of ways (the first word of the way's key).
FILES = {"bid": "bidding.json", "raise": "raising.json", "play": "play.json",
         "over": "play.json", "proj": "projects.json"}
DESCRIPTION = ("Refusals: for each reason an action can be refused (`baloot conform "
               "refusals`), cases found in seeded games on the reference engine "
               "(`baloot conform refusals --synthesise`); each working says from the rules "
               "why the action is refused.")
SEEDS = 400


def register_refusals(sub: Any) -> None:
    parser = sub.add_parser(
        "refusals",
        help="which illegal cases hit which reason for a refusal, under each reading",
        description="Every require of the spec and every way an action is absent from the "
        "legal set, under each reading of the variants that change it, with the `illegal` "
        "cases whose action the reference refuses that way. Exit 1 when one has fewer than "
        "2 cases (or a refusal the table does not know).",
    )
    add_pack_folder(parser, "refusals_cases")
    parser.add_argument("--check", action="store_true", help="print only the gaps")
    parser.add_argument("--synthesise", action="store_true",
                        help=f"write cases for the gaps into {REFUSALS_FOLDER}/ first")
    parser.add_argument("--seeds", type=int, default=SEEDS, metavar="N",
                        help=f"games searched per gap and profile (default {SEEDS})")
    parser.set_defaults(run=run_refusals)


def run_refusals(args: argparse.Namespace) -> int:
    # the spec's parser (lark), loaded only by this command
    from ..conformance.pack_tools import refusals

    console = make_console()
    given = args.refusals_cases or args.cases
    if args.seeds < 1:
        print("baloot conform refusals: --seeds must be 1 or more", file=sys.stderr)
        return 2
    if args.synthesise and refuse("conform refusals --synthesise", [given], ON_A_COPY):
        return REFUSED
    folder = given or default_pack_folder()
    register = load_register()
    pack, problems = lint_pack(folder, register)
    if problems:
        for problem in problems:
            console.print(f"error {problem}", markup=False, highlight=False)
        console.print(f"{len(problems)} problem(s): run `baloot conform lint` first")
        return 2
    report = refusals.refusal_report(pack.cases, register)
    if args.synthesise and report.gaps:
        written = synthesise(folder, report, register, console, args.seeds)
        console.print(f"wrote {written} case(s) into {REFUSALS_FOLDER}/")
        pack, problems = lint_pack(folder, register)
        if problems:
            for problem in problems:
                console.print(f"error {problem}", markup=False, highlight=False)
            return 1
        report = refusals.refusal_report(pack.cases, register)
    return print_report(console, report, quiet=args.check)


def print_report(console: Console, report: Any, *, quiet: bool) -> int:
    if not quiet:
        points = Table(title="refusal points: every require of the spec", title_justify="left")
        for column in ("rule", "message", "variants its condition reads", "ways"):
            points.add_column(column, overflow="fold")
        unreachable = {p.key: why for p, why in report.unreachable}
        for p in report.points:
            ways = [w.key for w in _ways() if w.rule == p.rule and p.message.startswith(w.message)]
            points.add_row(p.rule, p.message, ", ".join(p.variants) or "-",
                           ", ".join(ways) or f"unreachable: {unreachable.get(p.key, '?')}")
        console.print(points)
        table = Table(title="ways by reading", title_justify="left")
        for column in ("way", "reading", "cases", "case ids"):
            table.add_column(column, overflow="fold")
        for row in report.rows:
            ids = ", ".join(row.cases[:4]) + (f", ... (+{len(row.cases) - 4})"
                                              if len(row.cases) > 4 else "")
            shown = f"cannot arise: {row.never}" if row.never else ids
            table.add_row(row.way.key, row.label, str(len(row.cases)), shown,
                          style="red" if row.gap else None)
        console.print(table)
    for row in report.gaps:
        console.print(f"[red]gap[/] {escape(row.way.key)} {escape(row.label)}: "
                      f"{len(row.cases)} case(s)")
    for point in report.unmapped:
        console.print(f"[red]error[/] {point.where}: require of {point.rule} "
                      f"({escape(point.message)}) has no way and is not listed as unreachable")
    for key in report.unknown_ways:
        console.print(f"[red]error[/] way {key}: no require of the spec matches it")
    for case_id, what in report.unclassified:
        console.print(f"[red]error[/] {escape(case_id)}: refused by {escape(what)}, which no "
                      "way matches")
    for case_id in report.accepted:
        console.print(f"[yellow]note[/] {escape(case_id)}: the reference does not refuse it")
    arising = [r for r in report.rows if r.never is None]
    covered = sum(1 for r in arising if not r.gap)
    arising_ways = {r.way.key for r in arising}
    full = arising_ways - {r.way.key for r in report.gaps}
    console.print(f"{report.illegal_cases} illegal case(s); {len(report.points)} require(s), "
                  f"{len(report.unreachable)} unreachable by an action; ways with >= "
                  f"2 cases under every reading: {len(full)}/{len(arising_ways)}; way x reading "
                  f"rows covered: {covered}/{len(arising)}")
    return 0 if report.ok else 1


def _ways() -> tuple[Any, ...]:
    from ..conformance.pack_tools.refusals import WAYS  # lark, as above

    return WAYS


def synthesise(folder: Path, report: Any, register: Register, console: Console,
               seeds: int = SEEDS) -> int:
    """Cases for every gap, appended to the files of `cases/refusals/`."""
    from ..conformance.pack_tools import refusals, refusals_synth  # lark, as above

    target = folder / REFUSALS_FOLDER
    target.mkdir(exist_ok=True)
    files: dict[str, dict[str, Any]] = {}
    for name in sorted(set(FILES.values())):
        path = target / name
        files[name] = (json.loads(path.read_text(encoding="utf-8")) if path.exists()
                       else {"description": DESCRIPTION, "cases": []})
    ids = {c["id"] for data in files.values() for c in data["cases"]}
    seen = {json.dumps([c["setup"], c["actions"], c["expect"]]) for data in files.values()
            for c in data["cases"]}
    counts = {(r.way.key, r.variant, r.reading): len(r.cases) for r in report.rows}
    gaps = [(r.way, r.variant, r.reading) for r in report.gaps]
    points = {p.key: p for p in report.points}
    variants_of = {w.key: refusals.way_variants(w, points) for w in refusals.WAYS}
    written = 0
    for way, variant, reading in gaps:
        if counts[(way.key, variant, reading)] >= refusals.MIN_CASES:
            continue
        readings = {variant: reading} if variant and reading else {}
        for profile in register.profiles:
            for found in refusals_synth.search(way, profile, readings, register, range(seeds)):
                file = FILES[way.key.split(".")[0]]
                number = 1 + sum(1 for i in ids if i.startswith(f"refusal.{way.key}."))
                case_id = f"refusal.{way.key}.{number}"
                label = f"{REFUSALS_FOLDER}/{file}"
                raw = refusals_synth.case_json(found, case_id, register, label)
                key = json.dumps([raw["setup"], raw["actions"], raw["expect"]])
                if key in seen:
                    continue
                hits, _, _ = refusals.case_hits(case_from_json(raw, label), register,
                                                variants_of)
                if not any(counts.get(h, 0) < refusals.MIN_CASES for h in hits
                           if h[0] == way.key):
                    continue
                seen.add(key)
                ids.add(case_id)
                files[file]["cases"].append(raw)
                written += 1
                for hit in hits:
                    counts[hit] = counts.get(hit, 0) + 1
                console.print(f"{case_id}: {way.what} ({profile}, {variant}={reading})",
                              highlight=False)
                if counts[(way.key, variant, reading)] >= refusals.MIN_CASES:
                    break
            if counts[(way.key, variant, reading)] >= refusals.MIN_CASES:
                break
        if counts[(way.key, variant, reading)] < refusals.MIN_CASES:
            console.print(f"[yellow]no position found[/] for {way.key} {variant}={reading}")
    for name, data in files.items():
        if data["cases"]:
            (target / name).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return written
