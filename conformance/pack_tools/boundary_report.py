"""The boundary table of `baloot conform coverage`: each numeric boundary of the spec, the
side it reads, and whether cases reach the value less one, the value and the value plus one;
then the comparisons with a number that are not tracked, the unclassified ones by name."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ...grammar.boundaries import OFFSETS, UNCLASSIFIED
from .boundary_probe import BoundaryCoverage, PointCoverage


def _cell(point: PointCoverage, offset: int, ids: int) -> str:
    if offset in point.boundary.unreachable:
        return "n/a"
    found = point.cases.get(offset, ())
    if not found:
        return "[red]missing[/]"
    shown = found if ids <= 0 else found[:ids]
    more = len(found) - len(shown)
    return escape(", ".join(shown) + (f" (+{more})" if more else ""))


def print_boundaries(console: Console, found: BoundaryCoverage, ids: int) -> None:
    table = Table(title="numeric boundaries by case", title_justify="left")
    for column in ("boundary", "reading", "compared", "side", "value", "-1", "=", "+1"):
        table.add_column(column, overflow="fold")
    for point in found.points:
        b = point.boundary
        value = str(b.value) if b.value is not None else b.constant
        if b.condition:
            value += f" when {b.condition}"
        table.add_row(escape(b.key), escape(b.reading_text), escape(" ; ".join(b.texts)),
                      escape(b.side), escape(value),
                      *(_cell(point, o, ids) for o in OFFSETS),
                      style="red" if point.missing() else None)
    console.print(table)
    kinds = Counter(c.kind for c in found.untracked)
    console.print(
        "comparisons with a number not tracked: "
        + ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())), highlight=False)
    for c in found.untracked:
        if c.kind == UNCLASSIFIED:
            console.print(f"  unclassified: {c.rule.name}: {c.text} ({c.note})",
                          markup=False, highlight=False)
    console.print(
        f"boundary points reached: {found.covered}/{found.reachable} "
        f"({found.percent:.0f}%) over {len(found.points)} boundaries", highlight=False)
