"""The pack linter on the built-in pack and on broken case files."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import default_pack_folder


def test_builtin_pack_is_clean() -> None:
    pack, problems = lint_pack(default_pack_folder())
    assert problems == []
    assert len(pack.cases) >= 10
    assert {c.kind for c in pack.cases} >= {"legal", "illegal", "trick", "round"}


def test_lint_command_on_builtin_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "lint"]) == 0
    assert "baloot-core" in capsys.readouterr().out


def problems_for(tmp_path: Path, make_pack: Any, cases: list[dict[str, Any]]) -> list[str]:
    _, problems = lint_pack(make_pack(tmp_path / "pack", cases))
    return [str(p) for p in problems]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda c: c.update(clauses=["SCORE.99"]), "clauses[0]: 'SCORE.99' is not a clause ID"),
        (lambda c: c.update(clauses=[]), "should be non-empty"),
        (lambda c: c.update(requires={"rounding": "nearest"}), "has no reading 'nearest'"),
        (lambda c: c.update(requires={"A5": "each_team"}), "did you mean 'rounding'"),
        (lambda c: c["setup"]["deck"].pop(), "missing cards: AC"),
        (lambda c: c["setup"]["deck"].__setitem__(0, "7X"), "not card strings: '7X'"),
        (lambda c: c["setup"]["deck"].__setitem__(0, "8S"), "cards named twice: 8S"),
        (lambda c: c.update(actions=["play 11S"]), "actions[0]: action 'play 11S'"),
        (lambda c: c.update(actions=["bid sun"]), "actions[0]"),
        (lambda c: c["expect"].update(actions=["declare sira"]), "expect.actions[0]"),
        (lambda c: c.update(kind="trick"), "trick_winners"),
        (lambda c: c.pop("clauses"), "'clauses' is a required property"),
        (lambda c: c.update(id="Bad Id"), "does not match"),
        (lambda c: c.update(surprise=1), "Additional properties"),
        (lambda c: c["setup"].update(dealer=4), "4 is greater than the maximum of 3"),
    ],
)
def test_broken_case_is_reported_with_file_case_and_field(
    tmp_path: Path, make_case: Any, make_pack: Any, change: Any, expected: str
) -> None:
    case = copy.deepcopy(make_case("broken"))
    change(case)
    found = problems_for(tmp_path, make_pack, [make_case("fine"), case])
    assert found, "expected a problem"
    assert any(expected in p for p in found), found
    assert all(p.startswith("cases.json") for p in found)


def test_a_case_checked_again_gets_the_same_problems_and_an_edited_one_its_own(
    tmp_path: Path, make_case: Any, make_pack: Any
) -> None:
    # A process loads the pack many times and checks each unchanged case against the
    # schema once; a case edited between two loads is checked afresh.
    broken = copy.deepcopy(make_case("broken"))
    broken["setup"].update(dealer=4)
    first = problems_for(tmp_path / "one", make_pack, [broken])
    again = problems_for(tmp_path / "two", make_pack, [copy.deepcopy(broken)])
    assert first and again == first
    assert any("4 is greater than the maximum of 3" in p for p in first)
    broken["setup"].update(dealer=5)
    edited = problems_for(tmp_path / "three", make_pack, [broken])
    assert any("5 is greater than the maximum of 3" in p for p in edited)
    broken["setup"].update(dealer=2)
    assert problems_for(tmp_path / "four", make_pack, [broken]) == []


def test_a_pin_listing_every_reading_only_orders_them(
        tmp_path: Path, make_case: Any, make_pack: Any) -> None:
    # A19's two readings, bidder_team_wins first: no engine is skipped; one that has that
    # reading plays the case under it (CASES.md, "Which expectation a runner plays")
    every = make_case("every", requires={"both_reach_target": ["bidder_team_wins",
                                                               "higher_total_wins"]})
    twice = make_case("twice", requires={"both_reach_target": ["bidder_team_wins",
                                                               "bidder_team_wins"]})
    found = problems_for(tmp_path, make_pack, [every, twice])
    assert [p for p in found if "'every'" in p] == []
    assert any("'twice'" in p for p in found), found  # the schema's uniqueItems


def test_duplicate_ids(tmp_path: Path, make_case: Any, make_pack: Any) -> None:
    found = problems_for(tmp_path, make_pack, [make_case("same"), make_case("same")])
    assert any("duplicate id" in p and "'same'" in p for p in found)


def test_game_case_needs_then_and_others_may_not_have_it(
    tmp_path: Path, make_case: Any, make_pack: Any
) -> None:
    game = make_case("g", kind="game", expect={"result": {}})
    assert any(
        "'then' is a required property" in p for p in problems_for(tmp_path, make_pack, [game])
    )


def test_bad_json_names_line_and_column(tmp_path: Path, make_case: Any, make_pack: Any) -> None:
    folder = make_pack(tmp_path / "pack", [make_case("a")])
    (folder / "more.json").write_text('{"cases": [\n  {"id": "x",}\n]}')
    _, problems = lint_pack(folder)
    assert any("more.json" in str(p) and "line 2" in str(p) for p in problems)


def test_bad_manifest_and_missing_folder(tmp_path: Path, make_case: Any, make_pack: Any) -> None:
    folder = make_pack(tmp_path / "pack", [make_case("a")])
    (folder / "pack.json").write_text(json.dumps({"name": "x", "version": "one", "protocol": 1}))
    _, problems = lint_pack(folder)
    assert any("pack.json" in str(p) and "version" in str(p) for p in problems)
    _, problems = lint_pack(tmp_path / "nowhere")
    assert any("not a folder" in str(p) for p in problems)


def test_lint_command_exit_status_and_runner_refuses_a_broken_pack(
    tmp_path: Path, make_case: Any, make_pack: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = make_pack(tmp_path / "pack", [make_case("a", clauses=["NOPE.1"])])
    assert main(["conform", "lint", "--cases", str(folder)]) == 1
    assert "NOPE.1" in capsys.readouterr().out
    assert main(["conform", "--engine", "true", "--cases", str(folder)]) == 2
    assert "run `baloot conform lint`" in capsys.readouterr().err


def test_unreadable_files_are_problems_not_tracebacks(
    tmp_path: Path, make_case: Any, make_pack: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = make_pack(tmp_path / "p", [make_case("fine")])
    (pack / "null.json").write_text("null")
    (pack / "latin1.json").write_bytes(b'{"cases": [], "description": "caf\xe9"}')
    (pack / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    markup = make_case("markup", requires={"[/bold]": "x"})
    (pack / "markup.json").write_text(json.dumps({"cases": [markup]}))
    _, problems = lint_pack(pack)
    found = "\n".join(map(str, problems))
    assert 'null.json: expected an object {"cases": [...]}' in found
    assert "latin1.json: not UTF-8 text: byte 33 cannot be read" in found
    assert "deep.json: nested deeper than JSON can be read" in found
    assert main(["conform", "lint", "--cases", str(pack)]) == 1
    out = capsys.readouterr().out
    assert "no variant named '[/bold]'" in " ".join(out.split())  # printed as text, not markup
