"""A case's `alternatives` (CASES.md): read, linted, played by the runner for an engine
that does not implement the case's own pins, checked by `conform pins`, and derived
from the reference engine by `conform derive`.

The case: dealer 3, so seat 0 bids first; seat 0 calls sun. Under A2 last_caller_wins
(the case's pin) seat 1 may pass or take the sun over; under earlier_seat_priority a
seat later in the bidding order than the holder gets `pass` alone, and after the first
bidder's sun every answer is pass-only (PROTOCOL.md, "Sun overcalls"); under
sun_ends_bidding the call ends the bidding: nobody answers it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.conformance.harness import exit_status
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Problem
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools.pins import check_cases

from .conftest import legal_case, write_pack

AFTER_SUN: dict[str, Any] = {"actions": ["0: sun"],
                             "expect": {"player": 1, "actions": ["pass", "sun"]},
                             "requires": {"sun_overcall": "last_caller_wins"}}
EARLIER: dict[str, Any] = {"origin": "hand_worked",
                           "requires": {"sun_overcall": "earlier_seat_priority"},
                           # a legal set of `pass` alone: only an engine asking such turns
                           "capabilities": ["pass_only_turns"],
                           "expect": {"player": 1, "actions": ["pass"]}}
# federation plays earlier_seat_priority; one reading per variant (no `readings`)
FEDERATION_ONLY = {"profile": "federation", "readings": None}


def _case(case_id: str = "after-sun", **fields: Any) -> dict[str, Any]:
    return legal_case(case_id, **{**AFTER_SUN, **fields})


def _problems(tmp_path: Path, case: dict[str, Any]) -> list[Problem]:
    _, problems = lint_pack(write_pack(tmp_path / "pack", [case]))
    return problems


# ------------------------------------------------------------------ reading --


def test_an_alternative_is_read_and_replaces_what_it_names(tmp_path: Path) -> None:
    pack, problems = lint_pack(write_pack(tmp_path / "pack", [_case(alternatives=[
        EARLIER, {"origin": "derived", "requires": {"sun_overcall": "sun_ends_bidding"},
                  "capabilities": ["raises"]}])]))
    assert problems == []
    (case,) = pack.cases
    first, second = case.alternatives
    assert first.requires == {"sun_overcall": ("earlier_seat_priority",)}
    assert (first.origin, first.actions, first.then) == ("hand_worked", None, None)
    played = case.alternative(0)
    assert played.requires == {"sun_overcall": "earlier_seat_priority"}
    assert played.expect == {"player": 1, "actions": ["pass"]}
    assert played.actions == case.actions and played.alternatives == ()
    # a part left out is the case's own; capabilities replaced
    assert case.alternative(1).expect == case.expect
    assert case.alternative(1).capabilities == ("raises",)
    assert second.describe() == "sun_overcall=sun_ends_bidding"


@pytest.mark.parametrize(("alternative", "message"), [
    ({"requires": {"sun_overcall": "earlier_seat_priority"}}, "'origin' is a required"),
    ({"origin": "derived"}, "'requires' is a required"),
    ({"origin": "derived", "requires": {}}, "should be non-empty"),
    ({"origin": "guessed", "requires": {"sun_overcall": "sun_ends_bidding"}},
     "is not one of ['derived', 'hand_worked']"),
    ({**EARLIER, "expect": {"result": {}}}, "'actions' is a required property"),
    ({**EARLIER, "then": [{"deck": [], "actions": []}]}, "should not be valid"),
    ({**EARLIER, "note": "why"}, "Additional properties are not allowed ('note'"),
    # a script-only entry has its own script, and nothing after it
    ({"origin": "derived", "requires": {"sun_overcall": "sun_ends_bidding"},
      "script_only": True}, "'actions' is a required property"),
    ({**EARLIER, "actions": ["0: sun"], "script_only": True}, "should not be valid"),
    ({"origin": "derived", "requires": {"sun_overcall": "sun_ends_bidding"},
      "actions": ["0: sun"], "script_only": False}, "True was expected"),
])
def test_the_schema_refuses_a_bad_alternative(tmp_path: Path, alternative: dict[str, Any],
                                              message: str) -> None:
    problems = _problems(tmp_path, _case(alternatives=[alternative]))
    assert problems, "accepted"
    assert all(p.case == "after-sun" for p in problems)
    assert any(message in p.message and "alternatives/0" in p.message for p in problems), \
        [str(p) for p in problems]


@pytest.mark.parametrize(("alternative", "where", "message"), [
    ({**EARLIER, "requires": {"sun_overcal": "sun_ends_bidding"}},
     "alternatives[0].requires.sun_overcal", "no variant named 'sun_overcal'"),
    ({**EARLIER, "requires": {"sun_overcall": "first_come"}},
     "alternatives[0].requires.sun_overcall", "has no reading 'first_come'"),
    # inside the case's own pins: a runner never plays it
    ({**EARLIER, "requires": {"sun_overcall": "last_caller_wins", "rounding": "each_team"}},
     "alternatives[0].requires", "never this one"),
    ({**EARLIER, "actions": ["0: sunn"]}, "alternatives[0].actions[0]", ""),
    ({**EARLIER, "actions": ["sun"]}, "alternatives[0].actions[0]", "names no seat"),
    ({**EARLIER, "expect": {"player": 1, "actions": ["pass", "pass"]}},
     "alternatives[0].expect.actions", "listed twice"),
])
def test_the_linter_refuses_a_bad_alternative(tmp_path: Path, alternative: dict[str, Any],
                                              where: str, message: str) -> None:
    problems = _problems(tmp_path, _case(alternatives=[alternative]))
    assert any(p.where == where and message in p.message for p in problems), \
        [str(p) for p in problems]
    assert all(str(p).startswith("cases.json: case 'after-sun': ") for p in problems)


# ------------------------------------------------------------------ running --


def _by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {case["id"]: case for case in report["cases"]}


def test_an_engine_of_one_reading_plays_the_alternative_for_it(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    wrong = {**EARLIER, "expect": {"player": 1, "actions": ["pass", "sun"]}}
    pack = write_pack(tmp_path / "pack", [
        _case("right", alternatives=[
            {"origin": "hand_worked", "requires": {"sun_overcall": "sun_ends_bidding"},
             "expect": {"player": 2, "actions": ["pass"]}},
            EARLIER]),
        _case("wrong", alternatives=[wrong]),
        _case("none"),
    ])
    monkeypatch.setenv("FAKE_HELLO", json.dumps(FEDERATION_ONLY))
    status, report, text = run_conform("reference_with", pack)
    by = _by_id(report)
    assert status == exit_status.FAILURES
    # the first alternative whose pins the engine implements: the second here
    assert by["right"]["status"] == "passed"
    assert by["right"]["alternative"] == {
        "index": 1, "requires": {"sun_overcall": "earlier_seat_priority"}}
    assert by["right"]["requires"] == {"sun_overcall": "last_caller_wins"}  # the case's own
    # a wrong alternative fails, and says it was the one played
    assert by["wrong"]["status"] == "failed"
    assert by["wrong"]["message"].startswith(
        "played as alternatives[0] (sun_overcall=earlier_seat_priority): ")
    assert by["wrong"]["message"].endswith("legal actions differ: missing sun")
    assert by["wrong"]["alternative"]["index"] == 0
    # without an alternative the engine implements, skipped as before
    assert by["none"]["status"] == "skipped" and by["none"]["alternative"] is None
    assert by["none"]["lacking"] == ["sun_overcall=last_caller_wins"]
    assert "played as alternatives[0]" in " ".join(text.split())


def test_an_engine_implementing_the_case_pins_plays_the_case(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # literal plays last_caller_wins: the case's own expectation, even with a wrong
    # alternative beside it
    pack = write_pack(tmp_path / "pack", [_case(alternatives=[
        {**EARLIER, "expect": {"player": 3, "actions": ["hokum"]}}])])
    monkeypatch.setenv("FAKE_HELLO", json.dumps({"profile": "literal", "readings": None}))
    status, report, _ = run_conform("reference_with", pack)
    assert status == exit_status.OK
    (case,) = report["cases"]
    assert (case["status"], case["alternative"]) == ("passed", None)


# Under sun_ends_bidding seat 0's sun ends the bidding; with no totals the sun raises'
# gate is shut (RAISE.3), so the round goes straight to the play, seat 0 to lead.
SUN_ENDS = {"origin": "derived", "requires": {"sun_overcall": "sun_ends_bidding"},
            "script_only": True}


def test_a_script_only_alternative_stops_after_its_script(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pack = write_pack(tmp_path / "pack", [
        # the case's own check (seat 1 asked) is not made: only the script's
        _case("stops", alternatives=[{**SUN_ENDS, "actions": [
            "0: sun", {"expect_state": {"phase": "playing"}}]}]),
        _case("checks", alternatives=[{**SUN_ENDS, "actions": [
            "0: sun", {"expect_state": {"phase": "bidding"}}]}]),
    ])
    monkeypatch.setenv("FAKE_HELLO", json.dumps({
        "profile": "literal", "overrides": {"sun_overcall": "sun_ends_bidding"},
        "readings": None}))
    status, report, _ = run_conform("reference_with", pack)
    by = _by_id(report)
    assert status == exit_status.FAILURES
    assert by["stops"]["status"] == "passed" and by["stops"]["alternative"]["index"] == 0
    assert by["checks"]["status"] == "failed"
    assert "actions[1]: state differs" in by["checks"]["message"]


def test_pins_checks_each_alternative(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALOOT_CACHE_DIR", "off")
    pack, problems = lint_pack(write_pack(tmp_path / "pack", [
        _case("right", alternatives=[EARLIER]),
        _case("wrong", alternatives=[{**EARLIER, "expect": {"player": 2, "actions": ["pass"]}}]),
    ]))
    assert problems == []
    register = load_register()
    right, wrong = check_cases(list(pack.cases), register, list(register.profiles))
    assert right.alternatives == [(True, "")] and right.failing_alternatives() == []
    (line,) = wrong.failing_alternatives()
    assert line.startswith("alternatives[0] (sun_overcall=earlier_seat_priority): fails")
    assert "player 1 instead of 2" in line


# ----------------------------------------------------------------- deriving --


def test_derive_writes_the_alternatives_and_check_finds_a_stale_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = write_pack(tmp_path / "pack", [_case()])
    path = pack / "cases.json"
    assert main(["conform", "derive", "--cases", str(pack), "--jobs", "1", "--check"]) == 1
    assert "stale: cases.json" in capsys.readouterr().out
    assert main(["conform", "derive", "--cases", str(pack), "--jobs", "1"]) == 0
    written = path.read_text(encoding="utf-8")
    (case,) = json.loads(written)["cases"]
    by_reading = {json.dumps(a["requires"]["sun_overcall"]): a for a in case["alternatives"]}
    assert all(a["origin"] == "derived" for a in case["alternatives"])
    # worked out from the rules (the module's description)
    assert by_reading['"earlier_seat_priority"']["expect"] == {
        "player": 1, "actions": ["pass"]}
    # sun_ends_bidding: the bidding is over; seat 0 (the dealer's right, and the bid
    # winner: the first leader under either A16 reading) plays, holding 7S-JS dealt
    # first and the face-up JD with QD, KD
    ends = by_reading['"sun_ends_bidding"']["expect"]
    assert ends["player"] == 0
    plays = {a for a in ends["actions"] if a.startswith("play ")}
    assert plays == {f"play {c}" for c in ("7S", "8S", "9S", "10S", "JS", "JD", "QD", "KD")}
    assert all(a.startswith(("play ", "declare ")) for a in ends["actions"])
    # byte for byte the same again; `--check` passes
    assert main(["conform", "derive", "--cases", str(pack), "--jobs", "1"]) == 0
    assert path.read_text(encoding="utf-8") == written
    assert main(["conform", "derive", "--cases", str(pack), "--jobs", "1", "--check"]) == 0
    # a derived value edited by hand is stale
    data = json.loads(written)
    tampered = copy.deepcopy(data)
    alt = next(a for a in tampered["cases"][0]["alternatives"] if "expect" in a)
    alt["expect"]["player"] = 3
    path.write_text(json.dumps(tampered, indent=2), encoding="utf-8")
    capsys.readouterr()
    assert main(["conform", "derive", "--cases", str(pack), "--jobs", "1", "--check"]) == 1
    assert "stale: cases.json" in capsys.readouterr().out


def test_derive_writes_a_script_only_alternative_where_the_readings_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BALOOT_CACHE_DIR", "off")
    # seat 1 passes the sun, and seat 2 is asked: under sun_ends_bidding nobody answers
    # a sun, so the script's `1: pass` is not seat 1's to make: seat 0 leads instead
    # (the bid winner and the dealer's right, the first leader under either A16 reading)
    pack = write_pack(tmp_path / "pack", [_case(
        actions=["0: sun", "1: pass"], expect={"player": 2, "actions": ["pass", "sun"]})])
    assert main(["conform", "derive", "--cases", str(pack), "--jobs", "1"]) == 0
    (case,) = json.loads((pack / "cases.json").read_text(encoding="utf-8"))["cases"]
    (ends,) = [a for a in case["alternatives"]
               if a["requires"]["sun_overcall"] == "sun_ends_bidding"]
    assert ends["script_only"] is True and "expect" not in ends
    first, check = ends["actions"]
    assert first == "0: sun"
    assert check["expect_legal"]["player"] == 0
    plays = {a for a in check["expect_legal"]["actions"] if a.startswith("play ")}
    assert plays == {f"play {c}" for c in ("7S", "8S", "9S", "10S", "JS", "JD", "QD", "KD")}
    # the pack with it lints, and the reference passes it under those readings
    pack_read, problems = lint_pack(pack)
    assert problems == []
    (checked,) = check_cases(list(pack_read.cases), load_register(), ["literal", "federation"])
    assert checked.failing_alternatives() == []


def test_derive_keeps_hand_worked_alternatives_and_leaves_generated_cases(
    tmp_path: Path
) -> None:
    witness = _case("witness", origin="witness")
    pack = write_pack(tmp_path / "pack", [_case(alternatives=[EARLIER]), witness])
    assert main(["conform", "derive", "--cases", str(pack), "--jobs", "1"]) == 0
    own, kept = json.loads((pack / "cases.json").read_text(encoding="utf-8"))["cases"]
    assert own["alternatives"][0] == EARLIER
    derived = [a["requires"]["sun_overcall"] for a in own["alternatives"][1:]]
    assert "earlier_seat_priority" not in derived and "sun_ends_bidding" in derived
    assert kept == witness


def test_derive_files_must_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = write_pack(tmp_path / "pack", [_case()])
    assert main(["conform", "derive", "--cases", str(pack), "--files", "*/cases.json",
                 "--check"]) == 2
    assert "--files matches no case file: */cases.json" in capsys.readouterr().out


def test_needs_replays_each_alternative(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    # under sun_ends_bidding nobody answers the sun: seat 1's pass is not asked for
    ends = {"origin": "hand_worked", "requires": {"sun_overcall": "sun_ends_bidding"},
            "actions": ["0: sun", "1: pass"], "expect": {"player": 1, "actions": ["pass"]}}
    good = write_pack(tmp_path / "good", [_case(alternatives=[EARLIER])])
    assert main(["conform", "needs", "--cases", str(good), "--jobs", "1"]) == 0
    no_capability = {k: v for k, v in EARLIER.items() if k != "capabilities"}
    bad = write_pack(tmp_path / "bad", [_case(alternatives=[no_capability, ends])])
    capsys.readouterr()
    assert main(["conform", "needs", "--cases", str(bad), "--jobs", "1"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert ("after-sun: alternatives[0]: capabilities [] but the script needs "
            "['pass_only_turns']") in out
    assert "after-sun: alternatives[1]: the script does not play through" in out
