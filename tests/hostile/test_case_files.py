"""Numbers in a pack are whole numbers, written as such: JSON Schema takes 1.0 for the
integer 1, and NaN, 1e400 or a number of 5,000 digits once escaped the reader as other
exceptions; each is now a problem at its place. And a refusal or a hand an engine writes
in a shape the runner and the fuzzer cannot read is an error, not a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.fuzz.normal import normal_legal, normal_state
from baloot.conformance.harness.engine_process import EngineError, EngineProcess
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.protocol_notation import ALL_CARDS

CASE: dict[str, Any] = {
    "id": "c1", "kind": "legal", "title": "the first bidder's options", "clauses": ["BID.2"],
    "setup": {"dealer": 3, "deck": list(ALL_CARDS)}, "actions": [],
    "expect": {"player": 0, "actions": ["pass", "hokum", "sun"]},
}


def _pack(folder: Path, case_text: str, manifest: str | None = None) -> Path:
    folder.mkdir()
    (folder / "pack.json").write_text(
        manifest or json.dumps({"name": "p", "version": "1.0.0", "protocol": 1}))
    (folder / "cases.json").write_text(case_text)
    return folder


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('"dealer": 3', '"dealer": 3.0', "at setup/dealer: 3.0 is not a whole number (write 3)"),
        ('"player": 0', '"player": 0.0', "at expect/player: 0.0 is not a whole number"),
        ('"dealer": 3', '"dealer": NaN', "not valid JSON: NaN is not a JSON number"),
        ('"dealer": 3', '"dealer": 1e400', "not valid JSON: 1e400 is too large a number"),
        ('"dealer": 3', '"dealer": ' + "9" * 5000, "a number of more than 4300 digits"),
    ],
)
def test_a_number_that_is_no_whole_number_is_a_problem_at_its_place(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    text = json.dumps({"cases": [CASE]})
    assert old in text
    pack, problems = lint_pack(_pack(tmp_path / "p", text.replace(old, new)))
    assert expected in "\n".join(map(str, problems))
    assert pack.cases == []


def test_a_fraction_in_the_manifest_is_a_problem(tmp_path: Path) -> None:
    manifest = json.dumps({"name": "p", "version": "1.0.0", "protocol": 1.0})
    _, problems = lint_pack(_pack(tmp_path / "p", json.dumps({"cases": [CASE]}), manifest))
    assert "pack.json: at protocol: 1.0 is not a whole number (write 1)" in map(str, problems)


@pytest.mark.parametrize("refused", [3, "no", [1], {"clauses": "BID.2"}])
def test_a_refusal_the_runner_cannot_read_is_a_schema_error(refused: object) -> None:
    line = json.dumps({"seq": 1, "ok": False, "refused": refused}).encode("utf-8")
    with pytest.raises(EngineError) as error:
        EngineProcess(["unused"])._check_reply({"seq": 1, "type": "apply"}, line)
    assert error.value.reason == "schema" and "'refused' is not an object" in error.value.detail


@pytest.mark.parametrize("actions", [1.5, "pass", {"a": 1}])
def test_legal_actions_that_are_no_list_are_a_difference_not_a_crash(actions: object) -> None:
    assert normal_legal({"player": 0, "actions": actions}) == {"player": 0,
                                                               "actions": [repr(actions)]}


def test_a_hand_of_things_that_do_not_compare_is_compared_not_a_crash() -> None:
    state = {"hands": [["7S", 3, None, ["x"]], []], "declarations": [{"cards": ["7S", 1]}]}
    normal = normal_state(state, ["hands", "declarations"])
    assert normal["hands"][0] == sorted(["7S", 3, None, ["x"]], key=json.dumps)


def test_a_manifest_that_is_no_utf8_is_a_problem_for_lint_and_the_runner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _pack(tmp_path / "p", json.dumps({"cases": [CASE]}))
    (folder / "pack.json").write_bytes(b'{"name": "caf\xe9", "version": "1.0.0", "protocol": 1}')
    _, problems = lint_pack(folder)
    assert any("pack.json: not UTF-8 text: byte 13 cannot be read" in str(p) for p in problems)
    assert cli_main(["conform", "--engine", "unused", "--cases", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "run `baloot conform lint`" in err and "Traceback" not in err
