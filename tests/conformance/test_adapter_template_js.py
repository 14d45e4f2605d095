"""The JavaScript template (`conformance/adapter_template.js`), run with Node through
`baloot conform` as test_conformance_adapters.py runs the Python one: its handshake and
every reply are well-formed (`--validate-protocol`, nothing errored), and its toy
engine fails the rule cases and passes a few. Skipped when `node` is not on PATH."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main

CONFORMANCE = Path(__file__).parents[2] / "conformance"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH")
# A few cases the toy passes (refusals of a call in the bidding) and a few it fails.
CASES = ["refusal.bid.open.not-a-call.1", "bid.illegal.raise-in-bidding",
         "bid.legal.first-bidder", "bid.state.taker-gets-face-up", "play.illegal.revoke"]


def conform(engine: list[str], tmp_path: Path, name: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / f"{name}.json"
    only = [word for case in CASES for word in ("--only", case)]
    status = main(["conform", "--engine", shlex.join(engine), "--validate-protocol", *only,
                   "--json", str(report)])
    return status, json.loads(report.read_text())


def test_the_js_template_speaks_valid_protocol(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert NODE is not None
    status, data = conform([NODE, str(CONFORMANCE / "adapter_template.js")], tmp_path, "js")
    capsys.readouterr()
    assert status == 1  # the toy engine fails the cases...
    assert data["summary"]["errored"] == 0  # ...but never breaks the protocol
    assert data["summary"]["passed"] >= 1
    assert data["engine"]["name"] == "toy-engine-js" and data["declaration_error"] is None
    assert {c["id"] for c in data["cases"]} == set(CASES)


def test_the_js_template_answers_bad_requests_and_leaves_on_bye() -> None:
    assert NODE is not None
    register = json.loads((CONFORMANCE / "cases" / "spec-register.json").read_text())
    ranks = ["7", "8", "9", "10", "J", "Q", "K", "A"]
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in ranks]
    requests = [
        "not json",
        json.dumps({"seq": 1, "type": "hello", "protocol": 1}),
        json.dumps({"seq": 2, "type": "dance"}),
        json.dumps({"seq": 3, "type": "start", "setup": {
            "profile": "literal", "overrides": {"sun_overcall": "no_such_reading"},
            "dealer": 0, "deck": deck}}),
        json.dumps({"seq": 4, "type": "start", "setup": {
            "profile": "federation", "overrides": {}, "dealer": 0, "deck": deck}}),
        json.dumps({"seq": 5, "type": "bye"}),
        json.dumps({"seq": 6, "type": "legal"}),  # never read: the adapter has left
    ]
    done = subprocess.run([NODE, str(CONFORMANCE / "adapter_template.js")],
                          input="\n".join(requests) + "\n", capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["seq"] for r in replies] == [None, 1, 2, 3, 4, 5]
    assert replies[0]["ok"] is False and replies[0]["error"].startswith("bad request")
    assert replies[1]["ok"] is True and replies[1]["profile"] in register["profiles"]
    assert replies[2]["ok"] is False and "dance" in replies[2]["error"]
    assert replies[3]["ok"] is False and "no_such_reading" in replies[3]["error"]
    assert replies[4] == {"seq": 4, "ok": True} and replies[5] == {"seq": 5, "ok": True}
