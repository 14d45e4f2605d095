"""`baloot verify`: a check that cannot run fails the run, a skipped one passes and is
reported as skipped, and `--check` catches stored outcomes that a run no longer gives."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

import pytest

from baloot.cli import proof_commands as commands
from baloot.cli.main import main
from baloot.grammar import model as m
from baloot.grammar.parser import load_spec
from baloot.proofs import invariants_file
from baloot.proofs.proof_outcome import GaveUp, ProofOutcome, guarded
from baloot.proofs.verify import run_all


@cache
def spec() -> m.Spec:
    return load_spec()


def with_rule_renamed(s: m.Spec, old: str, new: str) -> m.Spec:
    """The spec with a rule renamed where it is declared (its callers left alone, as
    a careless edit leaves them; `spec check` is not run on the copy)."""
    rules = tuple(dataclasses.replace(r, name=new) if r.name == old else r for r in s.rules)
    return dataclasses.replace(s, rules=rules)


def test_a_renamed_rule_makes_its_proof_fail(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    renamed = with_rule_renamed(spec(), "trick_winner", "trick_taker")
    outcomes = list(run_all(renamed, ["trick-winner"], jobs=1))
    assert outcomes and all(o.status == "not-checked" and o.failed for o in outcomes)
    assert "trick_winner" in outcomes[0].detail
    monkeypatch.setattr(commands, "load_spec", lambda _args: renamed)
    assert main(["verify", "--only", "trick-winner", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "could not run" in out and "trick_winner" in out


def test_a_proof_that_raises_or_gives_up_is_an_error() -> None:
    def gives_up() -> ProofOutcome:
        raise GaveUp("no maximum (unknown: max. resource limit exceeded)")

    def breaks() -> ProofOutcome:
        raise KeyError("suit")

    for body, words in ((gives_up, "z3 gave up"), (breaks, "KeyError")):
        outcome = guarded("c", "a claim", "sun", "any", body)
        assert outcome.status == "error" and outcome.failed and words in outcome.detail


def test_a_skipped_check_passes_and_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--only", "rank-*", "--skip", "rank-vs-value", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "skipped" in out and "rank-vs-value" in out and "proven" in out
    outcomes = list(run_all(spec(), ["rank-vs-value"], ["rank-vs-value"], jobs=1))
    assert [o.status for o in outcomes] == ["skipped"] and not outcomes[0].failed


def test_a_pattern_that_names_no_check_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--skip", "rank-ordre"]) == 2
    assert "no check matches 'rank-ordre'" in capsys.readouterr().err
    assert main(["verify", "--write", "--only", "rank-order"]) == 2


def test_verify_check_compares_with_the_stored_outcomes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stored = invariants_file.default_path()
    assert main(["verify", "--check", "--only", "rank-order", "--jobs", "1"]) == 0, \
        "run `baloot verify --write`"
    copy = tmp_path / "invariants.json"
    data = json.loads(stored.read_text(encoding="utf-8"))
    row = next(r for r in data["outcomes"] if r["check"].startswith("rank-order:"))
    row["detail"] = "8 members, strengths 0..6"
    copy.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", "--check", "--only", "rank-order", "--jobs", "1",
                 "--results", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "stale" in out and row["check"] in out


def test_the_stored_file_is_written_byte_for_byte(tmp_path: Path) -> None:
    outcomes = list(run_all(spec(), ["rank-order"], jobs=1))
    text = invariants_file.dumps(outcomes)
    assert text == invariants_file.dumps(list(run_all(spec(), ["rank-order"], jobs=2)))
    data = json.loads(text)
    assert data["format"] == 1 and data["command"] == "baloot verify --write"
    assert set(data["outcomes"][0]) == set(invariants_file.FIELDS)  # no timings
    path = tmp_path / "invariants.json"
    path.write_text(text, encoding="utf-8")
    assert list(invariants_file.stale_rows(path, outcomes, whole=True)) == []
    assert list(invariants_file.stale_rows(path, outcomes[1:], whole=True)) != []
