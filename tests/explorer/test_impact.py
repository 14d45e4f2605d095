"""`baloot explore --impact`: the Wilson interval, the differ-detector on the explorer's
witnesses, readings that cannot differ, the shared course against playing every reading
through, and results that do not depend on jobs or shards (small round counts)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.explorer import impact, witnesses_file
from baloot.grammar import model as m
from baloot.grammar.parser import load_spec

WITNESSES = witnesses_file.results_folder() / "witnesses.json"
# a few variants of each kind: read in the bidding, in the play, and only in the scoring
SOME = ("sun_overcall", "void_in_hokum", "first_leader", "bidder_success", "redeal_dealer")


@cache
def spec() -> m.Spec:
    return load_spec()


def pair_index(plan: impact.Plan, variant: str, a: str, b: str) -> int:
    return next(i for i, (v, x, y) in enumerate(plan.pairs)
                if v.name == variant and {x, y} == {a, b})


# ---------------------------------------------------------------- Wilson --


def test_wilson_interval_of_8_in_20_is_the_hand_worked_one() -> None:
    # p = 0.4, n = 20, z = 1.96, z^2 = 3.8416; 1 + z^2/n = 1.19208
    # centre = (0.4 + 3.8416/40) / 1.19208 = 0.49604 / 1.19208 = 0.41611
    # half = 1.96 / 1.19208 * sqrt(0.24/20 + 3.8416/1600) = 1.64419 * 0.12000 = 0.19731
    low, high = impact.wilson(8, 20, z=1.96)
    assert low == pytest.approx(0.2188, abs=1e-4)
    assert high == pytest.approx(0.6134, abs=1e-4)


def test_wilson_interval_of_no_success_starts_at_zero() -> None:
    # p = 0: the interval is [0, z^2 / (n + z^2)] = [0, 3.8416 / 103.8416]
    low, high = impact.wilson(0, 100, z=1.96)
    assert low == 0.0
    assert high == pytest.approx(0.036995, abs=1e-6)
    assert impact.wilson(100, 100, z=1.96) == pytest.approx((1 - 0.036995, 1.0), abs=1e-6)
    assert abs(impact.Z95 - 1.96) < 1e-4


# ----------------------------------------------------- the differ-detector --


def stored_pair(variant: str, a: str, b: str) -> dict[str, Any]:
    data = json.loads(WITNESSES.read_text(encoding="utf-8"))
    found = next(v for v in data["variants"] if v["name"] == variant)
    pair: dict[str, Any] = next(p for p in found["pairs"] if p["readings"] == [a, b])
    return pair


@pytest.mark.parametrize(("variant", "a", "b", "legal"), [
    ("void_in_hokum", "any_card", "must_trump", True),  # a legal set differs
    ("bidder_success", "margin_points", "more_than_half_points", False),  # the result
])
def test_an_explorer_witness_falls_in_the_differing_share(variant: str, a: str, b: str,
                                                           legal: bool) -> None:
    w = stored_pair(variant, a, b)["engine"]
    profile = spec().profiles[0].name
    courses = [impact.replay(profile, {variant: r}, w["dealer"], w["deck"], w["totals"],
                             w["actions"], w["redeal"]) for r in (a, b)]
    differ, legal_differs, _ = impact.compare(*courses)
    assert differ
    assert legal_differs is legal
    # the same script under one reading twice is no difference
    assert impact.compare(courses[0], impact.replay(
        profile, {variant: a}, w["dealer"], w["deck"], w["totals"], w["actions"],
        w["redeal"])) == (False, False, False)


def test_readings_that_cannot_differ_show_zero() -> None:
    data = json.loads(WITNESSES.read_text(encoding="utf-8"))
    equal = [(v["name"], *p["readings"]) for v in data["variants"] for p in v["pairs"]
             if p["verdict"] == "proven-equal"]
    plan = impact.make_plan(spec(), rounds=40)
    readings: tuple[str, ...]
    if equal:  # a pair the explorer proved equal
        name, a, b = equal[0]
        v = next(x for x in plan.variants if x.name == name)
        readings = (a, b)
    else:  # none is: a reading against itself, both away from the base reading
        v = next(x for x in plan.variants if x.name == "first_leader")
        other = next(r for r in v.readings if r != v.base)
        readings = (v.base, other, other)
    probe = impact.Plan(plan.profile, (impact.VariantPlan(v.name, v.id, readings, v.base),),
                        plan.target, plan.seed, plan.rounds)
    counts = impact.count_rounds(probe, range(probe.rounds))
    same = pair_index(probe, v.name, readings[-2], readings[-1])
    assert probe.pairs[same][1] == probe.pairs[same][2] or equal
    assert (counts.differ[same], counts.winner[same]) == (0, 0)
    assert counts.rounds[same] == probe.rounds
    if not equal:  # while the real pair, on the same rounds, differs
        assert counts.differ[0] > 0
        assert counts.differ[0] == counts.differ[1]


def test_the_shared_course_counts_as_every_reading_played_through() -> None:
    plan = impact.make_plan(spec(), rounds=12)
    fast = impact.count_rounds(plan, range(12))
    plain = impact.count_rounds(plan, range(12), plain=True)
    assert fast == plain
    assert sum(fast.differ) > 0 and sum(fast.legal) > 0 and sum(fast.winner) > 0
    # a difference only in the score: the legal sets agree, the result does not
    bidder = pair_index(plan, "bidder_success", "margin_points", "more_than_half_points")
    assert fast.legal[bidder] == 0


# ------------------------------------------------ jobs, shards and the file --


def test_counts_do_not_depend_on_jobs_or_chunks() -> None:
    plan = impact.make_plan(spec(), rounds=24, variants=SOME)
    one = impact.measure(plan, jobs=1, chunk=5)
    assert impact.measure(plan, jobs=2, chunk=5) == one
    assert impact.measure(plan, jobs=3, chunk=7) == one
    assert one == impact.count_rounds(plan, range(24))


def test_shards_merge_into_the_whole_run(tmp_path: Path) -> None:
    plan = impact.make_plan(spec(), rounds=20, variants=SOME)
    whole = impact.dumps(impact.impact_data(plan, impact.measure(plan, jobs=1)))
    files = []
    for k in (2, 3, 1):
        path = tmp_path / f"part-{k}.json"
        counts = impact.measure(plan, (k, 3), jobs=1)
        assert counts.rounds[0] == len(range(k - 1, 20, 3))
        path.write_text(impact.dumps(impact.impact_data(plan, counts, (k, 3))),
                        encoding="utf-8")
        files.append(path)
    assert impact.dumps(impact.merge(spec(), files)) == whole
    partial = impact.merge(spec(), files[:2])
    assert partial["shard"] == {"of": 3, "parts": [2, 3]}
    with pytest.raises(impact.ImpactFileError, match="in another file"):
        impact.merge(spec(), [files[0], files[0]])


def test_the_command_writes_checks_and_merges(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    stored = tmp_path / "impact.json"
    small = ["explore", "--impact", "--rounds", "6", "--jobs", "1"]
    assert main([*small, "--impact-results", str(stored)]) == 0
    data = json.loads(stored.read_text(encoding="utf-8"))
    assert data["rounds"] == 6 and data["shard"] is None and data["profile"] == "literal"
    assert {v["id"] for v in data["variants"]} == {v.id for v in spec().variants}
    assert main(["explore", "--impact", "--check", "--jobs", "1",
                 "--impact-results", str(stored)]) == 0
    whole = stored.read_text(encoding="utf-8")
    pair = data["variants"][0]["pairs"][0]
    pair["differ"] += 1
    stored.write_text(impact.dumps(data), encoding="utf-8")
    assert main(["explore", "--impact", "--check", "--jobs", "1",
                 "--impact-results", str(stored)]) == 1
    assert "stale" in capsys.readouterr().out
    parts = [tmp_path / "a.json", tmp_path / "b.json"]
    assert main([*small, "--shard", "1/2", "--impact-results", str(parts[0])]) == 0
    plan = impact.make_plan(spec(), rounds=6)
    parts[1].write_text(impact.dumps(impact.impact_data(
        plan, impact.measure(plan, (2, 2), jobs=1), (2, 2))), encoding="utf-8")
    merged = tmp_path / "merged.json"
    assert main(["explore", "--impact", "--merge", *map(str, parts),
                 "--impact-results", str(merged)]) == 0
    assert merged.read_text(encoding="utf-8") == whole
    assert main([*small, "--shard", "3/2", "--no-write"]) == 2
    assert main([*small, "--shard", "1/2"]) == 2  # a shard names its file
