"""The spec's numeric boundaries: found by walking the model, reached by the pack's cases,
and moved by one point in generated mutants that the pack kills.

The expected boundaries are worked out from the rules: RAISE.3 gates sun raises at 100
(A11: above/below, or at-or-above/at-or-below); SCORE.9 asks more than 13 points in sun
and 8 in hokum (A4 says of what; more_points_app_ties compares the teams' points, baloot
aside, and breaks a tie by their bunts); END.1 ends the game at 152; A19 compares the two
totals; SCORE.11's kaboot is every trick of the round.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import default_pack_folder
from baloot.conformance.mutants.boundary_mutants import boundary_mutants, unbuilt_boundaries
from baloot.conformance.mutants.build import apply_patch
from baloot.conformance.mutants.run import run_mutants
from baloot.conformance.pack_tools.boundary_probe import (
    boundary_coverage,
    play_case,
    point_coverage,
    probing,
)
from baloot.conformance.pack_tools.spec_model import spec_model
from baloot.grammar.boundaries import (
    BIDDER,
    COUNT,
    OTHER,
    UNCLASSIFIED,
    boundaries,
    comparisons,
)

BOUNDARY_CASES = default_pack_folder() / "boundaries"
PROFILES = ("literal", "federation")
BOTH_TEAMS = "bidder's team less other team"


def test_the_known_boundaries_are_found_with_their_values_and_sides() -> None:
    found = {(b.rule, b.readings[:1], b.value, b.side) for b in boundaries(spec_model())}
    strict, inclusive = ("gate_strict_all",), ("gate_inclusive_all",)
    expected = {
        ("sun_gate_open", strict, 100, BIDDER), ("sun_gate_open", strict, 100, OTHER),
        ("sun_gate_open", inclusive, 100, BIDDER), ("sun_gate_open", inclusive, 100, OTHER),
        ("game_winner", (), 152, BIDDER), ("game_winner", (), 152, OTHER),
        ("game_winner", ("higher_total_wins",), 0, "team 0 less team 1"),
        ("bidder_succeeds", ("margin_points",), 13, BOTH_TEAMS),
        ("bidder_succeeds", ("margin_points",), 8, BOTH_TEAMS),
        ("bidder_succeeds", ("more_than_half_points",), 13, BIDDER),
        ("bidder_succeeds", ("more_than_half_points",), 8, BIDDER),
        ("bidder_succeeds", ("half_points_or_more",), 13, BIDDER),
        ("bidder_succeeds", ("half_points_or_more",), 8, BIDDER),
        ("bidder_succeeds", ("more_than_half_bunts",), 0, BOTH_TEAMS),
        ("bidder_succeeds", ("half_bunts_or_more",), 0, BOTH_TEAMS),
        ("bidder_succeeds", ("more_points_app_ties",), 0, BOTH_TEAMS),
        ("kaboot_team", (), None, BIDDER), ("kaboot_team", (), None, OTHER),
    }
    assert found == expected


def test_the_strict_gate_gathers_its_three_readings_and_a19_its_two_comparisons() -> None:
    by_key = {b.key: b for b in boundaries(spec_model())}
    gate = by_key["sun_gate_open:gate_strict_all:sun_raise_gate=100:bidder"]
    assert gate.readings == ("gate_strict_all", "gate_strict_no_gahwa", "gate_strict_double_only")
    assert gate.texts == ("own > sun_raise_gate",) and gate.quantity == "totals[bidder_team]"
    a19 = by_key["game_winner:higher_total_wins:0:team0-team1"]
    assert a19.texts == ("totals[0] == totals[1]", "totals[0] > totals[1]")
    sun = by_key["bidder_succeeds:margin_points:sun_success_margin=13:bidder-other"]
    assert sun.condition == "mode == sun"
    assert by_key["kaboot_team:all:other"].unreachable.keys() == {1}


def test_comparisons_not_tracked_are_listed_with_their_kind() -> None:
    listed = {(c.rule.name, c.text): c.kind for c in comparisons(spec_model())}
    assert listed[("hokum_conversion", "bunts % 10 > 5")] == UNCLASSIFIED
    third_or_later = "bidding_position(game.dealer, seat) + 1 >= 3"
    assert listed[("ashkal_allowed", third_or_later)] == UNCLASSIFIED
    assert listed[("sequence_projects", "len(run) <= hundred_length")] == COUNT
    assert ("score_round", "sweep != none") not in listed  # a missing value, no number


def test_the_probe_records_the_figure_each_comparison_reads() -> None:
    pack, _ = lint_pack(BOUNDARY_CASES)
    case = next(c for c in pack.cases if c.id == "boundary.raise_gate.gate_strict_all.101-99")
    spec = spec_model()
    found = comparisons(spec)
    with probing(spec, found) as records:
        play_case(case, "literal")
        seen = {(found[i].text, figure, constant, side) for i, figure, constant, side in records}
    assert ("own > sun_raise_gate", 101, 100, BIDDER) in seen
    assert ("theirs < sun_raise_gate", 99, 100, OTHER) in seen


def test_removing_a_case_shows_its_boundary_point_as_missing() -> None:
    spec = spec_model()
    found = comparisons(spec)
    tracked = [b for b in boundaries(spec, found) if b.rule == "sun_gate_open"]
    pack, _ = lint_pack(BOUNDARY_CASES)
    gate_cases = [c for c in pack.cases if c.id.startswith("boundary.raise_gate.")]
    full = point_coverage(spec, found, tracked, gate_cases, PROFILES)
    assert all(p.missing() == [] for p in full)
    fewer = [c for c in gate_cases if c.id != "boundary.raise_gate.gate_strict_all.101-100"]
    cut = {p.boundary.key: p.missing() for p in point_coverage(spec, found, tracked, fewer,
                                                                PROFILES)}
    assert cut["sun_gate_open:gate_strict_all:sun_raise_gate=100:other"] == [0]
    assert cut["sun_gate_open:gate_strict_all:sun_raise_gate=100:bidder"] == []  # 101-99 too


def test_the_builtin_pack_reaches_every_boundary_point() -> None:
    pack, _ = lint_pack(default_pack_folder())
    found = boundary_coverage(pack)
    assert found.gaps == []
    assert found.covered == found.reachable == 3 * len(found.points) - 2  # kaboot: no 9th trick


def test_each_boundary_gives_mutants_that_patch_the_spec_once() -> None:
    mutants = boundary_mutants()
    assert unbuilt_boundaries() == []
    assert len({m.name for m in mutants}) == len(mutants)
    spec = spec_model()
    for mutant in mutants:
        text = next(t for name, t in spec.sources if name.endswith("/" + mutant.file))
        assert apply_patch(text, mutant) != text
    gate = next(m for m in mutants
                if m.name == "boundary_sun_gate_open_gate_strict_all_other_lt_up")
    assert "theirs < sun_raise_gate + 1" in gate.new and "own > sun_raise_gate and" in gate.new
    assert gate.pins == (("sun_raises", "gate_strict_all"),)
    equivalent = [m.name for m in mutants if m.equivalent]
    assert equivalent == [
        "boundary_game_winner_higher_total_wins_team0_team1_gt_down",
        # a sun bunt difference is always even; the points' `>` comes after their `==`
        "boundary_bidder_succeeds_more_points_app_ties_bidder_other_ge_down",
        "boundary_bidder_succeeds_more_points_app_ties_bidder_other_plain_gt_down",
    ]


@pytest.mark.parametrize("name", [
    "boundary_sun_gate_open_gate_inclusive_all_bidder_ge_down",  # needs the mutant's reading
    "boundary_kaboot_team_other_all_down",
])
def test_a_boundary_mutant_is_killed_by_the_boundary_cases(name: str, tmp_path: Path) -> None:
    """A representative pair; `baloot conform mutants --only 'boundary_*'` runs them all."""
    pack = tmp_path / "pack"
    shutil.copytree(BOUNDARY_CASES, pack)
    shutil.copy(default_pack_folder() / "pack.json", pack / "pack.json")
    mutant = next(m for m in boundary_mutants() if m.name == name)
    report = run_mutants([mutant], folders=[pack], jobs=1, first_failure=True,
                         cache=tmp_path / "builds")
    assert report.reference_failures == {}
    assert report.verdicts[0].killed, report.verdicts[0]
