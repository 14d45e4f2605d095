"""The runner sends a case's seated steps in a row as one `batch` to an engine whose hello
says it takes batches (PROTOCOL.md, `batch`), and judges each step's replies as it would
one by one: the same verdicts, the same words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baloot.conformance.harness.pack import default_pack_folder

from .conftest import write_pack


def _pack_cases(kinds: tuple[str, ...] = ("trick", "round", "legal", "illegal"),
                each: int = 6) -> list[dict[str, Any]]:
    """The first cases of each kind in the pack's top-level files: whole rounds, tricks,
    bids and refusals after seated steps in a row."""
    found: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
    for path in sorted(default_pack_folder().glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")).get("cases", []):
            if case["kind"] in found and len(found[case["kind"]]) < each:
                found[case["kind"]].append(case)
    return [case for kind in kinds for case in found[kind]]


def _outcomes(run_conform: Any, monkeypatch: pytest.MonkeyPatch, pack: Path,
              hello: dict[str, Any], **env: str) -> dict[str, tuple[str, str]]:
    monkeypatch.setenv("FAKE_HELLO", json.dumps(hello))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    _, report, _ = run_conform("reference_with", pack)
    return {c["id"]: (c["status"], c.get("message", "").split("\n", 1)[0])
            for c in report["cases"]}


def test_batched_and_one_by_one_give_the_same_verdicts(
        run_conform: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "pack", _pack_cases())
    batched = _outcomes(run_conform, monkeypatch, pack, {"batch": True})
    alone = _outcomes(run_conform, monkeypatch, pack, {"batch": False})
    assert batched == alone
    assert {status for status, _ in batched.values()} == {"passed"}, batched


def test_a_wrong_seat_inside_a_batch_fails_as_it_does_one_by_one(
        run_conform: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # the engine names the partner of the player to act in the play: the first card of a
    # script is "seat S's, but the engine asks seat S+2", batched or not
    pack = write_pack(tmp_path / "pack", _pack_cases(("trick", "round")))
    batched = _outcomes(run_conform, monkeypatch, pack, {"batch": True},
                        FAKE_WRONG_ACTOR="playing")
    alone = _outcomes(run_conform, monkeypatch, pack, {"batch": False},
                      FAKE_WRONG_ACTOR="playing")
    assert batched == alone
    assert all(status == "failed" and "but the engine asks seat" in message
               for status, message in batched.values()), batched
