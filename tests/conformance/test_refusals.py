"""The refusal table (`baloot conform refusals`) and the cases of `cases/refusals/`: every
reason an action can be refused has its cases, and they fail an engine that skips one
legality check."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case, default_pack_folder
from baloot.conformance.harness.runner import FAILED, PASSED, Runner
from baloot.conformance.harness.variants import Register, load_register
from baloot.conformance.pack_tools import refusals
from baloot.conformance.pack_tools.spec_model import spec_model
from baloot.reference_impl import bidding_rules, play_rules

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def register() -> Register:
    return load_register()


@pytest.fixture(scope="module")
def refusal_cases(register: Register) -> list[Case]:
    pack, problems = lint_pack(default_pack_folder(), register)
    assert not problems
    return [c for c in pack.cases if c.file.startswith("refusals/")]


def _statuses(cases: list[Case], register: Register) -> Iterator[tuple[str, str, str]]:
    for profile in register.profiles:
        runner = Runner(InProcessEngine(), register, profile=profile)
        for case in cases:
            outcome = runner.run_case(case)
            yield profile, case.id, outcome.status
        runner.engine.close()


def test_every_require_of_the_spec_has_a_way_or_is_unreachable() -> None:
    points = refusals.refusal_points(spec_model())
    # the requires the spec holds today: the four bidding stages, the raising, the play's
    # five, the declaration's two, the phase check, and the five of the setup and the deal
    assert len(points) == 19
    for point in points:
        ways = [w for w in refusals.WAYS
                if w.rule == point.rule and point.message.startswith(w.message)]
        assert ways or point.rule in refusals.UNREACHABLE, point
    # the condition of the void rule reads A15, that of the follow rule A23 (through a let)
    def point_of(start: str) -> refusals.RefusalPoint:
        return next(p for p in points if p.message.startswith(start))

    assert point_of("void in the led suit").variants == ("void_in_hokum",)
    assert point_of("the player must follow").variants == ("trump_lead",)


def test_every_way_has_two_cases_under_every_reading(register: Register) -> None:
    pack, _ = lint_pack(default_pack_folder(), register)
    report = refusals.refusal_report(pack.cases, register)
    assert report.ok, [f"{r.way.key} {r.label}: {len(r.cases)}" for r in report.gaps]
    assert not report.accepted
    rows = {(r.way.key, r.label): r for r in report.rows}
    # A15's duty to trump cannot arise when any card may be played, and arises otherwise
    assert rows["play.void-must-trump", "void_in_hokum=any_card"].never
    assert len(rows["play.void-must-trump", "void_in_hokum=must_trump"].cases) >= 2
    assert len(rows["raise.form", "locked_round=doubler_chooses"].cases) >= 2


def test_the_refusal_cases_pass_on_the_reference(register: Register,
                                                 refusal_cases: list[Case]) -> None:
    assert len(refusal_cases) >= 60
    failing = [s for s in _statuses(refusal_cases, register) if s[2] != PASSED]
    assert not failing


def test_an_engine_without_the_duty_to_trump_fails_the_void_cases(
        register: Register, refusal_cases: list[Case], monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken engine: a player void in the led suit may play any card under every reading
    of A15 (the rule of `any_card` everywhere). It accepts the actions the void cases send."""
    monkeypatch.setattr(play_rules, "void_choices",
                        lambda readings, game, seat, hand: hand)
    void = [c for c in refusal_cases if c.id.startswith("refusal.play.void-")]
    assert len(void) >= 4
    statuses = list(_statuses(void, register))
    assert {status for _, _, status in statuses} == {FAILED}
    runner = Runner(InProcessEngine(), register, profile="literal")
    outcome = runner.run_case(void[0])
    assert "was accepted; it must be refused" in outcome.message
    # the cases of another reason still pass on it
    others = [c for c in refusal_cases if c.id.startswith("refusal.play.revoke")
              or c.id.startswith("refusal.bid.open.")]
    assert others and all(s == PASSED for _, _, s in _statuses(others, register))


def test_an_engine_that_lets_anyone_call_ashkal_fails_the_ashkal_cases(
        register: Register, refusal_cases: list[Case], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bidding_rules, "ashkal_allowed", lambda readings, game, seat: True)
    ashkal = [c for c in refusal_cases if ".ashkal-" in c.id]
    assert len(ashkal) >= 6
    assert {status for _, _, status in _statuses(ashkal, register)} == {FAILED}


def test_the_command_reports_no_gap(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["conform", "refusals", "--check"]) == 0
    out = capsys.readouterr().out
    assert "way x reading rows covered" in out and "gap" not in out.replace("gaps", "")
