"""The runner judges what an engine declares: cases apply by their pins and
capabilities, steps name the seat that acts, and the exit status says whether
anything was checked. The engine here is the reference behind the protocol,
declaring less than it implements or misbehaving on purpose
(`fake_engines/reference_with.py`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.harness import exit_status
from baloot.conformance.harness.declared import CAPABILITIES, DeclarationError, declared_from_hello
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import default_pack_folder
from baloot.conformance.harness.runner import Runner
from baloot.conformance.harness.variants import load_register

PACK = default_pack_folder()


def _hello(**fields: Any) -> dict[str, Any]:
    return {"profile": "literal", **fields}


def test_a_hello_declares_a_mix_of_readings_and_capabilities() -> None:
    register = load_register()
    declared = declared_from_hello(
        _hello(
            profile="federation",
            overrides={"sun_overcall": "last_caller_wins"},
            readings={"rounding": ["each_team", "bidder_takes_rest"]},
            capabilities=["projects"],
        ),
        register,
    )
    assert declared.plays["sun_overcall"] == "last_caller_wins"  # off federation's
    assert declared.plays["rounding"] == "bidder_takes_rest"  # federation's
    # a case pinning another implemented reading applies; an unimplemented one does not
    assert declared.missing_readings({"rounding": "each_team"}) == []
    assert declared.missing_readings({"rounding": "adjusted_to_total"}) == [
        "rounding=adjusted_to_total"
    ]
    assert declared.missing_readings({"sun_overcall": "earlier_seat_priority"}) == [
        "sun_overcall=earlier_seat_priority"
    ]
    assert declared.missing_capabilities(["projects", "raises"]) == ["raises"]
    # the start asks for the case's pins where they leave the profile, and the engine's own
    assert declared.overrides_for({"rounding": "each_team"}, register) == {
        "rounding": "each_team",
        "sun_overcall": "last_caller_wins",
    }
    # left out, no capability is claimed: an engine claims what it names, and no more
    assert declared_from_hello(_hello(), register).capabilities == frozenset()
    every = declared_from_hello(_hello(capabilities=list(CAPABILITIES)), register)
    assert every.capabilities == frozenset(CAPABILITIES)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"profile": "street"}, 'profile "street" is not a profile'),
        ({"overrides": {"roundng": "each_team"}}, "no variant 'roundng'"),
        ({"overrides": {"rounding": "up"}}, 'overrides.rounding: no reading "up"'),
        ({"readings": {"rounding": ["bidder_takes_rest"]}}, "but not each_team"),
        ({"capabilities": ["raises", "jokers"]}, "unknown jokers"),
        ({"capabilities": "raises"}, "expected a list"),
    ],
)
def test_a_hello_that_cannot_be_read_says_which_field(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(DeclarationError, match=message):
        declared_from_hello(_hello(**fields), load_register())


def _run(run_conform: Any, monkeypatch: pytest.MonkeyPatch, hello: dict[str, Any] | None,
         *extra: str, **env: str) -> tuple[int, dict[str, Any], str]:
    if hello is not None:
        monkeypatch.setenv("FAKE_HELLO", json.dumps(hello))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result: tuple[int, dict[str, Any], str] = run_conform("reference_with", PACK, *extra)
    return result


def _by_status(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for case in report["cases"]:
        out.setdefault(case["status"], []).append(case)
    return out


def test_a_declared_mix_runs_the_cases_it_applies_to_and_fails_none(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One reading per variant (no `readings`): federation with two variants moved off it.
    overrides = {"sun_overcall": "earlier_seat_priority", "first_leader": "bid_winner"}
    status, report, text = _run(
        run_conform, monkeypatch,
        {"profile": "federation", "overrides": overrides, "readings": None},
    )
    by = _by_status(report)
    assert status == exit_status.OK, text
    assert not by.get("failed") and not by.get("errored")
    plays = report["declared"]["plays"]
    assert plays["sun_overcall"] == "earlier_seat_priority"
    # every case that ran pins what the engine plays (among the readings a pin lists), or
    # was played as an alternative that does; every skipped one pins a variant without it
    def listed(pin: str | list[str]) -> list[str]:
        return [pin] if isinstance(pin, str) else pin

    for case in by["passed"]:
        # the case's own pins, or those of the alternative it was played as (CASES.md)
        pins = case["alternative"]["requires"] if case["alternative"] else case["requires"]
        assert all(plays[v] in listed(r) for v, r in pins.items()), case["id"]
    for case in by["skipped"]:
        assert any(plays[v] not in listed(r) for v, r in case["requires"].items()), case["id"]
        assert case["lacking"] and all("=" in item for item in case["lacking"])
    assert report["checked"] == len(by["passed"]) > 0
    assert "not run, by reason" in text


def test_missing_capabilities_make_cases_unsupported_and_the_rest_pass(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The reference still has raising and a game score; declaring them absent only takes
    # away what it may be asked. Every case needing them is unsupported, the others run.
    status, report, _ = _run(
        run_conform, monkeypatch, {"capabilities": ["projects", "declarations", "ashkal"]}
    )
    by = _by_status(report)
    assert status == exit_status.OK
    assert not by.get("failed") and not by.get("errored")
    for case in by["unsupported"]:
        lacking = set(case["capabilities"]) - {"projects", "declarations", "ashkal"}
        assert lacking and set(case["lacking"]) == lacking, case["id"]
    for case in by["passed"]:
        assert set(case["capabilities"]) <= {"projects", "declarations", "ashkal"}, case["id"]
    assert len(by["passed"]) > 50 and len(by["unsupported"]) > 50
    assert report["summary"]["unsupported"] == len(by["unsupported"])
    assert report["not_run"] and report["not_run"][0]["status"] == "unsupported"


def test_an_engine_asking_the_wrong_seat_fails_the_step_that_names_it(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, report, _text = _run(
        run_conform, monkeypatch, None, "--only", "round.hokum.doubled-success",
        FAKE_WRONG_ACTOR="raising",
    )
    assert status == exit_status.FAILURES
    (case,) = report["cases"]
    assert case["status"] == "failed"
    # hokum by seat 0 with dealer 3: seat 1, an opponent, is the first asked to double
    assert "'double' is seat 1's, but the engine asks seat 3" in case["message"]


def test_a_wrong_seat_leaves_the_engine_in_step_for_the_next_case(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The runner sends a named seat's `legal` and `apply` together: after the wrong seat,
    # the apply's reply is read all the same, and the next case runs on the same engine.
    status, report, text = _run(
        run_conform, monkeypatch, None, "--only", "round.hokum.doubled-success",
        "--only", "bid.legal.first-bidder", FAKE_WRONG_ACTOR="raising",
    )
    assert status == exit_status.FAILURES
    by = {case["id"]: case for case in report["cases"]}
    assert by["round.hokum.doubled-success"]["status"] == "failed"
    assert by["bid.legal.first-bidder"]["status"] == "passed"
    assert "engine started 1 time(s)" in " ".join(text.split())


def test_the_legal_and_the_apply_of_a_named_seat_go_together() -> None:
    class Logged(InProcessEngine):
        """An engine that takes no batches (its hello leaves `batch` out)."""

        def __init__(self) -> None:
            super().__init__()
            self.log: list[str] = []

        def start(self) -> dict[str, Any]:
            reply = {k: v for k, v in super().start().items() if k != "batch"}
            self.hello = reply
            return reply

        def post(self, message: dict[str, Any]) -> None:
            self.log.append(f"post {message['type']}")
            super().post(message)

        def collect(
            self, timeout: float | None = None, *, lines: list[bytes] | None = None
        ) -> dict[str, Any]:
            self.log.append("collect")
            return super().collect(timeout, lines=lines)

    pack, _ = lint_pack(PACK)
    case = next(c for c in pack.cases if c.id == "round.hokum.doubled-success")
    engine = Logged()
    outcome = Runner(engine, load_register(), profile="literal").run_case(case)
    assert outcome.status == "passed", outcome.message
    pair = ["post legal", "post apply", "collect", "collect"]
    pairs = sum(1 for i in range(len(engine.log)) if engine.log[i:i + 4] == pair)
    seated = sum(1 for step in case.actions if isinstance(step, str) and ":" in step)
    assert pairs == seated > 0


def test_the_named_seats_in_a_row_go_in_batches_to_an_engine_that_takes_them() -> None:
    class Logged(InProcessEngine):
        def __init__(self) -> None:
            super().__init__()
            self.batches: list[list[str]] = []

        def request(self, message: dict[str, Any], timeout: float | None = None
                    ) -> dict[str, Any]:
            if message["type"] == "batch":
                self.batches.append([r["type"] for r in message["requests"]])
            return super().request(message, timeout)

    pack, _ = lint_pack(PACK)
    case = next(c for c in pack.cases if c.id == "round.hokum.doubled-success")
    engine = Logged()
    outcome = Runner(engine, load_register(), profile="literal").run_case(case)
    assert outcome.status == "passed", outcome.message
    seated = sum(1 for step in case.actions if isinstance(step, str) and ":" in step)
    # each batch is a run of steps, each its legal then its apply
    assert all(b == ["legal", "apply"] * (len(b) // 2) for b in engine.batches)
    assert 0 < len(engine.batches) < seated
    assert sum(len(b) // 2 for b in engine.batches) <= seated


def test_an_engine_that_does_not_ask_pass_only_turns_passes(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    everything_else = sorted(set(CAPABILITIES) - {"pass_only_turns"})
    status, report, _ = _run(
        run_conform, monkeypatch, {"capabilities": everything_else}, "--only", "*earlier*",
        FAKE_SKIP_PASS_ONLY="1",
    )
    by = _by_status(report)
    assert status == exit_status.OK
    assert len(by["passed"]) >= 2 and not by.get("failed")
    # the cases that check a pass-only turn cannot be shown by such an engine
    assert by["unsupported"] and all(
        c["lacking"] == ["pass_only_turns"] for c in by["unsupported"]
    )


def test_a_run_that_checks_nothing_fails_with_the_reason(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, report, text = _run(
        run_conform, monkeypatch, {"capabilities": []}, "--only", "round.hokum.doubled-success"
    )
    assert status == exit_status.NOTHING_CHECKED
    assert report["cases"][0]["status"] == "unsupported"
    assert "no case was checked" in " ".join(text.split())
    monkeypatch.delenv("FAKE_HELLO")
    status, _, text = _run(run_conform, monkeypatch, None, "--only", "BID.*",
                           "--min-checked", "1000")
    assert status == exit_status.NOTHING_CHECKED
    assert "fewer than --min-checked 1000" in " ".join(text.split())


def test_an_unreadable_hello_is_a_handshake_failure(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    status, report, text = _run(
        run_conform, monkeypatch, {"capabilities": ["telepathy"]}, "--only", "BID.*"
    )
    assert status == exit_status.ENGINE_DID_NOT_START
    assert report["declaration_error"].startswith("capabilities: unknown telepathy")
    assert {c["status"] for c in report["cases"]} == {"errored"}
    assert "handshake" in " ".join(text.split())
