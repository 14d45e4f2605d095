"""The mutant engines: the catalogue applies to the current spec; the pack kills every mutant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.harness.clauses import known_clause_ids
from baloot.conformance.mutants.build import (
    MutationError,
    apply_patch,
    build_mutant,
    runtime_dir,
    spec_dir,
)
from baloot.conformance.mutants.catalogue import MUTANTS, Mutant, by_name
from baloot.conformance.mutants.run import KillReport, mutant_kills_folder, run_mutants


def test_the_catalogue_has_thirty_mutants_each_one_bug_of_a_real_clause() -> None:
    assert len(MUTANTS) >= 30
    assert len(by_name()) == len(MUTANTS), "mutant names are unique"
    known = known_clause_ids()
    for m in MUTANTS:
        assert m.name.isidentifier(), m.name
        assert m.clause in known, (m.name, m.clause)
        assert m.description and m.old != m.new


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_each_snippet_is_found_exactly_once(mutant: Mutant) -> None:
    folder = runtime_dir() if mutant.is_runtime else spec_dir()
    text = (folder / mutant.file).read_text(encoding="utf-8")
    assert apply_patch(text, mutant) != text


def test_a_snippet_gone_from_the_spec_fails_loudly(tmp_path: Path) -> None:
    gone = Mutant("gone", "SCORE.2", "no such text", "scoring.baloot", "const nowhere = 7", "x")
    with pytest.raises(MutationError, match=r"not found in scoring\.baloot"):
        build_mutant(gone, cache=tmp_path)
    twice = Mutant("twice", "SCORE.2", "ambiguous", "scoring.baloot", "rule", "x")
    with pytest.raises(MutationError, match=r"found \d+ times"):
        apply_patch("rule a\nrule b\n", twice)


@pytest.fixture(scope="session")
def kill_report() -> KillReport:
    """The whole catalogue against the pack, each mutant stopped at its first kill."""
    return run_mutants(jobs=2, first_failure=True)


def test_every_mutant_is_killed(kill_report: KillReport) -> None:
    problems = {v.mutant.name: v.problem for v in kill_report.verdicts if v.problem}
    assert not problems
    survivors = [f"{v.mutant.name} ({v.mutant.clause})" for v in kill_report.survivors]
    assert not survivors, (
        "mutants no case kills: write the missing case in conformance/cases/mutant_kills/: "
        + ", ".join(survivors)
    )
    assert kill_report.kill_rate == 1.0
    # a mutant is one rule bug: it is killed by what it answers, never by crashing
    crashed = {v.mutant.name: v.why for v in kill_report.verdicts
               if any("Error" in line for line in v.why.values())}
    assert not crashed


def test_equivalent_mutants_are_said_why(kill_report: KillReport) -> None:
    for v in kill_report.verdicts:
        if v.mutant.equivalent:
            assert len(v.mutant.equivalent) > 40


def test_the_mutant_kill_cases_pass_on_the_reference(kill_report: KillReport) -> None:
    ours = {
        case["id"]
        for path in mutant_kills_folder().glob("*.json")
        for case in json.loads(path.read_text())["cases"]
    }
    assert ours, "conformance/cases/mutant_kills/ holds cases"
    assert not ours & set(kill_report.reference_failures)


def test_the_command_prints_the_kill_table(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_main(
        [
            "conform",
            "mutants",
            "--only",
            "follow_suit_not_enforced",
            "--first-failure",
            "--jobs",
            "1",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "follow_suit_not_enforced" in out and "PLAY.2" in out and "kill rate 100%" in out
    assert cli_main(["conform", "mutants", "--list"]) == 0
    assert "trump_nine_over_jack" in capsys.readouterr().out
