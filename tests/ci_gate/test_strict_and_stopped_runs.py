"""What the CI artifacts say of runs that fail in ways the test view used to hide:

- under `--strict`, a case listed in --xfail that passes fails the run (exit 5), and the
  JUnit report says so: a <failure type="xpassed"> counted in the suite's `failures`,
  as pytest reports a strict xpass (without --strict it stays a passing <testcase>);
- an engine that fails its handshake errors every case with the same reason: the step
  summary gives them one row, which counts them, not a row per case;
- a run stopped before any case ran (a bad xfail glob) writes no report; its summary
  (`stopped_summary_markdown`, which the action writes) says why.
"""

from __future__ import annotations

import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from baloot.cli.main import main
from baloot.conformance.harness import exit_status
from baloot.conformance.harness.report_markdown import (
    append_stopped_summary,
    stopped_summary_markdown,
)

from ..conformance.conftest import engine_command, legal_case, write_pack
from .test_summary_md import headings, parser, plain, tables


def junit_run(tmp_path: Path, xfail: Path, *extra: str) -> tuple[int, ET.Element]:
    pack = write_pack(tmp_path / "p", [legal_case("right"), legal_case("fixed")])
    junit = tmp_path / "r.xml"
    status = main(["conform", "--engine", engine_command("good"), "--cases", str(pack),
                   "--xfail", str(xfail), "--junit", str(junit), *extra])
    return status, ET.parse(junit).getroot()


def test_a_strict_unexpected_pass_is_a_junit_failure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    xfail = tmp_path / "x.txt"
    xfail.write_text("fixed  broken once\n")
    status, suite = junit_run(tmp_path, xfail, "--strict")
    capsys.readouterr()
    assert status == exit_status.UNEXPECTED_PASSES
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    by_name = {case.get("name"): case for case in suite.iter("testcase")}
    assert list(by_name["right"]) == []
    (failure,) = list(by_name["fixed"])
    assert failure.tag == "failure" and failure.get("type") == "xpassed"
    assert failure.get("message") == (
        "passed, but listed as an expected failure (--strict): broken once")
    assert failure.text is not None and "take its line off the xfail list" in failure.text

    relaxed_status, relaxed = junit_run(tmp_path, xfail)
    capsys.readouterr()
    assert relaxed_status == exit_status.OK and relaxed.get("failures") == "0"
    fixed = next(c for c in relaxed.iter("testcase") if c.get("name") == "fixed")
    assert [child.tag for child in fixed] == ["system-out"]


def test_a_failed_handshake_is_one_row_of_the_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = write_pack(tmp_path / "p", [legal_case(f"c{n}") for n in range(8)])
    silly = shlex.join([sys.executable, "-c",
                        "import sys; print('hello', flush=True); sys.stdin.read()"])
    summary = tmp_path / "summary.md"
    status = main(["conform", "--engine", silly, "--cases", str(pack),
                   "--summary-md", str(summary)])
    capsys.readouterr()
    assert status == exit_status.ENGINE_DID_NOT_START
    failures = tables(summary.read_text())[2]
    assert failures[0] == ["case", "clauses", "status", "reason"]
    ((case, clauses, errored, reason),) = failures[1:]
    assert (case, clauses, errored) == ("c0 and 7 more", "BID.2", "errored")
    assert reason.startswith("handshake: invalid_json: reply is not JSON")
    assert reason.endswith("(5 of these 8 cases not run: the engine had failed to start "
                           "too often)")


def test_errors_with_different_reasons_keep_their_rows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = write_pack(tmp_path / "p", [legal_case("right"),
                                       legal_case("wrong", expect={"player": 0,
                                                                   "actions": ["pass"]}),
                                       legal_case("again", expect={"player": 0,
                                                                   "actions": ["pass"]})])
    summary = tmp_path / "summary.md"
    assert main(["conform", "--engine", engine_command("good"), "--cases", str(pack),
                 "--summary-md", str(summary)]) == exit_status.FAILURES
    capsys.readouterr()
    failures = tables(summary.read_text())[2]
    assert [row[0] for row in failures[1:]] == ["wrong", "again"]  # failures stay apart


def test_a_stopped_run_has_a_summary_saying_why(tmp_path: Path) -> None:
    problem = ("baloot conform: --xfail x.txt:3: the glob 'SCORE.*' matches no case id of "
               "the pack baloot-core 0.6.0 | `x` <b>")
    summary = tmp_path / "summary.md"
    summary.write_text("## An earlier step\n")
    append_stopped_summary(summary, [problem], exit_status.USAGE, ["my engine", "--fast"])
    text = summary.read_text()
    assert text.startswith("## An earlier step\n\n### Baloot conformance")
    assert headings(text)[1] == "Baloot conformance: FAILED, not run (exit status 2)"
    (about,) = tables(text)
    assert about[1:] == [["command", "'my engine' --fast"],
                         ["exit status", "2: " + exit_status.describe_status(2)]]
    html = parser().render(text)
    assert "<b>" not in html and "<code>" not in html
    assert "wrote no JSON or JUnit report" in text
    assert problem in [plain(t) for t in parser().parse(text) if t.type == "inline"]
    assert stopped_summary_markdown([]).count("\n- ") == 0


def test_conform_stopped_by_a_bad_xfail_glob_writes_its_summary(tmp_path: Path) -> None:
    """`baloot conform --summary-md` itself, not only the action, says why nothing ran."""
    xfail = tmp_path / "xfail.txt"
    xfail.write_text("no.such.case.* listed for nothing\n")
    summary = tmp_path / "summary.md"
    status = main(["conform", "--engine", engine_command("good"),
                   "--xfail", str(xfail), "--summary-md", str(summary)])
    assert status == exit_status.USAGE
    text = summary.read_text()
    assert headings(text)[0] == "Baloot conformance: FAILED, not run (exit status 2)"
    assert "no.such.case" in text and "matches no case id" in text
