"""Mutants made from the spec's numeric boundaries: each moves one boundary by one point,
for one side only.

For every tracked comparison (`grammar/boundaries.py`), each side it reads and each
constant it can take, two mutants: the boundary one point up and one point down. The
patch is the comparison's source line with the comparison written again:

- a team's figure against a constant: the constant `K` becomes `K + 1` (or `K - 1`); when
  the boundary holds only for one side or under one condition, `K + (if COND then 1 else
  0)`, COND being the side (`t == bidder_team`) and the constant's condition (`mode == sun`);
- two teams' figures (`a > b`, their difference against 0): `a > b + 1` (or `- 1`);
- a sweep (`all([x == X for x in L])`): down only, `len([x for x in L if x == X]) >=
  len(L) - 1` (one item short still counts), for one side; up would need more items
  than the list has.

Nothing here is listed by hand: a new comparison in the spec brings its mutants. A
comparison whose source line cannot be found, or is not unique in its file, is reported
by `unbuilt_boundaries()` rather than dropped.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from ...grammar import model as m
from ...grammar.boundaries import (
    BIDDER,
    EACH,
    OTHER,
    Comparison,
    Constant,
    comparisons,
    side_slug,
)
from ...grammar.spec_text import spec_text
from ..pack_tools.spec_model import spec_model
from .catalogue import Mutant

_OP_WORDS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _bidder_text(rule: m.Rule) -> str:
    names = {p.name for p in rule.params}
    return "bidder_team" if "bidder_team" in names else "team_of(game.contract.bidder)"


def _side_condition(c: Comparison, side: str) -> str | None:
    if c.side != EACH:
        return None
    key = c.team_key if c.team_key is not None else (c.count_of[1] if c.count_of else None)
    if key is None:
        return None
    word = "==" if side == BIDDER else "!="
    return f"{spec_text(key, 6)} {word} {_bidder_text(c.rule)}"


def _shift(conditions: list[str]) -> str:
    if not conditions:
        return "1"
    return f"(if {' and '.join(conditions)} then 1 else 0)"


def _rewritten(c: Comparison, side: str, constant: Constant | None, up: bool) -> str | None:
    """The comparison written again with its boundary moved, or None (no such mutant)."""
    conditions = [x for x in (_side_condition(c, side),
                              spec_text(constant.condition, 4)
                              if constant and constant.condition else None) if x]
    sign = "+" if up else "-"
    if c.count_of is not None:
        if up:
            return None  # a count cannot exceed its list's length
        items, item, target = c.count_of
        listed = spec_text(items)
        return (f"len([{target} for {target} in {listed} if {target} == {spec_text(item)}]) "
                f">= len({listed}) - {_shift(conditions)}")
    node = c.node
    assert isinstance(node, m.BinOp)
    left, right = spec_text(node.left, 6), spec_text(node.right, 6)
    if c.difference or c.quantity_left:
        return f"{left} {node.op} {right} {sign} {_shift(conditions)}"
    return f"{left} {sign} {_shift(conditions)} {node.op} {right}"


def _moved_point(op: str, up: bool) -> int | None:
    """Where on the figure (less the constant) a one-point move changes the comparison."""
    return {">": 1, ">=": 0, "<": 0, "<=": 1}.get(op) if up else \
        {">": 0, ">=": -1, "<": -1, "<=": 0}.get(op)


# Moves no round can show for a reason the model does not see, by mutant name.
KNOWN_EQUIVALENT = {
    "boundary_bidder_succeeds_more_points_app_ties_bidder_other_ge_down":
        "the move changes only a sun round whose bunts, projects included, differ by one, and "
        "they never do: the cards and the last trick make 130, and every sun project is an "
        "even number of bunts (4, 10, 20, 40 as bunts; 5 bunts a point as points), so the "
        "two teams' figures are both odd or both even",
}


def _shadowed(c: Comparison, found: list[Comparison], up: bool) -> str | None:
    """Why the move cannot show, when an earlier `==` of the same figure and constant in
    the rule returns first at the one point the move changes (A19: `totals[0] ==
    totals[1]` before `totals[0] > totals[1]`)."""
    op = getattr(c.node, "op", "")
    if _moved_point(op, up) != 0 or c.quantity is None:
        return None
    for earlier in found:
        if (earlier.rule is c.rule and earlier.index < c.index
                and getattr(earlier.node, "op", "") == "==" and earlier.quantity is not None
                and spec_text(earlier.quantity) == spec_text(c.quantity)
                and earlier.readings == c.readings
                and [k.value for k in earlier.constants] == [k.value for k in c.constants]):
            return (f"the figure at the boundary never reaches `{c.text}`: `{earlier.text}` "
                    "before it decides that point")
    return None


def _source(spec: m.Spec, c: Comparison) -> tuple[str, str] | None:
    """(file name, source line) of the comparison, when its text stands in that line."""
    pos = c.node.pos
    line = spec.source_line(pos)
    if line is None or c.text not in line:
        return None
    return Path(pos.file).name, line


def _file_text(spec: m.Spec, file: str) -> str:
    return next(text for name, text in spec.sources if Path(name).name == file)


@cache
def boundary_mutants() -> tuple[Mutant, ...]:
    """Two mutants (up, down) per tracked comparison, side and constant."""
    spec = spec_model()
    made: list[Mutant] = []
    taken: set[str] = set()
    found = comparisons(spec)
    for c in found:
        if not c.tracked:
            continue
        source = _source(spec, c)
        if source is None:
            continue
        file, line = source
        if _file_text(spec, file).count(line) != 1:
            continue
        sides = (BIDDER, OTHER) if c.side == EACH else (c.side,)
        constants: list[Constant | None] = list(c.constants) if not c.difference else [None]
        for side in sides:
            for constant in constants or [None]:
                for up in (True, False):
                    new = _rewritten(c, side, constant, up)
                    if new is None:
                        continue
                    words = [c.rule.name, *(c.readings[:1]),
                             constant.name if constant and len(constants) > 1 else "",
                             side_slug(side), _OP_WORDS.get(getattr(c.node, "op", ""), "all"),
                             "up" if up else "down"]
                    name = "boundary_" + _slug("_".join(w for w in words if w))
                    if name in taken:
                        # two quantities of one rule and reading on the same side, such as
                        # A4 more_points_app_ties's points and then bunts: the list compared
                        # tells the second apart
                        words.insert(-2, c.text.split("[")[0])
                        name = "boundary_" + _slug("_".join(w for w in words if w))
                    taken.add(name)
                    where = f" ({c.readings[0]})" if c.readings else ""
                    made.append(Mutant(
                        name, c.rule.cites[0].clause if c.rule.cites else "",
                        f"{c.rule.name}{where}: `{c.text}` moved one point "
                        f"{'up' if up else 'down'} for the {side} only: `{new}`.",
                        file, line, line.replace(c.text, new, 1),
                        equivalent=_shadowed(c, found, up) or KNOWN_EQUIVALENT.get(name),
                        pins=((c.variant, c.readings[0]),) if c.variant else ()))
    return tuple(made)


def unbuilt_boundaries() -> list[str]:
    """The tracked comparisons that give no mutant: source line not found, or not unique."""
    spec = spec_model()
    left: list[str] = []
    for c in comparisons(spec):
        if not c.tracked:
            continue
        source = _source(spec, c)
        if source is None:
            left.append(f"{c.rule.name}: {c.text}: not found in its source line")
        elif _file_text(spec, source[0]).count(source[1]) != 1:
            left.append(f"{c.rule.name}: {c.text}: its source line is not unique in {source[0]}")
    return left
