"""`baloot explore`: symbolic witnesses, equal readings, engine witnesses as cases,
the stored findings, and the staleness check that compares them with a fresh run."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest

from baloot.cli.main import main
from baloot.conformance.protocol.schemas import schema_errors
from baloot.explorer import explore, witnesses_file
from baloot.explorer.ambiguities_markdown import ambiguities_markdown
from baloot.explorer.explore_engine import SearchBound, replay
from baloot.explorer.explore_findings import Finding
from baloot.explorer.explore_symbolic import same_branch, symbolic_search
from baloot.explorer.witness_cases import CASE_FILE, witness_cases
from baloot.grammar import model as m
from baloot.grammar.parser import assemble, load_spec, parse_text

# A variant of two readings whose search is quick: the staleness tests explore it.
QUICK = "first_leader"


@cache
def spec() -> m.Spec:
    return load_spec()


@cache
def quick_findings() -> tuple[Finding, ...]:
    return tuple(explore.explore(spec(), [QUICK]))


def test_rounding_witness_is_the_notes_example() -> None:
    base = spec().profiles[0].readings()
    found, _ = symbolic_search(spec(), "rounding", "each_team", "bidder_takes_rest", base)
    assert found, "convert_pair tells the two readings apart"
    w = next(x for x in found if x.rule == "convert_pair")
    assert w.args["bunts"] == [76, 86]
    assert w.args["mode"] == "hokum"
    assert w.value_a == [8, 9]  # each team on its own: 17 points in all


def test_same_branch_readings_are_proven_equal() -> None:
    text = """
clause T.1 "A clause."
variant A5 rounding [T.1] "Rounding." {
  reading up "Up." source "x"
  reading also_up "Up, by another name." source "y"
  reading down "Down." source "z"
  default up
}
profile literal "The page." { rounding = up }
rule r [T.1] (x: int) -> int {
  choose rounding {
    up, also_up { return x + 1 }
    down { return x }
  }
}
"""
    s = assemble(parse_text(text, "t.baloot"), [("t.baloot", text)])
    assert same_branch(s, "rounding", "up", "also_up")
    assert not same_branch(s, "rounding", "up", "down")
    found, note = symbolic_search(s, "rounding", "up", "also_up", {})
    assert not found and "equal on r" in note
    found, _ = symbolic_search(s, "rounding", "up", "down", {})
    assert found and found[0].args == {"x": 0}
    task = next(t for t in explore.pair_searches(s) if (t.a, t.b) == ("up", "also_up"))
    f = explore.search_pair(task)
    assert f.verdict == "proven-equal" and f.engine is None
    data = witnesses_file.witnesses_data(s, [f])
    assert data["variants"][0]["pairs"][0]["verdict"] == "proven-equal"
    assert "### `up` / `also_up`: proven equal" in ambiguities_markdown(data)


def test_engine_witness_becomes_valid_cases(tmp_path: Path) -> None:
    findings = list(quick_findings())
    assert len(findings) == 1
    f = findings[0]
    assert f.engine is not None, f.engine_note
    cases = witness_cases(spec(), f)
    assert len(cases) == 2
    assert schema_errors("case-file", {"cases": cases}) == []
    assert {c["requires"]["first_leader"] for c in cases} == {"bid_winner", "dealer_right"}
    # the two cases expect different things from the same setup and actions
    assert cases[0]["setup"] == cases[1]["setup"] and cases[0]["actions"] == cases[1]["actions"]
    assert cases[0]["expect"] != cases[1]["expect"]
    paths = explore.StoredPaths(tmp_path / "witnesses.json", tmp_path / "cases",
                                tmp_path / "amb.md")
    written = explore.write_texts(explore.stored_texts(spec(), findings, paths))
    assert set(written) == {paths.witnesses, paths.cases / QUICK / CASE_FILE, paths.notes}
    data = json.loads((paths.cases / QUICK / CASE_FILE).read_text())
    assert [c["id"] for c in data["cases"]] == [c["id"] for c in cases]
    stored = json.loads(paths.witnesses.read_text())
    variants = {v["name"]: v for v in stored["variants"]}
    assert stored["format"] == 1 and stored["command"] == "baloot explore"
    pair = variants[QUICK]["pairs"][0]
    assert pair["verdict"] == "witness" and pair["engine"]["cases"] == [c["id"] for c in cases]
    assert variants["rounding"]["pairs"] == []  # not explored by this run
    notes = paths.notes.read_text()
    assert "## A16 first_leader" in notes and "PLAY.1" in notes
    assert "## A5 rounding" in notes and "Not explored yet" in notes
    assert notes == ambiguities_markdown(stored), "the notes are written from the data"


def test_replayed_cases_give_what_they_expect() -> None:
    for f in quick_findings():
        assert f.engine is not None
        for case in witness_cases(spec(), f):
            g = replay("literal", case["requires"], f.engine)
            assert case["kind"] == "legal"
            assert sorted(g.legal_actions()) == case["expect"]["actions"]


def test_the_engine_search_is_bounded_by_deals_not_time() -> None:
    """The same seed and bound find the same witness, and a bound of one deal stops
    after one deal."""
    from baloot.explorer.explore_engine import engine_search

    first = engine_search("void_in_hokum", "must_trump", "any_card", "literal", 1,
                          SearchBound(deals=30, least=5))
    again = engine_search("void_in_hokum", "must_trump", "any_card", "literal", 1,
                          SearchBound(deals=30, least=5))
    assert first == again
    _, note = engine_search("void_in_hokum", "must_trump", "any_card", "literal", 1,
                            SearchBound(deals=1))
    assert note.endswith("of 1 seeded deals") or note == "none in 1 seeded deals"


def test_rules_of_the_whole_state_get_symbolic_witnesses() -> None:
    base = spec().profiles[0].readings()
    found, _ = symbolic_search(spec(), "first_leader", "bid_winner", "dealer_right", base)
    assert found and found[0].value_a != found[0].value_b
    assert isinstance(found[0].args["game"], dict)  # a partial game: the fields it reads


def _stored_copy(tmp_path: Path) -> list[str]:
    """The stored files a run over QUICK touches, copied under tmp_path; the options
    that point `baloot explore` at the copies."""
    paths = explore.StoredPaths()
    shutil.copy(paths.witnesses, tmp_path / "witnesses.json")
    shutil.copy(paths.notes, tmp_path / "ambiguities.md")
    (tmp_path / "cases" / QUICK).mkdir(parents=True)
    shutil.copy(paths.cases / QUICK / CASE_FILE, tmp_path / "cases" / QUICK / CASE_FILE)
    return ["--results", str(tmp_path / "witnesses.json"), "--cases", str(tmp_path / "cases"),
            "--notes", str(tmp_path / "ambiguities.md")]


def test_the_stored_findings_are_what_a_fresh_run_finds(tmp_path: Path) -> None:
    """The checked-in witnesses, cases and notes are what the search finds now (the
    quick variant: `baloot explore --check` does every variant), and tampering with
    any of them is caught."""
    _stored_copy(tmp_path)
    paths = explore.StoredPaths(tmp_path / "witnesses.json", tmp_path / "cases",
                                tmp_path / "ambiguities.md")
    texts = explore.stored_texts(spec(), list(quick_findings()), paths)
    assert list(explore.stale_files(texts)) == [], "run `baloot explore`"
    for path in texts:
        original = path.read_text(encoding="utf-8")
        path.write_text(original.replace("dealer", "deaIer", 1), encoding="utf-8")
        assert [line.split(":")[0] for line in explore.stale_files(texts)] == [str(path)]
        path.write_text(original, encoding="utf-8")
    (paths.cases / QUICK / CASE_FILE).unlink()
    assert any("missing" in line for line in explore.stale_files(texts))


def test_explore_check_fails_on_a_tampered_copy(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    options = _stored_copy(tmp_path)
    witnesses = tmp_path / "witnesses.json"
    data = json.loads(witnesses.read_text(encoding="utf-8"))
    pair = next(v for v in data["variants"] if v["name"] == QUICK)["pairs"][0]
    pair["engine"]["dealer"] = (pair["engine"]["dealer"] + 1) % 4
    witnesses.write_text(witnesses_file.dumps(data), encoding="utf-8")
    assert main(["explore", "--check", "--variant", QUICK, *options]) == 1
    out = capsys.readouterr().out
    assert "stale" in out and "witnesses.json" in out
