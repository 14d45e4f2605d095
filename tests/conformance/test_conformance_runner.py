"""Runner features: selection, readings and skips, xfail, report files,
refusals that change the state, notation and the dealing convention."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.conformance.harness.deal_layout import deck_for_hands, first_hands, full_hands
from baloot.conformance.harness.protocol_notation import ALL_CARDS, NotationError, parse_action
from baloot.conformance.harness.xfail import XfailFileError, read_xfail_file


def test_only_by_id_and_by_clause_glob(
    run_conform: Any, tmp_path: Path, make_case: Any, make_pack: Any
) -> None:
    pack = make_pack(tmp_path / "p", [make_case("a1"), make_case("b1", clauses=["SCORE.7"])])
    _, report, _ = run_conform("good", pack, "--only", "b1")
    assert [c["id"] for c in report["cases"]] == ["b1"]
    _, report, _ = run_conform("good", pack, "--only", "SCORE.*")
    assert [c["id"] for c in report["cases"]] == ["b1"]
    assert report["by_family"]["SCORE"]["passed"] == 1
    assert main(["conform", "--engine", "x", "--cases", str(pack), "--only", "nothing"]) == 2


def test_cases_needing_unimplemented_readings_are_skipped(
    run_conform: Any, tmp_path: Path, make_case: Any, make_pack: Any
) -> None:
    pack = make_pack(
        tmp_path / "p",
        [
            make_case("implemented", requires={"rounding": "bidder_takes_rest"}),
            make_case("not-implemented", requires={"rounding": "adjusted_to_total"}),
        ],
    )
    status, report, _text = run_conform("good", pack)
    assert status == 0
    assert report["cases"][0]["status"] == "passed"
    assert report["cases"][1]["status"] == "skipped"
    assert "rounding=adjusted_to_total" in report["cases"][1]["message"]
    _, report, _ = run_conform("good", pack, "--profile", "federation")
    assert {c["status"] for c in report["cases"]} == {"skipped"}  # the fake is literal only


def test_xfail_list(run_conform: Any, tmp_path: Path, make_case: Any, make_pack: Any) -> None:
    wrong = make_case("wrong", expect={"player": 0, "actions": ["pass"]})
    pack = make_pack(tmp_path / "p", [make_case("right"), wrong])
    xfail = tmp_path / "xfail.txt"
    xfail.write_text(
        "# known\nwrong  the fake knows too many bids\nright  listed but fine\nghost gone\n"
    )
    status, report, text = run_conform("good", pack, "--xfail", str(xfail))
    assert status == 0
    by_id = {c["id"]: c for c in report["cases"]}
    assert by_id["wrong"]["status"] == "xfailed" and by_id["wrong"]["raw_status"] == "failed"
    assert by_id["right"]["status"] == "xpassed"
    assert report["unknown_xfails"] == ["ghost"]
    assert "take it off the list" in text


def test_xfail_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "x.txt"
    bad.write_text("only-an-id\n")
    with pytest.raises(XfailFileError, match=r"x.txt:1: .*reason is required"):
        read_xfail_file(bad)
    assert main(["conform", "--engine", "x", "--xfail", str(tmp_path / "missing.txt")]) == 2


def test_failure_report_has_diff_clause_and_rerun(
    run_conform: Any, tmp_path: Path, make_case: Any, make_pack: Any
) -> None:
    pack = make_pack(
        tmp_path / "p", [make_case("wrong", expect={"player": 1, "actions": ["pass"]})]
    )
    status, report, _text = run_conform("good", pack, "--junit", str(tmp_path / "j.xml"))
    assert status == 1
    case = report["cases"][0]
    assert case["status"] == "failed" and case["clauses"] == ["BID.2"]
    assert "unexpected hokum, sun" in case["message"] and "player 0 instead of 1" in case["message"]
    assert '-  "player": 1' in case["diff"] and '+  "player": 0' in case["diff"]
    assert case["rerun"].startswith("baloot conform --engine") and "--only wrong" in case["rerun"]
    suite = ET.parse(tmp_path / "j.xml").getroot()
    assert suite.get("failures") == "1"
    assert suite.find("testcase/failure") is not None


def test_illegal_case_checks_refusal(
    run_conform: Any, tmp_path: Path, make_case: Any, make_pack: Any
) -> None:
    refused = make_case("refused", kind="illegal", expect={"action": "ashkal"})
    accepted = make_case("accepted", kind="illegal", expect={"action": "pass"})
    _, report, _ = run_conform("good", make_pack(tmp_path / "p", [refused, accepted]))
    assert report["cases"][0]["status"] == "passed"
    assert report["cases"][1]["status"] == "failed"
    assert "was accepted" in report["cases"][1]["message"]


def test_usage_errors_are_messages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform"]) == 2
    assert main(["conform", "--engine", "'unclosed"]) == 2
    assert main(["conform", "--engine", "x", "--profile", "nope"]) == 2
    assert main(["conform", "--engine", "x", "--timeout", "0"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "no profile 'nope'" in err


@pytest.mark.parametrize(
    "good",
    [
        "pass",
        "hokum",
        "hokum S",
        "sun",
        "ashkal",
        "double",
        "double closed",
        "triple",
        "triple open",
        "four",
        "four closed",
        "gahwa",
        "play 10S",
        "declare sira 9H 8H 7H",
    ],
)
def test_actions_parse(good: str) -> None:
    parse_action(good)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "Pass",
        "play",
        "play 1S",
        "hokum X",
        "declare sira",
        "declare trio 7S 8S 9S",
        "gahwa closed",  # gahwa is never called closed or open (A10)
        "triple shut",
        "play  7S",
    ],
)
def test_bad_actions_say_what_was_expected(bad: str) -> None:
    with pytest.raises(NotationError, match="expected"):
        parse_action(bad)


def test_dealing_convention_round_trips() -> None:
    deck = list(ALL_CARDS)
    hands = full_hands(deck, dealer=3, taker=1)
    assert first_hands(deck, 3)[0] == deck[0:5]  # seat 0 is the dealer's right
    assert hands[1][5] == deck[20]  # the taker gets the face-up card
    assert deck_for_hands(hands, dealer=3, taker=1) == deck
    assert json.dumps(sorted(c for h in hands for c in h)) == json.dumps(sorted(ALL_CARDS))


def test_optional_state_fields_the_engine_leaves_out_are_not_checked(
    run_conform: Any, tmp_path: Path, make_case: Any, make_pack: Any
) -> None:
    # The fake engine's state has only the required fields (PROTOCOL.md): no `locked`.
    unsent = make_case("unsent-optional", expect={"player": 0, "actions": ["pass", "hokum", "sun"],
                                                  "state": {"phase": "bidding", "locked": True}})
    wrong = make_case("wrong-required", expect={"player": 0, "actions": ["pass", "hokum", "sun"],
                                                "state": {"phase": "bidding", "multiplier": 2}})
    status, report, _ = run_conform("good", make_pack(tmp_path / "p", [unsent, wrong]))
    by_id = {c["id"]: c for c in report["cases"]}
    assert by_id["unsent-optional"]["status"] == "passed"
    assert by_id["wrong-required"]["status"] == "failed" and status == 1


def test_without_unsent_keeps_what_the_engine_sent() -> None:
    from baloot.conformance.harness.compare import without_unsent
    from baloot.conformance.protocol.fields import optional_state_fields

    optional = optional_state_fields()
    assert "locked" in optional[""] and optional["contract"] == ("ashkal",)
    expected = {"locked": True, "multiplier": 2,
                "contract": {"kind": "sun", "bidder": 0, "ashkal": True}}
    sent_without = {"multiplier": 1, "contract": {"kind": "sun", "bidder": 0, "trump": None}}
    assert without_unsent(expected, sent_without) == {
        "multiplier": 2, "contract": {"kind": "sun", "bidder": 0}}
    sent_with = {"locked": False, "multiplier": 1,
                 "contract": {"kind": "sun", "bidder": 0, "trump": None, "ashkal": False}}
    assert without_unsent(expected, sent_with) == expected  # sent: checked
