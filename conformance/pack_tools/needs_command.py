"""`baloot conform needs [--fix]`: does every case say which seat takes each
scripted action, which turns are pass-only, and which capabilities it needs,
as a replay on the reference engine finds them (`case_needs.py`)?

Without `--fix` it lists every difference and exits 1 when there is one;
with `--fix` it writes the replay's seats, `if_asked` steps and capabilities
into the case files (key order kept, one-space JSON indent as the pack has).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.markup import escape

from baloot.conformance.harness.pack import (
    Problem,
    case_files,
    case_from_json,
    default_pack_folder,
    file_label,
    read_json,
)
from baloot.conformance.harness.terminal import console as make_console
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools.case_needs import annotated, case_needs, needs_differ
from baloot.grammar.destinations import REFUSED, refusal

# How a pack tool that rewrites the pack (needs --fix, pins --fix, golden) writes
# elsewhere than into an installed package's pack.
ON_A_COPY = "copy the pack folder and pass --cases DIR to work on the copy"


def register_needs(sub: Any) -> None:
    needs = sub.add_parser(
        "needs",
        help="check each case's seats, pass-only turns and capabilities against a replay",
        description="Replay every case on the reference engine (under its pins, from each "
        "profile) and compare the seat named by each scripted action, the pass-only turns "
        "(if_asked steps) and the case's capabilities with what the replay finds. Exit 1 "
        "on a difference; --fix writes the replay's into the case files.",
    )
    needs.add_argument("--cases", dest="needs_cases", type=Path, metavar="DIR",
                       help="a case pack folder (default: the built-in pack)")
    needs.add_argument("--fix", action="store_true", help="rewrite the case files")
    needs.set_defaults(run=run_needs)


def run_needs(args: argparse.Namespace) -> int:
    folder: Path = args.needs_cases or default_pack_folder()
    console = make_console()
    refused = refusal("conform needs --fix", [args.needs_cases], ON_A_COPY) if args.fix else None
    if refused:
        print(refused, file=sys.stderr)
        return REFUSED
    register = load_register()
    differences = 0
    rewritten: list[str] = []
    for path in case_files(folder):
        problems: list[Problem] = []
        data = read_json(path, problems)
        label = file_label(folder, path)
        if problems or not isinstance(data, dict) or not isinstance(data.get("cases"), list):
            console.print(f"[red]error[/] {escape(label)}: not a case file "
                          "(run `baloot conform lint`)")
            differences += 1
            continue
        new_cases: list[Any] = []
        for raw in data["cases"]:
            try:
                case = case_from_json(raw, label)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                console.print(f"[red]error[/] {escape(label)}: a case that does not follow the "
                              f"schema ({exc!r}); run `baloot conform lint`")
                differences += 1
                new_cases.append(raw)
                continue
            found = case_needs(case, register)
            if found.problem:
                console.print(f"[red]error[/] {escape(label)}: {escape(case.id)}: the script "
                              f"does not play through on the reference: {escape(found.problem)}")
                differences += 1
                new_cases.append(raw)
                continue
            for difference in needs_differ(case, raw, found):
                console.print(f"{escape(label)}: {escape(case.id)}: {escape(difference)}")
                differences += 1
            new_cases.append(annotated(raw, found))
        if args.fix and new_cases != data["cases"]:
            path.write_text(json.dumps({**data, "cases": new_cases}, indent=1) + "\n",
                            encoding="utf-8")
            rewritten.append(label)
    if args.fix:
        console.print(f"rewrote {len(rewritten)} case file(s)"
                      + (": " + ", ".join(rewritten) if rewritten else ""))
        return 0
    if differences:
        console.print(f"{differences} difference(s): run `baloot conform needs --fix`")
        return 1
    console.print("every case names its seats, pass-only turns and capabilities")
    return 0
