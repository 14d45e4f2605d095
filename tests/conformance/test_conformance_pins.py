"""`baloot conform pins`: a case that leaves out a variant its expectation depends on is
found, named with the reading it fails under; a case that pins a variant it does not
depend on is found too; `--fix` rewrites both to minimal pins in the file's own layout;
the built-in pack needs no fix."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case, case_from_json, default_pack_folder
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools.pins import (
    PinChecker,
    Verdict,
    check_cases,
    overpinned_cases,
    unpinned_cases,
    with_pins,
)
from baloot.conformance.pack_tools.pins_fix import fixable, minimal_pins, plan_fixes

from .conftest import legal_case, write_pack

# Dealer 3: seat 0 passes, seat 1 bids hokum, seats 2 and 3 pass. Under A3 all_others, the
# reading both profiles play, seat 0, which passed before the hokum bid, may still answer
# it with sun (BID.4: "each of the other players in turn"); under not_yet_passed it is not
# asked, and the turn goes back to seat 1.
AFTER_HOKUM: dict[str, Any] = {"actions": ["0: pass", "1: hokum", "2: pass", "3: pass"],
                               "expect": {"player": 0, "actions": ["pass", "sun"]}}
# The first bidder's options (pass, hokum, sun; BID.2, BID.6) come before any scoring: no
# reading of A5 rounding, a scoring variant, can change them.
FIRST_BIDDER_ROUNDING = legal_case("first-bidder", requires={"rounding": "each_team"})


def test_a_case_leaving_out_the_variant_it_depends_on_is_found(tmp_path: Path) -> None:
    pack, problems = lint_pack(write_pack(tmp_path / "pack", [legal_case("after-hokum",
                                                                         **AFTER_HOKUM)]))
    assert problems == []
    found = unpinned_cases(list(pack.cases), load_register(), ["literal", "federation"])
    assert {(f.case.id, f.variant, f.reading, f.profile) for f in found} == {
        ("after-hokum", "hokum_answer", "not_yet_passed", profile)
        for profile in ("literal", "federation")
    }
    assert "leaves hokum_answer out, but fails under hokum_answer=not_yet_passed" in next(
        f.render() for f in found)


def test_a_pinned_case_is_clean(tmp_path: Path) -> None:
    case = legal_case("after-hokum", requires={"hokum_answer": "all_others"}, **AFTER_HOKUM)
    pack, _ = lint_pack(write_pack(tmp_path / "pack", [case]))
    register = load_register()
    assert unpinned_cases(list(pack.cases), register, ["literal", "federation"]) == []
    assert overpinned_cases(list(pack.cases), register, ["literal", "federation"]) == []


def test_a_pin_the_expectation_does_not_depend_on_is_found(tmp_path: Path) -> None:
    needed_and_not = legal_case(
        "after-hokum", requires={"hokum_answer": "all_others", "rounding": "each_team"},
        **AFTER_HOKUM)
    pack, problems = lint_pack(write_pack(tmp_path / "pack", [FIRST_BIDDER_ROUNDING,
                                                              needed_and_not]))
    assert problems == []
    found = overpinned_cases(list(pack.cases), load_register(), ["literal", "federation"])
    assert {(f.case.id, f.variant, f.pinned, f.needless) for f in found} == {
        ("first-bidder", "rounding", ("each_team",), True),
        ("after-hokum", "rounding", ("each_team",), True)}
    assert "pins rounding=each_team, but passes under every reading of rounding" in (
        found[0].render())


class RuledChecker(PinChecker):
    """A checker whose "engine" passes a case exactly when `rule(profile, readings)` says so,
    so that what minimal pins are follows from the rule alone."""

    def __init__(self, rule: Callable[[str, dict[str, str]], bool]) -> None:
        register = load_register()
        super().__init__(register, list(register.profiles))
        self.rule = rule

    def verdict(self, case: Case, profile: str, requires: dict[str, str]) -> Verdict:
        return self.rule(profile, {**self.register.readings_of(profile), **requires}), ""


def ruled_case(**pins: str | tuple[str, ...]) -> Case:
    case = case_from_json(legal_case("ruled"), "cases.json")
    return with_pins(case, {v: (r,) if isinstance(r, str) else r for v, r in pins.items()})


def test_minimal_pins_list_every_reading_the_case_passes_under() -> None:
    # Passes under two of A2's three readings; pinned to one of them.
    checker = RuledChecker(lambda _, r: r["sun_overcall"] != "sun_ends_bidding")
    fix = minimal_pins(checker, ruled_case(sun_overcall="last_caller_wins"))
    assert fix.pins == {"sun_overcall": ("last_caller_wins", "earlier_seat_priority")}
    assert fix.changes() == ["~sun_overcall=last_caller_wins|earlier_seat_priority"]


def test_minimal_pins_add_a_left_out_variant_profiles_reading_first() -> None:
    # Fails under one A9 reading only; both profiles' own (literal flat_44, federation
    # sun_44_hokum_25_projects_unraised) pass, literal's first as the profiles come.
    checker = RuledChecker(lambda _, r: r["kaboot"] != "flat_44_with_projects_and_raises")
    fix = minimal_pins(checker, ruled_case())
    assert fix.pins == {"kaboot": ("flat_44", "sun_44_hokum_25", "sun_44_hokum_25_nothing_added",
                                   "sun_44_hokum_25_projects_unraised")}


def test_a_case_holding_under_no_choice_of_pins_is_not_fixed() -> None:
    # Passes only under the rounding of the profile it is played from: no reading of A5
    # passes from both profiles.
    register = load_register()
    checker = RuledChecker(
        lambda p, r: r["rounding"] == register.readings_of(p)["rounding"])
    fix = minimal_pins(checker, ruled_case())
    assert fix.pins is None
    assert fix.problem == "depends on rounding and holds under none of its readings from " \
        "every profile"


def test_dropping_pins_one_at_a_time_keeps_what_they_need_together() -> None:
    # Fails only under federation's A4 and A5 readings together. Each pin alone is needless;
    # with A4 dropped, federation's more_points_app_ties is played, so A5 must then leave
    # out bidder_takes_rest.
    checker = RuledChecker(lambda _, r: not (r["bidder_success"] == "more_points_app_ties"
                                             and r["rounding"] == "bidder_takes_rest"))
    fix = minimal_pins(checker, ruled_case(bidder_success="margin_points",
                                           rounding="each_team"))
    assert fix.pins == {"rounding": ("each_team", "adjusted_to_total")}


def test_pins_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    leaky = write_pack(tmp_path / "leaky", [legal_case("after-hokum", **AFTER_HOKUM)])
    assert main(["conform", "pins", "--cases", str(leaky), "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "after-hokum (cases.json): leaves hokum_answer out" in out
    assert "would fix after-hokum (cases.json): +hokum_answer=all_others" in out


KEY_ORDER = ["id", "kind", "title", "clauses", "requires", "setup", "actions", "expect"]


def _laid_out(case: dict[str, Any]) -> dict[str, Any]:
    """The keys of a case in the built-in pack's order (`requires` after `clauses`)."""
    return {k: case[k] for k in KEY_ORDER if k in case}


def _pack_in_one_space_layout(folder: Path) -> Path:
    """A pack whose case file is laid out as the built-in pack's: one-space indents,
    `requires` after `clauses`, pins in alphabetical order, a final newline."""
    write_pack(folder, [])
    cases = [
        _laid_out(FIRST_BIDDER_ROUNDING),
        _laid_out(legal_case("after-hokum", **AFTER_HOKUM)),
        _laid_out(legal_case(
            "pinned-both", requires={"rounding": "each_team", "hokum_answer": "all_others"},
            **AFTER_HOKUM)),
    ]
    (folder / "cases.json").write_text(
        json.dumps({"description": "tiny", "cases": cases}, indent=1) + "\n")
    return folder


def test_fix_rewrites_to_minimal_pins_in_the_files_layout(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _pack_in_one_space_layout(tmp_path / "pack")
    before = json.loads((folder / "cases.json").read_text())
    assert main(["conform", "pins", "--cases", str(folder), "--fix", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "rewrote cases.json: 3 case(s)" in out
    assert "re-checked 3 rewritten case(s)" in out
    # What the rules say the pins must be: the first bidder's options depend on no
    # variant (the rounding pin goes, and `requires` with it); after the hokum bid seat 0's
    # options depend on A3 only, in the reading both profiles play (all_others).
    first, after_hokum, pinned_both = before["cases"]
    del first["requires"]
    after_hokum = _laid_out({**after_hokum, "requires": {"hokum_answer": "all_others"}})
    pinned_both["requires"] = {"hokum_answer": "all_others"}
    expected = {"description": "tiny", "cases": [first, after_hokum, pinned_both]}
    assert (folder / "cases.json").read_text() == json.dumps(expected, indent=1) + "\n"
    assert main(["conform", "pins", "--cases", str(folder), "--jobs", "1"]) == 0


def test_the_builtin_pack_pins_exactly_what_each_case_depends_on() -> None:
    pack, problems = lint_pack(default_pack_folder())
    assert problems == []
    register = load_register()
    profiles = list(register.profiles)
    checks = check_cases(list(pack.cases), register, profiles, jobs=os.cpu_count() or 1)
    unpinned = [u for c in checks for u in c.unpinned()]
    assert unpinned == [], "\n".join(u.render() for u in unpinned[:20])
    fixes = [f for f in plan_fixes(checks, register, profiles) if f.changed or f.pins is None]
    assert fixes == [], "\n".join(f"{f.case.id}: {f.changes()} {f.problem}" for f in fixes[:20])
    assert all(fixable(c.case) or c.holds for c in checks)


# The first bidder may also bid (BID.2, BID.6): a case expecting only a pass fails under
# every reading, so no pin of it can be judged.
ONLY_PASS = legal_case("only-pass", expect={"player": 0, "actions": ["pass"]})


def test_a_run_where_no_case_passes_under_its_pins_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_pack(tmp_path / "pack", [ONLY_PASS])
    assert main(["conform", "pins", "--cases", str(folder), "--jobs", "1"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "1 case(s) fail under their own pins" in out
    assert "none of the 1 case(s) passes under its own pins, so no pin was checked" in out
    assert "every one of" not in out


def test_the_cases_judged_are_those_that_pass_under_their_pins(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_pack(tmp_path / "pack", [ONLY_PASS, legal_case("first-bidder")])
    assert main(["conform", "pins", "--cases", str(folder), "--jobs", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "every one of the 1 case(s) that pass under their own pins pins the readings" in out
