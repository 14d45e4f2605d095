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
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..conformance.harness.pack import (
    Case,
    Problem,
    case_files,
    case_from_json,
    default_pack_folder,
    file_label,
    read_json,
)
from ..conformance.harness.variants import load_register
from ..conformance.pack_tools.case_needs import CaseNeeds, annotated, needs_differ
from ..conformance.pack_tools.needs_cache import replay_needs
from .console import console as make_console
from .destinations import REFUSED, refuse
from .options import add_jobs, negative_jobs, workers
from .pack_folder import ON_A_COPY, add_pack_folder


def register_needs(sub: Any) -> None:
    needs = sub.add_parser(
        "needs",
        help="check each case's seats, pass-only turns and capabilities against a replay",
        description="Replay every case on the reference engine (under its pins, from each "
        "profile) and compare the seat named by each scripted action, the pass-only turns "
        "(if_asked steps) and the case's capabilities with what the replay finds. Exit 1 "
        "on a difference; --fix writes the replay's into the case files.",
    )
    add_pack_folder(needs, "needs_cases")
    needs.add_argument("--fix", action="store_true", help="rewrite the case files")
    add_jobs(needs, dest="needs_jobs", metavar="J")
    needs.set_defaults(run=run_needs)


def run_needs(args: argparse.Namespace) -> int:
    folder: Path = args.needs_cases or default_pack_folder()
    console = make_console()
    if args.fix and refuse("conform needs --fix", [args.needs_cases], ON_A_COPY):
        return REFUSED
    if negative_jobs("conform needs", args.needs_jobs):
        return 2
    register = load_register()
    differences = 0
    rewritten: list[str] = []
    files: list[tuple[Path, str, dict[str, Any] | None]] = []
    for path in case_files(folder):
        problems: list[Problem] = []
        data = read_json(path, problems)
        label = file_label(folder, path)
        good = not problems and isinstance(data, dict) and isinstance(data.get("cases"), list)
        files.append((path, label, data if good else None))
    # Every case read first, its replays then run `--jobs` at a time, the report in order.
    readable: dict[tuple[int, int], Case | str] = {}
    for at, (_, label, data) in enumerate(files):
        for index, raw in enumerate(data["cases"] if data is not None else []):
            try:
                readable[at, index] = case_from_json(raw, label)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                readable[at, index] = repr(exc)
    cases = [c for c in readable.values() if isinstance(c, Case)]
    # each case, then each of its alternatives played as a case (CASES.md)
    played = [c for case in cases for c in
              (case, *(case.alternative(i) for i in range(len(case.alternatives))))]
    found_all = iter(replay_needs(played, register, workers(args.needs_jobs)))
    for at, (path, label, data) in enumerate(files):
        if data is None:
            console.print(f"[red]error[/] {escape(label)}: not a case file "
                          "(run `baloot conform lint`)")
            differences += 1
            continue
        new_cases: list[Any] = []
        for index, raw in enumerate(data["cases"]):
            case = readable[at, index]
            if not isinstance(case, Case):
                console.print(f"[red]error[/] {escape(label)}: a case that does not follow the "
                              f"schema ({case}); run `baloot conform lint`")
                differences += 1
                new_cases.append(raw)
                continue
            found = next(found_all)
            for index in range(len(case.alternatives)):
                differences += _alternative_differs(console, label, case, raw, index,
                                                    next(found_all))
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


def _alternative_differs(console: Console, label: str, case: Case, raw: dict[str, Any],
                         index: int, found: CaseNeeds) -> int:
    """Print how alternative `index` of a case differs from its replay (its seats, pass-only
    turns and capabilities, played as a case); how many differences. `--fix` leaves
    alternatives to `baloot conform derive` (derived ones) or to their authors."""
    alt = raw["alternatives"][index]
    where = f"{escape(label)}: {escape(case.id)}: alternatives[{index}]"
    if found.problem:
        console.print(f"[red]error[/] {where}: the script does not play through on the "
                      f"reference under its pins: {escape(found.problem)}")
        return 1
    as_case = {k: v for k, v in raw.items() if k != "alternatives"}
    as_case.update({k: alt[k] for k in ("actions", "then", "capabilities") if k in alt})
    found_lines = needs_differ(case.alternative(index), as_case, found)
    for difference in found_lines:
        console.print(f"{where}: {escape(difference)} (`baloot conform derive` writes derived "
                      "alternatives)")
    return len(found_lines)
