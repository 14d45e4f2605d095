"""Fake engines for the behaviours the other tests leave out: a reply torn in two writes
(one line all the same), half a reply and then silence, and an engine that lies about
legality by accepting an action the rules refuse."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.harness.protocol_notation import ALL_CARDS

HOSTILE = Path(__file__).parents[1] / "conformance" / "fake_engines" / "hostile.py"


def _case(case_id: str, **overrides: Any) -> dict[str, Any]:
    return {"id": case_id, "kind": "legal", "title": "the first bidder's options",
            "clauses": ["BID.2"], "setup": {"dealer": 3, "deck": list(ALL_CARDS)},
            "actions": [], "expect": {"player": 0, "actions": ["pass", "hokum", "sun"]},
            **overrides}


def _conform(tmp_path: Path, mode: str, cases: list[dict[str, Any]],
             monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.json").write_text(json.dumps({"name": "p", "version": "1.0.0", "protocol": 1}))
    (pack / "cases.json").write_text(json.dumps({"cases": cases}))
    monkeypatch.setenv("HOSTILE", mode)
    report = tmp_path / "r.json"
    cli_main(["conform", "--engine", shlex.join([sys.executable, str(HOSTILE)]),
              "--cases", str(pack), "--json", str(report), "--timeout", "0.6"])
    data = json.loads(report.read_text())
    return {c["id"]: c["status"] + ":" + (c.get("reason") or "") for c in data["cases"]}


def test_a_reply_torn_in_two_writes_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    got = _conform(tmp_path, "torn", [_case("c1"), _case("c2")], monkeypatch)
    assert got == {"c1": "passed:", "c2": "passed:"}


def test_half_a_reply_is_a_timeout_and_the_next_case_runs_fresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    got = _conform(tmp_path, "half", [_case("c1"), _case("c2"), _case("c3")], monkeypatch)
    assert got == {"c1": "passed:", "c2": "errored:timeout", "c3": "passed:"}


def test_an_engine_that_accepts_a_refused_action_fails_the_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    illegal = _case("lie", kind="illegal", expect={"action": "ashkal"})
    got = _conform(tmp_path, "lies", [_case("c1"), illegal], monkeypatch)
    assert got == {"c1": "passed:", "lie": "failed:"}
