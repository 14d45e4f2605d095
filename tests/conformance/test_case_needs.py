"""`baloot conform needs`: the seats, pass-only turns and capabilities of each
case, found by replaying it on the reference engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.conformance.harness.pack import case_from_json
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools.case_needs import case_needs

# Dealer 3, so seat 0 bids first; seat 0 takes the face-up 8H (conformance/harness/deal_layout.py).
# Hands after the deal: seat 0 9H 8H AS 7S AD 10D KC 7C; seat 1 AH QH KS 8S KD 7D AC 8C;
# seat 2 JH 7H 10S 9S QD 8D 10C 9C; seat 3 10H KH QS JS JD 9D QC JC (no projects).
DECK = ["9H", "AS", "7S", "AD", "10D", "AH", "QH", "KS", "8S", "KD", "JH", "7H", "10S", "9S",
        "QD", "10H", "KH", "QS", "JS", "JD", "8H", "KC", "7C", "7D", "AC", "8C", "8D", "10C",
        "9C", "9D", "QC", "JC"]


def _case(actions: list[Any], **fields: Any) -> dict[str, Any]:
    return {"id": "c", "kind": "trick", "title": "t", "clauses": ["BID.2"],
            "setup": {"dealer": 3, "deck": DECK}, "actions": actions,
            "expect": {"trick_winners": []}, **fields}


def _needs(raw: dict[str, Any]) -> Any:
    return case_needs(case_from_json(raw, "cases.json"), load_register())


def test_seats_come_from_the_order_of_play() -> None:
    # Dealer 3: seat 0 bids first, then 1, 2, 3; seat 0 stays in hokum.
    found = _needs(_case(["hokum", "pass", "pass", "pass", "hokum"]))
    assert found.steps == [["0: hokum", "1: pass", "2: pass", "3: pass", "0: hokum"]]


def test_raising_passes_become_a_repeat_and_need_no_raises() -> None:
    # After the hokum, the opponents (seats 1 and 3) are asked to double; both pass.
    found = _needs(_case(["hokum", "pass", "pass", "pass", "hokum", "pass", "pass"]))
    assert found.steps[0][-1] == {"repeat": "pass", "while_phase": "raising"}
    assert "raises" not in found.capabilities
    # A double is a raise: the case needs the raising phase.
    found = _needs(_case(["hokum", "pass", "pass", "pass", "hokum", "double"]))
    assert found.steps[0][-1] == "1: double" and "raises" in found.capabilities


def test_calls_name_their_capabilities() -> None:
    assert "ashkal" in _needs(_case(["pass", "pass", "ashkal"])).capabilities
    # Everyone passes twice: the second session, then the redeal (BID.7, BID.9).
    found = _needs(_case(["pass"] * 8))
    assert {"second_session", "redeal"} <= set(found.capabilities)
    assert "game_score" in _needs(_case(["pass"] * 8, kind="game", then=[
        {"deck": DECK, "actions": []}], expect={"result": {}})).capabilities
    found = _needs(_case([], kind="game", then=[{"deck": DECK, "actions": []}]))
    assert found.problem is not None and "then[0]: the deal is refused" in found.problem


def test_a_legal_check_of_only_pass_needs_pass_only_turns() -> None:
    assert _needs(_case([])).capabilities == []
    only_pass = {"kind": "legal", "expect": {"actions": ["pass"]}}
    assert "pass_only_turns" in _needs(_case([], **only_pass)).capabilities


def test_a_script_that_does_not_play_through_is_reported() -> None:
    found = _needs(_case(["play 9H"]))
    assert found.steps is None and "refused" in (found.problem or "")
    found = _needs(_case(["2: hokum"]))
    assert found.problem is not None and "the reference asks seat 0" in found.problem


def test_the_pack_is_consistent() -> None:
    assert main(["conform", "needs"]) == 0


def test_needs_reports_and_fixes_a_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pack.json").write_text(json.dumps({"name": "p", "version": "1", "protocol": 1}))
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [_case(["hokum", "pass", "pass", "pass", "hokum",
                                                  "double"])]}))
    assert main(["conform", "needs", "--cases", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "'hokum'; the reference plays it as '0: hokum'" in " ".join(out.split())
    assert "capabilities [] but the script needs ['raises']" in " ".join(out.split())
    assert main(["conform", "needs", "--cases", str(tmp_path), "--fix"]) == 0
    fixed = json.loads(cases.read_text())["cases"][0]
    assert fixed["actions"][-1] == "1: double" and fixed["capabilities"] == ["raises"]
    assert main(["conform", "needs", "--cases", str(tmp_path)]) == 0


def test_needs_in_workers_reports_as_in_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The replays run in workers; the report keeps the pack's order: a file that is no
    # case file, a case that needs fixing, a fine one, and one more to fix, in a second file.
    (tmp_path / "pack.json").write_text(json.dumps({"name": "p", "version": "1", "protocol": 1}))
    (tmp_path / "a_broken.json").write_text("[]")
    needs_raises = _case(["hokum", "pass", "pass", "pass", "hokum", "double"])
    fine = _case(["0: hokum", "1: pass", "2: pass", "3: pass"])
    fine["id"] = "fine-case"
    (tmp_path / "b_cases.json").write_text(json.dumps({"cases": [needs_raises, fine]}))
    other = _case(["hokum", "pass"])
    other["id"] = "other-case"
    (tmp_path / "c_cases.json").write_text(json.dumps({"cases": [other]}))
    reports = []
    for jobs in ("1", "2"):
        assert main(["conform", "needs", "--cases", str(tmp_path), "--jobs", jobs]) == 1
        reports.append(" ".join(capsys.readouterr().out.split()))
    assert reports[0] == reports[1]
    text = reports[0]
    assert text.index("a_broken.json") < text.index("b_cases.json") < text.index("c_cases.json")
    assert "fine-case" not in text and "other-case" in text
    assert main(["conform", "needs", "--cases", str(tmp_path), "--jobs", "-1"]) == 2
    assert "--jobs must be 0" in capsys.readouterr().err
