"""Which cases reach which boundary points: the cases run through an instrumented reference.

How a case "exercises" a point: each rule holding a tracked comparison
(`boundaries.py`) is generated again from the model with every such
comparison replaced by a call of a probe, which records the figure compared,
the constant it is compared with and the side (for a figure read for each
team, whether that team is the bidder's), then returns what the comparison
would. The probed rule replaces the reference engine's generated one while the
cases run, in this process, through `baloot.reference_impl.new_game`. So a point
counts only when the comparison is really evaluated with that figure, on the
path the rules take (`own > gate and theirs < gate` reads `theirs` only when
`own` is above the gate), never from a figure worked out afterwards.

Each case runs once per profile of the register, its `requires` on top; a point
counts for a case only when the runs under every profile reach it, so it does
not hang on a reading the case leaves to the engine. A case that leaves open a
variant holding boundaries (`bidder_success`, `sun_raises` ...) holds under
every reading of it (`baloot conform pins` checks so), so it is also run with
each reading of that variant swapped in, for that reading's boundaries.
Regression snapshots never count. A run the reference refuses to play through
counts for nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from ...backends.python.generate import RuleModules, module_of, rule_source
from ...grammar import model as m
from ...grammar.boundaries import (
    BIDDER,
    EACH,
    OFFSETS,
    OTHER,
    Boundary,
    Comparison,
    boundaries,
    comparisons,
)
from ...reference_impl import IllegalAction, new_game
from ...reference_impl.rule_swap import compile_rule, swapped
from ..harness.pack import (
    Case,
    IfAsked,
    Pack,
    Repeat,
    RoundScript,
    Step,
    split_seat,
)
from .coverage import counts

PROBE = "boundary_probe"
Record = tuple[int, int, int, str]  # comparison index, figure, constant, side
_OPS: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


@dataclass(frozen=True)
class PointCoverage:
    boundary: Boundary
    cases: dict[int, tuple[str, ...]]  # offset -> ids of the cases reaching that point

    def covered(self, offset: int) -> bool:
        return bool(self.cases.get(offset))

    def missing(self) -> list[int]:
        return [o for o in OFFSETS if o not in self.boundary.unreachable and not self.covered(o)]


# ---- the probed rules ------------------------------------------------------------------


def _replace(node: Any, swap: dict[Any, Any]) -> Any:
    """The node with every node found in `swap` replaced (the model is immutable)."""
    if node in swap if _hashable(node) else False:
        return swap[node]
    if is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _replace(getattr(node, f.name), swap) for f in fields(node)}
        return type(node)(**changes)
    if isinstance(node, tuple):
        return tuple(_replace(item, swap) for item in node)
    return node


def _hashable(node: Any) -> bool:
    try:
        hash(node)
    except TypeError:
        return False
    return True


def _bidder_team(rule: m.Rule) -> m.Expr:
    names = {p.name for p in rule.params}
    pos = rule.pos
    if "bidder_team" in names:
        return m.Name("bidder_team", pos)
    if "game" in names:
        bidder = m.FieldOf(m.FieldOf(m.Name("game", pos), "contract", pos), "bidder", pos)
        return m.Call(m.Name("team_of", pos), (bidder,), (), pos)
    return m.NoneLit(pos)


def _probe_call(c: Comparison) -> m.Expr:
    pos = c.node.pos if hasattr(c.node, "pos") else c.rule.pos
    bidder = _bidder_team(c.rule)
    if c.count_of is not None:  # all([x == X for x in L]) -> count of X in L == len(L)
        items, item, target = c.count_of
        matching = m.Comprehension(
            m.Name(target, pos),
            (m.CompFor(target, items, pos), m.CompIf(m.BinOp("==", m.Name(target, pos), item, pos),
                                                     pos)), pos)
        count = m.Call(m.Name("len", pos), (matching,), (), pos)
        length = m.Call(m.Name("len", pos), (items,), (), pos)
        args: tuple[m.Expr, ...] = (m.IntLit(c.index, pos), m.StrLit("==", pos), count, length,
                                    item, bidder)
        return m.Call(m.Name(PROBE, pos), args, (), pos)
    assert isinstance(c.node, m.BinOp)
    key = c.team_key if c.team_key is not None else m.NoneLit(pos)
    args = (m.IntLit(c.index, pos), m.StrLit(c.node.op, pos), c.node.left, c.node.right, key,
            bidder)
    return m.Call(m.Name(PROBE, pos), args, (), pos)


def probed_rules(spec: m.Spec, found: list[Comparison],
                 probe: Callable[..., bool]) -> dict[tuple[str, str], Callable[..., Any]]:
    """(module, rule) -> the rule generated again with its tracked comparisons probed."""
    modules = RuleModules(spec)
    made: dict[tuple[str, str], Callable[..., Any]] = {}
    for rule in {c.rule.name: c.rule for c in found if c.tracked}.values():
        swap = {c.node: _probe_call(c) for c in found if c.tracked and c.rule is rule}
        probed = replace(rule, body=_replace(rule.body, swap))
        this = module_of(rule.pos.file)
        made[(this, rule.name)] = compile_rule(this, rule_source(spec, probed, modules),
                                               rule.name, extra={PROBE: probe})
    return made


@contextmanager
def probing(spec: m.Spec, found: list[Comparison]) -> Iterator[list[Record]]:
    """While inside, the reference engine records each tracked comparison it evaluates."""
    records: list[Record] = []

    def probe(index: int, op: str, left: int, right: int, team: int | None,
              bidder: int | None) -> bool:
        c = found[index]
        figure, constant = (left, right) if c.quantity_left else (right, left)
        if c.difference:
            figure, constant = left - right, 0
        side = c.side
        if side == EACH:
            side = BIDDER if team == bidder else OTHER
        records.append((index, figure, constant, side))
        return _OPS[op](left, right)

    with swapped(probed_rules(spec, found, probe)):
        yield records


# ---- running the cases ----------------------------------------------------------------


class CaseStopped(Exception):
    """The reference engine could not play a case's script through."""


def play_steps(game: Any, steps: list[Step]) -> None:
    """Play a script's steps (its checks aside) on the reference, in this process."""
    for step in steps:
        if isinstance(step, Repeat):
            for _ in range(step.max):
                if game.phase != step.while_phase:
                    break
                game.apply(step.action)
        elif isinstance(step, IfAsked):  # as the runner takes it: asked, and the call listed
            if game.current_player == step.seat and step.action in game.legal_actions():
                game.apply(step.action)
        elif isinstance(step, str):
            seat, action = split_seat(step)
            if seat is not None and game.current_player != seat:
                raise CaseStopped(f"{step!r}: seat {game.current_player} is to act")
            game.apply(action)


def play_case(case: Case, profile: str) -> None:
    """Play a case's script (checks aside) on the reference engine, in this process."""
    try:
        game = new_game(profile=profile, overrides=dict(case.requires) or None,
                        dealer=case.dealer, deck=case.deck, totals=case.totals)
        play_steps(game, case.actions)
        script: RoundScript
        for script in case.then:
            game.deal(script.deck)
            play_steps(game, script.actions)
    except (IllegalAction, ValueError) as exc:
        raise CaseStopped(str(exc)) from exc


def _runs(case: Case, boundaries: list[Boundary]) -> list[tuple[dict[str, str], str | None]]:
    """(readings to add to the case's pins, the variant whose boundaries the run is for): one
    plain run, and one per reading group of each boundary variant the case leaves open."""
    runs: list[tuple[dict[str, str], str | None]] = [({}, None)]
    groups = sorted({(b.variant, b.readings[0]) for b in boundaries if b.variant})
    runs += [({variant: reading}, variant) for variant, reading in groups
             if variant is not None and variant not in case.requires]
    return runs


def case_points(case: Case, boundaries: list[Boundary], records: list[Record],
                profiles: tuple[str, ...]) -> set[tuple[str, int]]:
    """(boundary key, offset) of every point the case reaches under every profile."""
    reached: set[tuple[str, int]] = set()
    for extra, variant in _runs(case, boundaries):
        mine = [b for b in boundaries if b.variant == variant or (variant is None and (
            b.variant is None or b.variant in case.requires))]
        probe = replace(case, requires={**case.requires, **extra})
        common: set[tuple[str, int]] | None = None
        for profile in profiles:
            records.clear()
            try:
                play_case(probe, profile)
            except CaseStopped:
                common = set()
                break
            here = {(b.key, figure - constant) for index, figure, constant, side in records
                    for b in mine if b.matches(index, side, constant)
                    and figure - constant in OFFSETS}
            common = here if common is None else common & here
        reached |= common or set()
    return reached


def point_coverage(spec: m.Spec, found: list[Comparison], boundaries: list[Boundary],
                   cases: list[Case], profiles: tuple[str, ...]) -> list[PointCoverage]:
    """For each boundary, the cases reaching each of its three points."""
    hits: dict[tuple[str, int], list[str]] = {}
    with probing(spec, found) as records:
        for case in cases:
            if not counts(case):
                continue
            for point in sorted(case_points(case, boundaries, records, profiles)):
                hits.setdefault(point, []).append(case.id)
    return [PointCoverage(b, {o: tuple(hits.get((b.key, o), ())) for o in OFFSETS})
            for b in boundaries]


# ---- numeric boundaries -------------------------------------------------------------------


@dataclass(frozen=True)
class BoundaryCoverage:
    """The spec's numeric boundaries (`boundaries.py`), the cases reaching each point
    (below), and the comparisons with a number the finder does not track."""

    points: tuple[PointCoverage, ...]
    untracked: tuple[Comparison, ...]

    @property
    def reachable(self) -> int:
        return sum(len(OFFSETS) - len(p.boundary.unreachable) for p in self.points)

    @property
    def covered(self) -> int:
        return sum(
            1 for p in self.points for o in OFFSETS
            if o not in p.boundary.unreachable and p.covered(o)
        )

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / max(1, self.reachable)

    @property
    def gaps(self) -> list[str]:
        """`boundary key@offset` of every reachable point no case reaches."""
        return [f"{p.boundary.key}@{o:+d}" for p in self.points for o in p.missing()]



def boundary_coverage(pack: Pack) -> BoundaryCoverage:
    """Run the pack's counted cases through the probed reference engine (a few seconds)."""
    from .spec_model import spec_model  # lark: parses the spec

    spec = spec_model()
    found = comparisons(spec)
    tracked = boundaries(spec, found)
    profiles = tuple(p.name for p in spec.profiles)
    points = point_coverage(spec, found, tracked, pack.cases, profiles)
    return BoundaryCoverage(tuple(points), tuple(c for c in found if not c.tracked))
