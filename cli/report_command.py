"""`baloot report REPORT.json...`: the JSON reports of several engines on one page.

Writes the page (`--out`, default `./baloot-report.html`) and, beside it, one
SVG badge per engine (`<page name>-<engine>-<profile>.svg`, inlined in the
page too); the folder is made when missing. Exit status 0 when written, 2 when
a report cannot be used or a file cannot be written.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from rich.markup import escape

from ..conformance.results_page.badge import badge_message, badge_svg
from ..conformance.results_page.page import render_page
from ..conformance.results_page.runs import EngineRun, ReportError, read_run
from .console import console as make_console

DEFAULT_OUT = Path("baloot-report.html")
DEFAULT_TITLE = "Baloot conformance results"
OK, USAGE = 0, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "reports", nargs="+", type=Path, metavar="REPORT.json",
        help="JSON reports of `baloot conform --json`, one per engine (a column each)",
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, metavar="FILE",
        help=f"the page to write (default ./{DEFAULT_OUT}); the badges go beside it",
    )
    parser.add_argument("--title", default=DEFAULT_TITLE, help="the page's title")


def register(subparsers: Any) -> None:
    report = subparsers.add_parser(
        "report",
        help="merge the JSON reports of several engines into one HTML page, with badges",
        description="A static, self-contained HTML page of several engines' runs: a matrix "
        "of cases by engines grouped by clause family, each engine's declared profile, "
        "readings and capabilities, each failure's diff and clause; and an SVG badge per "
        "engine written beside the page.",
    )
    add_arguments(report)
    report.set_defaults(run=run_report)


def badge_names(runs: list[EngineRun], page: Path) -> list[str]:
    """A distinct file name for each run's badge: `<page stem>-<engine>-<profile>.svg`."""
    names: list[str] = []
    for run in runs:
        slug = re.sub(r"[^a-z0-9._]+", "-", f"{run.name}-{run.profile}".lower()).strip("-.")
        name = f"{page.stem}-{slug or 'engine'}.svg"
        number = 2
        while name in names:
            name = f"{page.stem}-{slug or 'engine'}-{number}.svg"
            number += 1
        names.append(name)
    return names


def run_report(args: argparse.Namespace) -> int:
    err = make_console(stderr=True)
    out = make_console()
    try:
        runs = [read_run(path) for path in args.reports]
    except ReportError as exc:
        err.print(f"baloot report: {escape(str(exc))}", highlight=False, soft_wrap=True)
        return USAGE
    page: Path = args.out
    runs = [run.with_rules_links_from(page.parent) for run in runs]
    names = badge_names(runs, page)
    try:
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(render_page(runs, names, args.title), encoding="utf-8")
        for run, name in zip(runs, names, strict=True):
            (page.parent / name).write_text(badge_svg(run) + "\n", encoding="utf-8")
    except OSError as exc:
        err.print(f"baloot report: cannot write {escape(str(exc.filename or page))}: "
                  f"{escape(exc.strerror or str(exc))}", highlight=False, soft_wrap=True)
        return USAGE
    out.print(f"wrote {escape(str(page))} ({len(runs)} engine(s))", highlight=False, soft_wrap=True)
    for run, name in zip(runs, names, strict=True):
        out.print(f"  badge {escape(str(page.parent / name))}: {escape(run.label)} "
                  f"{escape(badge_message(run))}", highlight=False, soft_wrap=True)
    return OK


def main(argv: list[str] | None = None) -> int:
    """`baloot report` on its own: the arguments after `report`."""
    parser = argparse.ArgumentParser(prog="baloot report")
    add_arguments(parser)
    return run_report(parser.parse_args(argv))
