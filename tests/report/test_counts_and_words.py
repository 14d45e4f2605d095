"""One family count everywhere, a summary line that names each count, a not-run table
with one row per reading set and the list of what would run the most of those cases,
and messages that write what an engine sent in the protocol's words (`null`, `true`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baloot.conformance.harness.engine_process import (
    EngineError,
    EngineProcess,
    json_words,
    printable,
)
from baloot.conformance.harness.report_console import case_family, lacking_key
from baloot.conformance.results_page.page import render_page
from baloot.conformance.results_page.runs import read_run

ROOT = Path(__file__).resolve().parents[2]
MAJLIS = ROOT / "tests" / "conformance" / "independent_engines" / "majlis.py"

# `OK: 591 cases; 309 ran: 309 passed, 0 failed, 0 errored; 170 skipped, 112 unsupported`
SUMMARY = re.compile(
    r"^(OK|FAILED|INTERRUPTED): (?P<cases>\d+) cases; (?P<ran>\d+) ran: (?P<passed>\d+) "
    r"passed, (?P<failed>\d+) failed, (?P<errored>\d+) errored(?:, \d+ x(?:failed|passed))*; "
    r"(?P<skipped>\d+) skipped, (?P<unsupported>\d+) unsupported in [\d.]+ s ", re.M)


@pytest.fixture(scope="module")
def majlis_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Path]:
    """The pack on an independent engine: its console text, JSON report and summary."""
    folder = tmp_path_factory.mktemp("majlis")
    report, summary = folder / "report.json", folder / "summary.md"
    done = subprocess.run(
        [sys.executable, "-m", "baloot.cli.main", "conform", "--engine",
         f"{sys.executable} {MAJLIS}", "--json", str(report), "--summary-md", str(summary)],
        capture_output=True, text=True, check=False, timeout=120,
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
    )
    assert report.exists(), done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout, report, summary


def _console_families(text: str) -> dict[str, int]:
    table = text.split("conformance by clause family", 1)[1]
    found = {}
    for line in table.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃|]", line) if c.strip()]
        if len(cells) == 8 and cells[1].isdigit() and cells[0] != "all cases":
            found[cells[0]] = sum(int(c) for c in cells[1:])
    return found


def _markdown_families(text: str) -> dict[str, int]:
    table = text.split("#### By clause family", 1)[1].split("####", 1)[0]
    rows = [line.strip("| ").split(" | ") for line in table.splitlines()
            if line.startswith("| ") and not line.startswith("| family")]
    return {row[0]: int(row[-1]) for row in rows}


def _page_families(report: Path) -> dict[str, int]:
    page = render_page([read_run(report)], ["badge.svg"], "results")
    return {family: int(n) for family, n in re.findall(
        r'id="family-([A-Z]+)"><th colspan="2">[A-Z]+ \((\d+) cases\)', page)}


def test_families_agree_and_add_up(majlis_run: tuple[str, Path, Path]) -> None:
    text, report_path, summary = majlis_run
    report: dict[str, Any] = json.loads(report_path.read_text(encoding="utf-8"))
    cases = len(report["cases"])
    first: dict[str, int] = {}
    for case in report["cases"]:
        family = case_family(case["clauses"])
        first[family] = first.get(family, 0) + 1
    from_json = {f: sum(counts.values()) for f, counts in report["by_family"].items()}
    console = _console_families(text)
    markdown = _markdown_families(summary.read_text(encoding="utf-8"))
    page = _page_families(report_path)
    assert console == from_json == markdown == page == first
    assert sum(console.values()) == cases
    for row in report["not_run"]:  # each case in one family there too
        assert sum(row["by_family"].values()) == sum(
            1 for c in report["cases"] if c["status"] == row["status"]
            and row["lacking"] in {lacking_key(x) for x in c["lacking"]})


def test_summary_line_names_every_count(majlis_run: tuple[str, Path, Path]) -> None:
    text, report_path, _ = majlis_run
    summary = json.loads(report_path.read_text(encoding="utf-8"))["summary"]
    line = SUMMARY.search(text)
    assert line is not None, text[-600:]
    ran = sum(summary[s] for s in ("passed", "failed", "errored", "xfailed", "xpassed"))
    assert int(line["ran"]) == ran and int(line["cases"]) == sum(summary.values())
    for status in ("passed", "failed", "errored", "skipped", "unsupported"):
        assert int(line[status]) == summary[status]


def test_not_run_rows_are_one_per_reading_set(majlis_run: tuple[str, Path, Path]) -> None:
    text, report_path, summary = majlis_run
    rows = json.loads(report_path.read_text(encoding="utf-8"))["not_run"]
    sets = [(r["status"], r["lacking"]) for r in rows]
    assert len(sets) == len(set(sets))
    assert all(lacking_key(lacking) == lacking for _, lacking in sets)
    assert any("|" in lacking for _, lacking in sets)
    assert "what would run the most cases not run" in text
    unlock = summary.read_text(encoding="utf-8").split("#### What would run the most", 1)[1]
    counts = [int(n) for n in re.findall(r"\| (\d+) \|", unlock)]
    assert counts and counts == sorted(counts, reverse=True)


def test_lacking_key_sorts_a_reading_set() -> None:
    assert lacking_key("locked_round=double_and_four|any_raise") == \
        "locked_round=any_raise|double_and_four"
    assert lacking_key("raises") == "raises"
    assert case_family(["SCORE.7", "BID.2"]) == "SCORE"


def test_engine_values_in_protocol_words() -> None:
    assert [json_words(v) for v in (None, True, False, 3, "x")] == \
        ["null", "true", "false", "3", '"x"']
    assert printable(None) == "null" and printable("a\nb") == "a\\nb"


def test_exit_names_its_status_before_when() -> None:
    engine = EngineProcess([sys.executable, "-c", "import sys; sys.exit(7)"], timeout=10)
    with pytest.raises(EngineError) as caught:
        engine.start()
    engine.close()
    assert "engine exited with status 7 instead of replying" in str(caught.value)
