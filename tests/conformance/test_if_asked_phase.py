"""An `if_asked` step that names its phase (CASES.md) is taken only in that phase.

The pack's cases where the last pass-only bidding turns come just before the
raising carry it: an engine that does not ask pass-only turns (here the
reference behind the protocol, passing for such a player by itself) moves on to
the raising, where the same seat is asked to double or pass. Taking the bidding
turn's pass there would make that seat pass its raise, and the case would fail
an engine that did nothing wrong.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from baloot.conformance.harness.declared import CAPABILITIES
from baloot.conformance.harness.pack import case_files, default_pack_folder
from baloot.conformance.pack_tools.case_needs import _phases_written

from .conftest import write_pack

# federation: after a first sun, every answer is pass-only (A2 earlier_seat_priority)
HELLO = {"profile": "federation",
         "capabilities": sorted(set(CAPABILITIES) - {"pass_only_turns"})}


def _cases_with_a_phase() -> list[dict[str, Any]]:
    found = []
    for path in case_files(default_pack_folder()):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            steps = case.get("actions", [])
            if any(isinstance(s, dict) and "phase" in s for s in steps) and not case.get("then"):
                found.append(case)
    return found


def _without_phases(case: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(case)
    for script in (out, *out.get("alternatives", [])):
        for step in script.get("actions", []):
            if isinstance(step, dict):
                step.pop("phase", None)
    return out


def _run(run_conform: Any, monkeypatch: pytest.MonkeyPatch, pack: Path) -> dict[str, str]:
    monkeypatch.setenv("FAKE_HELLO", json.dumps(HELLO))
    monkeypatch.setenv("FAKE_SKIP_PASS_ONLY", "1")
    _, report, _ = run_conform("reference_with", pack)
    return {c["id"]: c["status"] for c in report["cases"]}


def test_the_pack_names_the_phase_where_it_matters() -> None:
    assert len(_cases_with_a_phase()) >= 2


def test_an_engine_that_skips_pass_only_turns_passes_those_cases(
    run_conform: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cases = _cases_with_a_phase()
    statuses = _run(run_conform, monkeypatch, write_pack(tmp_path / "with", cases))
    assert set(statuses.values()) <= {"passed", "skipped", "unsupported"}, statuses
    assert "passed" in statuses.values(), statuses
    # the same cases without the phase: the bidding turn's pass is taken as a raise
    bare = _run(run_conform, monkeypatch,
                write_pack(tmp_path / "without", [_without_phases(c) for c in cases]))
    assert "failed" in bare.values(), bare


def test_the_phase_is_written_only_before_a_turn_of_another_asked_phase() -> None:
    steps = ["0: hokum", {"if_asked": "1: pass"}, {"if_asked": "2: pass"}, "3: pass",
             {"if_asked": "1: pass"}, "1: double"]
    phases = ["bidding", "bidding", "bidding", "bidding", "bidding", "raising"]
    written = _phases_written(list(steps), list(phases))
    assert written[1:3] == steps[1:3]  # a bidding turn follows: nothing to name
    assert written[4] == {"if_asked": "1: pass", "phase": "bidding"}
    # a pass-only turn before the first card: no pass is a call there
    assert _phases_written([{"if_asked": "3: pass"}, "0: play 7S"],
                           ["bidding", "playing"])[0] == {"if_asked": "3: pass"}
    # a turn not taken (None) is no turn that follows
    assert _phases_written([{"if_asked": "3: pass"}, {"if_asked": "0: pass"}, "1: double"],
                           ["bidding", None, "raising"])[0]["phase"] == "bidding"
