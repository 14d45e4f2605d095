"""Readings of the game as played that the register gained from its sources, worked by
hand: A12 points_and_projects_capped (the projects doubled at most)."""

from __future__ import annotations

import dataclasses

from baloot.reference_impl.definitions import Mode
from baloot.reference_impl.readings import PROFILES
from baloot.reference_impl.scoring_rules import failure_points, round_points

LITERAL = PROFILES["literal"]

# ---- A12: the projects capped at x2 under the triple, the four and gahwa ---------------------

CAPPED = dataclasses.replace(LITERAL, multipliers="points_and_projects_capped")


def test_capped_projects_in_points() -> None:
    """Hokum, A6 points_after_rounding, A5 each_team: team 0 149 bunts (15 points) with a sira
    (2) and a baloot (2), team 1 13 bunts (1 point) with a fifty (5). The cards take the whole
    raise, the sira and the fifty at most x2, the baloot none."""
    readings = dataclasses.replace(CAPPED, project_units="points_after_rounding")

    def points(multiplier: int) -> list[int]:
        return round_points(readings, Mode.HOKUM, [149, 13], [4, 5], [2, 0], multiplier, 0)

    assert points(1) == [15 + 4, 1 + 5]
    assert points(2) == [(15 + 2) * 2 + 2, (1 + 5) * 2]  # 36, 12: as but_baloot at the double
    assert points(3) == [15 * 3 + 2 * 2 + 2, 1 * 3 + 5 * 2]  # 51, 13
    assert points(4) == [15 * 4 + 2 * 2 + 2, 1 * 4 + 5 * 2]  # 66, 14
    but_baloot = dataclasses.replace(readings, multipliers="points_and_projects_but_baloot")
    assert round_points(but_baloot, Mode.HOKUM, [149, 13], [4, 5], [2, 0], 3, 0) == [53, 18]


def test_capped_projects_in_bunts() -> None:
    """A6 bunts_before_rounding: the sira 20 bunts, the baloot 20, the fifty 50. Tripled: the
    cards alone 149 -> 15 and 13 -> 1, x3; the sira and the fifty add what they add to the
    cards, 169 -> 17 (+2) and 63 -> 6 (+5), x2; the baloot what it adds then, 189 -> 19 (+2)."""
    readings = dataclasses.replace(CAPPED, project_units="bunts_before_rounding")
    got = round_points(readings, Mode.HOKUM, [149, 13], [40, 50], [20, 0], 3, 0)
    assert got == [15 * 3 + 2 * 2 + 2, 1 * 3 + 5 * 2]


def test_capped_projects_on_failure() -> None:
    """A8 maximum_and_all_projects, hokum, tripled, the bidder (team 0) failed: team 1 takes
    16 x 3, both teams' sira and fifty (2 + 5) doubled only, and the baloot (2) unmultiplied."""
    readings = dataclasses.replace(CAPPED, project_units="points_after_rounding",
                                   projects_on_failure="maximum_and_all_projects")
    assert failure_points(readings, Mode.HOKUM, [4, 5], [2, 0], 3, 0) == [0, 48 + 14 + 2]
