"""The rules document's table of how often each ambiguity matters: read from the stored
explorer/results/impact.json, one row per pair of readings with its interval, a note when
the file is missing, an error when it is malformed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from baloot.backends.document.document import Options, build_document
from baloot.backends.document.html import render_html
from baloot.backends.document.impact import IMPACT
from baloot.backends.document.markdown import render_markdown
from baloot.backends.document.stored import StoredFileError
from baloot.grammar import model as m
from baloot.grammar.parser import load_spec

STORED: dict[str, Any] = {
    "format": 1, "command": "baloot explore --impact", "measure": 1, "profile": "literal",
    "seed": 3, "rounds": 200, "shard": None,
    "method": {"policy": "a <stable> rule", "totals": "drawn at random", "round_steps": 200,
               "redeals": 3},
    "variants": [
        {"id": "A16", "name": "first_leader", "base": "bid_winner", "pairs": [
            {"readings": ["bid_winner", "dealer_right"], "rounds": 200, "differ": 140,
             "legal": 130, "winner": 30,
             "shares": {"differ": [0.7, 0.633, 0.759], "winner": [0.15, 0.107, 0.206]}}]},
        {"id": "A99", "name": "not_in_the_spec", "base": "x", "pairs": [
            {"readings": ["x", "y"], "rounds": 200, "differ": 0, "legal": 0, "winner": 0,
             "shares": {"differ": [0.0, 0.0, 0.0188], "winner": [0.0, 0.0, 0.0188]}}]},
    ]}


@pytest.fixture(scope="module")
def spec() -> m.Spec:
    return load_spec()


def _document(spec: m.Spec, root: Path) -> tuple[str, str]:
    document = build_document(spec, root / "docs", Options(examples=False, proofs="none"),
                              root=root)
    return render_html(document), render_markdown(document)


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


def test_the_table_shows_each_pair_with_its_interval(spec: m.Spec, tmp_path: Path) -> None:
    (tmp_path / IMPACT).parent.mkdir(parents=True)
    (tmp_path / IMPACT).write_text(json.dumps(STORED), encoding="utf-8")
    html, md = _document(spec, tmp_path)
    table = _section(md, '<a id="impact"></a>', '<a id="proofs"></a>')
    row = next(line for line in table.splitlines() if "dealer_right" in line)
    assert "[A16 first\\_leader](#variant-A16)" in row
    assert "70.00% (63.30% to 75.90%)" in row and "65.00%" in row  # 130 of 200
    assert "15.00% (10.70% to 20.60%)" in row
    other = next(line for line in table.splitlines() if line.startswith("| A99 not"))
    assert "](#" not in other and "0.00% (0.00% to 1.88%)" in other
    assert "1 of the 2 pairs part in at least 1.00% of the rounds" in table
    assert "The rest (1) part in fewer rounds or in none" in table
    assert "Every pair of readings is such a curiosity for A99 not\\_in\\_the\\_spec." in table
    assert "200 seeded rounds (seed 3)" in table and "profile `literal`" in table
    assert "stable" in table and "a <stable> rule" not in table  # escaped
    assert "a &lt;stable&gt; rule" in _section(html, 'id="impact"', 'id="proofs"')


def test_a_partial_run_says_so_and_a_missing_file_says_how(spec: m.Spec,
                                                           tmp_path: Path) -> None:
    _, md = _document(spec, tmp_path)
    assert "No measurement is stored yet" in _section(md, '<a id="impact"></a>',
                                                      '<a id="proofs"></a>')
    partial = copy.deepcopy(STORED)
    partial["shard"] = {"of": 10, "parts": [2, 5]}
    (tmp_path / IMPACT).parent.mkdir(parents=True)
    (tmp_path / IMPACT).write_text(json.dumps(partial), encoding="utf-8")
    _, md = _document(spec, tmp_path)
    assert "shards 2, 5 of 10 of 200 seeded rounds (seed 3): a partial run" in md


def test_a_malformed_file_is_an_error(spec: m.Spec, tmp_path: Path) -> None:
    bad = copy.deepcopy(STORED)
    bad["variants"][0]["pairs"][0]["shares"]["differ"] = [0.7, 0.6]
    (tmp_path / IMPACT).parent.mkdir(parents=True)
    (tmp_path / IMPACT).write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(StoredFileError, match=r"shares\.differ should be \[share, low, high\]"):
        _document(spec, tmp_path)
