"""The runner against deliberately broken engines: every failure is reported
as errored with its reason, the engine is restarted for the next case, and
the run ends with a complete report."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import assert_process_ends

RunConform = Any


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["status"] for c in report["cases"]}


def test_good_engine_passes(run_conform: RunConform, three_case_pack: Path) -> None:
    status, report, text = run_conform("good", three_case_pack)
    assert status == 0
    assert statuses(report) == {"c1": "passed", "c2": "passed", "c3": "passed"}
    assert report["engine"]["starts"] == 1
    assert report["pack"] == {"name": "test-pack", "version": "9.8.7"}
    assert "test-pack 9.8.7" in text


@pytest.mark.parametrize(
    ("engine", "reasons", "words"),
    [
        ("crashes_mid_case", {"exited"}, "internal error, giving up"),
        ("hangs", {"timeout"}, "no reply within"),
        ("prints_garbage", {"invalid_json"}, "not JSON"),
        ("wrong_seq", {"wrong_seq"}, "expected seq"),
        ("floods", {"flood"}, "longer than"),
        ("slow", {"timeout"}, "no reply within"),
        ("unsolicited", {"unsolicited_output", "wrong_seq"}, ""),
    ],
)
def test_broken_engine_errors_one_case_and_restarts(
    run_conform: RunConform, three_case_pack: Path, engine: str, reasons: set[str], words: str
) -> None:
    began = time.monotonic()
    status, report, text = run_conform(engine, three_case_pack, "--timeout", "0.5")
    assert status == 1
    assert statuses(report) == {"c1": "passed", "c2": "errored", "c3": "passed"}
    errored = report["cases"][1]
    assert errored["reason"] in reasons
    assert words in errored["message"]
    assert errored["engine_restarted"] is True
    assert report["engine"]["starts"] == 2  # restarted once, for c3
    assert report["summary"]["errored"] == 1 and report["summary"]["passed"] == 2
    assert "--only c2" in errored["rerun"]
    assert "ERRORED c2" in text
    assert time.monotonic() - began < 10


def test_engine_exiting_at_handshake_errors_every_case(
    run_conform: RunConform, tmp_path: Path, make_case: Any, make_pack: Any
) -> None:
    pack = make_pack(tmp_path / "p", [make_case(f"c{i}") for i in range(6)])
    status, report, _text = run_conform("exits_at_handshake", pack, "--timeout", "0.5")
    assert status == 3  # the engine never completed a handshake
    assert set(statuses(report).values()) == {"errored"}
    assert all(c["reason"] == "handshake" for c in report["cases"])
    assert "no protocol for you" in report["cases"][0]["message"]  # stderr is shown
    assert report["engine"]["starts"] == 3  # then the runner stops trying
    assert "not run" in report["cases"][5]["message"]


def test_missing_engine_binary_is_an_error_not_a_traceback(
    run_conform: RunConform, three_case_pack: Path
) -> None:
    from baloot.cli.main import main

    status = main(
        ["conform", "--engine", "/nonexistent/engine --flag", "--cases", str(three_case_pack)]
    )
    assert status == 3


def test_schema_breaking_reply_needs_validate_protocol(
    run_conform: RunConform, three_case_pack: Path
) -> None:
    _, report, _ = run_conform("breaks_schema", three_case_pack)
    assert statuses(report)["c2"] == "failed"  # seat 9 is just a wrong answer
    _status, report, _ = run_conform("breaks_schema", three_case_pack, "--validate-protocol")
    assert statuses(report)["c2"] == "errored"
    assert report["cases"][1]["reason"] == "schema"
    assert "current_player" not in report["cases"][1]["message"]
    assert "player" in report["cases"][1]["message"]
    assert statuses(report)["c3"] == "passed"


@pytest.mark.parametrize(
    ("mode", "reason", "words"),
    [
        ("deep", "invalid_json", "nests deeper"),
        ("nan_seq", "invalid_json", "not JSON"),
        ("float_seq", "wrong_seq", ".0\n"),
        ("no_phase", "schema", "no 'phase'"),
        ("control", "engine_error", "bad"),
    ],
)
def test_hostile_replies_error_one_case_with_a_report(
    run_conform: RunConform, tmp_path: Path, make_case: Any, make_pack: Any,
    monkeypatch: pytest.MonkeyPatch, mode: str, reason: str, words: str,
) -> None:
    import json
    import xml.etree.ElementTree as ET

    monkeypatch.setenv("HOSTILE", mode)
    # a `repeat` step asks for the state (the phase) before anything else
    asks_state = {"actions": [{"repeat": "pass", "while_phase": "raising"}]}
    pack = make_pack(tmp_path / "p", [make_case(f"c{i}", **asks_state) for i in (1, 2, 3)])
    junit = tmp_path / "j.xml"
    status, report, _text = run_conform("hostile", pack, "--junit", str(junit))
    assert status == 1
    assert statuses(report) == {"c1": "passed", "c2": "errored", "c3": "passed"}
    assert report["cases"][1]["reason"] == reason
    assert words in report["cases"][1]["message"]
    json.dumps(report, allow_nan=False)  # the JSON report is JSON
    assert ET.parse(junit).getroot().get("errors") == "1"  # and the JUnit file parses


def test_a_slow_start_has_its_own_timeout(
    run_conform: RunConform, three_case_pack: Path
) -> None:
    status, report, _ = run_conform("slow_start", three_case_pack, "--timeout", "0.3")
    assert status == 0 and report["summary"]["passed"] == 3  # the hello waits 30 s
    status, report, _text = run_conform(
        "slow_start", three_case_pack, "--timeout", "0.3", "--start-timeout", "0.3"
    )
    assert status == 3
    assert "no reply within 0.3 s" in report["cases"][0]["message"]


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_timeout_that_is_no_number_of_seconds_is_a_usage_error(
    run_conform: RunConform, three_case_pack: Path, value: str
) -> None:
    for option in ("--timeout", "--start-timeout"):
        status, _, text = run_conform("good", three_case_pack, option, value)
        assert status == 2 and "must be a positive number of seconds" in text


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_ctrl_c_writes_the_report_of_the_cases_that_ran(
    tmp_path: Path, make_case: Any, make_pack: Any, monkeypatch: pytest.MonkeyPatch,
    signal_name: str,
) -> None:
    import json
    import shlex
    import signal
    import subprocess
    import sys
    import xml.etree.ElementTree as ET

    hangs = shlex.join([sys.executable, str(Path(__file__).parent / "fake_engines" / "hangs.py")])
    pack = make_pack(tmp_path / "p", [make_case(f"c{i}") for i in (1, 2, 3)])
    report, marker = tmp_path / "r.json", tmp_path / "second-case-started"
    monkeypatch.setenv("HANGS_MARKER", str(marker))
    junit = tmp_path / "r.xml"
    run = subprocess.Popen(
        [sys.executable, "-m", "baloot.cli.main", "conform", "--engine",
         hangs, "--cases", str(pack), "--timeout", "120", "--json", str(report),
         "--junit", str(junit)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while run.poll() is None and time.monotonic() < deadline and not (
        marker.exists() and marker.read_text()
    ):
        time.sleep(0.1)  # c1 has passed and c2 is waiting on the engine
    run.send_signal(getattr(signal, signal_name))
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(report.read_text())
    assert data["interrupted"] is True and data["ok"] is False
    assert [c["id"] for c in data["cases"]] == ["c1"]  # c2 hung; c3 never ran
    assert data["stopped"]["reason"] == "signal" and data["stopped"]["ran"] == 1
    assert "INTERRUPTED" in out
    suite = ET.parse(junit).getroot()  # the JUnit report parses and holds the case that ran
    assert [case.get("name") for case in suite.iter("testcase")] == ["c1"]
    # the hanging engine and the child it started were stopped with the run
    for pid in map(int, marker.read_text().split()):
        assert_process_ends(pid, "process of the engine")


def test_a_process_left_behind_does_not_feed_the_next_engine(
    run_conform: RunConform, tmp_path: Path, make_case: Any, make_pack: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CHILD_MARKER", str(tmp_path / "child-left"))
    pack = make_pack(tmp_path / "p", [make_case(f"c{i}") for i in range(1, 9)])
    status, report, _ = run_conform("leaves_a_child", pack, "--timeout", "0.5")
    assert status == 1
    assert statuses(report)["c2"] == "errored"
    # the later cases run on a fresh engine while the child still prints: none is hurt
    assert [s for i, s in statuses(report).items() if i != "c2"] == ["passed"] * 7
