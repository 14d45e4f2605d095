"""Shared helpers of the conformance tests: tiny case packs and engine commands."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.harness.protocol_notation import ALL_CARDS

# The helpers beside the tests are importable (tests/ has no packages): independent_runs.
sys.path.insert(0, str(Path(__file__).parent))

FAKE_ENGINES = Path(__file__).parent / "fake_engines"


def assert_process_ends(pid: int, what: str, seconds: float = 5.0) -> None:
    """Fail unless process `pid` is gone within `seconds` (checked every 0.1 s)."""
    for _ in range(round(seconds * 10)):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    pytest.fail(f"{what} {pid} is still running")


def engine_command(name: str) -> str:
    """The --engine value that runs fake engine `name` with this Python."""
    return shlex.join([sys.executable, str(FAKE_ENGINES / f"{name}.py")])


def legal_case(case_id: str, **overrides: Any) -> dict[str, Any]:
    case: dict[str, Any] = {
        "id": case_id,
        "kind": "legal",
        "title": "the first bidder's options",
        "clauses": ["BID.2"],
        "setup": {"dealer": 3, "deck": list(ALL_CARDS)},
        "actions": [],
        "expect": {"player": 0, "actions": ["pass", "hokum", "sun"]},
    }
    case.update(overrides)
    return case


def write_pack(folder: Path, cases: list[dict[str, Any]], *, version: str = "9.8.7") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.json").write_text(
        json.dumps({"name": "test-pack", "version": version, "protocol": 1})
    )
    (folder / "cases.json").write_text(json.dumps({"cases": cases}, indent=2))
    return folder


RunConform = Callable[..., tuple[int, dict[str, Any], str]]


@pytest.fixture
def run_conform(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> RunConform:
    """Run `baloot conform` on a pack; returns (exit status, JSON report, console text)."""

    def run(engine: str, pack: Path, *extra: str) -> tuple[int, dict[str, Any], str]:
        report_path = tmp_path / "report.json"
        status = cli_main(
            [
                "conform",
                "--engine",
                engine_command(engine),
                "--cases",
                str(pack),
                "--json",
                str(report_path),
                *extra,
            ]
        )
        out = capsys.readouterr()
        report = json.loads(report_path.read_text()) if report_path.exists() else {}
        return status, report, out.out + out.err

    return run


@pytest.fixture
def make_case() -> Callable[..., dict[str, Any]]:
    return legal_case


@pytest.fixture
def make_pack() -> Callable[..., Path]:
    return write_pack


@pytest.fixture
def three_case_pack(tmp_path: Path) -> Path:
    return write_pack(tmp_path / "pack", [legal_case("c1"), legal_case("c2"), legal_case("c3")])


def conform_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, cases: int,
                 *extra: str, **case: Any) -> tuple[int, dict[str, Any], list[str]]:
    """`baloot conform` of `engine` on a pack of `cases` legal cases (`legal_case` with
    `case`'s fields): the exit status, the JSON report and the lines printed."""
    pack = write_pack(tmp_path / "pack", [legal_case(f"c{i}", **case) for i in range(cases)])
    report = tmp_path / "report.json"
    status = cli_main(["conform", "--engine", engine, "--cases", str(pack),
                       "--json", str(report), *extra])
    out = capsys.readouterr()
    return status, json.loads(report.read_text()), (out.out + out.err).splitlines()
