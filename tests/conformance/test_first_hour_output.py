"""An engine author's first hour: a broken start is told once with its likely cause,
-q, -x and --maxfail, the compact form off a terminal, and the engine's stderr around a
crash (its first and last lines and the line naming the exception) in the console and the
JSON report."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from baloot.conformance.harness.engine_process import StderrLines
from baloot.conformance.protocol.schemas import schema_errors

from .conftest import FAKE_ENGINES, conform_pack, engine_command

PRINTS_FIRST = f"""import runpy, sys
sys.path.insert(0, {str(FAKE_ENGINES)!r})
print("engine starting up", flush=True)
runpy.run_path({str(FAKE_ENGINES / "good.py")!r}, run_name="__main__")
"""

CRASHES = """import sys
for i in range(100):
    print(f"log line {i}", file=sys.stderr)
sys.stdin.readline()
def engine_own_frame():
    raise ValueError("the engine's own mistake")
engine_own_frame()
"""

WRONG = {"player": 0, "actions": ["pass"]}


def script(tmp_path: Path, text: str) -> str:
    path = tmp_path / "engine.py"
    path.write_text(text)
    return shlex.join([sys.executable, str(path)])


def test_a_line_before_the_hello_is_told_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, lines = conform_pack(tmp_path, capsys, script(tmp_path, PRINTS_FIRST), 30)
    assert status == 3
    assert [c["status"] for c in report["cases"]] == ["errored"] * 30  # every case reported
    text = "\n".join(lines)
    assert len(lines) < 20, text
    assert text.count("THE ENGINE DID NOT START") == 1
    assert "log to stderr" in text and "'engine starting up'" in text
    assert "30 case(s) errored so" in text and "fresh one" not in text


def test_a_bad_path_says_check_the_engine_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, lines = conform_pack(tmp_path, capsys, str(tmp_path / "no-such-engine"), 5)
    assert status == 3 and len(report["cases"]) == 5
    text = "\n".join(lines)
    assert len(lines) < 15, text
    assert "no such file: check the --engine path" in text


def test_a_bad_script_path_says_check_the_script_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = shlex.join([sys.executable, str(tmp_path / "my_adaptr.py")])
    status, report, lines = conform_pack(tmp_path, capsys, typo, 5)
    text = " ".join(" ".join(lines).split())
    assert status == 3 and len(report["cases"]) == 5
    assert "not found: check the script's path in --engine" in text, text
    assert "my_adaptr.py" in report["cases"][0]["stderr"]


def test_a_silent_engine_is_started_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    silent = script(tmp_path, "import time\ntime.sleep(60)\n")
    status, report, lines = conform_pack(tmp_path, capsys, silent, 6, "--start-timeout", "1")
    text = " ".join(" ".join(lines).split())
    assert status == 3 and [c["status"] for c in report["cases"]] == ["errored"] * 6
    assert "no reply within 1 s" in text and "engine started 1 time(s)" in text, text


SILENT_ON_ITS_SECOND_LAUNCH = f"""import json, pathlib, runpy, sys, time
launches = pathlib.Path(sys.argv[1])
launch = int(launches.read_text() or 0) if launches.exists() else 0
launches.write_text(str(launch + 1))
if launch == 0:  # answers the hello, then dies at the first case
    sys.stdin.readline()
    print(json.dumps({{"seq": 1, "ok": True, "protocol": 1, "name": "flaky", "version": "1",
                      "profile": "literal"}}), flush=True)
    sys.stdin.readline()
    sys.exit(1)
if launch == 1:  # silent once
    time.sleep(60)
sys.argv = sys.argv[:1]
sys.path.insert(0, {str(FAKE_ENGINES)!r})
runpy.run_path({str(FAKE_ENGINES / "good.py")!r}, run_name="__main__")
"""


def test_a_silent_start_after_a_good_one_counts_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = script(tmp_path, SILENT_ON_ITS_SECOND_LAUNCH) + " " + shlex.quote(
        str(tmp_path / "launches"))
    status, report, lines = conform_pack(tmp_path, capsys, engine, 3, "--start-timeout", "1")
    assert [c["status"] for c in report["cases"]] == ["errored", "errored", "passed"], lines
    assert "timeout" in report["cases"][1]["message"] and report["engine"]["starts"] == 3
    assert status == 1


def test_an_exit_before_the_hello_gives_status_and_stderr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, lines = conform_pack(tmp_path, capsys, engine_command("exits_at_handshake"), 4)
    text = "\n".join(lines)
    assert status == 3 and "exited with status 1" in text
    assert "no protocol for you" in report["cases"][0]["stderr"]
    assert text.count("no protocol for you") <= 3, text


def test_a_crash_keeps_the_first_lines_the_exception_and_the_engines_frame(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, lines = conform_pack(tmp_path, capsys, script(tmp_path, CRASHES), 1, "-v")
    assert status == 3  # it crashed at the hello
    stderr = report["cases"][0]["stderr"]
    for wanted in ("log line 0", "log line 19", "Traceback", "engine_own_frame",
                   "ValueError: the engine's own mistake", "line(s) left out"):
        assert wanted in stderr, (wanted, stderr)
    assert "log line 50" not in stderr
    text = "\n".join(lines)
    assert "ValueError: the engine's own mistake" in report["cases"][0]["message"]
    assert "engine_own_frame" in text and "log line 0" in text


def test_only_a_case_with_a_next_one_says_the_next_case_starts_a_fresh_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dies_at_start = script(tmp_path, """import json, sys
seq = json.loads(sys.stdin.readline())["seq"]
print(json.dumps({"seq": seq, "ok": True, "protocol": 1, "name": "dies", "version": "1",
                  "profile": "literal"}), flush=True)
sys.stdin.readline()
sys.exit(1)
""")
    _, report, lines = conform_pack(tmp_path, capsys, dies_at_start, 2, "-v")
    assert [c["status"] for c in report["cases"]] == ["errored", "errored"], lines
    assert sum("the next case starts a fresh one" in line for line in lines) == 1, lines


def test_the_stderr_kept_marks_its_gap_and_keeps_a_named_line_in_it() -> None:
    kept = StderrLines()
    for i in range(200):
        kept.append(f"panic: at {i}" if i == 70 else f"line {i}")
    excerpt = kept.excerpt().splitlines()
    assert excerpt[:20] == [f"line {i}" for i in range(20)]
    assert excerpt[20:23] == ["[... 50 line(s) left out ...]", "panic: at 70",
                              "[... 89 line(s) left out ...]"]
    assert excerpt[23:] == [f"line {i}" for i in range(160, 200)]
    assert kept.exception_line() == "panic: at 70"


def test_maxfail_stops_and_the_report_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, lines = conform_pack(tmp_path, capsys, engine_command("good"), 6,
                                         "--maxfail", "2", expect=WRONG)
    assert status == 1
    assert len(report["cases"]) == 2 and report["interrupted"] is True
    assert any("stopped after 2 failed or errored case(s) (--maxfail 2)" in line
               for line in lines)
    status, report, _ = conform_pack(tmp_path, capsys, engine_command("good"), 6, "-x",
                                     expect=WRONG)
    assert status == 1 and len(report["cases"]) == 1


def test_a_maxfail_stop_has_its_own_reason_in_every_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit, summary = tmp_path / "report.xml", tmp_path / "summary.md"
    status, report, lines = conform_pack(tmp_path, capsys, engine_command("good"), 6,
                                         "--maxfail", "2", "--junit", str(junit),
                                         "--summary-md", str(summary), expect=WRONG)
    assert status == 1 and report["interrupted"] is True
    assert report["stopped"] == {
        "reason": "maxfail", "ran": 2, "cases": 6, "maxfail": 2, "failures": 2,
        "message": "stopped after 2 failed or errored case(s) (--maxfail 2), 2 of 6 run"}
    assert not schema_errors("report", report)
    assert lines[-1].startswith("FAILED: "), lines[-1]  # not INTERRUPTED: exit 1, not 130
    xml = junit.read_text()
    assert '<property name="stopped" value="maxfail" />' in xml
    assert "(--maxfail 2)" in xml
    assert "| stopped | stopped after 2 failed or errored case(s)" in summary.read_text()
    status, report, _ = conform_pack(tmp_path, capsys, engine_command("good"), 3)
    assert status == 0 and report["stopped"] is None and report["interrupted"] is False


def test_off_a_terminal_a_failure_takes_two_lines_and_quiet_only_ids(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, _, lines = conform_pack(tmp_path, capsys, engine_command("good"), 3, expect=WRONG)
    failing = [i for i, line in enumerate(lines) if line.startswith("FAILED c")]
    assert len(failing) == 3
    assert all(lines[i + 1].startswith("  rerun: ") for i in failing)
    assert not any(line.startswith("rules") for line in lines)
    status, _, lines = conform_pack(tmp_path, capsys, engine_command("good"), 3, "-q",
                                    expect=WRONG)
    assert status == 1
    assert lines[:3] == ["FAILED c0", "FAILED c1", "FAILED c2"]
    assert len(lines) == 4 and lines[3].startswith("FAILED: 3 cases")
