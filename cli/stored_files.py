"""The files a command writes, or with `--check` compares with what it would write now.

Such a command makes its text fresh, then either writes it (`write_text`: `wrote
PATH`) or, with `--check`, writes nothing and reports how the stored file
differs, with the command that writes it again, exiting 1 when it does. Two
ways of reporting are in use, each kept as its commands print it:

- `report_stale` (`verify`, `explore`, `explore --impact`): each difference as
  a `stale` line on the console, then `WHAT is stale: run `COMMAND``;
- `report_differences` (`gen`, `spec render`, `conform examples`): each
  difference and then what is out of date on stderr.

Before any work, a command that would write refuses a destination inside an
installed package (`destinations.refuse`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from rich.console import Console

STALE, UP_TO_DATE = 1, 0


def report_stale(console: Console, stale: Iterable[str], what: str, again: str,
                 up_to_date: str | None = None) -> int:
    """`--check`'s verdict on the console: each of `stale` as a `stale` line, then `WHAT:
    run `AGAIN``, and 1; or, with nothing stale, `up_to_date` (when given), and 0."""
    lines = list(stale)
    for line in lines:
        console.print(f"[bold red]stale[/] {line}", highlight=False)
    if lines:
        console.print(f"[bold red]{what}[/]: run `{again}`")
        return STALE
    if up_to_date is not None:
        console.print(up_to_date, highlight=False)
    return UP_TO_DATE


def report_differences(differences: Iterable[str], out_of_date: str, up_to_date: str) -> int:
    """`--check`'s verdict as plain lines: each difference, then `out_of_date`, on stderr,
    and 1; or, with no difference, `up_to_date` on stdout, and 0."""
    found = list(differences)
    for difference in found:
        print(difference, file=sys.stderr)
    if found:
        print(out_of_date, file=sys.stderr)
        return STALE
    print(up_to_date)
    return UP_TO_DATE


def write_text(console: Console, path: Path, text: str) -> None:
    """Write `text` to `path` (its folder made when missing) and say `wrote PATH`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    console.print(f"wrote {path}", markup=False, highlight=False, soft_wrap=True)
