"""An engine that answers its hello, then dies on the first case of every launch the same
way (it exits on `start`, or answers it with a line that is not JSON), is launched
`MAX_SAME_DEATHS` times, not once a case: the run stops launching it, tells it once (the
request, what was read, the engine's stderr, the likely cause) and still reports every
case. An engine that dies now and then but serves other cases is never stopped so."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.harness.engine_process import EngineProcess
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.runner import KEEPS_DYING, MAX_SAME_DEATHS, Runner
from baloot.conformance.harness.variants import load_register
from baloot.conformance.protocol.schemas import schema_errors

from .conftest import conform_pack, engine_command, legal_case, write_pack

CASES = 30


def now_and_then(tmp_path: Path, pattern: str) -> str:
    """The engine that does at its n-th start what the n-th letter of `pattern` says."""
    return " ".join([engine_command("dies_now_and_then"),
                     shlex.quote(str(tmp_path / "starts")), pattern])


def test_an_engine_that_exits_at_every_start_is_launched_three_times_and_told_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit, summary, xfail = tmp_path / "report.xml", tmp_path / "summary.md", tmp_path / "x"
    status, report, lines = conform_pack(
        tmp_path, capsys, engine_command("dies_at_start"), CASES, "--junit", str(junit),
        "--summary-md", str(summary), "--write-xfail", str(xfail))
    text = "\n".join(lines)
    assert status == 1, text
    assert report["engine"]["starts"] == MAX_SAME_DEATHS == 3
    # every case reported: the first three died, the rest errored without being run
    assert [c["status"] for c in report["cases"]] == ["errored"] * CASES
    assert {c["reason"] for c in report["cases"]} == {"exited"}
    assert all(c["message"].startswith("not run: the engine died at `start`")
               for c in report["cases"][MAX_SAME_DEATHS:])
    stopped = report["stopped"]
    assert stopped["reason"] == KEEPS_DYING == "engine_keeps_dying"
    assert (stopped["launches"], stopped["request"], stopped["error"]) == (3, "start", "exited")
    assert stopped["died"] == ["c0", "c1", "c2"] and stopped["not_run"] == CASES - 3
    assert (stopped["ran"], stopped["cases"]) == (3, CASES)
    assert "exited with status 1" in stopped["detail"] and "KeyError" in stopped["detail"]
    assert report["interrupted"] is False and report["ok"] is False
    assert not schema_errors("report", report)
    # told once, short: what was sent and read, the stderr, the likely cause
    assert len(lines) <= 20, text
    assert text.count("THE ENGINE KEEPS DYING") == 1
    assert text.count("KeyError: 'setup'") <= 3, text
    assert '"type":"start"' in text and "read     no reply" in text
    assert "uncaught error in its `start` handler" in text
    assert "ERRORED c" not in text and "rerun:" not in text and "fresh one" not in text
    assert "27 case(s) errored without being run" in text
    assert "engine started 3 time(s)" in text
    assert not xfail.exists()  # no list from a run that could not play a case
    xml = junit.read_text()
    assert xml.count("<testcase") == CASES
    assert '<property name="stopped" value="engine_keeps_dying" />' in xml
    markdown = summary.read_text()
    assert "| c0 and 29 more |" in markdown, markdown
    assert "27 of these 30 cases not run: the engine died at \\`start\\`" in markdown
    assert "| stopped | stopped launching the engine" in markdown


def test_an_engine_that_answers_start_with_garbage_is_stopped_the_same_way(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = engine_command("dies_at_start") + " garbage"
    status, report, lines = conform_pack(tmp_path, capsys, engine, CASES, "-q")
    text = "\n".join(lines)
    assert status == 1 and report["engine"]["starts"] == 3
    assert report["stopped"]["error"] == "invalid_json"
    assert len(report["cases"]) == CASES
    assert len(lines) <= 6, text  # -q: the stop, its likely cause and the totals
    assert "log to stderr" in text and "THE ENGINE KEEPS DYING" in text


def test_a_case_the_hello_rules_out_is_still_skipped_after_the_stop(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [legal_case(f"c{i}") for i in range(6)]
    cases.insert(4, legal_case("needs-a-reading", requires={"rounding": "adjusted_to_total"}))
    pack = write_pack(tmp_path / "pack", cases)
    status = cli_main(["conform", "--engine", engine_command("dies_at_start"), "--cases",
                       str(pack), "--json", str(tmp_path / "r.json"), "-q"])
    capsys.readouterr()
    report = json.loads((tmp_path / "r.json").read_text())
    assert status == 1
    assert {c["id"]: c["status"] for c in report["cases"]}["needs-a-reading"] == "skipped"
    assert report["summary"]["errored"] == 6 and report["stopped"]["not_run"] == 3


def test_maxfail_counts_no_case_left_unrun(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, _ = conform_pack(tmp_path, capsys, engine_command("dies_at_start"), CASES,
                                     "--maxfail", "5")
    assert status == 1 and report["stopped"]["reason"] == KEEPS_DYING
    assert len(report["cases"]) == CASES
    status, report, _ = conform_pack(tmp_path, capsys, engine_command("dies_at_start"), CASES,
                                     "-x")
    assert status == 1 and report["stopped"]["reason"] == "maxfail"
    assert len(report["cases"]) == 1


def test_an_engine_that_dies_at_every_other_case_is_never_stopped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = 4 * MAX_SAME_DEATHS
    status, report, _ = conform_pack(tmp_path, capsys, now_and_then(tmp_path, "xo" * cases),
                                     cases)
    assert status == 1 and report["stopped"] is None
    assert [c["status"] for c in report["cases"]] == ["errored", "passed"] * (cases // 2)
    # its first launch died on c0; each next one passed a case, then died on the next
    assert report["engine"]["starts"] == 1 + cases // 2


def test_an_engine_that_passed_a_case_is_never_stopped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = 3 * MAX_SAME_DEATHS
    status, report, _ = conform_pack(tmp_path, capsys, now_and_then(tmp_path, "ox"), cases)
    assert status == 1 and report["stopped"] is None
    assert [c["status"] for c in report["cases"]] == ["passed"] + ["errored"] * (cases - 1)
    assert all(not c["message"].startswith("not run") for c in report["cases"][1:])
    assert report["engine"]["starts"] == cases - 1  # every case after c1 on a launch of its own


def test_deaths_that_differ_are_not_in_a_row(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = 3 * MAX_SAME_DEATHS
    engine = now_and_then(tmp_path, "xxg" * MAX_SAME_DEATHS)
    status, report, _ = conform_pack(tmp_path, capsys, engine, cases)
    assert status == 1 and report["stopped"] is None
    assert report["engine"]["starts"] == cases
    assert [c["reason"] for c in report["cases"]] == ["exited", "exited", "invalid_json"] * 3


def test_a_caller_running_case_by_case_is_never_stopped(tmp_path: Path) -> None:
    """`run_case` (the pytest plugin, the mutant and pin tools) launches the engine for
    each case it is given: only `run` stops launching it."""
    pack, problems = lint_pack(write_pack(tmp_path / "pack",
                                          [legal_case(f"c{i}") for i in range(5)]))
    assert not problems
    engine = EngineProcess(shlex.split(engine_command("dies_at_start")))
    runner = Runner(engine, load_register())
    try:
        outcomes = [runner.run_case(case) for case in pack.cases]
    finally:
        engine.close()
    assert [o.reason for o in outcomes] == ["exited"] * 5
    assert runner.engine_starts == 5
