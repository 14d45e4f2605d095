"""What an engine leaves behind: a process that answers for it after it exited is an
engine error naming the exit, not a verdict on the rule; processes it started in
sessions of their own do not outlive the run; an engine that answers the hello twice
is one handshake error, launched at most three times, every case still reported."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import RunConform, legal_case, write_pack

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="POSIX with /proc")


def gone(pid: int, seconds: float = 5.0) -> bool:
    """Whether process `pid` has ended (a zombie waiting to be reaped has) within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                if stat.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                    return True
        except (FileNotFoundError, ProcessLookupError):
            return True
        time.sleep(0.05)
    return False


def pids_in(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def illegal_ashkal(case_id: str) -> dict[str, Any]:
    return legal_case(case_id, kind="illegal", title="ashkal is not the first bidder's",
                      clauses=["BID.6"], capabilities=["ashkal"], expect={"action": "ashkal"})


def test_a_reply_from_a_grandchild_after_the_engine_exited_is_an_exit_error(
    run_conform: RunConform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pids = tmp_path / "grandchildren"
    monkeypatch.setenv("GRANDCHILD_PIDS", str(pids))
    pack = write_pack(tmp_path / "p", [legal_case("c1"), illegal_ashkal("c2"), legal_case("c3")])
    status, report, _text = run_conform("exits_leaving_a_replier", pack, "--timeout", "2")
    cases = {c["id"]: c for c in report["cases"]}
    assert status == 1
    assert cases["c2"]["status"] == "errored", cases["c2"]  # not "failed: ... was accepted"
    assert cases["c2"]["reason"] == "exited"
    message = cases["c2"]["message"]
    assert "engine exited" in message and "status 3" in message
    assert "a process it left behind" in message
    assert cases["c1"]["status"] == cases["c3"]["status"] == "passed"
    [grandchild] = pids_in(pids)
    assert gone(grandchild), f"the grandchild {grandchild} outlived the run"


def test_processes_started_in_sessions_of_their_own_do_not_outlive_the_run(
    run_conform: RunConform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    three_case_pack: Path,
) -> None:
    pids = tmp_path / "grandchildren"
    monkeypatch.setenv("GRANDCHILD_PIDS", str(pids))
    status, report, _text = run_conform("leaves_silent_grandchildren", three_case_pack)
    assert status == 0, report
    left = pids_in(pids)
    assert len(left) == 2  # one found by its environment, one by its parent while it ran
    assert [pid for pid in left if not gone(pid)] == []


def test_an_engine_that_answers_the_hello_twice_is_one_handshake_error(
    run_conform: RunConform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    launches = tmp_path / "launches"
    monkeypatch.setenv("LAUNCHES", str(launches))
    pack = write_pack(tmp_path / "p", [legal_case(f"c{i}") for i in range(12)])
    began = time.monotonic()
    status, report, text = run_conform("answers_hello_twice", pack, "--timeout", "1")
    assert status == 3  # the engine never completed a handshake
    assert len(report["cases"]) == 12  # every case accounted for
    assert {c["status"] for c in report["cases"]} == {"errored"}
    assert {c["reason"] for c in report["cases"]} == {"handshake"}
    assert "answered the hello twice" in report["cases"][0]["message"]
    assert len(launches.read_text().splitlines()) <= 3
    assert "wrong_seq" not in text
    assert time.monotonic() - began < 15


def test_the_engine_is_not_launched_again_after_the_same_handshake_failure() -> None:
    import sys

    from baloot.conformance.harness.engine_process import (
        HANDSHAKE,
        MAX_SAME_HANDSHAKE_FAILURES,
        EngineError,
        EngineProcess,
    )

    script = ("import sys, json\n"
              "r = json.loads(sys.stdin.readline())\n"
              "line = json.dumps({'seq': r['seq'], 'ok': True, 'protocol': 1, 'name': 'x',"
              " 'version': '1', 'profile': 'literal'})\n"
              "print(line, flush=True); print(line, flush=True)\n"
              "sys.stdin.readline()\n")
    engine = EngineProcess([sys.executable, "-c", script], timeout=5)
    details = []
    for _ in range(MAX_SAME_HANDSHAKE_FAILURES + 1):
        with pytest.raises(EngineError) as failed:
            engine.start()
            engine.request({"type": "state"})
        assert failed.value.reason == HANDSHAKE
        details.append(failed.value.detail)
        engine.kill()
    assert all("answered the hello twice" in d for d in details[:-1])
    assert details[-1].startswith("not launched again: at each of its last 3 launches")
    assert os.environ.get("BALOOT_ENGINE_RUN") is None  # the runner's own is not marked
