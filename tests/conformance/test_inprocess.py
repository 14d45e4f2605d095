"""The in-process reference engine gives the runner the verdicts the reference adapter
gives over a pipe, and hands out no state the runner could alias."""

from __future__ import annotations

from pathlib import Path

from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.harness.engine_process import REFERENCE_ARGV, EngineProcess
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case, default_pack_folder
from baloot.conformance.harness.runner import CaseOutcome, Runner
from baloot.conformance.harness.variants import load_register

from .conftest import legal_case, write_pack


def handful(tmp_path: Path) -> list[Case]:
    """A case of each kind from the built-in pack, and two that fail: the second
    bidder's options after a sun under A2 sun_ends_bidding (the bidding is over), and a
    legal action expected to be refused."""
    pack, problems = lint_pack(default_pack_folder())
    assert problems == []
    picked: dict[str, Case] = {}
    for case in pack.cases:
        picked.setdefault(case.kind, case)
    failing, failing_problems = lint_pack(write_pack(tmp_path / "failing", [
        legal_case("after-sun-ends", requires={"sun_overcall": "sun_ends_bidding"},
                   actions=["0: sun"], expect={"player": 1, "actions": ["pass", "sun"]}),
        legal_case("hokum-refused", kind="illegal", expect={"action": "hokum"}),
    ]))
    assert failing_problems == []
    return [*picked.values(), *failing.cases]


def verdicts(engine: EngineProcess, cases: list[Case], profile: str) -> list[tuple[str, str]]:
    runner = Runner(engine, load_register(), profile=profile)
    try:
        outcomes: list[CaseOutcome] = [runner.run_case(case) for case in cases]
    finally:
        engine.close()
    return [(o.status, o.message) for o in outcomes]


def test_same_verdicts_as_the_reference_adapter_process(tmp_path: Path) -> None:
    cases = handful(tmp_path)
    assert len(cases) >= 6
    for profile in ("literal", "federation"):
        here = verdicts(InProcessEngine(), cases, profile)
        piped = verdicts(EngineProcess(REFERENCE_ARGV, timeout=30), cases, profile)
        assert here == piped
        assert {status for status, _ in here} == {"passed", "failed"}


def test_replies_are_copies() -> None:
    engine = InProcessEngine()
    engine.start()
    deck = list(legal_case("x")["setup"]["deck"])
    setup = {"profile": "literal", "overrides": {}, "dealer": 3, "deck": deck}
    assert engine.request({"type": "start", "setup": setup})["ok"]
    first = engine.request({"type": "state"})["state"]
    first["hands"][0].clear()
    deck.clear()
    assert len(engine.request({"type": "state"})["state"]["hands"][0]) == 5
    assert engine.hello["name"] == "baloot-reference"
    engine.close()
    assert not engine.running
