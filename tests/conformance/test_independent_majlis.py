"""The case pack judges majlis, an engine written apart from the reference.

majlis (independent_engines/majlis.py) declares the federation profile with
five readings moved off it, and no raises and no declaration step. Run
clean, the pack must pass it; run with one planted rule break (`--bug NAME`),
the pack must fail it, only in cases the clean engine passes, and in at least one
case about the broken rule.

The clean run's counts and the cases each planted break fails are a
regression snapshot, `independent_engines/majlis_verdicts.json`, checked
exactly. Regenerate it (after a change to the pack) with

    python tests/conformance/test_independent_majlis.py

which runs the pack clean and once per bug and writes the file; the tests
still check that every failure is one the planted break explains.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

ENGINE = Path(__file__).parent / "independent_engines" / "majlis.py"

# The planted breaks and the clauses each breaks: every case a break fails must pass
# without it, and at least one must cite one of these clauses (a case about the rule).
BUG_CLAUSES: dict[str, set[str]] = {
    "last_trick_to_losers": {"SCORE.2"},
    "sun_ten_below_king": {"SETUP.7", "PLAY.3"},
    "ashkal_second_bidder": {"BID.6"},
    "sun_fives_rounded_up": {"SCORE.7"},
    "void_no_trump_duty": {"PLAY.2"},
}

SNAPSHOT = Path(__file__).parent / "independent_engines" / "majlis_verdicts.json"


def snapshot() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return found


def run_pack(*bugs: str) -> tuple[int, dict[str, Any]]:
    """Run `baloot conform` on majlis with the given bugs: its exit status and JSON report."""
    engine = [sys.executable, str(ENGINE)] + [arg for bug in bugs for arg in ("--bug", bug)]
    with tempfile.TemporaryDirectory() as folder:
        report_path = Path(folder) / "report.json"
        done = subprocess.run(
            [sys.executable, "-m", "baloot.conformance.cli", "conform",
             "--engine", shlex.join(engine), "--json", str(report_path)],
            capture_output=True, text=True, check=False, timeout=300,
        )
        assert report_path.exists(), done.stdout[-3000:] + done.stderr[-3000:]
        report: dict[str, Any] = json.loads(report_path.read_text(encoding="utf-8"))
    return done.returncode, report


@pytest.fixture(scope="module")
def runs() -> dict[str, tuple[int, dict[str, Any]]]:
    """Every run the tests judge (clean, then one per bug), made side by side."""
    names = ["", *BUG_CLAUSES]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda name: run_pack(*([name] if name else [])), names))
    return dict(zip(names, results, strict=True))


def failed_cases(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [case for case in report["cases"] if case["status"] in ("failed", "errored")]


def test_the_clean_engine_passes(runs: dict[str, tuple[int, dict[str, Any]]]) -> None:
    status, report = runs[""]
    summary = report["summary"]
    problems = [f"{c['id']}: {c['message']}" for c in failed_cases(report)]
    assert status == 0, problems
    assert summary["failed"] == 0 and summary["errored"] == 0, problems
    # No raises and no declaration step: the cases that need them are not run.
    assert summary["unsupported"] > 0, summary
    assert summary == snapshot()["clean"], "regression snapshot: see the module doc"


@pytest.mark.parametrize("bug", sorted(BUG_CLAUSES))
def test_each_planted_break_is_caught(
    runs: dict[str, tuple[int, dict[str, Any]]], bug: str
) -> None:
    status, report = runs[bug]
    failed = failed_cases(report)
    assert status == 1, report["summary"]
    assert failed, f"--bug {bug}: no case failed"
    assert all(case["status"] == "failed" for case in failed), [
        (c["id"], c["status"], c["message"]) for c in failed
    ]
    clean = {c["id"] for c in runs[""][1]["cases"] if c["status"] == "passed"}
    assert all(c["id"] in clean for c in failed), f"--bug {bug}: fails without the bug too"
    assert any(BUG_CLAUSES[bug] & set(c["clauses"]) for c in failed), (
        f"--bug {bug}: no failed case cites {sorted(BUG_CLAUSES[bug])}"
    )
    assert sorted(c["id"] for c in failed) == snapshot()["failed_by_bug"][bug], (
        "regression snapshot: see the module doc"
    )


def write_snapshot() -> None:
    clean = run_pack()[1]["summary"]
    table = {bug: sorted(c["id"] for c in failed_cases(run_pack(bug)[1])) for bug in BUG_CLAUSES}
    data = {"clean": clean, "failed_by_bug": table}
    SNAPSHOT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {SNAPSHOT}")


if __name__ == "__main__":
    write_snapshot()
