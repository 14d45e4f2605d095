"""The case pack judges qahwa, an engine written apart from the reference.

qahwa (independent_engines/qahwa.py) keeps its game as an event log folded
into immutable snapshots, with its rules as tables. It declares the federation
profile with five readings moved off it and many more it can be asked for, and
no ashkal, no gahwa and no pass-only turns. Run clean, the pack must pass it
but for the cases of SUITE_FAULTS, which fail for a fault of the pack (they are
run as expected failures); run with one planted rule break (`--bug NAME`), the
pack must fail it, only in cases the clean engine passes, and in at least one
case about the broken rule.

The clean run's counts and the cases each planted break fails are a
regression snapshot, `independent_engines/qahwa_verdicts.json`, checked
exactly. Regenerate it (after a change to the pack) with

    python tests/conformance/test_independent_qahwa.py

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

ENGINE = Path(__file__).parent / "independent_engines" / "qahwa.py"
SNAPSHOT = Path(__file__).parent / "independent_engines" / "qahwa_verdicts.json"

# The planted breaks and the clauses each breaks: every case a break fails must pass
# without it, and at least one must cite one of these clauses (a case about the rule).
BUG_CLAUSES: dict[str, set[str]] = {
    "trump_nine_under_ace": {"SETUP.6", "PLAY.3"},
    "hokum_half_rounded_up": {"SCORE.8"},
    "second_session_face_suit": {"BID.8"},
    "void_may_undertrump": {"PLAY.2"},
    "sun_gate_at_100": {"RAISE.3"},
}

# Cases the clean engine fails through no fault of its rules: an engine without
# `raise_gahwa` ends the raising at the four, and these cases still expect the turn.
SUITE_FAULTS: dict[str, str] = {}


def snapshot() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return found


def run_pack(*bugs: str) -> tuple[int, dict[str, Any]]:
    """Run `baloot conform` on qahwa with the given bugs: its exit status and JSON report."""
    engine = [sys.executable, str(ENGINE)] + [arg for bug in bugs for arg in ("--bug", bug)]
    with tempfile.TemporaryDirectory() as folder:
        report_path = Path(folder) / "report.json"
        xfail_path = Path(folder) / "qahwa.xfail"
        xfail_path.write_text("".join(f"{case} {why}\n" for case, why in SUITE_FAULTS.items()),
                              encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "baloot.conformance.cli", "conform",
             "--engine", shlex.join(engine), "--xfail", str(xfail_path),
             "--json", str(report_path)],
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
    assert report["stale_xfails"] == [], "a suite fault is fixed: drop it from SUITE_FAULTS"
    assert {c["id"] for c in report["cases"] if c["status"] == "xfailed"} == set(SUITE_FAULTS)
    # No ashkal, gahwa or pass-only turns: the cases that need them are not run.
    lacking = {c for case in report["cases"] if case["status"] == "unsupported"
               for c in case["lacking"]}
    assert lacking == {"ashkal", "raise_gahwa", "pass_only_turns"}, lacking
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
