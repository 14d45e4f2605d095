"""`baloot suite` prints its summary and a line for each failing step; what the steps
print goes to a log file, or to the terminal with -v."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from baloot.cli import suite


def run(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, list[list[str]]]:
    monkeypatch.setattr(suite, "steps", lambda profiles: [
        suite.Step("first", "the first step", ("conform", "lint")),
        suite.Step("second", "the second step", ("spec", "check")),
    ])
    ran: list[list[str]] = []

    def command(step: list[str]) -> int:
        ran.append(step)
        for i in range(50):
            print(f"{step[0]} says {i}")
        return 1 if step[0] == "spec" else 0

    parser = argparse.ArgumentParser(prog="baloot")
    suite.register(parser.add_subparsers(), command)
    args = parser.parse_args(["suite", *argv])
    return args.run(args), ran


def test_the_steps_output_goes_to_the_log(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "suite.log"
    status, ran = run(monkeypatch, "--log", str(log))
    assert status == 1 and len(ran) == 2
    out = capsys.readouterr().out
    assert "says" not in out.replace("spec says 49", "")  # only the failing step's last line
    failed = [line for line in out.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and "the second step" in failed[0] and "spec says 49" in failed[0]
    text = log.read_text(encoding="utf-8").splitlines()
    line = int(failed[0].rsplit("log line ", 1)[1].rstrip(")"))
    assert text[line - 1] == "spec says 0"
    assert "conform says 49" in text
    assert f"each step's output: {log}" in out
    assert "1 passed, 1 failed, 0 skipped" in out


def test_verbose_prints_the_steps_output(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run(monkeypatch, "-v")
    out = capsys.readouterr().out
    assert status == 1 and "conform says 49" in out and "each step's output" not in out
