"""`baloot explore`: symbolic witnesses, equal readings, engine witnesses as cases."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from baloot.conformance.harness.schemas import schema_errors
from baloot.grammar import model as m
from baloot.grammar.parser import assemble, load_spec, parse_text
from baloot.proofs import explore


@cache
def spec() -> m.Spec:
    return load_spec()


def test_rounding_witness_is_the_notes_example() -> None:
    base = spec().profiles[0].readings()
    found, _ = explore.symbolic_search(spec(), "rounding", "each_team", "bidder_takes_rest", base)
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
    assert explore.same_branch(s, "rounding", "up", "also_up")
    assert not explore.same_branch(s, "rounding", "up", "down")
    found, note = explore.symbolic_search(s, "rounding", "up", "also_up", {})
    assert not found and "equal on r" in note
    found, _ = explore.symbolic_search(s, "rounding", "up", "down", {})
    assert found and found[0].args == {"x": 0}
    findings = explore.explore(s, budget=0.1)
    verdicts = {(f.a, f.b): f.verdict for f in findings}
    assert verdicts[("up", "also_up")] == "proven equal"


def test_engine_witness_becomes_valid_cases(tmp_path: Path) -> None:
    findings = explore.explore(spec(), ["first_leader"], budget=5.0, seed=1)
    assert len(findings) == 1
    f = findings[0]
    assert f.engine is not None, f.engine_note
    cases = explore.witness_cases(spec(), f)
    assert len(cases) == 2
    assert schema_errors("case-file", {"cases": cases}) == []
    assert {c["requires"]["first_leader"] for c in cases} == {"bid_winner", "dealer_right"}
    # the two cases expect different things from the same setup and actions
    assert cases[0]["setup"] == cases[1]["setup"] and cases[0]["actions"] == cases[1]["actions"]
    assert cases[0]["expect"] != cases[1]["expect"]
    written = explore.write_findings(spec(), findings, tmp_path / "cases", tmp_path / "amb.md")
    data = json.loads((tmp_path / "cases" / "first_leader" / "explored.json").read_text())
    assert [c["id"] for c in data["cases"]] == [c["id"] for c in cases]
    assert len(written) == 1  # a partial run leaves the notes alone
    notes = explore.ambiguities_markdown(spec(), findings)
    assert "## A16 first_leader" in notes and "PLAY.1" in notes
    assert "## A5 rounding" in notes and "Not explored in this run" in notes


def test_replayed_cases_give_what_they_expect() -> None:
    from baloot.reference_impl import runtime as rt

    findings = explore.explore(spec(), ["void_in_hokum"], budget=6.0, seed=2)
    for f in findings:
        for case in explore.witness_cases(spec(), f):
            g = rt.new_game("literal", case["requires"], dealer=case["setup"]["dealer"],
                            deck=case["setup"]["deck"], totals=case["setup"].get("totals"))
            for action in case["actions"]:
                g.apply(action)
            if case["kind"] == "legal":
                assert sorted(g.legal_actions()) == case["expect"]["actions"]


def test_rules_of_the_whole_state_get_symbolic_witnesses() -> None:
    base = spec().profiles[0].readings()
    found, _ = explore.symbolic_search(spec(), "first_leader", "bid_winner", "dealer_right",
                                       base)
    assert found and found[0].value_a != found[0].value_b
    assert isinstance(found[0].args["game"], dict)  # a partial game: the fields it reads
