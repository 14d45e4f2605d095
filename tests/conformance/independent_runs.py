"""The pack run on an independent engine of the tests, clean and with each planted rule
break (`--bug NAME`), and the runs judged against the engine's regression snapshot.

Each engine's test (`test_independent_majlis.py`, `test_independent_qahwa.py`) names
its engine, its snapshot and the clauses each planted break breaks; this module runs
the pack and holds the checks they share.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

Run = tuple[int, dict[str, Any]]  # exit status, JSON report


def run_pack(engine: Path, *bugs: str, xfail: Mapping[str, str] | None = None) -> Run:
    """Run `baloot conform` on the engine with the given bugs (and the xfail lines):
    its exit status and JSON report."""
    argv = [sys.executable, str(engine)] + [arg for bug in bugs for arg in ("--bug", bug)]
    with tempfile.TemporaryDirectory() as folder:
        report_path = Path(folder) / "report.json"
        command = [sys.executable, "-m", "baloot.cli.main", "conform",
                   "--engine", shlex.join(argv), "--json", str(report_path)]
        if xfail is not None:
            xfail_path = Path(folder) / "engine.xfail"
            xfail_path.write_text("".join(f"{case} {why}\n" for case, why in xfail.items()),
                                  encoding="utf-8")
            command[-2:-2] = ["--xfail", str(xfail_path)]
        done = subprocess.run(command, capture_output=True, text=True, check=False,
                              timeout=300)
        assert report_path.exists(), done.stdout[-3000:] + done.stderr[-3000:]
        report: dict[str, Any] = json.loads(report_path.read_text(encoding="utf-8"))
    return done.returncode, report


def all_runs(engine: Path, bugs: Mapping[str, set[str]],
             xfail: Mapping[str, str] | None = None) -> dict[str, Run]:
    """Every run the tests judge (clean under "", then one per bug), made side by side."""
    names = ["", *bugs]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(
            lambda name: run_pack(engine, *([name] if name else []), xfail=xfail), names))
    return dict(zip(names, results, strict=True))


def failed_cases(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [case for case in report["cases"] if case["status"] in ("failed", "errored")]


def read_snapshot(path: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def check_planted_break(runs: dict[str, Run], bug: str, clauses: set[str],
                        snapshot: dict[str, Any]) -> None:
    """The break fails the run, only in cases the clean engine passes, at least one of
    them citing a clause it breaks, and the very cases of the snapshot."""
    status, report = runs[bug]
    failed = failed_cases(report)
    assert status == 1, report["summary"]
    assert failed, f"--bug {bug}: no case failed"
    assert all(case["status"] == "failed" for case in failed), [
        (c["id"], c["status"], c["message"]) for c in failed
    ]
    clean = {c["id"] for c in runs[""][1]["cases"] if c["status"] == "passed"}
    assert all(c["id"] in clean for c in failed), f"--bug {bug}: fails without the bug too"
    assert any(clauses & set(c["clauses"]) for c in failed), (
        f"--bug {bug}: no failed case cites {sorted(clauses)}"
    )
    assert sorted(c["id"] for c in failed) == snapshot["failed_by_bug"][bug], (
        "regression snapshot: see the module doc"
    )


def write_snapshot(path: Path, engine: Path, bugs: Mapping[str, set[str]],
                   xfail: Mapping[str, str] | None = None) -> None:
    """Run the pack clean and once per bug, and write the snapshot."""
    clean = run_pack(engine, xfail=xfail)[1]["summary"]
    table = {bug: sorted(c["id"] for c in failed_cases(run_pack(engine, bug, xfail=xfail)[1]))
             for bug in bugs}
    data = {"clean": clean, "failed_by_bug": table}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
