"""A failure report links each clause the case tests to the rules document."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from baloot.cli.main import main
from baloot.conformance.harness.rules_links import clause_link

# The reference adapter behind a filter that accepts every action: an engine
# that never refuses an illegal one.
NEVER_REFUSES = """
import json, subprocess, sys
adapter = subprocess.Popen([sys.executable, "-m", "baloot.conformance.adapters.reference_adapter"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    adapter.stdin.write(line)
    adapter.stdin.flush()
    reply = json.loads(adapter.stdout.readline())
    if reply.get("ok") is False and "refused" in reply:
        reply = {"seq": reply["seq"], "ok": True}
    print(json.dumps(reply), flush=True)
"""


def test_a_clause_link_points_at_the_clause_anchor() -> None:
    assert clause_link("SCORE.7").endswith("rules.html#clause-SCORE-7")


def test_failure_report_links_the_clauses(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    engine = tmp_path / "never_refuses.py"
    engine.write_text(NEVER_REFUSES)
    report = tmp_path / "report.json"
    status = main(["conform", "-v", "--engine", shlex.join([sys.executable, str(engine)]),
                   "--only", "play.illegal.revoke", "--json", str(report)])
    out = capsys.readouterr().out
    assert status == 1
    assert "rules   PLAY.2: " in out and "rules.html#clause-PLAY-2" in out
    (outcome,) = json.loads(report.read_text())["cases"]
    # the console links to the shipped document; the report, read elsewhere, to the copy
    # written beside it (tests/report/test_report_rules_links.py)
    assert outcome["rules"] == ["rules.html#clause-PLAY-2"]
    assert (tmp_path / "rules.html").is_file()
