"""`baloot conform pins`: a case that leaves out a variant its expectation depends on is
found, named with the reading it fails under; the built-in pack has none."""

from __future__ import annotations

from pathlib import Path

import pytest

from baloot.conformance.cli import main
from baloot.conformance.lint import lint_pack
from baloot.conformance.pack import default_pack_folder
from baloot.conformance.pins import unpinned_cases
from baloot.conformance.variants import load_register

from .conftest import legal_case, write_pack

# Seat 0 bids sun first (dealer 3). Under A2 last_caller_wins, the literal and federation
# reading, seat 1 may take it over: pass or sun (no ashkal for the second bidder, BID.6).
# Under earlier_seat_priority seat 1 bids later than seat 0, so it may only pass; under
# sun_ends_bidding the bidding is over and the play begins.
AFTER_SUN = {"actions": ["sun"], "expect": {"player": 1, "actions": ["pass", "sun"]}}


def test_a_case_leaving_out_the_variant_it_depends_on_is_found(tmp_path: Path) -> None:
    pack, problems = lint_pack(write_pack(tmp_path / "pack", [legal_case("after-sun",
                                                                         **AFTER_SUN)]))
    assert problems == []
    found = unpinned_cases(list(pack.cases), load_register(), ["literal", "federation"])
    assert {(f.case.id, f.variant, f.reading, f.profile) for f in found} == {
        ("after-sun", "sun_overcall", reading, profile)
        for reading in ("sun_ends_bidding", "earlier_seat_priority")
        for profile in ("literal", "federation")
    }
    assert "leaves sun_overcall out, but fails under sun_overcall=sun_ends_bidding" in next(
        f.render() for f in found if f.reading == "sun_ends_bidding")


def test_a_pinned_case_is_clean(tmp_path: Path) -> None:
    case = legal_case("after-sun", requires={"sun_overcall": "last_caller_wins"}, **AFTER_SUN)
    pack, _ = lint_pack(write_pack(tmp_path / "pack", [case]))
    assert unpinned_cases(list(pack.cases), load_register(), ["literal", "federation"]) == []


def test_pins_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    leaky = write_pack(tmp_path / "leaky", [legal_case("after-sun", **AFTER_SUN)])
    assert main(["conform", "pins", "--cases", str(leaky)]) == 1
    out = capsys.readouterr().out
    assert "after-sun (cases.json): leaves sun_overcall out" in out
    assert "1 case(s) leave out a variant" in out


def test_every_case_of_the_builtin_pack_pins_what_it_depends_on() -> None:
    pack, problems = lint_pack(default_pack_folder())
    assert problems == []
    register = load_register()
    found = unpinned_cases(list(pack.cases), register, list(register.profiles))
    assert found == [], "\n".join(f.render() for f in found[:20])
